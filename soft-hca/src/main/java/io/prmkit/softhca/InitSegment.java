package io.prmkit.softhca;

import io.prmkit.mlx5.HealthBuffer;
import io.prmkit.mlx5.InitSeg;
import io.prmkit.softhca.device.DeviceFields;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;

/**
 * The initialization segment (PRM "Initialization Segment", BAR 0 offset 0): the bytes the driver
 * reads, kept by the device in a big-endian copy of {@code init_seg}. Reads of the clocks compute
 * them on the spot; the heartbeat advances on device ticks. Guarded by its own monitor: the driver
 * reads on its threads while the device writes on its own.
 */
final class InitSegment {
    private static final ValueLayout.OfInt BE_INT = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN);

    /** Ext syndromes of the soft device's own health events (health_buffer.ext_synd), all ours. */
    static final int EXT_SYND_CMDQ_MISALIGNED = 0x5c01;
    static final int EXT_SYND_CMDQ_UNMAPPED = 0x5c02;
    static final int EXT_SYND_DOORBELL_NO_CMDQ = 0x5c03;
    static final int EXT_SYND_DEVICE_EXCEPTION = 0x5c04;
    static final int EXT_SYND_INJECTED = 0x5c05;

    private final MemorySegment seg = MemorySegment.ofArray(new byte[(int) InitSeg.SIZE]);
    private final long startNanos = System.nanoTime();
    private final int frequencyMhz;
    private int initializingReadsLeft;

    InitSegment(int fwMajor, int fwMinor, int fwSub, int logCmdqSize, int logCmdqStride, int initializingReads, int frequencyMhz) {
        this.frequencyMhz = Math.max(1, frequencyMhz);
        DeviceFields.set(InitSeg.layout(), seg, 0, "fw_rev_major", fwMajor);
        DeviceFields.set(InitSeg.layout(), seg, 0, "fw_rev_minor", fwMinor);
        DeviceFields.set(InitSeg.layout(), seg, 0, "fw_rev_subminor", fwSub);
        DeviceFields.set(InitSeg.layout(), seg, 0, "cmd_interface_rev", 5);
        DeviceFields.set(InitSeg.layout(), seg, 0, "log_cmdq_size", logCmdqSize);
        DeviceFields.set(InitSeg.layout(), seg, 0, "log_cmdq_stride", logCmdqStride);
        DeviceFields.set(InitSeg.layout(), seg, 0, "nic_interface_supported", 0x1);
        DeviceFields.set(HealthBuffer.layout(), seg, InitSeg.health$BYTE_OFFSET, "hw_id", 0x1013); // ConnectX-4 PCI device id
        initializingReadsLeft = initializingReads;
        DeviceFields.set(InitSeg.layout(), seg, 0, "initializing", initializingReads > 0 ? 1 : 0);
    }

    synchronized int read32(long offset) {
        if (offset == InitSeg.internal_timer_h$BIT_OFFSET / 8 || offset == InitSeg.internal_timer_l$BIT_OFFSET / 8) {
            long ticks = (System.nanoTime() - startNanos) * frequencyMhz / 1000;
            InitSeg.layout().set(seg, 0, DeviceFields.field(InitSeg.layout(), "internal_timer_h"), ticks >>> 32);
            InitSeg.layout().set(seg, 0, DeviceFields.field(InitSeg.layout(), "internal_timer_l"), ticks & 0xffff_ffffL);
        } else if (offset == InitSeg.real_time_h$BIT_OFFSET / 8 || offset == InitSeg.real_time_l$BIT_OFFSET / 8) {
            long now = System.currentTimeMillis();
            DeviceFields.set(InitSeg.layout(), seg, 0, "real_time_h", now / 1000);
            DeviceFields.set(InitSeg.layout(), seg, 0, "real_time_l", now % 1000 * 1_000_000);
        }
        int v = seg.get(BE_INT, offset);
        if (offset == InitSeg.initializing$BIT_OFFSET / 8 && initializingReadsLeft > 0 && --initializingReadsLeft == 0) {
            // Firmware start is modelled as a fixed number of polls: bounded and deterministic.
            DeviceFields.set(InitSeg.layout(), seg, 0, "initializing", 0);
        }
        return v;
    }

    synchronized void set(String field, long value) {
        DeviceFields.set(InitSeg.layout(), seg, 0, field, value);
    }

    synchronized long get(String field) {
        return DeviceFields.get(InitSeg.layout(), seg, 0, field);
    }

    synchronized void health(String field, long value) {
        DeviceFields.set(HealthBuffer.layout(), seg, InitSeg.health$BYTE_OFFSET, field, value);
    }

    synchronized long health(String field) {
        return DeviceFields.get(HealthBuffer.layout(), seg, InitSeg.health$BYTE_OFFSET, field);
    }

    /** One heartbeat: the counter the driver's health poll expects to move. */
    synchronized void heartbeat() {
        long c = DeviceFields.get(InitSeg.layout(), seg, 0, "health_counter");
        DeviceFields.set(InitSeg.layout(), seg, 0, "health_counter", (c + 1) & 0xff_ffff);
    }

    /** Raises a health syndrome (health buffer and the mirror next to the counter). */
    synchronized void raiseHealth(int syndrome, int extSyndrome) {
        health("synd", syndrome);
        health("ext_synd", extSyndrome);
        health("valid", 1);
        health("severity", 2); // critical, as a kernel log level
        DeviceFields.set(InitSeg.layout(), seg, 0, "health_syndrome", syndrome);
    }
}

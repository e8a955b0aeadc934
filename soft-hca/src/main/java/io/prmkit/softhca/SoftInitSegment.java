package io.prmkit.softhca;

import static io.prmkit.layout.PrmLayout.BE_INT;

import io.prmkit.mlx5.HealthBuffer;
import io.prmkit.mlx5.InitSeg;
import io.prmkit.softhca.device.DeviceFields;
import java.lang.foreign.MemorySegment;

/**
 * The initialization segment (PRM "Initialization Segment", BAR 0 offset 0): the bytes the driver
 * reads, kept by the device in a big-endian copy of {@code init_seg}. Reads of the clocks compute
 * them on the spot; the heartbeat advances on device ticks. Guarded by its own monitor: the driver
 * reads on its threads while the device writes on its own.
 */
final class SoftInitSegment {

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

    SoftInitSegment(int fwMajor, int fwMinor, int fwSub, int logCmdqSize, int logCmdqStride, int initializingReads, int frequencyMhz) {
        this.frequencyMhz = Math.max(1, frequencyMhz);
        InitSeg.Device.fw_rev_major$set(seg, fwMajor);
        InitSeg.Device.fw_rev_minor$set(seg, fwMinor);
        InitSeg.Device.fw_rev_subminor$set(seg, fwSub);
        InitSeg.Device.cmd_interface_rev$set(seg, 5);
        InitSeg.Device.log_cmdq_size$set(seg, logCmdqSize);
        InitSeg.Device.log_cmdq_stride$set(seg, logCmdqStride);
        InitSeg.Device.nic_interface_supported$set(seg, 0x1);
        HealthBuffer.Device.hw_id$set(seg, InitSeg.health$BYTE_OFFSET, 0x1013); // ConnectX-4 PCI device id
        initializingReadsLeft = initializingReads;
        InitSeg.Device.initializing$set(seg, initializingReads > 0);
    }

    synchronized int read32(long offset) {
        if (offset == InitSeg.internal_timer_h$BIT_OFFSET / 8 || offset == InitSeg.internal_timer_l$BIT_OFFSET / 8) {
            long ticks = (System.nanoTime() - startNanos) * frequencyMhz / 1000;
            InitSeg.Device.internal_timer$set(seg, ticks);
        } else if (offset == InitSeg.real_time_h$BIT_OFFSET / 8 || offset == InitSeg.real_time_l$BIT_OFFSET / 8) {
            long now = System.currentTimeMillis();
            InitSeg.Device.real_time_h$set(seg, (int) (now / 1000));
            InitSeg.Device.real_time_l$set(seg, (int) (now % 1000 * 1_000_000));
        }
        int v = seg.get(BE_INT, offset);
        if (offset == InitSeg.initializing$BIT_OFFSET / 8 && initializingReadsLeft > 0 && --initializingReadsLeft == 0) {
            // Firmware start is modelled as a fixed number of polls: bounded and deterministic.
            InitSeg.Device.initializing$set(seg, false);
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
        InitSeg.Device.health_counter$setUnchecked(seg, InitSeg.health_counter(seg) + 1);
    }

    /** Raises a health syndrome (health buffer and the mirror next to the counter). */
    synchronized void raiseHealth(int syndrome, int extSyndrome) {
        long hb = InitSeg.health$BYTE_OFFSET;
        HealthBuffer.Device.synd$setUnchecked(seg, hb, syndrome);
        HealthBuffer.Device.ext_synd$setUnchecked(seg, hb, extSyndrome);
        HealthBuffer.Device.valid$set(seg, hb, true);
        HealthBuffer.Device.severity$set(seg, hb, 2); // critical, as a kernel log level
        InitSeg.Device.health_syndrome$setUnchecked(seg, syndrome);
    }
}

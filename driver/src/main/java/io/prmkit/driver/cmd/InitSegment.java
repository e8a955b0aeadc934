package io.prmkit.driver.cmd;

import io.prmkit.mlx5.HealthBuffer;
import io.prmkit.mlx5.InitSeg;
import io.prmkit.platform.Mmio;
import java.lang.foreign.MemorySegment;

/**
 * PRM "Initialization Segment": the registers at BAR 0 offset 0. Every register access reads or
 * writes one dword of the BAR into a shadow copy of {@code init_seg}, and the generated accessors
 * decode or encode the fields there, so no offset, shift or mask is written by hand. The BAR's
 * big-endian dword value is stored big-endian in the shadow, which is how the accessors read it.
 */
public final class InitSegment {

    private static final java.lang.foreign.ValueLayout.OfInt BE_INT = io.prmkit.layout.PrmLayout.BE_INT;

    private final Mmio bar;
    // Only one thread writes each dword of it at a time: doorbell writes hold the shadow's lock.
    private final MemorySegment shadow = MemorySegment.ofArray(new byte[(int) InitSeg.SIZE]);

    public InitSegment(Mmio bar) {
        if (bar.size() < InitSeg.SIZE)
            throw new IllegalArgumentException("BAR 0 has " + bar.size() + " bytes, less than the " + InitSeg.SIZE + "-byte initialization segment");
        this.bar = bar;
    }

    /** Byte offset of the dword holding a field that starts at {@code bitOffset}. */
    private static long dword(long bitOffset) {
        return (bitOffset >>> 5) << 2;
    }

    private MemorySegment load(long bitOffset) {
        long at = dword(bitOffset);
        shadow.set(BE_INT, at, bar.read32(at));
        return shadow;
    }

    private void store(long bitOffset) {
        long at = dword(bitOffset);
        bar.write32(at, shadow.get(BE_INT, at));
    }

    public synchronized int fwRevMajor() {
        return InitSeg.fw_rev_major(load(InitSeg.fw_rev_major$BIT_OFFSET));
    }

    public synchronized int fwRevMinor() {
        return InitSeg.fw_rev_minor(load(InitSeg.fw_rev_minor$BIT_OFFSET));
    }

    public synchronized int fwRevSubminor() {
        return InitSeg.fw_rev_subminor(load(InitSeg.fw_rev_subminor$BIT_OFFSET));
    }

    public synchronized int cmdInterfaceRev() {
        return InitSeg.cmd_interface_rev(load(InitSeg.cmd_interface_rev$BIT_OFFSET));
    }

    public synchronized int logCmdqSize() {
        return InitSeg.log_cmdq_size(load(InitSeg.log_cmdq_size$BIT_OFFSET));
    }

    public synchronized int logCmdqStride() {
        return InitSeg.log_cmdq_stride(load(InitSeg.log_cmdq_stride$BIT_OFFSET));
    }

    public synchronized int nicInterface() {
        return InitSeg.nic_interface(load(InitSeg.nic_interface$BIT_OFFSET));
    }

    public synchronized boolean initializing() {
        return InitSeg.initializing(load(InitSeg.initializing$BIT_OFFSET));
    }

    /**
     * Programs the command queue address: the high half first, then the low half, whose write
     * also sets nic_interface to FULL_DRIVER (0) and makes the firmware read the queue.
     */
    public synchronized void setCmdqAddress(long busAddress) {
        // A fresh low dword: the read-only log sizes in it are written as 0, like Linux's iowrite32be of the address.
        shadow.set(BE_INT, dword(InitSeg.cmdq_phy_addr_low$BIT_OFFSET), 0);
        InitSeg.cmdq_phy_addr$set(shadow, busAddress); // both halves; the queue is 4 KiB aligned (the setter refuses other addresses)
        InitSeg.nic_interface$set(shadow, io.prmkit.mlx5.NicInterfaceMode.FULL_DRIVER);
        store(InitSeg.cmdq_phy_addr_high$BIT_OFFSET);
        store(InitSeg.cmdq_phy_addr_low$BIT_OFFSET);
    }

    /** Rings the command doorbell for the slots set in {@code mask}. */
    public synchronized void ringCommandDoorbell(int mask) {
        InitSeg.command_doorbell_vector$set(shadow, mask);
        store(InitSeg.command_doorbell_vector$BIT_OFFSET);
    }

    /** The health counter dword (counter and syndrome), as one snapshot. */
    public synchronized HealthSample health() {
        MemorySegment s = load(InitSeg.health_counter$BIT_OFFSET);
        int counter = InitSeg.health_counter(s);
        int syndrome = InitSeg.health_syndrome(s);
        // The health buffer proper, for the decoded report.
        long base = InitSeg.health$BYTE_OFFSET;
        for (long b = 0; b < HealthBuffer.SIZE; b += 4) load((base + b) * 8);
        MemorySegment hb = InitSeg.health(shadow);
        return new HealthSample(counter, syndrome, HealthBuffer.synd(hb), HealthBuffer.ext_synd(hb),
                HealthBuffer.fw_version(hb), HealthBuffer.rfr(hb), InitSeg.nic_interface(load(InitSeg.nic_interface$BIT_OFFSET)));
    }

    /** One reading of the health registers. */
    public record HealthSample(int counter, int counterSyndrome, int bufferSyndrome, int extSyndrome,
                               int fwVersion, boolean resetRequested, int nicInterface) {
        /** The syndrome that matters: the health buffer's, else the one mirrored next to the counter. */
        public int syndrome() {
            return bufferSyndrome != 0 ? bufferSyndrome : counterSyndrome;
        }
    }
}

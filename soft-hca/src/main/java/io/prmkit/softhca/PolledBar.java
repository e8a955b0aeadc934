package io.prmkit.softhca;

import io.prmkit.mlx5.InitSeg;
import io.prmkit.mlx5.UarPage;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Set;

/**
 * BAR 0 as plain shared memory that the host maps and stores to directly (the VFIO stand-in's
 * mmap of the device fd), observed by the device the way hardware observes bus writes: by looking.
 * Each {@link #poll()} (device thread)
 * <ul>
 *   <li>takes the host-written registers of the initialization segment (cmdq_phy_addr_high,
 *       cmdq_phy_addr_low, command_doorbell_vector) when their memory changed, and the command
 *       doorbell by swapping it with 0;</li>
 *   <li>takes the doorbells of every allocated UAR page (CQ arm, EQ arm and no-arm, the first word of
 *       each BlueFlame half) by swapping each with a value no driver writes (all ones);</li>
 *   <li>and replays each as the store it was into {@link Bar0}, the same path a trapped store takes.</li>
 * </ul>
 * Every few milliseconds it also copies the device's side of the initialization segment (firmware
 * revision, initializing, health counter and buffer, clocks) into the memory, where the host reads it.
 *
 * <p>What memory cannot show, and this mode therefore loses: two stores to one doorbell between
 * two polls appear as the second only (hardware would see both). For the SQ, CQ and EQ doorbells that
 * is harmless (the later value carries the earlier); for the command doorbell a driver that rings two
 * slots within one poll (a few microseconds) loses the first slot's doorbell.
 */
final class PolledBar {
    private static final VarHandle BE32 = ValueLayout.JAVA_INT.withOrder(ByteOrder.BIG_ENDIAN).varHandle();
    private static final VarHandle BE64 = ValueLayout.JAVA_LONG.withOrder(ByteOrder.BIG_ENDIAN).varHandle();
    private static final long ADDR_HIGH = InitSeg.cmdq_phy_addr_high$BIT_OFFSET / 8;
    private static final long ADDR_LOW = InitSeg.cmdq_phy_addr_low$BIT_OFFSET / 8;
    private static final long DOORBELL = InitSeg.command_doorbell_vector$BIT_OFFSET / 8;
    private static final long CQ_DB = UarPage.cq_doorbell$BYTE_OFFSET;
    private static final long EQ_ARM = UarPage.eq_doorbell_arm$BYTE_OFFSET;
    private static final long EQ_NO_ARM = UarPage.eq_doorbell_no_arm$BYTE_OFFSET;
    private static final long BF = UarPage.bf_registers$BYTE_OFFSET;
    /** BlueFlame halves per UAR page (4 registers of two halves, 256 bytes each). */
    private static final int BF_HALVES = 8;
    private static final long BF_HALF = 256;
    private static final long MIRROR_NANOS = 2_000_000;
    static final long CONSUMED = -1L;

    private final MemorySegment bar;
    private final Bar0 trap;
    private final SoftInitSegment initSeg;
    private final Set<Integer> uars;
    private int lastHigh;
    private int lastLow;
    private long lastMirror;

    PolledBar(MemorySegment bar, Bar0 trap, SoftInitSegment initSeg, Set<Integer> uars) {
        if (bar.byteSize() < trap.size()) {
            throw new IllegalArgumentException("BAR memory of " + bar.byteSize() + " bytes is smaller than BAR 0 (" + trap.size() + " bytes)");
        }
        this.bar = bar;
        this.trap = trap;
        this.initSeg = initSeg;
        this.uars = uars;
        bar.asSlice(InitSeg.SIZE, trap.size() - InitSeg.SIZE).fill((byte) 0xff); // every doorbell "consumed"
        mirror(true);
        lastHigh = (int) BE32.getVolatile(bar, ADDR_HIGH);
        lastLow = (int) BE32.getVolatile(bar, ADDR_LOW);
    }

    /** Copies the device-owned dwords of the init segment into memory (with the host-written ones too when {@code all}). */
    private void mirror(boolean all) {
        for (long off = 0; off + 4 <= InitSeg.SIZE; off += 4) {
            if (!all && (off == ADDR_HIGH || off == ADDR_LOW || off == DOORBELL)) continue;
            BE32.setRelease(bar, off, initSeg.read32(off));
        }
        if (all) BE32.setRelease(bar, DOORBELL, 0);
        lastMirror = System.nanoTime();
    }

    /** Looks at the host's registers once; true when a store was found. */
    boolean poll() {
        boolean did = false;
        int high = (int) BE32.getVolatile(bar, ADDR_HIGH);
        int low = (int) BE32.getVolatile(bar, ADDR_LOW);
        if (high != lastHigh) {
            lastHigh = high;
            trap.write32(ADDR_HIGH, high);
            lastLow = low;
            trap.write32(ADDR_LOW, low); // the low half completes the registration with the new high half
            did = true;
        } else if (low != lastLow) {
            lastLow = low;
            trap.write32(ADDR_LOW, low);
            did = true;
        }
        int db = (int) BE32.getAndSet(bar, DOORBELL, 0);
        if (db != 0) {
            trap.write32(DOORBELL, db);
            did = true;
        }
        for (int uar : uars) {
            long page = uar * Bar0.PAGE;
            if (page + Bar0.PAGE > trap.size()) continue;
            did |= take64(page + CQ_DB);
            did |= take32(page + EQ_ARM);
            did |= take32(page + EQ_NO_ARM);
            for (int h = 0; h < BF_HALVES; h++) did |= take64(page + BF + h * BF_HALF);
        }
        if (System.nanoTime() - lastMirror >= MIRROR_NANOS) mirror(false);
        return did;
    }

    private boolean take32(long off) {
        int v = (int) BE32.getVolatile(bar, off);
        if (v == (int) CONSUMED) return false;
        v = (int) BE32.getAndSet(bar, off, (int) CONSUMED);
        trap.write32(off, v);
        return true;
    }

    private boolean take64(long off) {
        long v = (long) BE64.getVolatile(bar, off);
        if (v == CONSUMED) return false;
        v = (long) BE64.getAndSet(bar, off, CONSUMED);
        trap.write64(off, v);
        return true;
    }
}

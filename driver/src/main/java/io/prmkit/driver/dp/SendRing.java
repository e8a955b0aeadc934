package io.prmkit.driver.dp;

import io.prmkit.driver.eth.SqResources;
import io.prmkit.mlx5.SqDoorbell;
import io.prmkit.mlx5.WqDoorbellRecord;
import io.prmkit.platform.Mmio;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;

/**
 * Software's side of one send queue's work queue (PRM "Send Queue", "Doorbells"): a ring of 64-byte
 * basic blocks (WQEBBs) counted, as the kernel does, by free-running producer and consumer counters
 * {@link #pc} and {@link #cc} (the slot is {@code & mask}; a WQE's {@code wqe_index} is the low 16
 * bits of {@code pc}).
 * <ol>
 *   <li><b>Room.</b> {@code size - (pc - cc)} WQEBBs are free; a WQE never wraps the ring's end:
 *       {@link #reserve} pads the rest of the ring with NOP WQEs first.</li>
 *   <li><b>Bookkeeping.</b> For the first WQEBB of each WQE one int, {@link #slotInfo}: the WQE's
 *       size in WQEBBs (low {@link #WQEBB_BITS} bits) and its poster's tag above them; 0 for its later
 *       WQEBBs. A completion's {@code wqe_counter} then says how far the ring is free again.</li>
 *   <li><b>Doorbell.</b> WQEs, then (fenced) the doorbell record's {@code send_counter}, then (fenced)
 *       the last WQE's first 8 bytes to the UAR's BlueFlame register, alternating its two halves.</li>
 * </ol>
 * Not thread-safe: the TX queue that owns it is its one user; its burst loops read the counters into
 * locals and write them back once.
 */
final class SendRing {
    /** {@link #slotInfo}: bits holding a WQE's size in WQEBBs (WQEs of up to 31). */
    static final int WQEBB_BITS = 5;
    static final int WQEBBS = (1 << WQEBB_BITS) - 1;
    private static final ValueLayout.OfLong BE_LONG = io.prmkit.layout.PrmLayout.BE_LONG;

    final MemorySegment wqes;
    final int size;
    final int mask;
    final int sqn;
    private final MemorySegment dbr;
    private final Mmio uar;
    private final long bfFirst;
    private final int bfHalf;
    private long bfOffset;
    /** Producer and consumer counters in WQEBBs. */
    int pc;
    int cc;
    /** Per WQEBB slot: {@code tag << WQEBB_BITS | wqebbs} at a WQE's first, 0 at its later ones. */
    final int[] slotInfo;

    private long nops;
    private long doorbells;

    SendRing(SqResources res) {
        this.wqes = res.ring().segment();
        this.size = 1 << res.logWqebbs();
        this.mask = size - 1;
        this.sqn = res.sqn();
        this.dbr = res.doorbellRecord();
        this.uar = res.uar();
        this.bfFirst = res.doorbellOffset();
        this.bfOffset = bfFirst;
        this.bfHalf = res.bfHalfSize();
        this.slotInfo = new int[size];
    }

    static int slotInfo(int tag, int wqebbs) {
        return tag << WQEBB_BITS | wqebbs;
    }

    /** WQEBBs posted and not yet completed. */
    int inFlight() {
        return pc - cc;
    }

    /**
     * Room for a WQE of {@code wqebbs} at the producer counter: pads the ring's end with NOPs if the
     * WQE would cross it, and returns the slot the WQE starts at; -1 (nothing written) if the ring has
     * no room for the padding and the WQE.
     */
    int reserve(int wqebbs) {
        int slot = pc & mask;
        int pad = slot + wqebbs > size ? size - slot : 0;
        if (size - (pc - cc) < wqebbs + pad) return -1;
        for (int i = 0; i < pad; i++) {
            SendWqe.nop(wqes, (long) (pc & mask) * SendWqe.WQEBB, pc, sqn);
            slotInfo[pc & mask] = slotInfo(0, 1);
            pc++;
            nops++;
        }
        return pc & mask;
    }

    /** The WQE of {@code wqebbs} written at {@code slot} (from {@link #reserve}) is posted, with its tag. */
    void posted(int slot, int tag, int wqebbs) {
        slotInfo[slot] = slotInfo(tag, wqebbs);
        for (int k = 1; k < wqebbs; k++) slotInfo[slot + k] = 0; // never past the end: reserve padded
        pc += wqebbs;
    }

    /**
     * PRM "Doorbells": the device must see every WQE before the doorbell record says they exist, and
     * the record before the UAR write that makes it look. {@code lastWqe} is the byte offset of the
     * last WQE posted.
     */
    void ringDoorbell(long lastWqe) {
        // WQE stores before the record: the device may read the record (and then the WQEs) at any time.
        VarHandle.storeStoreFence();
        WqDoorbellRecord.send_counter$setUnchecked(dbr, pc & SendWqe.INDEX_MASK);
        // Record store before the MMIO store, and nothing of the MMIO store moved up: the device
        // fetches WQEs up to the record's counter when the doorbell arrives (the kernel's wmb()).
        VarHandle.fullFence();
        // One 8-byte store of the last WQE's first 8 bytes (sq_doorbell) to the current BlueFlame half.
        uar.write64(bfOffset, wqes.get(BE_LONG, lastWqe));
        bfOffset ^= bfHalf;
        doorbells++;
        assert SqDoorbell.SIZE == 8;
    }

    /**
     * After the SQ went ERR to RST (the device reads nothing more of it, and the WQEs in flight were
     * accounted for): the ring restarts empty at counter 0, the doorbell record too.
     */
    void reset() {
        pc = 0;
        cc = 0;
        bfOffset = bfFirst;
        WqDoorbellRecord.send_counter$setUnchecked(dbr, 0);
        VarHandle.fullFence();
    }

    long nops() {
        return nops;
    }

    long doorbells() {
        return doorbells;
    }
}

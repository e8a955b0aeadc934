package io.prmkit.driver.eth;

import io.prmkit.mlx5.InlineMode;
import io.prmkit.mlx5.WqDoorbellRecord;
import io.prmkit.platform.DmaRegion;
import io.prmkit.platform.Mmio;
import java.lang.foreign.MemorySegment;
import java.util.Objects;

/**
 * A send queue created and moved to RDY by the control path (CREATE_SQ, MODIFY_SQ), handed to
 * {@code TxQueue}: everything the datapath touches and nothing it does not.
 *
 * @param ring the WQE ring ({@code 1 << logWqebbs} basic blocks of 64 bytes; {@code wq.log_wq_sz})
 * @param logWqebbs {@code wq.log_wq_sz} of the SQ
 * @param sqn the SQ number CREATE_SQ returned
 * @param doorbellRecord the 8-byte WQ doorbell record at {@code wq.dbr_addr} (the SQ uses its send counter)
 * @param uar BAR 0 (or the window holding the SQ's UAR page)
 * @param doorbellOffset offset in {@code uar} of the BlueFlame register the SQ rings
 *     (UAR page + {@code uar_bf_offset} + register index * register size)
 * @param bfHalfSize size of one half of that register (the two halves are used alternately, as the
 *     kernel does); 0 to always ring the same address
 * @param cq the SQ's completion queue ({@code sqc.cqn}); the packet buffers' memory key is their pool's
 *     ({@code PacketPool.lkey}), not part of the queue
 * @param minInlineMode the inline mode every WQE must honour ({@code sqc.min_wqe_inline_mode}, or
 *     what the vport context / {@code wqe_inline_mode} cap require)
 * @param control the control path's MODIFY_SQ, used for error recovery
 */
public record SqResources(
        DmaRegion ring,
        int logWqebbs,
        int sqn,
        MemorySegment doorbellRecord,
        Mmio uar,
        long doorbellOffset,
        int bfHalfSize,
        CqResources cq,
        InlineMode minInlineMode,
        SqControl control) {
    public SqResources {
        Objects.requireNonNull(ring, "ring");
        Objects.requireNonNull(doorbellRecord, "doorbellRecord");
        Objects.requireNonNull(uar, "uar");
        Objects.requireNonNull(cq, "cq");
        Objects.requireNonNull(minInlineMode, "minInlineMode");
        Objects.requireNonNull(control, "control");
        if (logWqebbs < 4 || logWqebbs > 16) throw new IllegalArgumentException("SQ log_wq_sz " + logWqebbs + " outside 4..16");
        if (ring.size() < (64L << logWqebbs))
            throw new IllegalArgumentException("SQ ring of " + ring.size() + " bytes is too small for " + (1 << logWqebbs) + " WQEBBs");
        if (doorbellRecord.byteSize() < WqDoorbellRecord.SIZE)
            throw new IllegalArgumentException("WQ doorbell record is " + doorbellRecord.byteSize() + " bytes, needs " + WqDoorbellRecord.SIZE);
        if ((doorbellOffset & 7) != 0) throw new IllegalArgumentException("doorbell offset 0x" + Long.toHexString(doorbellOffset) + " is not 8-byte aligned");
        if (bfHalfSize < 0 || (bfHalfSize & 7) != 0) throw new IllegalArgumentException("BlueFlame half size " + bfHalfSize + " must be a multiple of 8");
    }
}

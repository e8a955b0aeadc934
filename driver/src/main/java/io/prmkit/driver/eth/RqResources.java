package io.prmkit.driver.eth;

import io.prmkit.mlx5.WqDoorbellRecord;
import io.prmkit.mlx5.WqeDataSeg;
import io.prmkit.platform.DmaRegion;
import java.lang.foreign.MemorySegment;
import java.util.Objects;

/**
 * A cyclic receive queue created and moved to RDY by the control path (CREATE_RQ with
 * {@code wq.wq_type} cyclic, {@code log_wq_stride} 4: one 16-byte data segment per WQE), handed to
 * {@code RxQueue}. The RQ has no MMIO doorbell: the device reads the doorbell record.
 *
 * @param ring the WQE ring ({@code 1 << logWqes} entries of 16 bytes)
 * @param logWqes {@code wq.log_wq_sz}
 * @param rqn the RQ number CREATE_RQ returned
 * @param doorbellRecord the 8-byte WQ doorbell record at {@code wq.dbr_addr} (the RQ uses its receive counter)
 * @param cq the RQ's completion queue ({@code rqc.cqn})
 */
public record RqResources(DmaRegion ring, int logWqes, int rqn, MemorySegment doorbellRecord, CqResources cq) {
    public RqResources {
        Objects.requireNonNull(ring, "ring");
        Objects.requireNonNull(doorbellRecord, "doorbellRecord");
        Objects.requireNonNull(cq, "cq");
        if (logWqes < 1 || logWqes > 16) throw new IllegalArgumentException("RQ log_wq_sz " + logWqes + " outside 1..16");
        if (ring.size() < (WqeDataSeg.SIZE << logWqes))
            throw new IllegalArgumentException("RQ ring of " + ring.size() + " bytes is too small for " + (1 << logWqes) + " WQEs");
        if (doorbellRecord.byteSize() < WqDoorbellRecord.SIZE)
            throw new IllegalArgumentException("WQ doorbell record is " + doorbellRecord.byteSize() + " bytes, needs " + WqDoorbellRecord.SIZE);
        if (cq.entries() < (1 << logWqes))
            throw new IllegalArgumentException("RQ of " + (1 << logWqes) + " WQEs needs a CQ at least as large (CQ has " + cq.entries() + ")");
    }

    public int entries() {
        return 1 << logWqes;
    }
}

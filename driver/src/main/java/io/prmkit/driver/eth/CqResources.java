package io.prmkit.driver.eth;

import io.prmkit.mlx5.CqDoorbellRecord;
import io.prmkit.platform.DmaRegion;
import java.lang.foreign.MemorySegment;
import java.util.Objects;

/**
 * A completion queue created by the control path (CREATE_CQ), as the datapath needs it: the ring of
 * 64-byte CQEs, its size and number, and the 8-byte doorbell record named in {@code cqc.dbr_addr}.
 * The control path initialises every CQE to opcode INVALID with owner 1 before creating the CQ.
 *
 * @param ring the CQE ring ({@code 1 << logSize} entries of 64 bytes)
 * @param logSize {@code cqc.log_cq_size}
 * @param cqn the CQ number CREATE_CQ returned
 * @param doorbellRecord the 8 bytes of the CQ doorbell record ({@code cq_doorbell_record})
 */
public record CqResources(DmaRegion ring, int logSize, int cqn, MemorySegment doorbellRecord) {
    public CqResources {
        Objects.requireNonNull(ring, "ring");
        Objects.requireNonNull(doorbellRecord, "doorbellRecord");
        if (logSize < 1 || logSize > 24) throw new IllegalArgumentException("log_cq_size " + logSize + " outside 1..24");
        if (ring.size() < (64L << logSize))
            throw new IllegalArgumentException("CQ ring of " + ring.size() + " bytes is too small for " + (1 << logSize) + " CQEs");
        if (doorbellRecord.byteSize() < CqDoorbellRecord.SIZE)
            throw new IllegalArgumentException("CQ doorbell record is " + doorbellRecord.byteSize() + " bytes, needs " + CqDoorbellRecord.SIZE);
    }

    public int entries() {
        return 1 << logSize;
    }
}

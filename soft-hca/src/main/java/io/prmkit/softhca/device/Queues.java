package io.prmkit.softhca.device;

import io.prmkit.mlx5.Cqc;
import io.prmkit.mlx5.Rqc;
import io.prmkit.mlx5.Sqc;
import io.prmkit.mlx5.Wq;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;

/**
 * Queue objects created by commands (PRM chapters "Event Queues", "Completion Queues", "Send and
 * Receive Queues"). Each keeps a device-side copy of the context it was created (or last modified)
 * with, read through the generated accessors ({@code Eqc}, {@code Cqc}, {@code Sqc}, {@code Rqc},
 * {@code Wq}), the page list of its ring, and the runtime state the datapath advances. Only the
 * device thread touches them.
 */
public final class Queues {
    private Queues() {}

    /** A ring in host memory: 2^logPageSize 4 KiB pages at the given bus addresses, starting at pageOffset bytes. */
    public record Ring(long[] pas, int logPageSize, long pageOffset) {
        public long pageSize() {
            return 4096L << logPageSize;
        }

        /** Bus address of byte {@code offset} of the ring (pages need not be contiguous in bus space). */
        public long busAddress(long offset) {
            long o = offset + pageOffset;
            int page = (int) (o / pageSize());
            return page < pas.length ? pas[page] + o % pageSize() : -1;
        }
    }

    /** Event queue: context {@code eqc} (64 bytes), subscribed event types (bitmask words 0..3 of create_eq_in). */
    public static final class Eq {
        public final int eqn;
        public final MemorySegment eqc;
        public final Ring ring;
        public final long[] eventBitmask;
        /** Entries the device has written (the owner bit of entry i is {@code (i >> log_eq_size) & 1}). */
        public int producerCounter;
        /** Consumer counter from the last EQ doorbell. */
        public int consumerCounter;
        public boolean armed;

        public Eq(int eqn, MemorySegment eqc, Ring ring, long[] eventBitmask) {
            this.eqn = eqn;
            this.eqc = eqc;
            this.ring = ring;
            this.eventBitmask = eventBitmask;
        }

        public boolean subscribes(int eventType) {
            return eventType >= 0 && eventType < 256 && (eventBitmask[eventType >>> 6] >>> (eventType & 63) & 1) != 0;
        }
    }

    /** Completion queue: context {@code cqc}. */
    public static final class Cq {
        public final int cqn;
        public final MemorySegment cqc;
        public final Ring ring;
        public int producerCounter;
        public int consumerCounter;
        public boolean armed;
        /** SQs, RQs and QPs that report into this CQ (a CQ in use cannot be destroyed). */
        public int users;
        /** Bus address of the doorbell record: {@code cqc.dbr_addr}, or resolved in its umem. */
        public long dbr;
        /** The umems its ring and doorbell record are in (released when it goes). */
        public final List<Resources.Umem> umems = new ArrayList<>();

        public Cq(int cqn, MemorySegment cqc, Ring ring) {
            this.cqn = cqn;
            this.cqc = cqc;
            this.ring = ring;
            this.dbr = Cqc.dbr_addr(cqc);
        }
    }

    /** Send queue: context {@code sqc} (its work queue is {@code sqc.wq}); state is an {@code SqState} value. */
    public static final class Sq {
        public final int sqn;
        public final MemorySegment sqc;
        public final Ring ring;
        public int state;
        /** WQEBBs consumed (the datapath's counter, compared with the doorbell record). */
        public int consumerCounter;
        /** Bus address of the doorbell record: {@code sqc.wq.dbr_addr}, or resolved in its umem. */
        public long dbr;
        /** The umems its ring and doorbell record are in (released when it goes). */
        public final List<Resources.Umem> umems = new ArrayList<>();

        public Sq(int sqn, MemorySegment sqc, Ring ring, int state) {
            this.sqn = sqn;
            this.sqc = sqc;
            this.ring = ring;
            this.state = state;
            this.dbr = Wq.dbr_addr(sqc, Sqc.wq$BYTE_OFFSET);
        }
    }

    /** Receive queue: context {@code rqc} (work queue {@code rqc.wq}); state is an {@code RqState} value. */
    public static final class Rq {
        public final int rqn;
        public final MemorySegment rqc;
        public final Ring ring;
        public int state;
        public int consumerCounter;
        /** Bus address of the doorbell record: {@code rqc.wq.dbr_addr}, or resolved in its umem. */
        public long dbr;
        /** The umems its ring and doorbell record are in (released when it goes). */
        public final List<Resources.Umem> umems = new ArrayList<>();

        public Rq(int rqn, MemorySegment rqc, Ring ring, int state) {
            this.rqn = rqn;
            this.rqc = rqc;
            this.ring = ring;
            this.state = state;
            this.dbr = Wq.dbr_addr(rqc, Rqc.wq$BYTE_OFFSET);
        }
    }
}

package io.prmkit.softhca.device;

import io.prmkit.mlx5.Cqc;
import io.prmkit.mlx5.RqState;
import io.prmkit.mlx5.Rqc;
import io.prmkit.mlx5.SqState;
import io.prmkit.mlx5.Sqc;
import io.prmkit.mlx5.Wq;
import java.lang.foreign.MemorySegment;
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
        private final long[] eventBitmask;
        /** Entries the device has written (the owner bit of entry i is {@code (i >> log_eq_size) & 1}). */
        private int producerCounter;
        /** Consumer counter from the last EQ doorbell. */
        private int consumerCounter;
        private boolean armed;

        public Eq(int eqn, MemorySegment eqc, Ring ring, long[] eventBitmask) {
            this.eqn = eqn;
            this.eqc = eqc;
            this.ring = ring;
            this.eventBitmask = eventBitmask.clone();
        }

        public boolean subscribes(int eventType) {
            return eventType >= 0 && eventType < 256 && (eventBitmask[eventType >>> 6] >>> (eventType & 63) & 1) != 0;
        }

        /** Word {@code i} of the subscribed event types. */
        public long eventBitmask(int i) {
            return eventBitmask[i];
        }

        public int producerCounter() {
            return producerCounter;
        }

        public int consumerCounter() {
            return consumerCounter;
        }

        public boolean armed() {
            return armed;
        }

        /** Arms the EQ: its next event interrupts (a new EQ is armed). */
        public void arm() {
            armed = true;
        }

        /**
         * An entry was written: the producer counter moves on. True when that must raise the EQ's
         * vector: it was armed, and an arming fires once (the driver arms again after each event).
         */
        public boolean produced() {
            producerCounter++;
            if (!armed) return false;
            armed = false;
            return true;
        }

        /**
         * The EQ doorbell: the consumer counter, and with {@code arm} arming. True when the vector
         * must fire now: armed while entries the driver has not consumed exist, as on hardware.
         */
        public boolean doorbell(int consumerIndex, boolean arm) {
            consumerCounter = consumerIndex;
            if (!arm) return false;
            if ((producerCounter & 0xffffff) != consumerIndex) {
                armed = false;
                return true;
            }
            armed = true;
            return false;
        }
    }

    /**
     * Completion queue: context {@code cqc}. The counters are the datapath's; {@link #users} the SQs,
     * RQs and QPs that report into it ({@link DeviceObjects} counts them; a CQ in use cannot go).
     */
    public static final class Cq {
        /** CQ counters are 24 bits (cqc, the arm doorbell). */
        private static final int COUNTER_MASK = 0xffffff;
        public final int cqn;
        public final MemorySegment cqc;
        public final Ring ring;
        /** Bus address of the doorbell record: {@code cqc.dbr_addr}, or resolved in its umem. */
        public final long dbr;
        /** The umems its ring and doorbell record are in (held while it exists). */
        public final List<Resources.Umem> umems;
        private int producerCounter;
        private int consumerCounter;
        private boolean armed;
        int users;

        /** A CQ whose ring is given by pages and whose doorbell record is {@code cqc.dbr_addr}. */
        public Cq(int cqn, MemorySegment cqc, Ring ring) {
            this(cqn, cqc, ring, Cqc.dbr_addr(cqc), List.of());
        }

        public Cq(int cqn, MemorySegment cqc, Ring ring, long dbr, List<Resources.Umem> umems) {
            this.cqn = cqn;
            this.cqc = cqc;
            this.ring = ring;
            this.dbr = dbr;
            this.umems = List.copyOf(umems);
        }

        /** The SQs, RQs and QPs that report into it. */
        public int users() {
            return users;
        }

        public int producerCounter() {
            return producerCounter;
        }

        /** {@code n} entries were handed to software. */
        public void produced(int n) {
            producerCounter += n;
        }

        public int consumerCounter() {
            return consumerCounter;
        }

        public boolean armed() {
            return armed;
        }

        /** The completion event for the arming went out: the CQ must be armed again for the next one. */
        public void disarm() {
            armed = false;
        }

        /**
         * The arm doorbell (consumer index {@code ci}): true when completions beyond {@code ci} exist,
         * so the event must go at once; otherwise the CQ is armed for the next one.
         */
        public boolean arm(int ci) {
            consumerCounter = ci;
            if (((producerCounter - ci) & COUNTER_MASK) != 0) return true;
            armed = true;
            return false;
        }
    }

    /**
     * Send queue: context {@code sqc} (its work queue is {@code sqc.wq}); state an {@code SqState}
     * value, kept in the context too (QUERY_SQ reports it).
     */
    public static final class Sq {
        public final int sqn;
        public final MemorySegment sqc;
        public final Ring ring;
        /** Bus address of the doorbell record: {@code sqc.wq.dbr_addr}, or resolved in its umem. */
        public final long dbr;
        /** The umems its ring and doorbell record are in (held while it exists). */
        public final List<Resources.Umem> umems;
        private int state;
        /** WQEBBs consumed (the datapath's counter, compared with the doorbell record). */
        private int consumerCounter;

        /** An SQ whose ring is given by pages and whose doorbell record is {@code sqc.wq.dbr_addr}. */
        public Sq(int sqn, MemorySegment sqc, Ring ring, int state) {
            this(sqn, sqc, ring, state, Wq.dbr_addr(sqc, Sqc.wq$BYTE_OFFSET), List.of());
        }

        public Sq(int sqn, MemorySegment sqc, Ring ring, int state, long dbr, List<Resources.Umem> umems) {
            this.sqn = sqn;
            this.sqc = sqc;
            this.ring = ring;
            this.dbr = dbr;
            this.umems = List.copyOf(umems);
            setState(state);
        }

        public int state() {
            return state;
        }

        /** Moves to {@code state} (the command checked the transition); in RST the consumer counter restarts at 0. */
        public void setState(int state) {
            this.state = state;
            Sqc.state$setUnchecked(sqc, state);
            if (state == SqState.RST$VALUE) consumerCounter = 0;
        }

        public int consumerCounter() {
            return consumerCounter;
        }

        /** The datapath consumed WQEBBs up to {@code counter}. */
        public void setConsumerCounter(int counter) {
            consumerCounter = counter;
        }
    }

    /**
     * Receive queue: context {@code rqc} (work queue {@code rqc.wq}); state an {@code RqState} value,
     * kept in the context too.
     */
    public static final class Rq {
        public final int rqn;
        public final MemorySegment rqc;
        public final Ring ring;
        /** Bus address of the doorbell record: {@code rqc.wq.dbr_addr}, or resolved in its umem. */
        public final long dbr;
        /** The umems its ring and doorbell record are in (held while it exists). */
        public final List<Resources.Umem> umems;
        private int state;
        private int consumerCounter;

        /** An RQ whose ring is given by pages and whose doorbell record is {@code rqc.wq.dbr_addr}. */
        public Rq(int rqn, MemorySegment rqc, Ring ring, int state) {
            this(rqn, rqc, ring, state, Wq.dbr_addr(rqc, Rqc.wq$BYTE_OFFSET), List.of());
        }

        public Rq(int rqn, MemorySegment rqc, Ring ring, int state, long dbr, List<Resources.Umem> umems) {
            this.rqn = rqn;
            this.rqc = rqc;
            this.ring = ring;
            this.dbr = dbr;
            this.umems = List.copyOf(umems);
            setState(state);
        }

        public int state() {
            return state;
        }

        /** Moves to {@code state} (the command checked the transition); in RST the consumer counter restarts at 0. */
        public void setState(int state) {
            this.state = state;
            Rqc.state$setUnchecked(rqc, state);
            if (state == RqState.RST$VALUE) consumerCounter = 0;
        }

        public int consumerCounter() {
            return consumerCounter;
        }

        /** The datapath consumed receive WQEs up to {@code counter}. */
        public void setConsumerCounter(int counter) {
            consumerCounter = counter;
        }
    }
}

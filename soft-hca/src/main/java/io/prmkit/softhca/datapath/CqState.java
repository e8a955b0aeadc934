package io.prmkit.softhca.datapath;

import io.prmkit.mlx5.CqDoorbellRecord;
import io.prmkit.mlx5.CqErrorSyndrome;
import io.prmkit.mlx5.Cqc;
import io.prmkit.mlx5.Cqe64;
import io.prmkit.mlx5.CqeOpcode;
import io.prmkit.mlx5.CqeSize;
import io.prmkit.mlx5.Eqe;
import io.prmkit.mlx5.EqeType;
import io.prmkit.mlx5.ErrCqe;
import io.prmkit.softhca.device.DeviceContext;
import io.prmkit.softhca.device.Queues;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.VarHandle;

/**
 * The device's side of one CQ (PRM "Completion Queues"): where the next CQE goes, its owner bit
 * (the parity of the pass: entry {@code pc & (n-1)} gets owner {@code (pc >> log_cq_size) & 1}),
 * overrun against the consumer counter of the CQ doorbell record (a CQ_ERROR event with syndrome
 * OVERRUN, after which the CQ takes no more entries), and the completion event when it is armed.
 * A CQE is stored whole with the INVALID opcode and the previous pass's owner bit, then, after a
 * release fence, its opcode and owner bit are set: the driver never sees a half-written entry.
 */
final class CqState {
    /** Consumer and producer counters compare modulo the doorbell record's 24-bit consumer index. */
    private static final int CI_MASK = (1 << CqDoorbellRecord.consumer_index$BIT_WIDTH) - 1;
    final Queues.Cq cq;
    final int cqn;
    private final DeviceContext ctx;
    private final int logSize;
    private final int size;
    private final long stride;
    private final long cqeOffset;
    private final RingView ring;
    private final MemorySegment dbr;
    /** Where {@link #reserve} found the next CQE: a segment (the whole ring, or one page) and the offset in it. */
    private MemorySegment cqeSegment;
    private long cqeAt;
    /**
     * One long-lived writer per CQ for the per-frame CQEs (RX RESP_SEND, TX REQ), and one for error
     * CQEs: re-pointed with {@code at} at the reserved entry, filled, and stored straight into the ring
     * (8 whole-word stores), so nothing is allocated per frame and nothing is staged and copied.
     */
    private final Cqe64.Device.Writer writer = Cqe64.Device.writer();
    private final ErrCqe.Device.Writer errWriter = ErrCqe.Device.writer();
    /** The doorbell record's consumer index as last read (-1: not yet). */
    private int ciSeen = -1;
    /** The CQ overran (or its ring faulted): it is in error and writes nothing more. */
    boolean failed;
    long cqes;

    CqState(Queues.Cq cq, DeviceContext ctx) {
        this.cq = cq;
        this.cqn = cq.cqn;
        this.ctx = ctx;
        this.logSize = Cqc.log_cq_size(cq.cqc);
        this.size = 1 << logSize;
        int sz = Cqc.cqe_sz(cq.cqc);
        this.stride = sz == CqeSize.BYTES_64.value ? 64 : 128;
        // 128-byte CQEs carry the 64-byte CQE in their second half (cq.h); padded ones in the first.
        this.cqeOffset = sz == CqeSize.BYTES_128.value ? 64 : 0;
        this.ring = new RingView(cq.ring, stride * size, ctx.iommu());
        this.dbr = ctx.iommu().slice(Cqc.dbr_addr(cq.cqc), CqDoorbellRecord.SIZE);
    }

    /**
     * Finds where the next CQE goes and keeps it ({@link #body}, {@link #errBody} and {@link #publish}
     * write there); false when the CQ overran or faulted (already reported). Keeping segment and offset
     * instead of making a 64-byte slice per CQE is what lets the datapath allocate nothing per frame.
     */
    boolean reserve() {
        if (failed) return false;
        int pc = cq.producerCounter;
        int ci = ciSeen;
        if (ci < 0 || ((pc - ci) & CI_MASK) >= size) {
            // The doorbell record is read only when the consumer index seen last would mean overrun:
            // overrun is still decided on the current value, without pulling the driver's line per CQE.
            try {
                ci = dbr == null ? -1 : CqDoorbellRecord.consumer_index(dbr);
            } catch (IllegalStateException e) {
                ci = -1;
            }
            if (ci < 0) return fail(CqErrorSyndrome.ACCESS_VIOLATION);
            ciSeen = ci;
        }
        long off = (pc & (size - 1)) * stride + cqeOffset;
        boolean overrun = ((pc - ci) & CI_MASK) >= size;
        if (overrun && !Cqc.oi(cq.cqc)) return fail(CqErrorSyndrome.OVERRUN);
        MemorySegment s = ring.segment(off, 64);
        if (s == null) return overrun ? false : fail(CqErrorSyndrome.ACCESS_VIOLATION);
        cqeSegment = s;
        cqeAt = ring.offsetIn(off);
        return true;
    }

    private boolean fail(CqErrorSyndrome why) {
        failed = true;
        int cqnv = cqn;
        post(() -> ctx.events().post((int) EqeType.CQ_ERROR.value, 0, e -> {
            Eqe.Device.cq_error_cqn$set(e, cqnv);
            Eqe.Device.cq_error_syndrome$set(e, why);
        }));
        return false;
    }

    /** The CQ's memory went away while the device wrote an entry (freed before DESTROY_CQ): an access violation. */
    void lost() {
        if (!failed) fail(CqErrorSyndrome.ACCESS_VIOLATION);
    }

    /** Posts an event; an EQ whose memory was freed under the device loses it instead of stopping the device. */
    static void post(Runnable r) {
        try {
            r.run();
        } catch (IllegalStateException e) {
            // the EQ ring's region was closed while mapped: the event is lost, as a DMA fault
        }
    }

    /** Owner bit of the entry being written now. */
    int owner() {
        return (cq.producerCounter >>> logSize) & 1;
    }

    /** Hands the CQE written at the reserved place (opcode INVALID, owner of the last pass) to software; fires the armed event. */
    void publish(CqeOpcode opcode, boolean solicitedEvent) {
        VarHandle.releaseFence();
        Cqe64.Device.opcode$set(cqeSegment, cqeAt, opcode);
        Cqe64.Device.owner$set(cqeSegment, cqeAt, owner() == 1);
        cq.producerCounter++;
        cqes++;
        if (cq.armed || solicitedEvent) notifyEq();
    }

    /**
     * The writer for the RX CQE at the reserved place, opcode INVALID and the last pass's owner set;
     * the caller sets the other fields, calls {@code write()}, then {@link #publish}.
     */
    Cqe64.Device.Writer rxBody() {
        return writer.at(cqeSegment, cqeAt).opcode(CqeOpcode.INVALID).owner(owner() == 0);
    }

    /** As {@link #rxBody}, for a TX completion. */
    Cqe64.Device.Writer txBody() {
        return rxBody();
    }

    ErrCqe.Device.Writer errBody() {
        return errWriter.at(cqeSegment, cqeAt).opcode(CqeOpcode.INVALID).owner(owner() == 0);
    }

    /** The completion event to the CQ's EQ (c_eqn); the CQ must be armed again for the next one. */
    void notifyEq() {
        cq.armed = false;
        Queues.Eq eq = ctx.objects().eqs.get(Cqc.c_eqn_or_apu_element(cq.cqc));
        if (eq == null) return;
        int cqnv = cqn;
        post(() -> ctx.events().post(eq, (int) EqeType.COMP.value, 0, e -> Eqe.Device.cqn$set(e, cqnv)));
    }

    /** The arm doorbell (UAR 0x20): an event for the next completion, at once if CQEs beyond {@code ci} exist. */
    void arm(int ci) {
        cq.consumerCounter = ci;
        if (((cq.producerCounter - ci) & CI_MASK) != 0) notifyEq();
        else cq.armed = true;
    }
}

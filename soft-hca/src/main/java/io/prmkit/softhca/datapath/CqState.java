package io.prmkit.softhca.datapath;

import io.prmkit.mlx5.CmdHcaCap;
import io.prmkit.mlx5.CqDoorbellRecord;
import io.prmkit.mlx5.CqErrorSyndrome;
import io.prmkit.mlx5.Cqc;
import io.prmkit.mlx5.Cqe64;
import io.prmkit.mlx5.CqeFormat;
import io.prmkit.mlx5.CqeOpcode;
import io.prmkit.mlx5.CqeSize;
import io.prmkit.mlx5.Eqe;
import io.prmkit.mlx5.EqeType;
import io.prmkit.mlx5.ErrCqe;
import io.prmkit.mlx5.MiniCqe8;
import io.prmkit.mlx5.MiniCqeResFormat;
import io.prmkit.softhca.device.DeviceContext;
import io.prmkit.softhca.device.Queues;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.VarHandle;

/**
 * The device's side of one CQ (PRM "Completion Queues"): where the next CQE goes, its owner bit
 * (the parity of the pass: entry {@code pc & (n-1)} gets owner {@code (pc >> log_cq_size) & 1}),
 * overrun against the consumer counter of the CQ doorbell record (a CQ_ERROR event with syndrome
 * OVERRUN, after which the CQ takes no more entries), and the completion event when it is armed.
 * A CQE is stored whole with the INVALID opcode and the previous pass's owner bit, then, after a
 * release fence, its opcode and owner bit are set: the driver never sees a half-written entry.
 *
 * <p>With {@code cqe_comp_en} (PRM "Compressed CQE", basic layout) receive completions are held
 * while the device works through a poll and written as sessions: a title CQE (format COMPRESSED,
 * {@code byte_cnt} = the number of completions, the other fields shared by all of them) at the
 * session's first slot and arrays of eight {@code mini_cqe8} at its second slot and at every eighth
 * slot after the first (where the kernel's and DPDK's decoders read them), each mini giving one
 * completion's byte count and, per {@code mini_cqe_res_format}, its RSS hash or its checksum. See
 * docs/soft-hca-datapath.md "CQE compression" for when a session is cut and written.
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
    private final MiniCqe8.Device.Writer miniWriter = MiniCqe8.Device.writer();
    /** CQE compression: on, and what the minis carry (true: RSS hash; false: checksum). */
    final boolean compress;
    final boolean hashFormat;
    /** Most completions in one session: the device's cqe_compression_max_num (CX4: 16). */
    final int maxSession;
    /** Completions held for the session being built (0: none); their byte counts and mini first dwords. */
    int held;
    private final int[] heldBytes;
    private final int[] heldMini;
    /** The session's title: its first completion's CQE, staged without the per-completion fields. */
    private MemorySegment title;
    /** The title's own check_sum and rss_hash_result (the staged CQE leaves them out, see {@link #rxBody}). */
    private int titleCheckSum;
    private int titleHash;
    private final Sessions sessions;
    /** Sessions written (2 or more completions) and the completions they held, for tests and the trace. */
    long sessionCount;
    long sessionCqes;
    /** The doorbell record's consumer index as last read (-1: not yet). */
    private int ciSeen = -1;
    /** The CQ overran (or its ring faulted): it is in error and writes nothing more. */
    boolean failed;
    long cqes;

    /** The CQs holding a session in this poll: written, in the order they started, when the poll ends. */
    static final class Sessions {
        private CqState[] list = new CqState[8];
        private int n;
        /** Where a line per session written goes (the device's trace), or null. */
        java.util.function.Consumer<String> trace;

        void add(CqState c) {
            if (n == list.length) list = java.util.Arrays.copyOf(list, n * 2);
            list[n++] = c;
        }

        /** Writes every held session (the device has no more work in this pass: the compression timeout's analogue). */
        void flushAll() {
            for (int i = 0; i < n; i++) {
                list[i].flush();
                list[i] = null;
            }
            n = 0;
        }
    }

    CqState(Queues.Cq cq, DeviceContext ctx, Sessions sessions) {
        this.sessions = sessions;
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
        this.dbr = ctx.iommu().slice(cq.dbr, CqDoorbellRecord.SIZE);
        MemorySegment caps = ctx.currentCaps().apply(0);
        int max = caps == null ? DEFAULT_MAX_SESSION : CmdHcaCap.cqe_compression_max_num(caps);
        this.compress = Cqc.cqe_comp_en(cq.cqc) && max >= 2 && stride == Cqe64.SIZE;
        this.maxSession = compress ? max : 1;
        this.hashFormat = Cqc.mini_cqe_res_format(cq.cqc) == MiniCqeResFormat.HASH$VALUE;
        this.heldBytes = new int[maxSession];
        this.heldMini = new int[maxSession];
        if (compress) {
            // Native like the ring: the writer's stores then see one kind of segment (a heap segment here
            // made every CQE store polymorphic, plain CQs' too: +30 ns per frame in DeviceLoopbackCpu).
            Arena a = Arena.ofAuto();
            title = a.allocate(Cqe64.SIZE, 64);
        }
    }

    /** Mini CQEs in one CQE slot of a session (eight). */
    private static final int MINIS = (int) (Cqe64.SIZE / MiniCqe8.SIZE);

    /** Session length when the device has no capability page (test harnesses): ConnectX-4's cqe_compression_max_num. */
    static final int DEFAULT_MAX_SESSION = 16;

    /**
     * Finds where the next CQE goes and keeps it ({@link #body}, {@link #errBody} and {@link #publish}
     * write there); false when the CQ overran or faulted (already reported). Keeping segment and offset
     * instead of making a 64-byte slice per CQE is what lets the datapath allocate nothing per frame.
     */
    boolean reserve() {
        if (failed) return false;
        if (held > 0) flush(); // a plain or error CQE goes after the session held so far
        if (failed) return false;
        int pc = cq.producerCounter();
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

    /**
     * As {@link #reserve}, for a receive completion that may join a session: with compression on, the
     * slot it would take ({@code pc + held}) must be free as any CQE's (so a written session never
     * overwrites an entry software has not released); when it is not, the held session is written and
     * the CQ's usual overrun rule applies to the new completion.
     */
    boolean reserveRx() {
        if (!compress) return reserve();
        if (failed) return false;
        int p = cq.producerCounter() + held;
        if (ciSeen < 0 || ((p - ciSeen) & CI_MASK) >= size) {
            int ci;
            try {
                ci = dbr == null ? -1 : CqDoorbellRecord.consumer_index(dbr);
            } catch (IllegalStateException e) {
                ci = -1;
            }
            if (ci < 0 || ((p - ci) & CI_MASK) >= size) return reserve();
            ciSeen = ci;
        }
        return true;
    }

    private boolean fail(CqErrorSyndrome why) {
        failed = true;
        int cqnv = cqn;
        post(() -> ctx.events().post(EqeType.CQ_ERROR$VALUE, 0, e -> {
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
        return (cq.producerCounter() >>> logSize) & 1;
    }

    /** Hands the CQE written at the reserved place (opcode INVALID, owner of the last pass) to software; fires the armed event. */
    void publish(CqeOpcode opcode, boolean solicitedEvent) {
        VarHandle.releaseFence();
        Cqe64.Device.opcode$set(cqeSegment, cqeAt, opcode);
        Cqe64.Device.owner$set(cqeSegment, cqeAt, owner() == 1);
        cq.produced(1);
        cqes++;
        if (cq.armed() || solicitedEvent) notifyEq();
    }

    /**
     * The writer for the RX CQE at the place {@link #reserveRx} found, opcode INVALID and the last
     * pass's owner set; the caller sets the other fields, calls {@code write()}, then {@link #publish}.
     * With compression it stages the title of a new session instead ({@link #startRx} follows), and
     * the RX path leaves out byte_cnt, wqe_counter, check_sum and rss_hash_result: they are put in
     * when the session is written.
     */
    Cqe64.Device.Writer rxBody() {
        if (compress) return writer.at(title, 0);
        return writer.at(cqeSegment, cqeAt).opcode(CqeOpcode.INVALID).owner(owner() == 0);
    }

    /**
     * With compression: the RESP_SEND completion joins the held session when it comes from the same RQ
     * with the same shape (every field of its CQE but the byte count, counter, checksum and hash equal
     * to the title's; see ReceiveQueueEngine.shape) and its WQE counter follows the last one's; a
     * session is written as soon as it reaches {@link #maxSession}. False: it does not join (the held
     * session, if any, is written); the caller builds its CQE ({@link #rxBody}) and calls {@link #startRx}.
     */
    boolean joinRx(Object rq, long shape, int wqeCounter, int byteCnt, int checkSum, int rssHash) {
        if (held > 0) {
            if (rq == titleRq && shape == titleShape && wqeCounter == ((titleCounter + held) & 0xffff)) {
                heldBytes[held] = byteCnt;
                heldMini[held] = hashFormat ? rssHash : checkSum;
                if (++held == maxSession) flush();
                return true;
            }
            flush();
        }
        return false;
    }

    /** Opens a session with the completion whose CQE {@link #rxBody} just staged. */
    void startRx(Object rq, long shape, int wqeCounter, int byteCnt, int checkSum, int rssHash) {
        titleRq = rq;
        titleShape = shape;
        titleCounter = wqeCounter;
        titleCheckSum = checkSum;
        titleHash = rssHash;
        heldBytes[0] = byteCnt;
        heldMini[0] = hashFormat ? rssHash : checkSum;
        held = 1;
        if (!listed) {
            listed = true;
            sessions.add(this);
        }
    }

    /** The title's RQ (its engine) and shape. */
    private Object titleRq;
    private long titleShape;

    private boolean listed;
    /** The title's WQE counter: completion i of the session has this + i. */
    private int titleCounter;

    /**
     * Writes the held completions: one as a plain CQE; two or more as a session. The mini CQE arrays
     * go first (array 0 in the slot after the title, array k in slot title + 8k, wrapping at the ring
     * end like every slot), the title after them, and the title's opcode and owner bit (its slot's
     * pass) last, after a release fence: software sees a whole session or none of it.
     */
    void flush() {
        listed = false;
        int n = held;
        held = 0;
        if (n == 0 || failed) return;
        try {
            int pc = cq.producerCounter();
            if (n >= 2) {
                for (int k = 0; k * MINIS < n; k++) {
                    long off = (long) ((pc + (k == 0 ? 1 : MINIS * k)) & (size - 1)) * Cqe64.SIZE;
                    MemorySegment s = ring.segment(off, Cqe64.SIZE);
                    if (s == null) {
                        fail(CqErrorSyndrome.ACCESS_VIOLATION);
                        return;
                    }
                    long at = ring.offsetIn(off);
                    for (int j = 0; j < MINIS; j++) {
                        int i = MINIS * k + j;
                        MiniCqe8.Device.Writer w = miniWriter.at(s, at + j * MiniCqe8.SIZE);
                        if (i < n) {
                            w.byte_cnt(heldBytes[i]);
                            if (hashFormat) w.rx_hash_result(heldMini[i]);
                            else w.checksum(heldMini[i]);
                        }
                        w.write();
                    }
                }
                Cqe64.Device.cqe_format$set(title, CqeFormat.COMPRESSED);
            }
            // the fields the staged CQE left out: a session's title has N in byte_cnt and the first
            // completion's counter, checksum and hash (the minis carry each one's)
            Cqe64.Device.byte_cnt$set(title, n >= 2 ? n : heldBytes[0]);
            Cqe64.Device.wqe_counter$set(title, titleCounter);
            Cqe64.Device.check_sum$set(title, titleCheckSum);
            Cqe64.Device.rss_hash_result$set(title, titleHash);
            long off = (long) (pc & (size - 1)) * Cqe64.SIZE;
            MemorySegment s = ring.segment(off, Cqe64.SIZE);
            if (s == null) {
                fail(CqErrorSyndrome.ACCESS_VIOLATION);
                return;
            }
            Cqe64.Device.opcode$set(title, CqeOpcode.INVALID);
            Cqe64.Device.owner$set(title, owner() == 0);
            cqeSegment = s;
            cqeAt = ring.offsetIn(off);
            MemorySegment.copy(title, 0, s, cqeAt, Cqe64.SIZE);
            VarHandle.releaseFence();
            Cqe64.Device.opcode$set(s, cqeAt, CqeOpcode.RESP_SEND);
            Cqe64.Device.owner$set(s, cqeAt, owner() == 1);
            cq.produced(n);
            cqes += n;
            if (n >= 2) {
                sessionCount++;
                sessionCqes += n;
                if (sessions.trace != null) {
                    try {
                        sessions.trace.accept("cq 0x" + Integer.toHexString(cqn) + ": compressed session of " + n + " CQEs at index " + pc
                                + " (title slot " + (pc & (size - 1)) + ", wqe_counter " + titleCounter + ".." + ((titleCounter + n - 1) & 0xffff) + ")");
                    } catch (RuntimeException traceSink) {
                        // the sink is the host's; its failure is not the device's
                    }
                }
            }
            if (cq.armed()) notifyEq();
        } catch (IllegalStateException e) {
            lost();
        }
    }

    /** The writer for a TX completion at the place {@link #reserve} found (send completions are never compressed). */
    Cqe64.Device.Writer txBody() {
        return writer.at(cqeSegment, cqeAt).opcode(CqeOpcode.INVALID).owner(owner() == 0);
    }

    ErrCqe.Device.Writer errBody() {
        return errWriter.at(cqeSegment, cqeAt).opcode(CqeOpcode.INVALID).owner(owner() == 0);
    }

    /** The completion event to the CQ's EQ (c_eqn); the CQ must be armed again for the next one. */
    void notifyEq() {
        cq.disarm();
        Queues.Eq eq = ctx.objects().eq(Cqc.c_eqn_or_apu_element(cq.cqc));
        if (eq == null) return;
        int cqnv = cqn;
        post(() -> ctx.events().post(eq, EqeType.COMP$VALUE, 0, e -> Eqe.Device.cqn$set(e, cqnv)));
    }

    /** The arm doorbell (UAR 0x20): an event for the next completion, at once if CQEs beyond {@code ci} exist. */
    void arm(int ci) {
        if (cq.arm(ci)) notifyEq();
    }
}

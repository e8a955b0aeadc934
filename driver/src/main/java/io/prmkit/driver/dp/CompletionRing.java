package io.prmkit.driver.dp;

import io.prmkit.driver.eth.CqResources;
import io.prmkit.mlx5.CqDoorbellRecord;
import io.prmkit.mlx5.Cqe64;
import io.prmkit.mlx5.CqeFormat;
import io.prmkit.mlx5.CqeOpcode;
import io.prmkit.layout.PrmLayout;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.VarHandle;

/**
 * Software's side of one completion queue (PRM "Completion Queue"): the ring of 64-byte CQEs the
 * device writes, read in order from a free-running consumer counter. The one reader of CQ ownership
 * for TX reaping, TX error recovery and RX.
 *
 * <ol>
 *   <li><b>Ownership.</b> The entry at counter {@code c} is software's when the owner bit of its
 *       {@code op_own} byte equals the pass parity {@code (c >> log_cq_size) & 1} and its opcode is
 *       not INVALID (the control path set every entry to INVALID, owner 1, before CREATE_CQ). Only
 *       that byte is read to decide ({@link #kind}).</li>
 *   <li><b>Fence.</b> No other field of an entry is read before its ownership byte said it is ours
 *       ({@link #acquire}, the kernel's {@code dma_rmb}): once after a run of ownership bytes.</li>
 *   <li><b>Consumer index.</b> When the entries are read, the counter's low 24 bits go to the
 *       doorbell record's {@code consumer_index} after a release fence ({@link #release}): only then
 *       may the device write those entries again.</li>
 *   <li><b>Compressed sessions</b> (RX only): a title's slots are given back with the owner bit of
 *       their pass alone in {@code op_own} ({@link #retire}, the kernel's
 *       {@code mlx5e_cqes_update_owner}), so on the next pass they read as the device's.</li>
 * </ol>
 *
 * <p>Not thread-safe: the queue that owns it is its one user. The counter is a field the queues'
 * burst loops read into a local and write back once.
 */
final class CompletionRing {
    /** {@link #kind}: the device's (owner bit of the other pass, or opcode INVALID). */
    static final int NOT_OURS = 0;
    /** {@link #kind}: ours, the title of a compressed session. */
    static final int TITLE = 1;
    /** {@link #kind}: ours, a plain CQE of any opcode but RESP_SEND. */
    static final int PLAIN = 2;
    /** {@link #kind}: ours, a plain RESP_SEND (a received packet). Plain kinds are {@code >= PLAIN}. */
    static final int RESPONSE = 3;

    private static final int OP_OWN_BITS = (int) Cqe64.op_own$BIT_WIDTH;
    private static final int CONSUMER_INDEX_MASK = (1 << CqDoorbellRecord.consumer_index$BIT_WIDTH) - 1;
    /**
     * The kind of an entry by its {@code op_own} byte, on an even and on an odd pass: one table load per
     * polled entry, the table chosen once per pass; built from the generated getters (owner, opcode
     * and format are all in {@code op_own}).
     */
    private static final byte[] KIND_EVEN = new byte[1 << OP_OWN_BITS];
    private static final byte[] KIND_ODD = new byte[1 << OP_OWN_BITS];
    /** The {@code op_own} byte of a given-back slot on an even and an odd pass (owner bit only). */
    private static final int OP_OWN_EVEN;
    private static final int OP_OWN_ODD;

    static {
        MemorySegment b = MemorySegment.ofArray(new long[(int) Cqe64.SIZE / 8]);
        for (int v = 0; v < 1 << OP_OWN_BITS; v++) {
            Cqe64.op_own$set(b, 0, v);
            int parity = Cqe64.owner(b, 0) ? 1 : 0;
            int opcode = Cqe64.opcode(b, 0);
            byte kind;
            if (opcode == CqeOpcode.INVALID$VALUE) kind = NOT_OURS;
            else if (Cqe64.cqe_format(b, 0) == CqeFormat.COMPRESSED$VALUE) kind = TITLE;
            else kind = (byte) (opcode == CqeOpcode.RESP_SEND$VALUE ? RESPONSE : PLAIN);
            (parity == 1 ? KIND_ODD : KIND_EVEN)[v] = kind; // on the other pass's table the entry stays NOT_OURS
        }
        PrmLayout.Field owner = Cqe64.layout().field("owner").orElseThrow();
        MemorySegment s = MemorySegment.ofArray(new long[(int) Cqe64.SIZE / 8]);
        OP_OWN_EVEN = Cqe64.op_own(s, 0);
        Cqe64.layout().set(s, 0, owner, 1);
        OP_OWN_ODD = Cqe64.op_own(s, 0);
    }

    /** The CQE ring, its doorbell record, {@code log_cq_size} and entries - 1. */
    final MemorySegment cqes;
    private final MemorySegment dbr;
    final int log;
    final int mask;
    private final int entries;
    /** The consumer counter (free-running; the entry is {@code cc & mask}, the pass {@code (cc >> log) & 1}). */
    int cc;
    /** How many of the entries {@link #ownedPlain} last counted are RESPONSE. */
    private int responses;

    CompletionRing(CqResources cq) {
        this.cqes = cq.ring().segment();
        this.dbr = cq.doorbellRecord();
        this.log = cq.logSize();
        this.entries = cq.entries();
        this.mask = entries - 1;
    }

    int entries() {
        return entries;
    }

    /** Byte offset of the entry at counter {@code c}. */
    long offset(int c) {
        return (long) (c & mask) * Cqe64.SIZE;
    }

    /** What the entry at counter {@code c} is: {@link #NOT_OURS}, {@link #TITLE}, {@link #PLAIN}, {@link #RESPONSE}. Reads op_own only. */
    int kind(int c) {
        return kinds(c)[Cqe64.op_own(cqes, offset(c))];
    }

    /** The kind table of counter {@code c}'s pass. */
    private byte[] kinds(int c) {
        return ((c >>> log) & 1) == 0 ? KIND_EVEN : KIND_ODD;
    }

    /**
     * The next entry, if the device has handed it over: its byte offset, fenced (its other fields may be
     * read); -1 if not. Does not consume it ({@link #cc}{@code ++} does).
     */
    long poll() {
        if (kind(cc) == NOT_OURS) return -1;
        acquire();
        return offset(cc);
    }

    /**
     * How many plain entries from the consumer counter on the device has handed over, at most
     * {@code max}, stopping before the first that is not ours or is a title; {@link #allResponses}
     * then says whether they are all RESPONSE. Reads only each entry's {@code op_own} byte; ring +
     * offset accessors, so an empty poll allocates nothing even where C2 does not scalar-replace.
     *
     * <p>Up to the ring's end every entry is of the counter's pass: one run with that pass's table,
     * then, if the ring wrapped and the run reached its end, one run from entry 0 with the other table.
     */
    int ownedPlain(int max) {
        final int first = cc;
        final int at = first & mask;
        final int toEnd = entries - at;
        final byte[] pass = kinds(first);
        if (max <= toEnd) return ownedRun(pass, at, max, 0);
        int polled = ownedRun(pass, at, toEnd, 0);
        if (polled == toEnd) polled += ownedRun(pass == KIND_EVEN ? KIND_ODD : KIND_EVEN, 0, max - toEnd, responses);
        return polled;
    }

    /**
     * Owned plain entries from ring entry {@code at} on, at most {@code max}, none past the ring's end
     * (so all of one pass, whose table is {@code pass}); {@link #responses} = {@code resp} + the RESPONSE
     * ones. The offset grows with the loop index and is never reset inside the loop: an offset wrapped
     * to 0 inside it made C2 guard the counted loop with a predicate that failed at every wrap, and
     * recompile the method again and again.
     */
    private int ownedRun(byte[] pass, int at, int max, int resp) {
        final MemorySegment cq = cqes;
        int polled = 0;
        while (polled < max) {
            int k = pass[Cqe64.op_own(cq, (long) (at + polled) * Cqe64.SIZE)];
            if (k < PLAIN) break;
            resp += k & 1;
            polled++;
        }
        responses = resp;
        return polled;
    }

    /** Whether the entries {@link #ownedPlain} last counted are all RESPONSE (the decode then skips each opcode). */
    boolean allResponses(int polled) {
        return responses == polled;
    }

    /** The fence between ownership bytes and the rest of the entries they hand over (dma_rmb). */
    static void acquire() {
        VarHandle.loadLoadFence();
    }

    /** Tells the device the entries before the consumer counter are read (their reads first). */
    void release() {
        VarHandle.releaseFence();
        CqDoorbellRecord.consumer_index$setUnchecked(dbr, cc & CONSUMER_INDEX_MASK);
    }

    /** Consumes every entry the device has handed over, without reading them, and tells the device (error recovery). */
    int drain() {
        int n = 0;
        while (kind(cc) != NOT_OURS) {
            cc++;
            n++;
        }
        release();
        return n;
    }

    /** Gives the consumed entry at counter {@code c} back with only the owner bit of its pass (a compressed session's slots). */
    void retire(int c) {
        Cqe64.op_own$setUnchecked(cqes, offset(c), ((c >>> log) & 1) != 0 ? OP_OWN_ODD : OP_OWN_EVEN);
    }
}

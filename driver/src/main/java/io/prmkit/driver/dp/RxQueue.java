package io.prmkit.driver.dp;

import io.prmkit.driver.eth.EthPort;
import io.prmkit.driver.eth.RqResources;
import io.prmkit.mlx5.Cqe64;
import io.prmkit.mlx5.CqeHdsIpExt;
import io.prmkit.mlx5.CqeL3HdrType;
import io.prmkit.mlx5.CqeL4HdrType;
import io.prmkit.mlx5.CqeOpcode;
import io.prmkit.mlx5.MiniCqe8;
import io.prmkit.mlx5.PrmField;
import io.prmkit.mlx5.WqDoorbellRecord;
import io.prmkit.mlx5.WqeDataSeg;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.VarHandle;

/**
 * Ethernet receive on one cyclic RQ (PRM "Receive WQE", "Completion Queue Entry", "Compressed CQE"):
 * {@link #receive} takes the CQEs the device has handed over ({@link CompletionRing}: ownership,
 * fence, consumer index), decodes each with the generated accessors, hands the buffers out with their
 * metadata in the pool's arrays, and refills the RQ in bulk with one doorbell record update.
 *
 * <p>{@link #open} builds the queue on an RQ of a port, which owns it: one queue per RQ; the port
 * destroys the RQ before it frees the memory of the buffers posted to it, whatever the user closes
 * first. One thread at a time: a call while another thread is inside one is refused, as is any call
 * after {@link #close}.
 *
 * <p>Each RQ WQE is one data segment ({@code log_wq_stride} 4) naming one whole pool buffer. The
 * queue remembers which buffer each WQE holds; a CQE's {@code wqe_counter} says which WQE it consumed.
 *
 * <p>The CQ may hold compressed sessions (PRM "Compressed CQE", basic layout; CREATE_CQ with
 * {@code cqe_comp_en} and {@code mini_cqe_res_format} HASH): N completions in N slots, a title CQE
 * ({@code cqe_format} COMPRESSED, {@code byte_cnt} = N, the fields all N share) and arrays of eight
 * {@code mini_cqe8} (each completion's byte count and RSS hash) in the slot after the title and in
 * every eighth slot after that. Both kinds decode into the same per-buffer metadata; see
 * {@link #startSession} and {@link #sessionRun}.
 */
public final class RxQueue implements AutoCloseable {
    /** The checksum bits of {@code hds_ip_ext} a CQE reports (its low bits). */
    private static final int CHECK_BITS = CqeHdsIpExt.L2_OK$MASK | CqeHdsIpExt.L3_OK$MASK | CqeHdsIpExt.L4_OK$MASK;
    /** Where {@code l3_hdr_type} (2 bits) and {@code l4_hdr_type} (3 bits) go in an {@link #RX_FLAGS} index. */
    private static final int L3_AT = Integer.numberOfTrailingZeros(CHECK_BITS + 1);
    private static final int L4_AT = L3_AT + (int) Cqe64.l3_hdr_type$BIT_WIDTH;
    /**
     * The {@link PacketFlags} of every combination of checksum bits, L3 and L4 header type, indexed by
     * {@link #flagsIndex}: one load per CQE (one table per field was slower).
     */
    private static final int[] RX_FLAGS = new int[1 << (L4_AT + (int) Cqe64.l4_hdr_type$BIT_WIDTH)];

    static {
        if ((CHECK_BITS & (CHECK_BITS + 1)) != 0) throw new AssertionError("the checksum bits are not the low bits of hds_ip_ext");
        for (int c = 0; c <= CHECK_BITS; c++) {
            for (int l3 = 0; l3 < 1 << Cqe64.l3_hdr_type$BIT_WIDTH; l3++) {
                for (int l4 = 0; l4 < 1 << Cqe64.l4_hdr_type$BIT_WIDTH; l4++) {
                    int fl = 0;
                    if ((c & CqeHdsIpExt.L2_OK$MASK) != 0) fl |= PacketFlags.RX_L2_OK;
                    if ((c & CqeHdsIpExt.L3_OK$MASK) != 0) fl |= PacketFlags.RX_L3_OK;
                    if ((c & CqeHdsIpExt.L4_OK$MASK) != 0) fl |= PacketFlags.RX_L4_OK;
                    if (l3 == CqeL3HdrType.IPV4$VALUE) fl |= PacketFlags.RX_IPV4;
                    if (l3 == CqeL3HdrType.IPV6$VALUE) fl |= PacketFlags.RX_IPV6;
                    if (l4 == CqeL4HdrType.UDP$VALUE) fl |= PacketFlags.RX_UDP;
                    else if (l4 != CqeL4HdrType.NONE$VALUE) fl |= PacketFlags.RX_TCP;
                    RX_FLAGS[flagsIndex(c, l3, l4)] = fl;
                }
            }
        }
    }

    /** Where {@link #RX_FLAGS} keeps the flags of a CQE's hds_ip_ext, l3_hdr_type and l4_hdr_type. */
    private static int flagsIndex(int checks, int l3, int l4) {
        return (checks & CHECK_BITS) | l3 << L3_AT | l4 << L4_AT;
    }

    /** The {@link PacketFlags} a CQE at {@code at} reports: its checksum bits, L3 and L4 header types. */
    private static int flagsOf(MemorySegment cq, long at) {
        return RX_FLAGS[flagsIndex(Cqe64.hds_ip_ext(cq, at), Cqe64.l3_hdr_type(cq, at), Cqe64.l4_hdr_type(cq, at))];
    }

    /** Mini CQEs in one CQE slot of a session (eight). */
    private static final int MINIS = (int) (Cqe64.SIZE / MiniCqe8.SIZE);

    private final RqResources res;
    private final QueueGuard guard;
    private final PacketPool pool;
    private final MemorySegment ring;
    private final int mask;
    private final int entries;
    private final MemorySegment dbr;
    private final CompletionRing cq;
    private final int[] slotBuffer;

    /*
     * The compressed session in progress (the kernel's struct mlx5e_cq_decomp): a session may be larger
     * than what one receive call takes, so what is left of it carries over to the next call.
     */
    /** Completions of the session not consumed yet (0: no session open). */
    private int zipLeft;
    /** Index of the next completion in the session, and its wqe_counter (the title's + index). */
    private int zipIndex;
    private int zipCounter;
    /** What the title says for every completion: PacketFlags, VLAN word (-1: not tagged), opcode RESP_SEND. */
    private int zipFlags;
    private int zipVlan;
    private boolean zipOk;
    /** The current mini CQE array, copied out of the ring (its slot's op_own byte is rewritten before the array is done). */
    private final int[] miniBytes = new int[MINIS];
    private final int[] miniHash = new int[MINIS];

    /** WQEs posted (free-running 16-bit counter space, kept as int) and consumed. */
    private int posted;
    private int consumed;

    private long packets;
    private long bytes;
    private long errors;
    private long refillShortfalls;
    private long sessions;
    private long sessionPackets;

    /**
     * An RX queue on RQ {@code i} of {@code port}, posting buffers of {@code pool} (all it can, at once):
     * the port owns it (see the class comment). A second queue on the same RQ is refused.
     */
    public static RxQueue open(EthPort port, int i, PacketPool pool) {
        if (pool.closed) throw pool.closedException();
        QueueGuard guard = new QueueGuard("the RX queue on RQ " + i);
        return new RxQueue(port.claimRq(i, guard), pool, guard);
    }

    /**
     * An RX queue on an RQ the caller made (rings built without a port: tests and benchmarks); on a
     * port use {@link #open}. Posts buffers at once.
     */
    public RxQueue(RqResources res, PacketPool pool) {
        this(res, pool, new QueueGuard("the RX queue on RQ 0x" + Integer.toHexString(res.rqn())));
    }

    private RxQueue(RqResources res, PacketPool pool, QueueGuard guard) {
        this.res = res;
        this.guard = guard;
        this.pool = pool;
        this.ring = res.ring().segment();
        this.entries = res.entries();
        this.mask = entries - 1;
        this.dbr = res.doorbellRecord();
        this.cq = new CompletionRing(res.cq());
        this.slotBuffer = new int[entries];
        java.util.Arrays.fill(slotBuffer, -1);
        fill();
    }

    public int rqn() {
        return res.rqn();
    }

    public PacketPool pool() {
        return pool;
    }

    /**
     * Up to {@code max} received packets into {@code buffers[0..]}; returns how many (at most {@code max}
     * completions are consumed per call, so fewer when some of them were errors). Their length,
     * flags, VLAN and RSS hash are in the pool's metadata; the caller owns the buffers (free them, or
     * send them). Error CQEs are counted and their buffers go straight back on the RQ.
     */
    public int receive(int[] buffers, int max) {
        guard.enter();
        try {
            return receiveBurst(buffers, max);
        } finally {
            guard.exit();
        }
    }

    private int receiveBurst(int[] buffers, int max) {
        if (pool.closed) throw pool.closedException();
        // Checked once per call, before any CQE is consumed: a short array found part way would lose the burst's buffers.
        if (max > buffers.length) throw new IllegalArgumentException("max " + max + " is more than the " + buffers.length + " buffers the array holds");
        if (zipLeft != 0) return receiveMixed(buffers, 0, 0, max);
        // The plain burst: a run of plain CQEs, taken; a title sends the rest of the call to receiveMixed.
        final CompletionRing cq = this.cq;
        final int first = cq.cc;
        int n = takePlain(buffers, 0, max);
        int taken = cq.cc - first;
        if (taken < max && cq.kind(cq.cc) == CompletionRing.TITLE) return receiveMixed(buffers, n, taken, max);
        return n;
    }

    /**
     * The rest of a receive call once a session is involved: {@code n} buffers handed out and
     * {@code taken} completions consumed so far; sessions and plain runs alternate until {@code max}
     * completions or no more owned CQEs.
     */
    private int receiveMixed(int[] buffers, int n, int taken, int max) {
        while (taken < max) {
            if (zipLeft != 0) {
                // A session open (left over from the last call, or started below): its next completions.
                int k = Math.min(zipLeft, max - taken);
                n = sessionRun(buffers, n, k);
                taken += k;
                continue;
            }
            int before = cq.cc;
            n = takePlain(buffers, n, max - taken);
            taken += cq.cc - before;
            // The plain run stops at a CQE that is not ours, at max, or at a title.
            if (taken == max || cq.kind(cq.cc) != CompletionRing.TITLE) break;
            CompletionRing.acquire(); // the title's owner byte before the rest of the session
            startSession();
        }
        if (taken > 0) {
            // All CQE reads (and the session slots' owner fix-up) are done before the device may reuse the entries.
            cq.release();
            fill();
        }
        return n;
    }

    /**
     * Takes the run of plain CQEs the device has handed over from the consumer counter on, at most
     * {@code max} ({@link CompletionRing#ownedPlain}): decodes them into {@code buffers[n..]}, gives the
     * entries back to the device (consumer index) and refills the RQ; returns the new n. The one
     * decode of a plain CQE.
     *
     * <p>Poll, decode, release and refill are one method, too large for C2 to inline into its callers,
     * so it compiles as one unit as the plain burst did before the split: with the decode a call of its
     * own between an inlined poll and an inlined refill, rx-burst was about 15% slower
     * (docs/datapath-bench-log.md, "rx-burst after the split").
     */
    private int takePlain(int[] buffers, int n, int max) {
        final int n0 = n;
        final CompletionRing ring = this.cq;
        final int polled = ring.ownedPlain(max);
        if (polled == 0) return n;
        // All RESP_SEND (the usual burst): the loop need not read each opcode again.
        final boolean allSend = ring.allResponses(polled);
        // Everything the loop needs in locals (C2 reloads fields and segment headers after a fence).
        final MemorySegment cq = ring.cqes;
        final int[] slots = slotBuffer;
        final PacketPool p = pool;
        final int[] meta = p.meta;
        final int cqm = ring.mask;
        // The ring's mask as slots.length - 1 (slotBuffer has one entry per WQE, a power of two): C2 then
        // knows every masked slot index is in bounds and drops the array's range check.
        final int m = slots.length - 1;
        // PRM: no other CQE field may be read before the ownership byte says the entry is ours: one load
        // fence (dma_rmb) after all the ownership bytes of the burst, as DPDK's vectorised mlx5 RX does,
        // instead of one per CQE (after which C2 reloads every segment header and field).
        CompletionRing.acquire();
        long rxBytes = 0;
        int errs = 0;
        final int first = ring.cc;
        for (int k = 0; k < polled; k++) {
            long at = (long) ((first + k) & cqm) * Cqe64.SIZE;
            boolean send = allSend || Cqe64.opcode(cq, at) == CqeOpcode.RESP_SEND$VALUE;
            int slot = Cqe64.wqe_counter(cq, at) & m;
            int h = slots[slot];
            slots[slot] = -1;
            if (send && h >= 0) {
                // Every CQE field into locals first, the stores to the pool's metadata after them.
                int len = Cqe64.byte_cnt(cq, at);
                int fl = flagsOf(cq, at);
                boolean tagged = Cqe64.vlan_present(cq, at);
                int tci = Cqe64.vlan_info(cq, at);
                int rss = Cqe64.rss_hash_result(cq, at);
                // One array, a fixed stride: C2 checks the range of the neighbouring indexes once.
                int b = h * PacketPool.META_STRIDE;
                if (tagged) {
                    fl |= PacketFlags.RX_VLAN_STRIPPED;
                    meta[b + PacketPool.VLAN_MSS] = tci;
                }
                meta[b + PacketPool.LENGTH] = len;
                meta[b + PacketPool.FLAGS] = fl;
                meta[b + PacketPool.RSS_HASH] = rss;
                buffers[n++] = h;
                rxBytes += len;
            } else {
                errs++;
                if (h >= 0) p.free(h); // recycled: the refill posts it again
            }
        }
        ring.cc = first + polled;
        // All CQE reads are done before the device may reuse the entries.
        ring.release();
        consumed += polled;
        packets += n - n0;
        bytes += rxBytes;
        errors += errs;
        fill();
        return n;
    }

    /**
     * Opens the session whose title is at the consumer counter (its ownership checked and fenced):
     * the length N from the title's {@code byte_cnt}, the first completion's {@code wqe_counter}, the
     * flags and VLAN word every completion shares, and the first mini CQE array from the next slot
     * (kernel mlx5e_decompress_cqes_start, mlx5e_read_title_slot, mlx5e_read_mini_arr_slot).
     */
    private void startSession() {
        final MemorySegment cq = this.cq.cqes;
        long at = this.cq.offset(this.cq.cc);
        int n = Cqe64.byte_cnt(cq, at);
        // A session holds 2..cqe_compression_max_num completions; anything outside the ring is not one.
        if (n < 1 || n > this.cq.entries()) n = 1;
        int fl = flagsOf(cq, at);
        int vlan = -1;
        if (Cqe64.vlan_present(cq, at)) {
            fl |= PacketFlags.RX_VLAN_STRIPPED;
            vlan = Cqe64.vlan_info(cq, at);
        }
        zipOk = Cqe64.opcode(cq, at) == CqeOpcode.RESP_SEND$VALUE;
        zipFlags = fl;
        zipVlan = vlan;
        zipCounter = Cqe64.wqe_counter(cq, at);
        zipIndex = 0;
        zipLeft = n;
        sessions++;
        loadMinis(this.cq.cc + 1);
    }

    /** Copies the eight mini CQEs of the array in CQ slot {@code c} (HASH format: byte count and RSS hash). */
    private void loadMinis(int c) {
        final MemorySegment cq = this.cq.cqes;
        long at = this.cq.offset(c);
        for (int j = 0; j < MINIS; j++) {
            long mini = at + (long) j * MiniCqe8.SIZE;
            miniBytes[j] = MiniCqe8.byte_cnt(cq, mini);
            miniHash[j] = MiniCqe8.rx_hash_result(cq, mini);
        }
    }

    /**
     * The next {@code k} completions of the open session into {@code buffers[n..]}; returns the new n.
     * Completion i takes mini CQE {@code i % 8} (the array is read again at every eighth completion,
     * from that completion's own slot), {@code wqe_counter} = the title's + i, and the title's flags.
     * Each consumed slot's {@code op_own} is then rewritten with only the owner bit of its pass (kernel
     * mlx5e_cqes_update_owner), so on the next pass a stale mini array or title reads as the
     * device's, not as a new CQE.
     */
    private int sessionRun(int[] buffers, int n, int k) {
        final int n0 = n;
        final CompletionRing ring = this.cq;
        final int[] slots = slotBuffer;
        final PacketPool p = pool;
        final int[] meta = p.meta;
        final int m = slots.length - 1;
        final int fl = zipFlags;
        final int vlan = zipVlan;
        final boolean ok = zipOk;
        int cc = ring.cc;
        int index = zipIndex;
        int counter = zipCounter;
        long rxBytes = 0;
        int errs = 0;
        for (int j = 0; j < k; j++, cc++, index++, counter++) {
            if (index > 0 && (index & (MINIS - 1)) == 0) loadMinis(cc);
            int slot = counter & m;
            int h = slots[slot];
            slots[slot] = -1;
            if (ok && h >= 0) {
                int len = miniBytes[index & (MINIS - 1)];
                int b = h * PacketPool.META_STRIDE;
                if (vlan >= 0) meta[b + PacketPool.VLAN_MSS] = vlan;
                meta[b + PacketPool.LENGTH] = len;
                meta[b + PacketPool.FLAGS] = fl;
                meta[b + PacketPool.RSS_HASH] = miniHash[index & (MINIS - 1)];
                buffers[n++] = h;
                rxBytes += len;
            } else {
                errs++;
                if (h >= 0) p.free(h);
            }
            ring.retire(cc);
        }
        ring.cc = cc;
        zipIndex = index;
        zipCounter = counter;
        zipLeft -= k;
        consumed += k;
        packets += n - n0;
        sessionPackets += k;
        bytes += rxBytes;
        errors += errs;
        return n;
    }

    /**
     * Posts a fresh buffer into every empty RQ slot the pool can fill; one doorbell record update. The
     * buffers come straight off the pool's free stack (its top in a local, stored once); their metadata
     * is not cleared, as {@link #receive} writes it when the device hands them back.
     */
    private int fill() {
        int want = entries - (posted - consumed);
        if (want == 0) return 0;
        final PacketPool p = pool;
        final int[] free = p.freeStack();
        int top = p.top;
        int got = Math.min(want, top);
        if (got < want) refillShortfalls++;
        if (got == 0) return 0;
        final int[] slots = slotBuffer;
        final MemorySegment rq = ring;
        final int m = slots.length - 1; // as in receive: no range check on slots[at & m]
        final int lkey = p.lkey();
        final int size = p.bufferSize();
        final long base = p.addressBase();
        int at = posted;
        for (int i = 0; i < got; i++, at++) {
            int h = free[--top];
            int slot = at & m;
            WqeDataSeg.store(rq, (long) slot * WqeDataSeg.SIZE, PrmField.byte_count, size, PrmField.lkey, lkey, PrmField.addr, base + (long) h * size);
            slots[slot] = h;
        }
        p.top = top;
        posted = at;
        // WQEs before the counter that publishes them (the RQ has no MMIO doorbell: the device reads this record).
        VarHandle.storeStoreFence();
        WqDoorbellRecord.receive_counter$setUnchecked(dbr, posted & 0xffff);
        return got;
    }

    /** Tries again to fill empty slots (after the pool ran dry); returns how many were posted. */
    public int refill() {
        guard.enter();
        try {
            return fill();
        } finally {
            guard.exit();
        }
    }

    /**
     * Ends the queue's use: later calls are refused. The buffers still posted stay with the RQ (the
     * device may write into them) until the port destroys it and then frees their memory.
     */
    @Override
    public void close() {
        guard.close();
    }

    public boolean isClosed() {
        return guard.closed();
    }

    /** WQEs posted and not yet consumed. */
    public int postedWqes() {
        return posted - consumed;
    }

    public long packets() {
        return packets;
    }

    public long bytes() {
        return bytes;
    }

    /** Error CQEs (and CQEs of an unexpected kind) seen; their buffers were recycled. */
    public long errors() {
        return errors;
    }

    /** Compressed sessions opened (CQE compression), and the completions they held. */
    public long compressedSessions() {
        return sessions;
    }

    public long compressedCompletions() {
        return sessionPackets;
    }

    /** Times the pool could not fill every empty RQ slot. */
    public long refillShortfalls() {
        return refillShortfalls;
    }

    /** Returns every buffer still posted to the pool (after the RQ is destroyed or in RST). */
    public void drainToPool() {
        for (int i = 0; i < entries; i++) {
            if (slotBuffer[i] >= 0) {
                pool.free(slotBuffer[i]);
                slotBuffer[i] = -1;
            }
        }
        consumed = posted;
        zipLeft = 0;
    }
}

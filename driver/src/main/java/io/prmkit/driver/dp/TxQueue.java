package io.prmkit.driver.dp;

import io.prmkit.driver.eth.EthPort;
import io.prmkit.driver.eth.SqResources;
import io.prmkit.mlx5.CompletionMode;
import io.prmkit.mlx5.Cqe64;
import io.prmkit.mlx5.CqeErrorSyndrome;
import io.prmkit.mlx5.CqeOpcode;
import io.prmkit.mlx5.ErrCqe;
import io.prmkit.mlx5.EthCsFlags;
import io.prmkit.mlx5.InlineMode;
import io.prmkit.mlx5.SendWqeOpcode;
import io.prmkit.mlx5.SqState;
import io.prmkit.mlx5.WqeCtrlSeg;
import io.prmkit.mlx5.WqeEthSeg;
import java.lang.foreign.MemorySegment;

/**
 * Ethernet transmit on one SQ (PRM "Ethernet Send WQE", "Completion with error"): ixy-shaped
 * {@link #send} of a burst of packet buffers, one doorbell per burst, completions that return the
 * buffers to their pools, and recovery from an error CQE. The WQEs come from {@link SendWqe}, their
 * place in the ring and the doorbell from {@link SendRing}, the completions from
 * {@link CompletionRing}; this class decides what each frame's WQE holds and which buffer each WQE
 * gives back.
 *
 * <p>{@link #open} builds the queue on an SQ of a port, which owns it: one queue per SQ, closed (and
 * its buffers' memory freed) by the port in the right order whatever the user closes first. One
 * thread at a time: a call while another thread is inside one is refused, as is any call after
 * {@link #close}.
 *
 * <p>Each WQE's tag in the ring's bookkeeping is the buffer it sends ({@code handle + 1}, 0: none)
 * and whether that buffer belongs to another pool than the default one (then in {@link #slotPool}),
 * so the completion of {@code wqe_counter} frees everything up to and including that WQE.
 */
public final class TxQueue implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger(TxQueue.class.getName());

    /** One CQE is requested at least every this many WQEs (DPDK's MLX5_TX_COMP_THRESH). */
    public static final int COMPLETION_BATCH = 32;
    /**
     * Frames up to this length are carried whole inside the WQE (no data segment, buffer freed at once):
     * what fits in two WQEBBs after the ctrl segment and the Ethernet segment's first 14 bytes. The
     * device then reads the frame with the WQE instead of gathering it through the memory key as a
     * second read; DPDK's mlx5 PMD also inlines whole small packets by default ({@code txq_inline_max}).
     */
    public static final int DEFAULT_INLINE_MAX = (int) (2 * SendWqe.WQEBB - WqeCtrlSeg.SIZE - WqeEthSeg.inline_hdr_start$BYTE_OFFSET);

    private static final int CS_L3 = EthCsFlags.L3_CSUM$MASK;
    private static final int CS_L4 = EthCsFlags.L4_CSUM$MASK;
    private static final int CQE_ALWAYS = CompletionMode.CQE_ALWAYS$VALUE;
    private static final int CQE_ON_ERROR = CompletionMode.CQE_ON_ERROR$VALUE;
    /** A WQE's tag in {@link SendRing#slotInfo}: bit 0 the buffer is of another pool, above it handle + 1. */
    private static final int TAG_FOREIGN = 1;
    private static final int TAG_HANDLE_SHIFT = 1;
    /** The tag's bits in {@link SendRing#slotInfo}. */
    private static final int FOREIGN = TAG_FOREIGN << SendRing.WQEBB_BITS;
    private static final int HANDLE_SHIFT = TAG_HANDLE_SHIFT + SendRing.WQEBB_BITS;
    /** Largest pool a queue sends from: handle + 1 must fit the tag. */
    static final int MAX_POOL_BUFFERS = (1 << (32 - HANDLE_SHIFT)) - 1;
    /** Flags that keep a frame off the plain path. */
    private static final int NOT_PLAIN = PacketFlags.TX_VLAN | PacketFlags.TX_LSO;

    static {
        // sendPlain finds the frames that ask for a CQE with a mask.
        if (Integer.bitCount(COMPLETION_BATCH) != 1) throw new AssertionError("COMPLETION_BATCH " + COMPLETION_BATCH + " is not a power of two");
    }

    private final SqResources res;
    private final QueueGuard guard;
    private final SendRing sq;
    private final CompletionRing cq;
    private final int sqn;
    private final InlineMode inlineMode;
    /** The common mode (ConnectX-4 Lx and ConnectX-5 ask for L2): its 18 bytes need no parsing. */
    private final boolean l2Inline;
    private int inlineMax = DEFAULT_INLINE_MAX;
    /** Frames longer than this (and without VLAN insert or LSO) take {@link #sendPlain}; MAX_VALUE: none. */
    private int plainMin;

    /** CQEs requested (WQEs with ce = CQE_ALWAYS) and not yet polled: never more than the CQ holds. */
    private int cqeOutstanding;
    /** WQEs posted since the last one that requests a CQE. */
    private int sinceCqe;
    /** This burst's last WQE (byte offset in the ring; -1: none yet) and whether it asks for a CQE. */
    private long lastWqe;
    private boolean lastSignalled;

    /** Per WQEBB slot, the pool of a buffer tagged foreign there. */
    private final PacketPool[] slotPool;
    private final PacketPool defaultPool;

    // Statistics (read by the port; single writer, this queue's thread).
    private long packets;
    private long bytes;
    private long completions;
    private long errors;
    private long recoveries;
    private long umrs;
    private boolean errorLogged;
    private String lastError = "";

    /**
     * A TX queue on SQ {@code i} of {@code port}, sending from {@code defaultPool} by default: the port
     * owns it (see the class comment). A second queue on the same SQ is refused.
     */
    public static TxQueue open(EthPort port, int i, PacketPool defaultPool) {
        QueueGuard guard = new QueueGuard("the TX queue on SQ " + i);
        return new TxQueue(port.claimSq(i, guard), defaultPool, guard);
    }

    /**
     * A TX queue on an SQ the caller made (rings built without a port: tests and benchmarks); on a port
     * use {@link #open}.
     */
    public TxQueue(SqResources res, PacketPool defaultPool) {
        this(res, defaultPool, new QueueGuard("the TX queue on SQ 0x" + Integer.toHexString(res.sqn())));
    }

    private TxQueue(SqResources res, PacketPool defaultPool, QueueGuard guard) {
        this.res = res;
        this.guard = guard;
        this.sq = new SendRing(res);
        this.cq = new CompletionRing(res.cq());
        this.sqn = res.sqn();
        this.inlineMode = res.minInlineMode();
        this.l2Inline = inlineMode == InlineMode.L2;
        this.slotPool = new PacketPool[sq.size];
        this.defaultPool = defaultPool;
        this.plainMin = plainMin(l2Inline, inlineMax);
    }

    /** Plain frames need the L2 inline mode and must be longer than its 18 bytes and than the whole-frame inline limit. */
    private static int plainMin(boolean l2Inline, int inlineMax) {
        return l2Inline ? Math.max(inlineMax, FrameHeaders.MIN_L2_INLINE) : Integer.MAX_VALUE;
    }

    /** Frames of at most this many bytes are sent whole inside the WQE. */
    public int inlineMax() {
        return inlineMax;
    }

    /** Frames of at most {@code bytes} are sent whole inside the WQE (0: never). */
    public void inlineMax(int bytes) {
        if (bytes < 0 || bytes > 256) throw new IllegalArgumentException("inline maximum " + bytes + " outside 0..256");
        this.inlineMax = bytes;
        this.plainMin = plainMin(l2Inline, bytes);
    }

    public int sqn() {
        return sqn;
    }

    /** Sends {@code buffers[0 .. n)} from the queue's default pool; see {@link #send(PacketPool, int[], int, int)}. */
    public int send(int[] buffers, int n) {
        return send(defaultPool, buffers, 0, n);
    }

    /** Sends {@code buffers[from .. from + n)} from the queue's default pool; see {@link #send(PacketPool, int[], int, int)}. */
    public int send(int[] buffers, int from, int n) {
        return send(defaultPool, buffers, from, n);
    }

    /**
     * Queues {@code buffers[from .. from + n)} of {@code pool} for sending, in order, and rings the
     * doorbell once. Returns how many were taken, from the front: fewer than {@code n} when the ring or
     * the CQ is full (a partial send is normal, not an error). The buffers taken now belong to the queue
     * and go back to {@code pool} when their completion arrives; the others are still the caller's, to
     * send again later (after completions free room) or to free. Completions are reaped first.
     *
     * <p>Runs of plain frames (no VLAN insert, no LSO, longer than {@link #inlineMax}, L2 inline mode:
     * one WQEBB each) go through {@link #sendPlain}, a small loop; every other frame goes through
     * {@link #sendOne}, which handles every shape. Both keep the burst's state in the fields between
     * them, so mixing them costs a few field stores per switch, not per packet.
     */
    public int send(PacketPool pool, int[] buffers, int from, int n) {
        guard.enter();
        try {
            return sendBurst(pool, buffers, from, n);
        } finally {
            guard.exit();
        }
    }

    private int sendBurst(PacketPool pool, int[] buffers, int from, int n) {
        java.util.Objects.checkFromIndexSize(from, n, buffers.length);
        if (pool.capacity() > MAX_POOL_BUFFERS)
            throw new IllegalArgumentException("a pool of " + pool.capacity() + " buffers is larger than a TX queue handles (" + MAX_POOL_BUFFERS + ")");
        if (pool.closed) throw pool.closedException();
        reapCq();
        lastWqe = -1;
        int end = from + n;
        int i = from;
        while (i < end) {
            i += sendPlain(pool, buffers, i, end);
            if (i == end || !sendOne(pool, buffers[i], i == end - 1)) break;
            i++;
        }
        int sent = i - from;
        packets += sent;
        if (lastWqe >= 0) {
            if (!lastSignalled) {
                // The burst stopped early (ring or CQ full): its last WQE still asks for a CQE.
                WqeCtrlSeg.ce$set(sq.wqes, lastWqe, CompletionMode.CQE_ALWAYS);
                sinceCqe = 0;
                cqeOutstanding++;
            }
            sq.ringDoorbell(lastWqe);
        }
        return sent;
    }

    /**
     * The common case, one WQEBB per frame ({@link SendWqe#plain}). Sends plain frames from
     * {@code buffers[i..end)} until a frame that is not plain, a full ring or a full CQ; returns how
     * many it sent. The queue's and the ring's state is in locals (written back once).
     */
    private int sendPlain(PacketPool pool, int[] buffers, int i, int end) {
        final int plainMin = this.plainMin;
        final SendRing sq = this.sq;
        final MemorySegment ring = sq.wqes;
        final int sqn = this.sqn;
        final int[] slotInfo = sq.slotInfo;
        // The ring's mask as slotInfo.length - 1 (one entry per WQEBB): C2 then drops slotInfo's range check.
        final int mask = slotInfo.length - 1;
        final PacketPool[] slotPool = this.slotPool;
        final boolean foreign = pool != defaultPool;
        final int[] meta = pool.meta;
        final MemorySegment mem = pool.memory();
        final int lkey = pool.lkey();
        final long bufferSize = pool.bufferSize();
        final long addressBase = pool.addressBase();
        final int last = end - 1;
        final int start = i;
        final int since0 = this.sinceCqe;
        // How many frames fit before the ring or the CQ is full, worked out once so that the loop tests
        // only the frames themselves: the ring has cc + size - pc free WQEBBs (one per plain frame); of the
        // CQ's free entries the first is asked for by the frame that makes since reach COMPLETION_BATCH,
        // the others every COMPLETION_BATCH frames after it.
        final int pc0 = sq.pc;
        final long ringRoom = sq.cc + sq.size - pc0;
        final int cqRoom = cq.entries() - cqeOutstanding;
        final long cqFrames = cqRoom <= 0 ? 0 : (long) COMPLETION_BATCH * cqRoom - since0;
        final int stop = (int) Math.min(end, start + Math.min(ringRoom, cqFrames));
        // The frame indexes that ask for a CQE: phase, phase + COMPLETION_BATCH, ... (and the burst's last).
        final int phase = start + COMPLETION_BATCH - 1 - since0;
        // The frame at index i gets WQEBB pc + (i - start).
        final int pcOfIndex = pc0 - start;
        long burstBytes = 0;
        for (; i < stop; i++) {
            int h = buffers[i];
            int len = meta[h * PacketPool.META_STRIDE + PacketPool.LENGTH];
            int fl = meta[h * PacketPool.META_STRIDE + PacketPool.FLAGS];
            if ((fl & NOT_PLAIN) != 0 || len <= plainMin) break;
            boolean signal = ((i - phase) & (COMPLETION_BATCH - 1)) == 0 || i == last;
            int pc = pcOfIndex + i;
            int slot = pc & mask;
            long boff = h * bufferSize;
            int cs = ((fl & PacketFlags.TX_IP_CSUM) != 0 ? CS_L3 : 0) | ((fl & PacketFlags.TX_L4_CSUM) != 0 ? CS_L4 : 0);
            SendWqe.plain(ring, (long) slot * SendWqe.WQEBB, pc, sqn, signal ? CQE_ALWAYS : CQE_ON_ERROR, cs, mem, boff, len, lkey, addressBase + boff);
            slotInfo[slot] = slotInfo(h, foreign, 1);
            if (foreign) slotPool[slot] = pool;
            burstBytes += len;
        }
        int sent = i - start;
        if (sent > 0) {
            // CQEs asked for by the COMPLETION_BATCH rule (frames phase, phase + 32, ... up to the last sent),
            // then by the burst's end
            int past = i - 1 - phase;
            int batched = past >= 0 ? past / COMPLETION_BATCH + 1 : 0;
            boolean onBatch = past >= 0 && (past & (COMPLETION_BATCH - 1)) == 0;
            boolean signal = onBatch || i - 1 == last;
            int pc = pcOfIndex + i;
            sq.pc = pc;
            this.cqeOutstanding += batched + (signal && !onBatch ? 1 : 0);
            this.sinceCqe = signal ? 0 : since0 + sent - COMPLETION_BATCH * batched;
            this.lastWqe = (long) ((pc - 1) & mask) * SendWqe.WQEBB;
            this.lastSignalled = signal;
            this.bytes += burstBytes;
        }
        return sent;
    }

    /**
     * One frame of any shape (PRM "Ethernet Segment"): inline headers as the inline mode, VLAN insert,
     * LSO or the frame's size ask. Returns false, taking nothing, when the ring or the CQ has no room.
     */
    private boolean sendOne(PacketPool pool, int h, boolean lastOfBurst) {
        if (cqeOutstanding == cq.entries()) return false;
        MemorySegment mem = pool.memory();
        int len = pool.length(h);
        int fl = pool.flags(h);
        long boff = pool.offset(h);
        boolean vlan = (fl & PacketFlags.TX_VLAN) != 0;
        boolean lso = (fl & PacketFlags.TX_LSO) != 0;
        boolean whole = !lso && len <= inlineMax;
        int ihs;
        if (whole) ihs = len;
        else if (lso) ihs = FrameHeaders.headersEnd(mem, boff, len);
        else if (l2Inline) ihs = Math.min(len, FrameHeaders.MIN_L2_INLINE);
        else ihs = FrameHeaders.inlineLength(inlineMode, mem, boff, len);
        if (ihs < 0) throw new IllegalArgumentException("LSO frame " + h + " has no TCP header to segment");
        boolean vlanInline = vlan && ihs > 0;
        int inl = vlanInline ? ihs + FrameHeaders.VLAN_HLEN : ihs;
        boolean data = len > ihs;
        int ds = SendWqe.ethDs(inl, data);
        int wqebbs = SendWqe.wqebbs(ds);
        int slot = sq.reserve(wqebbs);
        if (slot < 0) return false;
        int pc = sq.pc;
        boolean signal = ++sinceCqe >= COMPLETION_BATCH || lastOfBurst;
        if (signal) {
            sinceCqe = 0;
            cqeOutstanding++;
        }
        MemorySegment ring = sq.wqes;
        long w = (long) slot * SendWqe.WQEBB;
        SendWqe.ctrl(ring, w, lso ? SendWqeOpcode.LSO$VALUE : SendWqeOpcode.SEND$VALUE, pc, sqn, ds, signal ? CQE_ALWAYS : CQE_ON_ERROR);
        int cs = 0;
        if ((fl & PacketFlags.TX_IP_CSUM) != 0 || lso) cs |= CS_L3;
        if ((fl & PacketFlags.TX_L4_CSUM) != 0 || lso) cs |= CS_L4;
        if (lso && FrameHeaders.etherType(mem, boff, len) != FrameHeaders.ETHERTYPE_IPV4) cs &= ~CS_L3;
        int mss = lso ? pool.mss(h) : 0;
        if (vlan && !vlanInline) SendWqe.ethVlan(ring, w, cs, mss, pool.vlanTci(h));
        else SendWqe.ethInline(ring, w, cs, mss, inl);
        if (vlanInline) SendWqe.inlineWithTag(mem, boff, ring, w, ihs, (short) pool.vlanTci(h));
        else SendWqe.inline(mem, boff, ring, w, ihs);
        if (data) {
            SendWqe.data(ring, w + SendWqe.dataAt(inl), len - ihs, pool.lkey(), pool.deviceAddress(h) + ihs);
            sq.posted(slot, tag(h, pool != defaultPool), wqebbs);
            slotPool[slot] = pool;
        } else {
            // Everything is inside the WQE: the buffer is free again right away.
            sq.posted(slot, 0, wqebbs);
            pool.free(h);
        }
        lastWqe = w;
        lastSignalled = signal;
        bytes += len;
        return true;
    }

    private static int tag(int handle, boolean foreign) {
        return (handle + 1) << TAG_HANDLE_SHIFT | (foreign ? TAG_FOREIGN : 0);
    }

    private static int slotInfo(int handle, boolean foreign, int wqebbs) {
        return SendRing.slotInfo(tag(handle, foreign), wqebbs);
    }

    /**
     * Reaps the TX CQ without sending: every CQE frees the WQEs up to its {@code wqe_counter} (their
     * buffers go back to their pools); an error CQE triggers recovery. Returns the number of CQEs
     * consumed. {@link #send} reaps first too.
     */
    public int reap() {
        guard.enter();
        try {
            return reapCq();
        } finally {
            guard.exit();
        }
    }

    private int reapCq() {
        final CompletionRing cq = this.cq;
        int n = 0;
        long cqe;
        while ((cqe = cq.poll()) >= 0) {
            cq.cc++;
            n++;
            if (cqeOutstanding > 0) cqeOutstanding--;
            int opcode = Cqe64.opcode(cq.cqes, cqe);
            if (opcode == CqeOpcode.REQ$VALUE) {
                completeUpTo(Cqe64.wqe_counter(cq.cqes, cqe));
            } else if (opcode == CqeOpcode.REQ_ERR$VALUE) {
                cq.release();
                recover(cqe);
                return n;
            } else {
                // Not a send completion: nothing of ours to free; counted as an error.
                errors++;
            }
        }
        if (n > 0) cq.release();
        return n;
    }

    /**
     * Frees every WQE from the consumer counter up to and including the one at {@code wqeCounter}. The
     * WQEBBs to free are worked out first: the completed WQE's full counter from its 16-bit one, plus its
     * size from the ring's bookkeeping. The walk is then a counted loop over WQEBB slots (a WQE's later
     * WQEBBs hold 0: no buffer, not a WQE start) in which no slot's address depends on what the slot
     * before it held: walking WQE by WQE chains each slot's load to the one before it, and that chain,
     * not the work, set the pace. The counters and the current pool's free stack are in locals, written
     * back once: the buffers of a burst nearly always go back to one pool.
     */
    private void completeUpTo(int wqeCounter) {
        final SendRing sq = this.sq;
        final int mask = sq.mask;
        final int[] slotInfo = sq.slotInfo;
        final int cc = sq.cc;
        final int inFlight = sq.pc - cc;
        // The completed WQE: its full counter, and the WQEBBs up to its end. A counter that names no WQE
        // start in flight (a device bug) completes everything in flight, as walking to pc would.
        final int at = (wqeCounter - cc) & SendWqe.INDEX_MASK;
        final int size = at < inFlight ? slotInfo[(cc + at) & mask] & SendRing.WQEBBS : 0;
        final int n = size > 0 ? at + size : inFlight;
        final PacketPool pool = defaultPool;
        final int[] free = pool.freeStack();
        int top = pool.top;
        int done = 0;
        for (int k = 0; k < n; k++) {
            int slot = (cc + k) & mask;
            int info = slotInfo[slot];
            if ((info & SendRing.WQEBBS) != 0) done++;
            int h = (info >>> HANDLE_SHIFT) - 1;
            if (h >= 0) {
                if ((info & FOREIGN) == 0) {
                    if (top == free.length) {
                        pool.top = top;
                        throw new IllegalStateException("pool is full: buffer " + h + " freed twice");
                    }
                    free[top++] = h;
                } else {
                    slotPool[slot].free(h);
                }
            }
        }
        pool.top = top;
        sq.cc = cc + n;
        completions += done;
    }

    /**
     * Error CQE on the SQ (PRM "Completion with error"): the SQ is in ERR and executes nothing more.
     * Log the syndrome (and the spec's rules the failed WQE breaks, {@link SendWqe#brokenRules}) once,
     * move the SQ ERR→RST (it stops touching our memory), drop what the CQ still holds, return every
     * in-flight buffer, restart the ring at 0 and move the SQ RST→RDY.
     */
    private void recover(long cqe) {
        errors++;
        MemorySegment cqes = cq.cqes;
        int syndrome = ErrCqe.syndrome(cqes, cqe);
        int vendor = ErrCqe.vendor_err_synd(cqes, cqe);
        int failed = ErrCqe.wqe_counter(cqes, cqe);
        lastError = "SQ 0x" + Integer.toHexString(sqn) + ": WQE " + failed + " failed: " + CqeErrorSyndrome.describe(syndrome)
                + " (vendor syndrome 0x" + Integer.toHexString(vendor) + "); " + SendWqe.brokenRules(sq.wqes, sq.mask, failed, sqn, inlineMode);
        if (!errorLogged) {
            errorLogged = true;
            LOG.log(System.Logger.Level.WARNING, lastError + "; recovering (further errors on this queue are counted, not logged)");
        }
        res.control().modifySq(sqn, SqState.ERR, SqState.RST);
        // In RST the device writes nothing more for this SQ: consume what it wrote before.
        cq.drain();
        while (sq.cc != sq.pc) {
            int slot = sq.cc & sq.mask;
            int info = sq.slotInfo[slot];
            int h = (info >>> HANDLE_SHIFT) - 1;
            if (h >= 0) ((info & FOREIGN) == 0 ? defaultPool : slotPool[slot]).free(h);
            sq.cc += info & SendRing.WQEBBS;
        }
        sinceCqe = 0;
        cqeOutstanding = 0;
        sq.reset();
        res.control().modifySq(sqn, SqState.RST, SqState.RDY);
        recoveries++;
    }

    /**
     * Registers {@code pool}'s whole region behind the indirect mkey {@code mkey} with one UMR WQE on
     * this SQ ({@link SendWqe#umr}): {@code pieces} KLM entries, each a slice of the region through the
     * pool's current key; the mkey then covers {@code [base, base + region size)}. The mkey must have
     * been created free, with {@code umr_en}, KLM access mode and room for the entries; the SQ needs
     * {@code reg_umr}. Sends after this WQE execute after it (the SQ runs its WQEs in order), so the
     * pool switches to the new key at once. Returns false (nothing posted) when the ring or the CQ has
     * no room now.
     */
    public boolean registerUmr(int mkey, long base, PacketPool pool, int pieces) {
        guard.enter();
        try {
            return postUmr(mkey, base, pool, pieces);
        } finally {
            guard.exit();
        }
    }

    private boolean postUmr(int mkey, long base, PacketPool pool, int pieces) {
        long total = pool.byteSize();
        if (pieces < 1 || pieces > 16 || total % pieces != 0 || total / pieces > Integer.MAX_VALUE)
            throw new IllegalArgumentException("cannot cut a region of " + total + " bytes into " + pieces + " KLM entries");
        reapCq();
        if (cqeOutstanding == cq.entries()) return false;
        int wqebbs = SendWqe.wqebbs(SendWqe.umrDs(pieces));
        int slot = sq.reserve(wqebbs);
        if (slot < 0) return false;
        long w = (long) slot * SendWqe.WQEBB;
        SendWqe.umr(sq.wqes.asSlice(w, wqebbs * SendWqe.WQEBB), sq.pc, sqn, mkey, base, total, pieces, pool.lkey(), pool.deviceAddress(0));
        sq.posted(slot, 0, wqebbs);
        sinceCqe = 0;
        cqeOutstanding++;
        sq.ringDoorbell(w);
        pool.useKey(mkey, base);
        umrs++;
        return true;
    }

    /**
     * Ends the queue's use: later calls are refused. Its SQ and the buffers still in flight stay with
     * the port until the port closes (destroys the SQ, then frees the buffers' memory).
     */
    @Override
    public void close() {
        guard.close();
    }

    public boolean isClosed() {
        return guard.closed();
    }

    public long umrs() {
        return umrs;
    }

    /** WQEBBs posted and not yet completed. */
    public int inFlight() {
        return sq.inFlight();
    }

    public int ringSize() {
        return sq.size;
    }

    public long packets() {
        return packets;
    }

    public long bytes() {
        return bytes;
    }

    public long nops() {
        return sq.nops();
    }

    public long doorbells() {
        return sq.doorbells();
    }

    public long completions() {
        return completions;
    }

    /** Error CQEs seen (each one recovered). */
    public long errors() {
        return errors;
    }

    public long recoveries() {
        return recoveries;
    }

    /** The last error, decoded ("" when there was none). */
    public String lastError() {
        return lastError;
    }

    /** Producer counter (WQEBBs), for tests and statistics. */
    public int producerCounter() {
        return sq.pc;
    }

    /** CQEs requested and not yet reaped (at most the CQ size). */
    public int cqeOutstanding() {
        return cqeOutstanding;
    }
}

package io.prmkit.driver.dp;

import io.prmkit.driver.eth.EthPort;
import io.prmkit.driver.eth.SqResources;
import io.prmkit.mlx5.CompletionMode;
import io.prmkit.mlx5.CqDoorbellRecord;
import io.prmkit.mlx5.Cqe64;
import io.prmkit.mlx5.CqeErrorSyndrome;
import io.prmkit.mlx5.CqeOpcode;
import io.prmkit.mlx5.ErrCqe;
import io.prmkit.mlx5.EthCsFlags;
import io.prmkit.mlx5.InlineMode;
import io.prmkit.mlx5.Mkc;
import io.prmkit.mlx5.MkcAccessMode;
import io.prmkit.mlx5.PrmConstants;
import io.prmkit.mlx5.SendWqeOpcode;
import io.prmkit.mlx5.SqDoorbell;
import io.prmkit.mlx5.SqState;
import io.prmkit.mlx5.UmrCtrlFlags;
import io.prmkit.mlx5.UmrMkeyMask;
import io.prmkit.mlx5.WqDoorbellRecord;
import io.prmkit.mlx5.WqeCtrlSeg;
import io.prmkit.mlx5.WqeDataSeg;
import io.prmkit.mlx5.WqeEthSeg;
import io.prmkit.mlx5.WqeNop;
import io.prmkit.mlx5.WqeUmrCtrlSeg;
import io.prmkit.mlx5.WqeUmrKlmSeg;
import io.prmkit.net.Ethhdr;
import io.prmkit.net.VlanHdr;
import io.prmkit.platform.Mmio;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;

/**
 * The send side of one Ethernet SQ (PRM "Send WQE" and "Completion Queue" chapters): ixy-shaped
 * {@link #send} of a burst of packet buffers, one doorbell per burst, completions that return the
 * buffers to their pools, and recovery from an error CQE.
 *
 * <p>{@link #open} builds the queue on an SQ of a port, which owns it: one queue per SQ, closed (and
 * its buffers' memory freed) by the port in the right order whatever the user closes first. One
 * thread at a time: a call while another thread is inside one is refused, as is any call after
 * {@link #close}.
 *
 * <p>Ring bookkeeping is the kernel's: {@code pc} and {@code cc} count 64-byte basic blocks (WQEBBs),
 * a WQE's {@code wqe_index} is {@code pc} (16 bits), and per first WQEBB of each WQE the queue keeps
 * the buffer it sends, the pool it came from and the WQE's size, so the completion of
 * {@code wqe_counter} frees everything up to and including that WQE.
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
     * 64-byte frames through the soft HCA's loopback: 102/95 ns per frame against 115/118 with the
     * earlier limit of 60 (LoopbackTwoThreadBench, 3 forks each, alternating, 2026-12-01).
     */
    public static final int DEFAULT_INLINE_MAX = (int) (2 * PrmConstants.send_wqe_bb - WqeCtrlSeg.SIZE - WqeEthSeg.inline_hdr_start$BYTE_OFFSET);
    /** KLM lists are padded to a multiple of 4 entries, 64 bytes (kernel MLX5_UMR_KLM_ALIGNMENT). */
    static final int UMR_KLM_ALIGN = 4;

    private static final long WQEBB = PrmConstants.send_wqe_bb;
    private static final int DS = (int) PrmConstants.send_wqe_ds;
    private static final ValueLayout.OfLong BE_LONG = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(java.nio.ByteOrder.BIG_ENDIAN);
    private static final long ETH = WqeCtrlSeg.SIZE;
    private static final long INLINE_START = ETH + WqeEthSeg.inline_hdr_start$BYTE_OFFSET;
    private static final int INLINE_FIRST = (int) WqeEthSeg.inline_hdr_start$LENGTH;
    private static final int CS_L3 = (int) EthCsFlags.L3_CSUM.mask;
    private static final int CS_L4 = (int) EthCsFlags.L4_CSUM.mask;
    /** {@link #slotInfo} fields. */
    private static final int SLOT_WQEBBS = 0x1f;
    private static final int SLOT_FOREIGN = 0x20;
    private static final int SLOT_HANDLE_SHIFT = 6;
    /** Largest pool a queue sends from: handle + 1 must fit bits 6-31 of {@link #slotInfo}. */
    static final int MAX_POOL_BUFFERS = (1 << (32 - SLOT_HANDLE_SHIFT)) - 1;
    /** Flags that keep a frame off the plain path. */
    private static final int NOT_PLAIN = PacketFlags.TX_VLAN | PacketFlags.TX_LSO;
    /** A plain frame's WQE: ctrl, eth (its first 2 inline bytes inside), the other 16 inline bytes, one data segment. */
    private static final int PLAIN_DS = 2 + (FrameHeaders.MIN_L2_INLINE - INLINE_FIRST + DS - 1) / DS + 1;
    /** Where a plain WQE's data segment starts. */
    private static final long PLAIN_DATA = ETH + WqeEthSeg.SIZE + (long) (PLAIN_DS - 3) * DS;

    static {
        // sendPlain writes one WQEBB per frame and so never needs NOP padding at the ring end.
        if (PLAIN_DS * DS > WQEBB) throw new AssertionError("a plain WQE of " + PLAIN_DS + " DS does not fit one WQEBB");
        // sendPlain finds the frames that ask for a CQE with a mask.
        if (Integer.bitCount(COMPLETION_BATCH) != 1) throw new AssertionError("COMPLETION_BATCH " + COMPLETION_BATCH + " is not a power of two");
    }

    private final SqResources res;
    private final QueueGuard guard;
    private final MemorySegment ring;
    private final int size;
    private final int mask;
    private final int sqn;
    private final MemorySegment dbr;
    private final Mmio uar;
    private final int bfHalf;
    private long bfOffset;
    private final InlineMode inlineMode;
    /** The common mode (ConnectX-4 Lx and ConnectX-5 ask for L2): its 18 bytes need no parsing. */
    private final boolean l2Inline;
    private int inlineMax = DEFAULT_INLINE_MAX;
    /** Frames longer than this (and without VLAN insert or LSO) take {@link #sendPlain}; MAX_VALUE: none. */
    private int plainMin;

    private final MemorySegment cqRing;
    private final MemorySegment cqDbr;
    private final int cqLog;
    private final int cqMask;
    private final int cqEntries;

    /** Producer and consumer counters in WQEBBs (free-running; the ring slot is {@code & mask}). */
    private int pc;
    private int cc;
    /** CQ consumer counter. */
    private int cqCc;
    /** CQEs requested (WQEs with ce = CQE_ALWAYS) and not yet polled: never more than the CQ holds. */
    private int cqeOutstanding;
    /** WQEs posted since the last one that requests a CQE. */
    private int sinceCqe;
    /** This burst's last WQE (byte offset in the ring; -1: none yet) and whether it asks for a CQE. */
    private long lastWqe;
    private boolean lastSignalled;

    /**
     * Per WQEBB slot, for the first WQEBB of each WQE, one int: the WQE's size in WQEBBs (bits 0-4),
     * whether its buffer belongs to another pool than the default one (bit 5; the pool is then in
     * {@link #slotPool}) and the buffer's handle + 1 (bits 6-31; 0: no buffer); for its later WQEBBs,
     * 0. One array read per completed WQEBB, and no pool reference to read or store for the default
     * pool's buffers.
     */
    private final int[] slotInfo;
    private final PacketPool[] slotPool;

    private final PacketPool defaultPool;

    // Statistics (read by the port; single writer, this queue's thread).
    private long packets;
    private long bytes;
    private long nops;
    private long doorbells;
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
        this.ring = res.ring().segment();
        this.size = 1 << res.logWqebbs();
        this.mask = size - 1;
        this.sqn = res.sqn();
        this.dbr = res.doorbellRecord();
        this.uar = res.uar();
        this.bfHalf = res.bfHalfSize();
        this.bfOffset = res.doorbellOffset();
        this.inlineMode = res.minInlineMode();
        this.l2Inline = inlineMode == InlineMode.L2;
        this.cqRing = res.cq().ring().segment();
        this.cqDbr = res.cq().doorbellRecord();
        this.cqLog = res.cq().logSize();
        this.cqEntries = res.cq().entries();
        this.cqMask = cqEntries - 1;
        this.slotInfo = new int[size];
        this.slotPool = new PacketPool[size];
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
                WqeCtrlSeg.ce$set(ring, lastWqe, CompletionMode.CQE_ALWAYS);
                sinceCqe = 0;
                cqeOutstanding++;
            }
            ringDoorbell(lastWqe);
        }
        return sent;
    }

    /**
     * The common case, one WQEBB per frame (PRM "Send WQE", Ethernet): ctrl + eth with the 18-byte L2
     * header inline + one data segment for the rest. Sends plain frames from {@code buffers[i..end)}
     * until a frame that is not plain, a full ring or a full CQ; returns how many it sent. The queue's
     * state is in locals (written back once). Each segment is one generated static {@code store} (two
     * 8-byte stores from its arguments): no Writer object, so nothing to allocate in C1 code and no
     * heap stores of a long-lived Writer's fields.
     */
    private int sendPlain(PacketPool pool, int[] buffers, int i, int end) {
        final int plainMin = this.plainMin;
        final MemorySegment ring = this.ring;
        final int sqn = this.sqn;
        final int[] slotInfo = this.slotInfo;
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
        // cqEntries - cqeOutstanding free CQEs the first is asked for by the frame that makes since reach
        // COMPLETION_BATCH, the others every COMPLETION_BATCH frames after it.
        final long ringRoom = cc + size - pc;
        final int cqRoom = cqEntries - cqeOutstanding;
        final long cqFrames = cqRoom <= 0 ? 0 : (long) COMPLETION_BATCH * cqRoom - since0;
        final int stop = (int) Math.min(end, start + Math.min(ringRoom, cqFrames));
        // The frame indexes that ask for a CQE: phase, phase + COMPLETION_BATCH, ... (and the burst's last).
        final int phase = start + COMPLETION_BATCH - 1 - since0;
        // The frame at index i gets WQEBB pc + (i - start).
        final int pcOfIndex = this.pc - start;
        long burstBytes = 0;
        for (; i < stop; i++) {
            int h = buffers[i];
            int len = meta[h * PacketPool.META_STRIDE + PacketPool.LENGTH];
            int fl = meta[h * PacketPool.META_STRIDE + PacketPool.FLAGS];
            if ((fl & NOT_PLAIN) != 0 || len <= plainMin) break;
            boolean signal = ((i - phase) & (COMPLETION_BATCH - 1)) == 0 || i == last;
            int pc = pcOfIndex + i;
            int slot = pc & mask;
            long w = (long) slot * WQEBB;
            long boff = h * bufferSize;
            int cs = ((fl & PacketFlags.TX_IP_CSUM) != 0 ? CS_L3 : 0) | ((fl & PacketFlags.TX_L4_CSUM) != 0 ? CS_L4 : 0);
            WqeCtrlSeg.store(ring, w, 0, pc & 0xffff, SendWqeOpcode.SEND$VALUE, sqn, PLAIN_DS, 0, 0, 0,
                    signal ? CompletionMode.CQE_ALWAYS$VALUE : CompletionMode.CQE_ON_ERROR$VALUE, false, 0);
            WqeEthSeg.store$inline_hdr(ring, w + ETH, 0, 0, 0, 0, cs, 0, 0, 0, false, 0, FrameHeaders.MIN_L2_INLINE);
            copy18(mem, boff, ring, w + INLINE_START);
            WqeDataSeg.store(ring, w + PLAIN_DATA, len - FrameHeaders.MIN_L2_INLINE, lkey, addressBase + boff + FrameHeaders.MIN_L2_INLINE);
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
            this.pc = pcOfIndex + i;
            this.cqeOutstanding += batched + (signal && !onBatch ? 1 : 0);
            this.sinceCqe = signal ? 0 : since0 + sent - COMPLETION_BATCH * batched;
            this.lastWqe = (long) ((this.pc - 1) & mask) * WQEBB;
            this.lastSignalled = signal;
            this.bytes += burstBytes;
        }
        return sent;
    }

    /**
     * One frame of any shape (PRM "Send WQE format", "Ethernet Segment"): inline headers as the inline
     * mode, VLAN insert, LSO or the frame's size ask, NOP padding at the ring end. Returns false, taking
     * nothing, when the ring or the CQ has no room.
     */
    private boolean sendOne(PacketPool pool, int h, boolean lastOfBurst) {
        if (cqeOutstanding == cqEntries) return false;
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
        else ihs = inlineLength(mem, boff, len);
        if (ihs < 0) throw new IllegalArgumentException("LSO frame " + h + " has no TCP header to segment");
        boolean vlanInline = vlan && ihs > 0;
        int inl = vlanInline ? ihs + FrameHeaders.VLAN_HLEN : ihs;
        // ctrl + eth (+ inline bytes past the 2 in the eth segment) (+ data segment)
        int inlineDs = inl > INLINE_FIRST ? (inl - INLINE_FIRST + DS - 1) / DS : 0;
        boolean data = len > ihs;
        int ds = 2 + inlineDs + (data ? 1 : 0);
        int wqebbs = (ds * DS + (int) WQEBB - 1) / (int) WQEBB;
        int slot = pc & mask;
        int pad = slot + wqebbs > size ? size - slot : 0;
        if (size - (pc - cc) < wqebbs + pad) return false;
        if (pad > 0) {
            pc = padWithNops(pc, pad);
            slot = pc & mask;
        }
        boolean signal = ++sinceCqe >= COMPLETION_BATCH || lastOfBurst;
        if (signal) {
            sinceCqe = 0;
            cqeOutstanding++;
        }
        long w = (long) slot * WQEBB;
        writeCtrl(ring, w, lso ? SendWqeOpcode.LSO$VALUE : SendWqeOpcode.SEND$VALUE, pc & 0xffff, sqn, ds,
                signal ? CompletionMode.CQE_ALWAYS$VALUE : CompletionMode.CQE_ON_ERROR$VALUE);
        int cs = 0;
        if ((fl & PacketFlags.TX_IP_CSUM) != 0 || lso) cs |= CS_L3;
        if ((fl & PacketFlags.TX_L4_CSUM) != 0 || lso) cs |= CS_L4;
        if (lso && FrameHeaders.etherType(mem, boff, len) != FrameHeaders.ETHERTYPE_IPV4) cs &= ~CS_L3;
        if (vlan && !vlanInline) writeEthVlan(ring, w + ETH, cs, lso ? pool.mss(h) : 0, pool.vlanTci(h));
        else writeEthInline(ring, w + ETH, cs, lso ? pool.mss(h) : 0, inl);
        if (vlanInline) {
            copyWithTag(mem, boff, ring, w + INLINE_START, ihs, (short) pool.vlanTci(h));
        } else if (ihs == FrameHeaders.MIN_L2_INLINE) {
            copy18(mem, boff, ring, w + INLINE_START);
        } else if (ihs > 0) {
            MemorySegment.copy(mem, boff, ring, w + INLINE_START, ihs);
        }
        if (data) {
            long d = w + ETH + WqeEthSeg.SIZE + (long) inlineDs * DS;
            writeData(ring, d, len - ihs, pool.lkey(), pool.deviceAddress(h) + ihs);
            slotInfo[slot] = slotInfo(h, pool != defaultPool, wqebbs);
            slotPool[slot] = pool;
        } else {
            // Everything is inside the WQE: the buffer is free again right away.
            slotInfo[slot] = slotInfo(-1, false, wqebbs);
            pool.free(h);
        }
        markContinuation(slot, wqebbs);
        pc += wqebbs;
        lastWqe = w;
        lastSignalled = signal;
        bytes += len;
        return true;
    }

    private static void writeCtrl(MemorySegment ring, long at, int opcode, int index, int sqn, int ds, int ce) {
        WqeCtrlSeg.store(ring, at, 0, index, opcode, sqn, ds, 0, 0, 0, ce, false, 0);
    }

    private static void writeEthInline(MemorySegment ring, long at, int cs, int mss, int inlineBytes) {
        WqeEthSeg.store$inline_hdr(ring, at, 0, 0, 0, 0, cs, 0, mss, 0, false, 0, inlineBytes);
    }

    private static void writeEthVlan(MemorySegment ring, long at, int cs, int mss, int tci) {
        WqeEthSeg.store$vlan_insert(ring, at, 0, 0, 0, 0, cs, 0, mss, 0, false, tci);
    }

    private static void writeData(MemorySegment ring, long at, int bytes, int lkey, long addr) {
        WqeDataSeg.store(ring, at, bytes, lkey, addr);
    }

    private static void writeNop(MemorySegment ring, long at, int index, int sqn) {
        WqeNop.store(ring, at, 0, index, SendWqeOpcode.NOP$VALUE, sqn, 1, 0, 0, 0, 0, false, 0);
    }

    private int inlineLength(MemorySegment mem, long off, int len) {
        return FrameHeaders.inlineLength(inlineMode, mem, off, len);
    }

    /**
     * The 18-byte L2 inline header as one 2-byte and two 8-byte moves (cheaper than a copy call for so few
     * bytes): the frame's first bytes copied as a byte stream, whatever headers they hold.
     */
    private static void copy18(MemorySegment from, long off, MemorySegment ring, long at) {
        short b0 = (short) HDR18_B0.get(from, off);
        long b2 = (long) HDR18_B2.get(from, off);
        long b10 = (long) HDR18_B10.get(from, off);
        HDR18_B0.set(ring, at, b0);
        HDR18_B2.set(ring, at, b2);
        HDR18_B10.set(ring, at, b10);
    }

    /**
     * The 18 header bytes as one layout of three moves (2, 8 and 8 bytes): each of its handles checks
     * that all 18 bytes fit, the same test for the three, so C2 keeps one check per side instead of one
     * per move. JMH tx-burst, alternating single forks: 10.42-11.58 ns against 11.18-12.43 with three
     * plain value-layout moves (faster in 6 of 7 pairs).
     */
    private static final StructLayout HDR18 = MemoryLayout.structLayout(ValueLayout.JAVA_SHORT_UNALIGNED.withName("b0"),
            ValueLayout.JAVA_LONG_UNALIGNED.withName("b2"), ValueLayout.JAVA_LONG_UNALIGNED.withName("b10"));
    private static final VarHandle HDR18_B0 = hdr18("b0");
    private static final VarHandle HDR18_B2 = hdr18("b2");
    private static final VarHandle HDR18_B10 = hdr18("b10");

    private static VarHandle hdr18(String move) {
        return HDR18.varHandle(MemoryLayout.PathElement.groupElement(move));
    }

    /** Inline headers with an 802.1Q tag put in after the MAC addresses (the kernel's way when it inlines). */
    private static void copyWithTag(MemorySegment from, long off, MemorySegment ring, long at, int ihs, short tci) {
        int macs = FrameHeaders.ETH_ADDRS_LEN;
        MemorySegment.copy(from, off, ring, at, macs);
        Ethhdr.h_proto$setUnchecked(ring, at, FrameHeaders.ETHERTYPE_VLAN);
        VlanHdr.h_vlan_TCI$setUnchecked(ring, at + FrameHeaders.ETH_HLEN, tci);
        // the frame's own ethertype follows as the tag's h_vlan_encapsulated_proto
        MemorySegment.copy(from, off + macs, ring, at + macs + FrameHeaders.VLAN_HLEN, ihs - macs);
    }

    /** NOP WQEs (ds = 1, one WQEBB each) from producer counter {@code pc} up to the ring end, so that the next WQE starts at slot 0; returns the new counter. */
    private int padWithNops(int pc, int count) {
        for (int i = 0; i < count; i++) {
            int slot = pc & mask;
            writeNop(ring, (long) slot * WQEBB, pc & 0xffff, sqn);
            slotInfo[slot] = slotInfo(-1, false, 1);
            pc++;
            nops++;
        }
        return pc;
    }

    /**
     * PRM "Doorbells": the device must see every WQE before the doorbell record says they exist, and
     * the record before the UAR write that makes it look.
     */
    private void ringDoorbell(long lastWqe) {
        // WQE stores before the record: the device may read the record (and then the WQEs) at any time.
        VarHandle.storeStoreFence();
        WqDoorbellRecord.send_counter$setUnchecked(dbr, pc & 0xffff);
        // Record store before the MMIO store, and nothing of the MMIO store moved up: the device
        // fetches WQEs up to the record's counter when the doorbell arrives (the kernel's wmb()).
        VarHandle.fullFence();
        // One 8-byte store of the last WQE's first 8 bytes (sq_doorbell) to the current BlueFlame half.
        uar.write64(bfOffset, ring.get(BE_LONG, lastWqe));
        bfOffset ^= bfHalf;
        doorbells++;
        assert SqDoorbell.SIZE == 8;
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
        int n = 0;
        while (true) {
            // Ring + offset accessors, no slice: an empty poll must not allocate even where C2 does not scalar-replace.
            long cqe = (long) (cqCc & cqMask) * Cqe64.SIZE;
            boolean owner = Cqe64.owner(cqRing, cqe);
            int opcode = Cqe64.opcode(cqRing, cqe);
            // PRM: read the rest of the CQE only after its ownership byte (dma_rmb in the kernel).
            VarHandle.loadLoadFence();
            if (owner != (((cqCc >>> cqLog) & 1) != 0) || opcode == CqeOpcode.INVALID$VALUE) break;
            cqCc++;
            n++;
            if (cqeOutstanding > 0) cqeOutstanding--;
            if (opcode == CqeOpcode.REQ$VALUE) {
                completeUpTo(Cqe64.wqe_counter(cqRing, cqe));
            } else if (opcode == CqeOpcode.REQ_ERR$VALUE) {
                updateCqConsumer();
                recover(cqe);
                return n;
            } else {
                // Not a send completion: nothing of ours to free; counted as an error.
                errors++;
            }
        }
        if (n > 0) updateCqConsumer();
        return n;
    }

    private void updateCqConsumer() {
        // The CQEs have been read: only now may the device reuse their entries.
        VarHandle.releaseFence();
        CqDoorbellRecord.consumer_index$setUnchecked(cqDbr, cqCc & 0xffffff);
    }

    /**
     * Frees every WQE from the consumer counter up to and including the one at {@code wqeCounter}. The
     * WQEBBs to free are worked out first: the completed WQE's full counter from its 16-bit one, plus its
     * size from {@link #slotInfo}. The walk is then a counted loop over WQEBB slots (a WQE's later WQEBBs
     * hold 0: no buffer, not a WQE start) in which no slot's address depends on what the slot before it
     * held. Walking WQE by WQE ({@code cc += size of the WQE at cc}) chained each slot's load to the one
     * before it, a load, an add and a mask per WQE: in tx-burst that chain, not the work, set the pace
     * (see datapath-bench-log.md, "The completion walk"). The counters and the current pool's free stack
     * are in locals, written back once: the buffers of a burst nearly always go back to one pool.
     */
    private void completeUpTo(int wqeCounter) {
        final int mask = this.mask;
        final int[] slotInfo = this.slotInfo;
        final int cc = this.cc;
        final int inFlight = pc - cc;
        // The completed WQE: its full counter, and the WQEBBs up to its end. A counter that names no WQE
        // start in flight (a device bug) completes everything in flight, as walking to pc would.
        final int at = (wqeCounter - cc) & 0xffff;
        final int size = at < inFlight ? slotInfo[(cc + at) & mask] & SLOT_WQEBBS : 0;
        final int n = size > 0 ? at + size : inFlight;
        final PacketPool pool = defaultPool;
        final int[] free = pool.freeStack();
        int top = pool.top;
        int done = 0;
        for (int k = 0; k < n; k++) {
            int slot = (cc + k) & mask;
            int info = slotInfo[slot];
            if ((info & SLOT_WQEBBS) != 0) done++;
            int h = (info >>> SLOT_HANDLE_SHIFT) - 1;
            if (h >= 0) {
                if ((info & SLOT_FOREIGN) == 0) {
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
        this.cc = cc + n;
        completions += done;
    }

    /** Returns the buffer of the WQE at {@code slot} (if it has one) to its pool; returns the WQE's size in WQEBBs. */
    private int freeSlot(int slot) {
        int info = slotInfo[slot];
        int h = (info >>> SLOT_HANDLE_SHIFT) - 1;
        if (h >= 0) ((info & SLOT_FOREIGN) == 0 ? defaultPool : slotPool[slot]).free(h);
        return info & SLOT_WQEBBS;
    }

    /** A WQE's WQEBBs after its first (never past the ring's end: NOPs pad to it) hold 0 in {@link #slotInfo}. */
    private void markContinuation(int slot, int wqebbs) {
        for (int k = 1; k < wqebbs; k++) slotInfo[slot + k] = 0;
    }

    private static int slotInfo(int handle, boolean foreign, int wqebbs) {
        return (handle + 1) << SLOT_HANDLE_SHIFT | (foreign ? SLOT_FOREIGN : 0) | wqebbs;
    }

    /**
     * Error CQE on the SQ (PRM "Completion with error"): the SQ is in ERR and executes nothing more.
     * Log the syndrome once, move the SQ ERR→RST (it stops touching our memory), drop what the CQ
     * still holds, return every in-flight buffer, restart the counters at 0 and move it RST→RDY.
     */
    private void recover(long cqe) {
        errors++;
        int syndrome = ErrCqe.syndrome(cqRing, cqe);
        int vendor = ErrCqe.vendor_err_synd(cqRing, cqe);
        int failed = ErrCqe.wqe_counter(cqRing, cqe);
        lastError = "SQ 0x" + Integer.toHexString(sqn) + ": WQE " + failed + " failed: " + CqeErrorSyndrome.describe(syndrome)
                + " (vendor syndrome 0x" + Integer.toHexString(vendor) + ")";
        if (!errorLogged) {
            errorLogged = true;
            LOG.log(System.Logger.Level.WARNING, lastError + "; recovering (further errors on this queue are counted, not logged)");
        }
        res.control().modifySq(sqn, SqState.ERR, SqState.RST);
        // In RST the device writes nothing more for this SQ: consume what it wrote before.
        while (true) {
            long e = (long) (cqCc & cqMask) * Cqe64.SIZE;
            boolean owner = Cqe64.owner(cqRing, e);
            int opcode = Cqe64.opcode(cqRing, e);
            VarHandle.loadLoadFence();
            if (owner != (((cqCc >>> cqLog) & 1) != 0) || opcode == CqeOpcode.INVALID$VALUE) break;
            cqCc++;
        }
        updateCqConsumer();
        while (cc != pc) {
            int slot = cc & mask;
            cc += freeSlot(slot);
        }
        pc = 0;
        cc = 0;
        sinceCqe = 0;
        cqeOutstanding = 0;
        bfOffset = res.doorbellOffset();
        WqDoorbellRecord.send_counter$setUnchecked(dbr, 0);
        VarHandle.fullFence();
        res.control().modifySq(sqn, SqState.RST, SqState.RDY);
        recoveries++;
    }

    /**
     * Registers {@code pool}'s whole region behind the indirect mkey {@code mkey} with one UMR WQE on
     * this SQ (PRM "UMR"): {@code pieces} KLM entries, each a slice of the region through the pool's
     * current key, inline in the WQE; the mkey then covers {@code [base, base + region size)}. The
     * mkey must have been created free, with {@code umr_en}, KLM access mode and room for the
     * entries; the SQ needs {@code reg_umr}. Sends after this WQE execute after it (the SQ runs its
     * WQEs in order), so the pool switches to the new key at once. Returns false (nothing posted)
     * when the ring or the CQ has no room now.
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
        int padded = (pieces + UMR_KLM_ALIGN - 1) / UMR_KLM_ALIGN * UMR_KLM_ALIGN;
        long klmAt = WqeCtrlSeg.SIZE + WqeUmrCtrlSeg.SIZE + Mkc.SIZE;
        int ds = (int) ((klmAt + padded * WqeUmrKlmSeg.SIZE) / DS);
        int wqebbs = (ds * DS + (int) WQEBB - 1) / (int) WQEBB;
        int slot = pc & mask;
        int pad = slot + wqebbs > size ? size - slot : 0;
        if (size - (pc - cc) < wqebbs + pad || cqeOutstanding == cqEntries) return false;
        if (pad > 0) {
            pc = padWithNops(pc, pad);
            slot = pc & mask;
        }
        long w = (long) slot * WQEBB;
        MemorySegment wqe = ring.asSlice(w, (long) wqebbs * WQEBB); // set-up path, not per packet
        WqeCtrlSeg.writer(wqe, 0)
                .opcode(SendWqeOpcode.UMR)
                .wqe_index(pc & 0xffff)
                .qpn(sqn)
                .ds(ds)
                .ce(CompletionMode.CQE_ALWAYS)
                .imm(mkey)
                .write();
        WqeUmrCtrlSeg.writer(wqe, WqeCtrlSeg.SIZE)
                .umr_flags(UmrCtrlFlags.INLINE$MASK)
                .klm_octowords(padded)
                .mkey_mask(UmrMkeyMask.LEN.mask | UmrMkeyMask.START_ADDR.mask | UmrMkeyMask.LR.mask | UmrMkeyMask.LW.mask | UmrMkeyMask.FREE.mask)
                .write();
        Mkc.writer(wqe, WqeCtrlSeg.SIZE + WqeUmrCtrlSeg.SIZE)
                .free(false)
                .lr(true)
                .lw(true)
                .access_mode_1_0((int) MkcAccessMode.KLMS.value & 3)
                .access_mode_4_2((int) MkcAccessMode.KLMS.value >>> 2)
                .qpn(0xffffff)
                .mkey_7_0(mkey & 0xff)
                .start_addr(base)
                .len(total)
                .translations_octword_size(padded)
                .write();
        int piece = (int) (total / pieces);
        for (int i = 0; i < padded; i++) {
            long k = klmAt + i * WqeUmrKlmSeg.SIZE;
            if (i < pieces) WqeUmrKlmSeg.writer(wqe, k).byte_count(piece).mkey(pool.lkey()).address(pool.deviceAddress(0) + (long) i * piece).write();
            else WqeUmrKlmSeg.writer(wqe, k).write(); // padding entries are zero (MLX5_UMR_KLM_ALIGNMENT)
        }
        slotInfo[slot] = slotInfo(-1, false, wqebbs);
        markContinuation(slot, wqebbs);
        pc += wqebbs;
        sinceCqe = 0;
        cqeOutstanding++;
        ringDoorbell(w);
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
        return pc - cc;
    }

    public int ringSize() {
        return size;
    }

    public long packets() {
        return packets;
    }

    public long bytes() {
        return bytes;
    }

    public long nops() {
        return nops;
    }

    public long doorbells() {
        return doorbells;
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
        return pc;
    }

    /** CQEs requested and not yet reaped (at most the CQ size). */
    public int cqeOutstanding() {
        return cqeOutstanding;
    }
}

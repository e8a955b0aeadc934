package io.prmkit.bench;

import io.prmkit.driver.eth.SqResources;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * tx-burst's algorithm written by hand in Java on raw {@code MemorySegment} stores, no generated
 * accessor: the plain path of {@code TxQueue.send} and {@code dp_bench.c}'s {@code tx_send} (reap with
 * the counted walk over WQEBB slots, then per frame ctrl + eth with the 18-byte L2 header inline + one
 * data segment in one WQEBB, a CQE every 32 WQEs and at the burst's end, one doorbell record update and
 * one BlueFlame store). Its pool is a copy of {@code PacketPool}'s arrays (handles, free stack, metadata
 * with the same stride). The layout constants below are the PRM's, written out here on purpose: this
 * class measures what the JIT makes of Java without the generated API, so that {@code prmkit bench}
 * shows how much of tx-burst's distance to C is the API's and how much HotSpot's. Frames that are not
 * plain (VLAN, LSO, whole-frame inline) are outside the benchmark and stop the burst.
 */
final class HandTx {
    private static final ValueLayout.OfLong BE64 = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN);
    private static final ValueLayout.OfInt BE32 = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN);
    private static final ValueLayout.OfShort NATIVE16 = ValueLayout.JAVA_SHORT_UNALIGNED;
    private static final ValueLayout.OfLong NATIVE64 = ValueLayout.JAVA_LONG_UNALIGNED;
    private static final ValueLayout.OfByte BYTE = ValueLayout.JAVA_BYTE;
    private static final int WQEBB = 64;
    private static final int OP_SEND = 0x0a;
    private static final int CE_ALWAYS = 2 << 2;
    private static final int CE_ON_ERROR = 0; // ce 0: a CQE on error only
    private static final int CQE_REQ = 0;
    private static final int CQE_INVALID = 15;
    private static final int INLINE_HDR = 18;
    private static final int COMPLETION_BATCH = 32;
    static final int META_STRIDE = 4;
    /** PacketFlags' TX bits, and the eth segment's cs_flags (MLX5_ETH_WQE_L3_CSUM, L4_CSUM). */
    private static final int TX_VLAN = 1, TX_IP_CSUM = 1 << 1, TX_L4_CSUM = 1 << 2, TX_LSO = 1 << 3;
    private static final int CS_L3 = 1 << 6, CS_L4 = 1 << 7;

    // the queue
    private final MemorySegment ring;
    private final MemorySegment cq;
    private final MemorySegment dbr;
    private final MemorySegment cqDbr;
    private final DpRings.Uar uar;
    private final int log;
    private final int mask;
    private final int size;
    private final int sqn;
    private final int inlineMax;
    private long bfOffset;
    private final int bfHalf;
    private int pc;
    private int cc;
    private int cqCc;
    private int cqeOutstanding;
    private int sinceCqe;
    private final int[] slotBuf;
    private final byte[] slotWqebbs;
    long packets;
    long bytes;

    // the pool
    final MemorySegment mem;
    final int[] meta;
    private final int[] free;
    private int top;
    private final int capacity;
    private final int bufSize;
    private final long addrBase;
    private final int lkey;

    HandTx(SqResources sq, DpRings.Uar uar, MemorySegment poolMemory, long poolBus, int capacity, int bufSize, int lkey, int inlineMax) {
        this.ring = sq.ring().segment();
        this.cq = sq.cq().ring().segment();
        this.dbr = sq.doorbellRecord();
        this.cqDbr = sq.cq().doorbellRecord();
        this.uar = uar;
        this.log = sq.logWqebbs();
        this.size = 1 << log;
        this.mask = size - 1;
        this.sqn = sq.sqn();
        this.bfOffset = sq.doorbellOffset();
        this.bfHalf = sq.bfHalfSize();
        this.inlineMax = inlineMax;
        this.slotBuf = new int[size];
        this.slotWqebbs = new byte[size];
        this.mem = poolMemory;
        this.capacity = capacity;
        this.bufSize = bufSize;
        this.addrBase = poolBus;
        this.lkey = lkey;
        this.meta = new int[capacity * META_STRIDE];
        this.free = new int[capacity];
        for (int i = 0; i < capacity; i++) free[i] = capacity - 1 - i; // handle 0 on top, as PacketPool
        this.top = capacity;
    }

    int producerCounter() {
        return pc;
    }

    int alloc(int[] out, int n) {
        final int[] free = this.free;
        final int[] meta = this.meta;
        int top = this.top;
        int got = Math.min(n, top);
        for (int i = 0; i < got; i++) {
            int h = free[--top];
            meta[h * META_STRIDE] = 0;
            meta[h * META_STRIDE + 1] = 0;
            out[i] = h;
        }
        this.top = top;
        return got;
    }

    private int reap() {
        final MemorySegment cq = this.cq;
        final int[] slotBuf = this.slotBuf;
        final byte[] slotWqebbs = this.slotWqebbs;
        final int mask = this.mask;
        final int log = this.log;
        final int[] free = this.free;
        final int pc = this.pc;
        int cqCc = this.cqCc;
        int cc = this.cc;
        int outstanding = this.cqeOutstanding;
        int top = this.top;
        int n = 0;
        while (true) {
            long cqe = (long) (cqCc & mask) * 64;
            int opOwn = cq.get(BYTE, cqe + 63) & 0xff;
            VarHandle.loadLoadFence();
            if ((opOwn & 1) != ((cqCc >>> log) & 1) || (opOwn >>> 4) == CQE_INVALID) break;
            cqCc++;
            n++;
            if (outstanding > 0) outstanding--;
            if ((opOwn >>> 4) != CQE_REQ) throw new IllegalStateException("no errors in the benchmark");
            int inFlight = pc - cc;
            int at = ((cq.get(BE32, cqe + 60) >>> 16) - cc) & 0xffff; // wqe_counter: bytes 60-61
            int wqebbs = at < inFlight ? slotWqebbs[(cc + at) & mask] : 0;
            int walk = wqebbs != 0 ? at + wqebbs : inFlight;
            for (int k = 0; k < walk; k++) {
                int h = slotBuf[(cc + k) & mask];
                if (h >= 0) {
                    if (top == capacity) throw new IllegalStateException("pool is full");
                    free[top++] = h;
                }
            }
            cc += walk;
        }
        this.top = top;
        this.cqCc = cqCc;
        this.cc = cc;
        this.cqeOutstanding = outstanding;
        if (n > 0) {
            VarHandle.releaseFence();
            cqDbr.set(BE32, 0, cqCc & 0xffffff);
        }
        return n;
    }

    int send(int[] bufs, int n) {
        reap();
        final MemorySegment ring = this.ring;
        final MemorySegment mem = this.mem;
        final int[] meta = this.meta;
        final int[] slotBuf = this.slotBuf;
        final byte[] slotWqebbs = this.slotWqebbs;
        final int mask = this.mask;
        final long bufSize = this.bufSize;
        final long addrBase = this.addrBase;
        final int lkey = this.lkey;
        final int inlineMax = Math.max(this.inlineMax, INLINE_HDR);
        final long ctrlQpnDs = (long) (sqn << 8 | 4);
        final int since0 = sinceCqe;
        final long ringRoom = size - (pc - cc);
        final int cqRoom = size - cqeOutstanding;
        final long cqFrames = cqRoom <= 0 ? 0 : (long) COMPLETION_BATCH * cqRoom - since0;
        final int stop = (int) Math.min(n, Math.min(ringRoom, cqFrames));
        final int phase = COMPLETION_BATCH - 1 - since0;
        final int pc0 = pc;
        long burstBytes = 0;
        int i = 0;
        for (; i < stop; i++) {
            int h = bufs[i];
            int len = meta[h * META_STRIDE];
            int fl = meta[h * META_STRIDE + 1];
            if ((fl & (TX_VLAN | TX_LSO)) != 0 || len <= inlineMax) break;
            boolean signal = ((i - phase) & (COMPLETION_BATCH - 1)) == 0 || i == n - 1;
            int p = pc0 + i;
            int slot = p & mask;
            long w = (long) slot * WQEBB;
            long b = h * bufSize;
            // ctrl: opmod_idx_opcode, qpn_ds | signature, rsvd, fm_ce_se, imm
            ring.set(BE64, w, (long) ((p & 0xffff) << 8 | OP_SEND) << 32 | ctrlQpnDs);
            ring.set(BE64, w + 8, (long) (signal ? CE_ALWAYS : CE_ON_ERROR) << 32);
            // eth: swp, cs_flags, swp_flags, mss | metadata, inline_hdr_sz, inline_hdr_start[2], then 16 more header bytes
            int cs = ((fl & TX_IP_CSUM) != 0 ? CS_L3 : 0) | ((fl & TX_L4_CSUM) != 0 ? CS_L4 : 0);
            ring.set(BE64, w + 16, (long) cs << 24);
            ring.set(BE64, w + 24, (long) INLINE_HDR << 16);
            ring.set(NATIVE16, w + 30, mem.get(NATIVE16, b));
            ring.set(NATIVE64, w + 32, mem.get(NATIVE64, b + 2));
            ring.set(NATIVE64, w + 40, mem.get(NATIVE64, b + 10));
            // data: byte_count, lkey | addr
            ring.set(BE64, w + 48, (long) (len - INLINE_HDR) << 32 | (lkey & 0xffffffffL));
            ring.set(BE64, w + 56, addrBase + b + INLINE_HDR);
            slotBuf[slot] = h;
            slotWqebbs[slot] = 1;
            burstBytes += len;
        }
        if (i > 0) {
            int past = i - 1 - phase;
            int batched = past >= 0 ? past / COMPLETION_BATCH + 1 : 0;
            boolean onBatch = past >= 0 && (past & (COMPLETION_BATCH - 1)) == 0;
            boolean signal = onBatch || i - 1 == n - 1;
            pc = pc0 + i;
            cqeOutstanding += batched + (signal && !onBatch ? 1 : 0);
            long last = (long) ((pc - 1) & mask) * WQEBB;
            if (!signal) {
                // the burst stopped early: its last WQE still asks for a CQE (fm_ce_se, ctrl byte 11)
                ring.set(BYTE, last + 11, (byte) CE_ALWAYS);
                cqeOutstanding++;
            }
            sinceCqe = 0;
            packets += i;
            bytes += burstBytes;
            VarHandle.storeStoreFence();
            dbr.set(BE32, 4, pc & 0xffff);
            VarHandle.fullFence();
            uar.write64(bfOffset, ring.get(BE64, last)); // as SendRing.ringDoorbell: the WQE's first 8 bytes read big-endian
            bfOffset ^= bfHalf;
        }
        return i;
    }
}

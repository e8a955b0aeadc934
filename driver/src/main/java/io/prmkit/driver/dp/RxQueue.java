package io.prmkit.driver.dp;

import io.prmkit.mlx5.CqDoorbellRecord;
import io.prmkit.mlx5.Cqe64;
import io.prmkit.mlx5.CqeHdsIpExt;
import io.prmkit.mlx5.CqeL3HdrType;
import io.prmkit.mlx5.CqeL4HdrType;
import io.prmkit.mlx5.CqeOpcode;
import io.prmkit.mlx5.WqDoorbellRecord;
import io.prmkit.mlx5.WqeDataSeg;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.VarHandle;

/**
 * The receive side of one cyclic Ethernet RQ (PRM "Receive WQE" and "Completion Queue" chapters):
 * {@link #receive} polls the CQ by owner bit, decodes each CQE with the generated accessors, hands the
 * buffers out with their metadata in the pool's arrays, and refills the RQ in bulk with one doorbell
 * record update. One thread per queue.
 *
 * <p>Each RQ WQE is one data segment ({@code log_wq_stride} 4) naming one whole pool buffer. The
 * queue remembers which buffer each WQE holds; a CQE's {@code wqe_counter} says which WQE it consumed.
 */
public final class RxQueue {
    /** The checksum bits of {@code hds_ip_ext} a CQE reports, and their {@link PacketFlags} per combination. */
    private static final int CHECK_BITS = CqeHdsIpExt.L2_OK$MASK | CqeHdsIpExt.L3_OK$MASK | CqeHdsIpExt.L4_OK$MASK;
    private static final int[] CHECK_FLAGS = new int[CHECK_BITS + 1];
    /** {@link PacketFlags} per {@code l3_hdr_type} (2 bits) and per {@code l4_hdr_type} (3 bits). */
    private static final int[] L3_FLAGS = new int[4];
    private static final int[] L4_FLAGS = new int[8];

    static {
        for (int c = 0; c <= CHECK_BITS; c++) {
            if ((c & CqeHdsIpExt.L2_OK$MASK) != 0) CHECK_FLAGS[c] |= PacketFlags.RX_L2_OK;
            if ((c & CqeHdsIpExt.L3_OK$MASK) != 0) CHECK_FLAGS[c] |= PacketFlags.RX_L3_OK;
            if ((c & CqeHdsIpExt.L4_OK$MASK) != 0) CHECK_FLAGS[c] |= PacketFlags.RX_L4_OK;
        }
        L3_FLAGS[CqeL3HdrType.IPV4$VALUE] = PacketFlags.RX_IPV4;
        L3_FLAGS[CqeL3HdrType.IPV6$VALUE] = PacketFlags.RX_IPV6;
        for (int t = 0; t < L4_FLAGS.length; t++)
            L4_FLAGS[t] = t == CqeL4HdrType.UDP$VALUE ? PacketFlags.RX_UDP : t != CqeL4HdrType.NONE$VALUE ? PacketFlags.RX_TCP : 0;
    }

    private final RqResources res;
    private final PacketPool pool;
    private final MemorySegment ring;
    private final int mask;
    private final int entries;
    private final MemorySegment dbr;
    private final MemorySegment cqRing;
    private final MemorySegment cqDbr;
    private final int cqLog;
    private final int cqMask;
    private final int[] slotBuffer;

    /** WQEs posted (free-running 16-bit counter space, kept as int) and consumed. */
    private int posted;
    private int consumed;
    private int cqCc;

    private long packets;
    private long bytes;
    private long errors;
    private long refillShortfalls;

    public RxQueue(RqResources res, PacketPool pool) {
        this.res = res;
        this.pool = pool;
        this.ring = res.ring().segment();
        this.entries = res.entries();
        this.mask = entries - 1;
        this.dbr = res.doorbellRecord();
        this.cqRing = res.cq().ring().segment();
        this.cqDbr = res.cq().doorbellRecord();
        this.cqLog = res.cq().logSize();
        this.cqMask = res.cq().entries() - 1;
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
     * CQEs are consumed per call, so fewer when some of them were errors). Their length,
     * flags, VLAN and RSS hash are in the pool's arrays; the caller owns the buffers (free them, or
     * send them). Error CQEs are counted and their buffers go straight back on the RQ.
     */
    public int receive(int[] buffers, int max) {
        // Everything the loops need in locals (C2 reloads fields and segment headers after a fence).
        final MemorySegment cq = cqRing;
        final int[] slots = slotBuffer;
        final PacketPool p = pool;
        final int[] meta = p.meta;
        final int cqm = cqMask;
        final int log = cqLog;
        // The ring's mask as slots.length - 1 (slotBuffer has one entry per WQE, a power of two): C2 then
        // knows every masked slot index is in bounds and drops the array's range check.
        final int m = slots.length - 1;
        int cc = cqCc;
        // 1. Ownership: how many CQEs from cc on the device has handed over (at most max). Ring + offset
        //    accessors throughout: an empty poll must not allocate even where C2 does not scalar-replace.
        int polled = 0;
        while (polled < max) {
            int c = cc + polled;
            long at = (long) (c & cqm) * Cqe64.SIZE;
            if (Cqe64.owner(cq, at) != (((c >>> log) & 1) != 0) || Cqe64.opcode(cq, at) == CqeOpcode.INVALID$VALUE) break;
            polled++;
        }
        if (polled == 0) return 0;
        // PRM: no other CQE field may be read before the ownership byte says the entry is ours: one load
        // fence (dma_rmb) after all the ownership bytes of the burst, as DPDK's vectorised mlx5 RX does,
        // instead of one per CQE (after which C2 reloads every segment header and field).
        VarHandle.loadLoadFence();
        // 2. Decode.
        int n = 0;
        long rxBytes = 0;
        final int first = cc;
        for (int k = 0; k < polled; k++) {
            long at = (long) ((first + k) & cqm) * Cqe64.SIZE;
            int opcode = Cqe64.opcode(cq, at);
            int slot = Cqe64.wqe_counter(cq, at) & m;
            int h = slots[slot];
            slots[slot] = -1;
            if (opcode == CqeOpcode.RESP_SEND$VALUE && h >= 0) {
                // Every CQE field into locals first, the stores to the pool's arrays after them.
                int len = Cqe64.byte_cnt(cq, at);
                int checks = Cqe64.hds_ip_ext(cq, at);
                int l3 = Cqe64.l3_hdr_type(cq, at);
                int l4 = Cqe64.l4_hdr_type(cq, at);
                boolean tagged = Cqe64.vlan_present(cq, at);
                int tci = Cqe64.vlan_info(cq, at);
                int rss = Cqe64.rss_hash_result(cq, at);
                int fl = CHECK_FLAGS[checks & CHECK_BITS] | L3_FLAGS[l3] | L4_FLAGS[l4];
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
                errors++;
                if (h >= 0) p.free(h); // recycled: the refill below posts it again
            }
        }
        cc = first + polled;
        if (polled > 0) {
            cqCc = cc;
            consumed += polled;
            bytes += rxBytes;
            // All CQE reads are done before the device may reuse the entries.
            VarHandle.releaseFence();
            CqDoorbellRecord.consumer_index$setUnchecked(cqDbr, cc & 0xffffff);
            packets += n;
            fill();
        }
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
            WqeDataSeg.store(rq, (long) slot * WqeDataSeg.SIZE, size, lkey, base + (long) h * size);
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
        return fill();
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
    }
}

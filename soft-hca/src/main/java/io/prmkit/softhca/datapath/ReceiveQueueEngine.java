package io.prmkit.softhca.datapath;

import io.prmkit.mlx5.Cqe64;
import io.prmkit.mlx5.CqeErrorSyndrome;
import io.prmkit.mlx5.CqeHdsIpExt;
import io.prmkit.mlx5.CqeL3HdrType;
import io.prmkit.mlx5.CqeL4HdrType;
import io.prmkit.mlx5.CqeOpcode;
import io.prmkit.mlx5.PrmConstants;
import io.prmkit.mlx5.RqState;
import io.prmkit.mlx5.Rqc;
import io.prmkit.mlx5.Wq;
import io.prmkit.mlx5.WqDoorbellRecord;
import io.prmkit.mlx5.WqeDataSeg;
import io.prmkit.softhca.device.DeviceContext;
import io.prmkit.softhca.device.Resources;
import io.prmkit.softhca.device.Queues;
import io.prmkit.softhca.wire.Ethernet;
import io.prmkit.softhca.wire.ParsedFrame;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * One cyclic RQ (PRM "Receive Queue", {@code wq_type} CYCLIC): WQEs of {@code 2^log_wq_stride}
 * bytes, each a scatter list of data segments ended by the invalid lkey (or the stride); software
 * posts them by raising the doorbell record's receive counter (there is no MMIO doorbell). A frame
 * takes the next WQE; with none posted it is dropped and counted in the RQ's Q counter as
 * {@code out_of_buffer}. The RX CQE carries byte count, WQE counter, L3/L4 types, checksum flags,
 * the stripped VLAN (unless {@code vsd}), RSS hash and flow tag. A frame larger than the WQE's
 * buffers, or a segment the key does not allow, completes its WQE with a RESP_ERR CQE
 * (LOCAL_LENGTH_ERR / LOCAL_PROT_ERR); the RQ stays ready (the model's choice).
 */
final class ReceiveQueueEngine {
    private static final int INVALID_LKEY = (int) PrmConstants.invalid_lkey;
    /** The WQE counter wraps at the width of the doorbell record's receive counter (16 bits). */
    private static final int CC_MASK = (1 << WqDoorbellRecord.receive_counter$BIT_WIDTH) - 1;
    /** Length part of a receive data segment's byte_count: its top bit asks for start padding (kernel MLX5_HW_START_PADDING), not length. */
    private static final int RX_LENGTH = (int) ((1L << (WqeDataSeg.byte_count$BIT_WIDTH - 1)) - 1);
    final Queues.Rq rq;
    final int rqn;
    private final DeviceContext ctx;
    private final MemoryAccess mem;
    private final int logSize;
    private final int mask;
    private final int stride;
    private final RingView ring;
    private final MemorySegment dbr;
    private final int pd;
    private final boolean rlky;
    private final boolean stripVlan;
    private final int userIndex;
    private final int counterSet;
    CqState cq;
    private final MemorySegment stripped = Arena.ofAuto().allocate(65536 + 64, 64);
    long delivered;
    long outOfBuffer;
    /** The doorbell record's receive counter as last read, and the command generation it was read in. */
    private int postedSeen = -1;
    private int postedGeneration = -1;

    ReceiveQueueEngine(Queues.Rq rq, DeviceContext ctx, MemoryAccess mem, CqState cq) {
        this.rq = rq;
        this.rqn = rq.rqn;
        this.ctx = ctx;
        this.mem = mem;
        this.cq = cq;
        MemorySegment rqc = rq.rqc;
        long wq = Rqc.wq$BYTE_OFFSET;
        this.logSize = Wq.log_wq_sz(rqc, wq);
        this.mask = (1 << logSize) - 1;
        this.stride = 1 << Wq.log_wq_stride(rqc, wq);
        this.ring = new RingView(rq.ring, (long) stride << logSize, ctx.iommu());
        this.dbr = ctx.iommu().slice(rq.dbr, WqDoorbellRecord.SIZE);
        this.pd = Wq.pd(rqc, wq);
        this.rlky = Rqc.rlky(rqc);
        this.stripVlan = !Rqc.vsd(rqc);
        this.userIndex = Rqc.user_index(rqc);
        this.counterSet = Rqc.counter_set_id(rqc);
    }

    /** Delivers one frame into the next posted WQE; false when it was dropped. */
    boolean deliver(MemorySegment fr, long off, int len, ParsedFrame f, int rssHash, int rssIp, int rssL4, int flowTag) {
        if (rq.state() != RqState.RDY$VALUE || dbr == null) return false;
        int cc = rq.consumerCounter() & CC_MASK;
        int posted = postedSeen;
        if (cc == posted || postedGeneration != ctx.objects().generation()) {
            // The doorbell record is read only when the WQEs seen there are used up (or a command ran):
            // the driver rewrites it once per burst, and a read per frame would pull its line every time.
            try {
                posted = WqDoorbellRecord.receive_counter(dbr);
            } catch (IllegalStateException e) {
                return false;
            }
            postedSeen = posted;
            postedGeneration = ctx.objects().generation();
        }
        if (cc == posted) {
            outOfBuffer++;
            Resources.QCounter q = ctx.objects().qCounter(counterSet);
            if (q != null) q.countOutOfBuffer();
            return false;
        }
        boolean vlan = stripVlan && f.vlanCount > 0 && f.outerTpid == Ethernet.TYPE_VLAN;
        MemorySegment src = fr;
        long so = off;
        int n = len;
        if (vlan) {
            // the MAC addresses, then everything after the tag (its encapsulated ethertype first)
            int macs = Ethernet.ETH_ADDRS_LEN;
            MemorySegment.copy(fr, off, stripped, 0, macs);
            MemorySegment.copy(fr, off + macs + Ethernet.VLAN_HLEN, stripped, macs, len - macs - Ethernet.VLAN_HLEN);
            src = stripped;
            so = 0;
            n = len - Ethernet.VLAN_HLEN;
        }
        long wqeOff = (long) (cc & mask) * stride;
        MemorySegment wqe = ring.segment(wqeOff, stride);
        int status;
        try {
            status = wqe == null ? MemoryAccess.PROT : scatter(wqe, ring.offsetIn(wqeOff), src, so, n);
        } catch (IllegalStateException e) { // the RQ ring was freed under the device
            status = MemoryAccess.PROT;
        }
        rq.setConsumerCounter(cc + 1);
        CqState c = cq;
        if (c == null) return status == MemoryAccess.OK;
        boolean ok = status == MemoryAccess.OK;
        if (!(ok ? c.reserveRx() : c.reserve())) return false;
        try {
            if (!ok) {
                c.errBody().syndrome(status).qpn(rqn).wqe_counter(cc).srqn(userIndex).write();
                c.publish(CqeOpcode.RESP_ERR, false);
                return false;
            }
            if (c.compress) {
                // A completion whose CQE would have the same shared fields as the held session's title
                // joins it without a CQE being built; any other starts the next session.
                // HASH minis carry the hash instead of the checksum: a completion that joins needs no sum.
                int csum = c.hashFormat ? 0 : f.l3OnwardSum(fr, off);
                long shape = shape(f, vlan, rssIp, rssL4, flowTag);
                if (!c.joinRx(this, shape, cc, n, csum, rssHash)) {
                    csum = writeRxCqe(c, fr, off, len, n, cc, f, vlan, rssHash, rssIp, rssL4, flowTag);
                    c.startRx(this, shape, cc, n, csum, rssHash);
                }
            } else {
                writeRxCqe(c, fr, off, len, n, cc, f, vlan, rssHash, rssIp, rssL4, flowTag);
                c.publish(CqeOpcode.RESP_SEND, false);
            }
        } catch (IllegalStateException e) {
            c.lost();
            return false;
        }
        delivered++;
        return true;
    }

    /**
     * The RX CQE (opcode still INVALID) at the CQ's reserved entry. It sets every field an RX
     * CQE has (the writer starts cleared, see {@link CqState#rxBody}). Returns the CQE's {@code check_sum}.
     */
    private int writeRxCqe(CqState c, MemorySegment fr, long off, int len, int n, int cc, ParsedFrame f, boolean vlan,
            int rssHash, int rssIp, int rssL4, int flowTag) {
        int csum = f.l3OnwardSum(fr, off);
        Cqe64.Device.Writer w = c.rxBody();
        boolean staged = c.compress; // byte_cnt, wqe_counter, check_sum and the hash go in when the session is written
        if (!staged) w.byte_cnt(n).wqe_counter(cc).check_sum(csum);
        w.srqn(userIndex)
                .hds_ip_ext(checks(f))
                .l3_hdr_type(l3Type(f))
                .l4_hdr_type(l4Type(f));
        // The writer starts cleared: fields most frames leave 0 are set only when they are not
        if (flowTag != 0) w.flow_tag(flowTag);
        if (f.ipFragment) w.ip_frag(true);
        if (f.ipOptions) w.ip_options(true);
        if (vlan) w.vlan_present(true).vlan_info(f.outerTci);
        if (rssIp != 0 || rssL4 != 0) w.rss_hash_ip_type(rssIp).rss_hash_l4_type(rssL4);
        if (rssHash != 0 && !staged) w.rss_hash_result(rssHash);
        w.write();
        return csum;
    }

    /**
     * Everything {@link #writeRxCqe} puts into an RX CQE besides the per-completion fields (byte count,
     * counter, checksum, hash) and the RQ's own (srqn), as one value: two completions of one RQ with the
     * same shape have CQEs that differ only in what a mini CQE carries. Keep it in step with writeRxCqe.
     */
    private static long shape(ParsedFrame f, boolean vlan, int rssIp, int rssL4, int flowTag) {
        long s = checks(f) & 0xff;
        s |= (long) l3Type(f) << 8;
        s |= (long) l4Type(f) << 10;
        if (f.ipFragment) s |= 1L << 13;
        if (f.ipOptions) s |= 1L << 14;
        if (vlan) s |= 1L << 15 | (long) (f.outerTci & 0xffff) << 16;
        s |= (long) (rssIp & 3) << 32 | (long) (rssL4 & 3) << 34;
        return s | (long) (flowTag & 0xffffff) << 36;
    }

    private static int checks(ParsedFrame f) {
        boolean l4known = f.l4 == ParsedFrame.L4.TCP || f.l4 == ParsedFrame.L4.UDP;
        return CqeHdsIpExt.L2_OK$MASK
                | (f.l3 == ParsedFrame.L3.IPV6 || (f.l3 == ParsedFrame.L3.IPV4 && f.l3ChecksumOk) ? CqeHdsIpExt.L3_OK$MASK : 0)
                | (l4known && f.l4ChecksumOk ? CqeHdsIpExt.L4_OK$MASK : 0);
    }

    private static int l3Type(ParsedFrame f) {
        return f.l3 == ParsedFrame.L3.IPV4 ? CqeL3HdrType.IPV4$VALUE : f.l3 == ParsedFrame.L3.IPV6 ? CqeL3HdrType.IPV6$VALUE : CqeL3HdrType.NONE$VALUE;
    }

    private static int l4Type(ParsedFrame f) {
        if (f.l4 == ParsedFrame.L4.UDP) return CqeL4HdrType.UDP$VALUE;
        if (f.l4 != ParsedFrame.L4.TCP) return CqeL4HdrType.NONE$VALUE;
        if ((f.tcpFlags & Ethernet.TCP_ACK) == 0) return CqeL4HdrType.TCP_NO_ACK$VALUE;
        return f.payloadLength == 0 ? CqeL4HdrType.TCP_ACK_NO_DATA$VALUE : CqeL4HdrType.TCP_ACK_AND_DATA$VALUE;
    }

    /** Scatters {@code n} bytes into the buffers of the WQE at {@code at} of {@code wqe}; 0 or a CQE error syndrome. */
    private int scatter(MemorySegment wqe, long at, MemorySegment src, long so, int n) {
        int done = 0;
        for (long d = at; d + WqeDataSeg.SIZE <= at + stride && done < n; d += WqeDataSeg.SIZE) {
            int lkey = WqeDataSeg.lkey(wqe, d);
            int bc = WqeDataSeg.byte_count(wqe, d) & RX_LENGTH;
            if (lkey == INVALID_LKEY && bc == 0) break;
            int chunk = Math.min(bc, n - done);
            int r = mem.copy(lkey, WqeDataSeg.addr(wqe, d), chunk, src, so + done, true, pd, rlky);
            if (r != MemoryAccess.OK) return r;
            done += chunk;
        }
        return done == n ? MemoryAccess.OK : CqeErrorSyndrome.LOCAL_LENGTH_ERR$VALUE;
    }
}

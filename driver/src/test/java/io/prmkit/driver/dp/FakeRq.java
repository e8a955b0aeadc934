package io.prmkit.driver.dp;

import io.prmkit.driver.eth.RqResources;
import io.prmkit.mlx5.CqDoorbellRecord;
import io.prmkit.mlx5.Cqe64;
import io.prmkit.mlx5.CqeErrorSyndrome;
import io.prmkit.mlx5.CqeFormat;
import io.prmkit.mlx5.CqeHdsIpExt;
import io.prmkit.mlx5.CqeL3HdrType;
import io.prmkit.mlx5.CqeL4HdrType;
import io.prmkit.mlx5.CqeOpcode;
import io.prmkit.mlx5.ErrCqe;
import io.prmkit.mlx5.MiniCqe8;
import io.prmkit.mlx5.WqDoorbellRecord;
import io.prmkit.mlx5.WqeDataSeg;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;

/** The test plays the device for one RQ: consumes posted WQEs in order, writes frames and CQEs, drops when the RQ is empty. */
final class FakeRq {
    final HostMemory host;
    final RqResources rq;
    final List<String> violations = new ArrayList<>();
    int consumed;
    int cqPc;
    long outOfBuffer;

    FakeRq(HostMemory host, RqResources rq) {
        this.host = host;
        this.rq = rq;
    }

    /** Delivers one frame; false when the RQ had no WQE (dropped, counted in outOfBuffer). */
    boolean deliver(byte[] frame, int rssHash, int vlanStripped, boolean error) {
        return deliver(frame, rssHash, vlanStripped, error, CqeHdsIpExt.L2_OK$MASK | CqeHdsIpExt.L3_OK$MASK | CqeHdsIpExt.L4_OK$MASK,
                CqeL3HdrType.IPV4$VALUE, CqeL4HdrType.UDP$VALUE);
    }

    /** The same with the CQE's checksum bits ({@code hds_ip_ext}) and header types as given. */
    boolean deliver(byte[] frame, int rssHash, int vlanStripped, boolean error, int checks, int l3, int l4) {
        int posted = WqDoorbellRecord.receive_counter(rq.doorbellRecord());
        if ((consumed & 0xffff) == posted) {
            outOfBuffer++;
            return false;
        }
        int slot = consumed & (rq.entries() - 1);
        long d = (long) slot * WqeDataSeg.SIZE;
        MemorySegment ring = rq.ring().segment();
        int bc = WqeDataSeg.byte_count(ring, d);
        long addr = WqeDataSeg.addr(ring, d);
        if (WqeDataSeg.lkey(ring, d) != Rings.LKEY) violations.add("RQ WQE " + slot + " has lkey " + WqeDataSeg.lkey(ring, d));
        MemorySegment dst = host.resolve(addr, Math.min(bc, frame.length));
        if (dst == null || bc < frame.length) violations.add("RQ WQE " + slot + " cannot hold " + frame.length + " bytes");
        int index = consumed & 0xffff;
        consumed++;
        int ci = CqDoorbellRecord.consumer_index(rq.cq().doorbellRecord());
        if (((cqPc - ci) & 0xffffff) >= rq.cq().entries()) violations.add("RX CQ overrun");
        long off = (long) (cqPc & (rq.cq().entries() - 1)) * Cqe64.SIZE;
        boolean owner = ((cqPc >>> rq.cq().logSize()) & 1) != 0;
        cqPc++;
        MemorySegment cq = rq.cq().ring().segment();
        if (error) {
            ErrCqe.Device.writer(cq, off).syndrome(CqeErrorSyndrome.LOCAL_LENGTH_ERR).qpn(rq.rqn()).wqe_counter(index)
                    .opcode(CqeOpcode.RESP_ERR).owner(owner).write();
            return true;
        }
        MemorySegment.copy(MemorySegment.ofArray(frame), ValueLayout.JAVA_BYTE, 0, dst, ValueLayout.JAVA_BYTE, 0, frame.length);
        Cqe64.Device.Writer w = Cqe64.Device.writer(cq, off).byte_cnt(frame.length).wqe_counter(index).rss_hash_result(rssHash)
                .hds_ip_ext(checks).l3_hdr_type(l3).l4_hdr_type(l4)
                .opcode(CqeOpcode.RESP_SEND).owner(owner);
        if (vlanStripped >= 0) w.vlan_present(true).vlan_info(vlanStripped);
        w.write();
        return true;
    }

    /**
     * Delivers {@code frames.length} frames (at least 2) as one compressed session (PRM "Compressed CQE",
     * basic layout, mini_cqe_res_format HASH): the mini CQE arrays first (slot pc + 1, then pc + 8k),
     * then the title at pc (byte_cnt = N, format COMPRESSED, the shared fields), its op_own byte last.
     * Returns false (nothing delivered) when the RQ has fewer than N WQEs posted.
     */
    boolean deliverSession(byte[][] frames, int[] hashes, int vlanStripped) {
        int n = frames.length;
        int posted = WqDoorbellRecord.receive_counter(rq.doorbellRecord());
        if (((posted - consumed) & 0xffff) < n) return false;
        int first = consumed & 0xffff;
        MemorySegment ring = rq.ring().segment();
        for (byte[] frame : frames) {
            int slot = consumed & (rq.entries() - 1);
            long d = (long) slot * WqeDataSeg.SIZE;
            MemorySegment dst = host.resolve(WqeDataSeg.addr(ring, d), Math.min(WqeDataSeg.byte_count(ring, d), frame.length));
            if (dst == null || WqeDataSeg.byte_count(ring, d) < frame.length) violations.add("RQ WQE " + slot + " cannot hold " + frame.length + " bytes");
            else MemorySegment.copy(MemorySegment.ofArray(frame), ValueLayout.JAVA_BYTE, 0, dst, ValueLayout.JAVA_BYTE, 0, frame.length);
            consumed++;
        }
        int entries = rq.cq().entries();
        int ci = CqDoorbellRecord.consumer_index(rq.cq().doorbellRecord());
        if (((cqPc + n - 1 - ci) & 0xffffff) >= entries) violations.add("RX CQ overrun by a session");
        MemorySegment cq = rq.cq().ring().segment();
        for (int k = 0; 8 * k < n; k++) {
            long off = (long) ((cqPc + (k == 0 ? 1 : 8 * k)) & (entries - 1)) * Cqe64.SIZE;
            for (int j = 0; j < 8; j++) {
                int i = 8 * k + j;
                MiniCqe8.Device.Writer w = MiniCqe8.Device.writer(cq, off + (long) j * MiniCqe8.SIZE);
                if (i < n) w.byte_cnt(frames[i].length).rx_hash_result(hashes[i]);
                w.write();
            }
        }
        long off = (long) (cqPc & (entries - 1)) * Cqe64.SIZE;
        boolean owner = ((cqPc >>> rq.cq().logSize()) & 1) != 0;
        Cqe64.Device.Writer w = Cqe64.Device.writer(cq, off).byte_cnt(n).wqe_counter(first).rss_hash_result(hashes[0])
                .hds_ip_ext(CqeHdsIpExt.L2_OK$MASK | CqeHdsIpExt.L3_OK$MASK | CqeHdsIpExt.L4_OK$MASK)
                .l3_hdr_type(CqeL3HdrType.IPV4$VALUE).l4_hdr_type(CqeL4HdrType.UDP$VALUE)
                .cqe_format(CqeFormat.COMPRESSED).opcode(CqeOpcode.INVALID).owner(!owner);
        if (vlanStripped >= 0) w.vlan_present(true).vlan_info(vlanStripped);
        w.write();
        java.lang.invoke.VarHandle.releaseFence();
        Cqe64.Device.opcode$set(cq, off, CqeOpcode.RESP_SEND);
        Cqe64.Device.owner$set(cq, off, owner);
        cqPc += n;
        return true;
    }
}

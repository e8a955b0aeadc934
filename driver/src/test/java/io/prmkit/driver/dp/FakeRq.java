package io.prmkit.driver.dp;

import io.prmkit.mlx5.CqDoorbellRecord;
import io.prmkit.mlx5.CqeErrorSyndrome;
import io.prmkit.mlx5.CqeL3HdrType;
import io.prmkit.mlx5.CqeL4HdrType;
import io.prmkit.mlx5.CqeOpcode;
import io.prmkit.mlx5.Cqe64;
import io.prmkit.mlx5.CqeHdsIpExt;
import io.prmkit.mlx5.ErrCqe;
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
        if (WqeDataSeg.lkey(ring, d) != rq.lkey()) violations.add("RQ WQE " + slot + " has lkey " + WqeDataSeg.lkey(ring, d));
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
}

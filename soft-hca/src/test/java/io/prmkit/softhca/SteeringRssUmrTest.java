package io.prmkit.softhca;

import static org.junit.jupiter.api.Assertions.*;

import io.prmkit.mlx5.CreateFlowGroupIn;
import io.prmkit.mlx5.CreateMkeyIn;
import io.prmkit.mlx5.CreateTirIn;
import io.prmkit.mlx5.Cqe64;
import io.prmkit.mlx5.CqeErrorSyndrome;
import io.prmkit.mlx5.CqeOpcode;
import io.prmkit.mlx5.CqeRssIp;
import io.prmkit.mlx5.CqeRssL4;
import io.prmkit.mlx5.ErrCqe;
import io.prmkit.mlx5.FlowContext;
import io.prmkit.mlx5.FlowTableType;
import io.prmkit.mlx5.FteMatchParam;
import io.prmkit.mlx5.FteMatchSetLyr24;
import io.prmkit.mlx5.InlineMode;
import io.prmkit.mlx5.Mkc;
import io.prmkit.mlx5.MkcAccessMode;
import io.prmkit.mlx5.RxHashFieldSelect;
import io.prmkit.mlx5.RxHashFields;
import io.prmkit.mlx5.RxHashFn;
import io.prmkit.mlx5.SendWqeOpcode;
import io.prmkit.mlx5.SetFteIn;
import io.prmkit.mlx5.SqState;
import io.prmkit.mlx5.Tirc;
import io.prmkit.mlx5.UmrCtrlFlags;
import io.prmkit.mlx5.UmrMkeyMask;
import io.prmkit.mlx5.WqeCtrlSeg;
import io.prmkit.mlx5.WqeUmrCtrlSeg;
import io.prmkit.mlx5.WqeUmrKlmSeg;
import io.prmkit.softhca.wire.Ethernet;
import io.prmkit.softhca.wire.TestFrames;
import io.prmkit.softhca.wire.Toeplitz;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Receive steering (flow tables, RSS over an RQT) and UMR, driven as a driver does: every object by
 * its command, frames sent on an SQ that come back over the loopback wire, and what a driver sees:
 * the receive CQEs (hash, hash types, flow tag), the RQs' consumer counters (QUERY_RQ), keys as
 * QUERY_MKEY returns them, PPCNT's discards.
 */
class SteeringRssUmrTest {
    final Nic n = new Nic();
    final Nic.Cq txCq = n.new Cq(6);
    final Nic.Sq sq = n.new Sq(6, txCq, InlineMode.NONE$VALUE);
    final int lkey = n.paKey(true, true);
    final Nic.Mem tx = n.dma(64 * 1024);

    @AfterEach
    void close() {
        n.close();
    }

    void send(byte[] f) {
        MemorySegment.copy(f, 0, tx.seg(), ValueLayout.JAVA_BYTE, 0, f.length);
        sq.send(lkey, tx.bus(), f.length, tx.seg(), 18, 0, true);
        sq.ring();
        n.poll();
        MemorySegment c = txCq.poll();
        assertNotNull(c, "send CQE");
        assertEquals(CqeOpcode.REQ.value, Cqe64.opcode(c), () -> "send failed: syndrome " + ErrCqe.syndrome(c));
    }

    /** Four RQs on {@code rxCq}, eight WQEs posted on each. */
    Nic.Rq[] fourRqs(Nic.Cq rxCq) {
        Nic.Rq[] rqs = new Nic.Rq[4];
        for (int i = 0; i < 4; i++) {
            rqs[i] = n.new Rq(4, rxCq, 256, false, true);
            rqs[i].post(8, lkey);
        }
        return rqs;
    }

    /** CREATE_RQT over {@code rqs}, CREATE_TIR hashing over it by {@code fn}, a catch-all root table to that TIR. */
    void rss(Nic.Rq[] rqs, RxHashFn fn, boolean symmetric, boolean udp, byte[] toeplitzKey) {
        int[] rqns = new int[rqs.length];
        for (int i = 0; i < rqs.length; i++) rqns[i] = rqs[i].rqn;
        MemorySegment in = Objs.tirIndirectIn(n.td, Objs.rqt(n.h, rqns));
        long ctx = CreateTirIn.ctx$BYTE_OFFSET;
        Tirc.rx_hash_fn$set(in, ctx, fn);
        Tirc.rx_hash_symmetric$set(in, ctx, symmetric);
        if (toeplitzKey != null) MemorySegment.copy(toeplitzKey, 0, in, ValueLayout.JAVA_BYTE, ctx + Tirc.rx_hash_toeplitz_key$BYTE_OFFSET, 40);
        long sel = ctx + Tirc.rx_hash_field_selector_outer$BYTE_OFFSET;
        RxHashFieldSelect.l4_prot_type$set(in, sel, udp);
        RxHashFieldSelect.selected_fields$set(in, sel, RxHashFields.SRC_IP$MASK | RxHashFields.DST_IP$MASK | RxHashFields.L4_SPORT$MASK | RxHashFields.L4_DPORT$MASK);
        n.catchAll(Objs.tir(n.h, in));
    }

    @Test
    void rssSpreadsByToeplitzOverTheRqtAndReportsTheHash() {
        Nic.Cq rxCq = n.new Cq(6);
        Nic.Rq[] rqs = fourRqs(rxCq);
        byte[] key = HexFormat.of().parseHex("6d5a56da255b0ec24167253d43a38fb0d0ca2bcbae7b30b477cb2da38030f20c6a42b73bbeac01fa");
        rss(rqs, RxHashFn.TOEPLITZ, false, false, key);

        // Microsoft's RSS verification vectors (TCP over IPv4): source, destination, expected hash
        int[][] v = {
            {66, 9, 149, 187, 2794, 161, 142, 100, 80, 1766, 0x51ccc178},
            {199, 92, 111, 2, 14230, 65, 69, 140, 83, 4739, 0xc626b0ea},
            {24, 19, 198, 95, 12898, 12, 22, 207, 184, 38024, 0x5c2b394a},
            {38, 27, 205, 30, 48228, 209, 142, 163, 6, 2217, 0xafc7327f},
            {153, 39, 163, 191, 44251, 202, 188, 127, 2, 1303, 0x10e828a2},
        };
        int[] perRq = new int[4];
        for (int[] x : v) {
            byte[] f = TestFrames.ipv4(TestFrames.DMAC, Ethernet.PROTO_TCP, new byte[] {(byte) x[0], (byte) x[1], (byte) x[2], (byte) x[3]},
                    new byte[] {(byte) x[5], (byte) x[6], (byte) x[7], (byte) x[8]}, x[4], x[9], new byte[10], Ethernet.TCP_ACK);
            send(f);
            MemorySegment rc = rxCq.poll();
            assertNotNull(rc);
            assertEquals(x[10], Cqe64.rss_hash_result(rc));
            assertEquals(CqeRssIp.IPV4.value, Cqe64.rss_hash_ip_type(rc));
            assertEquals(CqeRssL4.TCP.value, Cqe64.rss_hash_l4_type(rc));
            int expectRq = x[10] & 3;
            perRq[expectRq]++;
            assertEquals(perRq[expectRq], rqs[expectRq].hwCounter(), "frame went to RQ " + expectRq);
        }
        // the same address pairs again with other ports, six frames per device pass: the source stays while
        // the destination changes, and back; every hash as Toeplitz over the whole input computes it (a
        // device that reused part of an earlier frame's hash would fail here)
        Toeplitz t = new Toeplitz(key);
        java.util.Random r = new java.util.Random(13);
        for (int burst = 0; burst < 10; burst++) {
            int[] want = new int[6];
            for (int k = 0; k < 6; k++) {
                int i = burst * 6 + k;
                int[] x = v[(i / 3) % v.length];
                int[] y = v[(i / 2) % v.length];
                int sport = r.nextInt(65536), dport = r.nextInt(65536);
                byte[] f = TestFrames.ipv4(TestFrames.DMAC, Ethernet.PROTO_TCP, new byte[] {(byte) x[0], (byte) x[1], (byte) x[2], (byte) x[3]},
                        new byte[] {(byte) y[5], (byte) y[6], (byte) y[7], (byte) y[8]}, sport, dport, new byte[10], Ethernet.TCP_ACK);
                want[k] = t.hash(new byte[] {(byte) x[0], (byte) x[1], (byte) x[2], (byte) x[3], (byte) y[5], (byte) y[6], (byte) y[7], (byte) y[8],
                        (byte) (sport >>> 8), (byte) sport, (byte) (dport >>> 8), (byte) dport});
                rqs[want[k] & 3].post(1, lkey);
                MemorySegment.copy(f, 0, tx.seg(), ValueLayout.JAVA_BYTE, 256L * k, f.length);
                sq.send(lkey, tx.bus() + 256L * k, f.length, tx.seg().asSlice(256L * k), 18, 0, true);
            }
            sq.ring();
            n.poll();
            for (int k = 0; k < 6; k++) {
                MemorySegment c = txCq.poll();
                assertEquals(CqeOpcode.REQ.value, Cqe64.opcode(c), "send " + k + " of burst " + burst);
                MemorySegment rc = rxCq.poll();
                assertNotNull(rc, "frame " + k + " of burst " + burst);
                assertEquals(want[k], Cqe64.rss_hash_result(rc), "frame " + k + " of burst " + burst);
                perRq[want[k] & 3]++;
            }
            for (int q = 0; q < 4; q++) assertEquals(perRq[q], rqs[q].hwCounter(), "frames in RQ " + q + " after burst " + burst);
        }
        // an IPv6 frame at an IPv4 TIR is not hashed: RQ 0, no hash types
        send(TestFrames.ipv6(Ethernet.PROTO_TCP, 1, 2, new byte[4]));
        MemorySegment rc = rxCq.poll();
        assertEquals(0, Cqe64.rss_hash_result(rc));
        assertEquals(CqeRssIp.NONE.value, Cqe64.rss_hash_ip_type(rc));
        assertEquals(perRq[0] + 1, rqs[0].hwCounter(), "the unhashed frame went to RQ 0");
    }

    /**
     * INVERTED_XOR8 (Linux's direct TIRs, and ETH_RSS_HASH_XOR): the XOR of the selected bytes,
     * bit-reversed, picks the RQT entry; with rx_hash_symmetric a flow's two directions hash alike.
     */
    @Test
    void invertedXor8PicksTheEntryByTheReversedXorOfTheSelectedBytes() {
        Nic.Cq rxCq = n.new Cq(6);
        Nic.Rq[] rqs = fourRqs(rxCq);
        rss(rqs, RxHashFn.INVERTED_XOR8, true, true, null);
        int[] perRq = new int[4];
        for (int i = 0; i < 6; i++) {
            byte[] a = {10, 1, 2, (byte) (3 + i)};
            byte[] b = {(byte) 172, 16, (byte) (5 * i), 9};
            int p = 1000 + 31 * i;
            int q = 53;
            int x = 0;
            for (byte v : a) x ^= v & 0xff;
            for (byte v : b) x ^= v & 0xff;
            x ^= (p >>> 8) ^ (p & 0xff) ^ (q >>> 8) ^ (q & 0xff);
            int want = Integer.reverse(x) >>> 24;
            for (int dir = 0; dir < 2; dir++) {
                send(dir == 0 ? TestFrames.ipv4(TestFrames.DMAC, Ethernet.PROTO_UDP, a, b, p, q, new byte[8], 0)
                        : TestFrames.ipv4(TestFrames.DMAC, Ethernet.PROTO_UDP, b, a, q, p, new byte[8], 0));
                MemorySegment rc = rxCq.poll();
                assertNotNull(rc);
                assertEquals(want, Cqe64.rss_hash_result(rc), "flow " + i + " direction " + dir);
                assertEquals(CqeRssL4.UDP.value, Cqe64.rss_hash_l4_type(rc));
                perRq[want & 3]++;
                assertEquals(perRq[want & 3], rqs[want & 3].hwCounter(), "frame went to RQ " + (want & 3));
            }
        }
    }

    @Test
    void flowTableMatchesOuterHeadersUnderTheGroupMaskAndTagsTheCqe() {
        Nic.Cq rxCq = n.new Cq(6);
        Nic.Rq a = n.new Rq(4, rxCq, 2048, false, true);
        Nic.Rq b = n.new Rq(4, rxCq, 2048, false, true);
        a.post(8, lkey);
        b.post(8, lkey);
        int tirA = n.directTir(a);
        int tirB = n.directTir(b);
        int table = Objs.flowTable(n.h, Objs.flowTableIn(FlowTableType.NIC_RX, 4, 0));
        long o = FteMatchParam.outer_headers$BYTE_OFFSET;
        long criteria = CreateFlowGroupIn.match_criteria$BYTE_OFFSET + o;
        MemorySegment g1 = Objs.flowGroupIn(table, 0, 7);
        FteMatchSetLyr24.dmac_47_16$set(g1, criteria, 0xffffffff);
        FteMatchSetLyr24.dmac_15_0$set(g1, criteria, 0xffff);
        FteMatchSetLyr24.ethertype$set(g1, criteria, 0xffff);
        FteMatchSetLyr24.ip_protocol$set(g1, criteria, 0xff);
        FteMatchSetLyr24.udp_dport$set(g1, criteria, 0xffff);
        int group1 = Objs.flowGroup(n.h, g1);
        long fc = SetFteIn.flow_context$BYTE_OFFSET;
        long mv = fc + FlowContext.match_value$BYTE_OFFSET + o;
        MemorySegment e1 = Objs.fteToTirIn(table, group1, 0, tirA);
        FlowContext.flow_tag$set(e1, fc, 0x1234);
        FteMatchSetLyr24.dmac_47_16$set(e1, mv, 0x02000000);
        FteMatchSetLyr24.dmac_15_0$set(e1, mv, 0x0001); // TestFrames.DMAC
        FteMatchSetLyr24.ethertype$set(e1, mv, Ethernet.TYPE_IPV4);
        FteMatchSetLyr24.ip_protocol$set(e1, mv, Ethernet.PROTO_UDP);
        FteMatchSetLyr24.udp_dport$set(e1, mv, 2222);
        Objs.fte(n.h, e1).ok();
        MemorySegment g2 = Objs.flowGroupIn(table, 8, 15);
        FteMatchSetLyr24.ethertype$set(g2, criteria, 0xffff);
        int group2 = Objs.flowGroup(n.h, g2);
        MemorySegment e2 = Objs.fteToTirIn(table, group2, 8, tirB);
        FlowContext.flow_tag$set(e2, fc, 0x99);
        FteMatchSetLyr24.ethertype$set(e2, mv, Ethernet.TYPE_IPV6);
        Objs.fte(n.h, e2).ok();
        n.root(table);
        // promiscuous: the frame to another MAC below reaches steering, whose dmac match is tested here
        n.promisc(false, false, true);

        send(TestFrames.ipv4(Ethernet.PROTO_UDP, 1111, 2222, new byte[20]));
        send(TestFrames.ipv6(Ethernet.PROTO_UDP, 1111, 2222, new byte[20]));
        send(TestFrames.ipv4(Ethernet.PROTO_UDP, 1111, 3333, new byte[20])); // no entry: dropped
        send(TestFrames.ipv4(Ethernet.PROTO_TCP, 1111, 2222, new byte[20])); // TCP port 2222 is not a UDP port
        byte[] other = TestFrames.ipv4(new byte[] {2, 0, 0, 0, 0, 3}, Ethernet.PROTO_UDP, new byte[4], new byte[4], 1, 2222, new byte[20], 0);
        send(other); // another dmac
        List<MemorySegment> r = rxCq.drain();
        assertEquals(2, r.size());
        assertEquals(0x1234, Cqe64.flow_tag(r.get(0)));
        assertEquals(1, a.hwCounter());
        assertEquals(0x99, Cqe64.flow_tag(r.get(1)));
        assertEquals(1, b.hwCounter());
        assertEquals(3, n.inDiscards(), "the three unsteered frames are the port's inbound discards");
    }

    /** CREATE_MKEY of an indirect (KLM) key, variant byte 7, no translation yet; {@code umrEn}: free and umr_en, else neither. */
    int klmKey(boolean umrEn) {
        MemorySegment in = ObjectCommandsTest.mkeyIn(n.pd, MkcAccessMode.KLMS, 0);
        long m = CreateMkeyIn.memory_key_mkey_entry$BYTE_OFFSET;
        Mkc.lr$set(in, m, false);
        Mkc.lw$set(in, m, false);
        Mkc.umr_en$set(in, m, umrEn);
        Mkc.free$set(in, m, umrEn); // a free key must be umr_en
        Mkc.mkey_7_0$set(in, m, 7);
        return n.mkey(in);
    }

    /** UMR WQE: inline KLMs (len, key, addr) made the target's translation; LEN|START_ADDR|LR|FREE from the mkey segment. */
    void umr(int target, long start, int flags, long[][] klms) {
        int ds = 1 + 3 + 4 + klms.length;
        int nbb = (ds + 3) / 4;
        MemorySegment w = MemorySegment.ofArray(new byte[nbb * 64]);
        WqeCtrlSeg.writer(w, 0).opcode(SendWqeOpcode.UMR).wqe_index(sq.pc & 0xffff).qpn(sq.sqn).ds(ds)
                .ce(io.prmkit.mlx5.CompletionMode.CQE_ALWAYS).imm(target).write();
        long total = 0;
        for (long[] k : klms) total += k[0];
        WqeUmrCtrlSeg.writer(w, 16).umr_flags(flags).klm_octowords(klms.length)
                .mkey_mask(UmrMkeyMask.LEN$MASK | UmrMkeyMask.START_ADDR$MASK | UmrMkeyMask.LR$MASK | UmrMkeyMask.FREE$MASK).write();
        Mkc.writer(w, 64).lr(true).start_addr(start).len(total).free(false).write();
        for (int i = 0; i < klms.length; i++) {
            WqeUmrKlmSeg.writer(w, 128 + 16L * i).byte_count((int) klms[i][0]).mkey((int) klms[i][1]).address(klms[i][2]).write();
        }
        sq.put(w, nbb);
        sq.ring();
        n.poll();
    }

    @Test
    void umrRewritesAnIndirectKeyAndSendsGatherThroughIt() {
        Nic.Cq rxCq = n.new Cq(6);
        Nic.Rq rq = n.new Rq(4, rxCq, 2048, false, true);
        rq.post(4, lkey);
        n.catchAll(n.directTir(rq));
        byte[] f = TestFrames.ipv4(Ethernet.PROTO_UDP, 7, 8, TestFrames.payload(300, 2));
        // the frame lives in two pieces far apart: [0, 100) at tx+0x1000, the rest at tx+0x3000
        MemorySegment.copy(f, 0, tx.seg(), ValueLayout.JAVA_BYTE, 0x1000, 100);
        MemorySegment.copy(f, 100, tx.seg(), ValueLayout.JAVA_BYTE, 0x3000, f.length - 100);
        int key = klmKey(true);
        assertTrue(Mkc.free(n.queryMkey(key)), "free until the UMR");
        umr(key, 0x5000_0000L, UmrCtrlFlags.INLINE$MASK | UmrCtrlFlags.CHECK_FREE$MASK,
                new long[][] {{100, lkey, tx.bus() + 0x1000}, {f.length - 100, lkey, tx.bus() + 0x3000}});
        MemorySegment uc = txCq.poll();
        assertEquals(CqeOpcode.REQ.value, Cqe64.opcode(uc), () -> "UMR failed: " + ErrCqe.syndrome(uc));
        assertEquals(SendWqeOpcode.UMR.value, Cqe64.s_wqe_opcode(uc));
        MemorySegment mkc = n.queryMkey(key);
        assertFalse(Mkc.free(mkc));
        assertEquals(f.length, Mkc.len(mkc));
        assertEquals(0x5000_0000L, Mkc.start_addr(mkc));

        sq.send(key, 0x5000_0000L, f.length, MemorySegment.ofArray(f), 0, 0, true);
        sq.ring();
        n.poll();
        assertEquals(CqeOpcode.REQ.value, Cqe64.opcode(txCq.poll()));
        assertArrayEquals(f, rq.buffer(0, f.length));

        // past the key's end: protection error
        sq.send(key, 0x5000_0000L + 1, f.length, MemorySegment.ofArray(f), 0, 0, true);
        sq.ring();
        n.poll();
        assertEquals(CqeErrorSyndrome.LOCAL_PROT_ERR.value, ErrCqe.syndrome(txCq.poll()));
    }

    @Test
    void umrOnAKeyWithoutUmrEnIsAProtectionError() {
        int key = klmKey(false);
        umr(key, 0x1000, UmrCtrlFlags.INLINE$MASK, new long[][] {{64, lkey, tx.bus()}});
        MemorySegment e = txCq.poll();
        assertEquals(CqeOpcode.REQ_ERR.value, ErrCqe.opcode(e));
        assertEquals(CqeErrorSyndrome.LOCAL_PROT_ERR.value, ErrCqe.syndrome(e));
        assertEquals(SqState.ERR.value, sq.state());
        MemorySegment mkc = n.queryMkey(key);
        assertEquals(0, Mkc.len(mkc), "the key is unchanged");
        assertEquals(0, Mkc.start_addr(mkc));
        assertFalse(Mkc.lr(mkc));
    }
}

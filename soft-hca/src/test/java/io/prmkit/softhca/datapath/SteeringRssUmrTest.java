package io.prmkit.softhca.datapath;

import static org.junit.jupiter.api.Assertions.*;

import io.prmkit.mlx5.Cqe64;
import io.prmkit.mlx5.CqeErrorSyndrome;
import io.prmkit.mlx5.CqeOpcode;
import io.prmkit.mlx5.CqeRssIp;
import io.prmkit.mlx5.CqeRssL4;
import io.prmkit.mlx5.ErrCqe;
import io.prmkit.mlx5.FteMatchParam;
import io.prmkit.mlx5.FteMatchSetLyr24;
import io.prmkit.mlx5.FlowContext;
import io.prmkit.mlx5.InlineMode;
import io.prmkit.mlx5.MatchCriteriaEnable;
import io.prmkit.mlx5.Mkc;
import io.prmkit.mlx5.MkcAccessMode;
import io.prmkit.mlx5.RxHashFieldSelect;
import io.prmkit.mlx5.RxHashFields;
import io.prmkit.mlx5.RxHashFn;
import io.prmkit.mlx5.SendWqeOpcode;
import io.prmkit.mlx5.SqState;
import io.prmkit.mlx5.TirDispType;
import io.prmkit.mlx5.Tirc;
import io.prmkit.mlx5.UmrCtrlFlags;
import io.prmkit.mlx5.UmrMkeyMask;
import io.prmkit.mlx5.WqeCtrlSeg;
import io.prmkit.mlx5.WqeUmrCtrlSeg;
import io.prmkit.mlx5.WqeUmrKlmSeg;
import io.prmkit.softhca.device.Resources;
import io.prmkit.softhca.wire.Ethernet;
import io.prmkit.softhca.wire.TestFrames;
import io.prmkit.softhca.wire.Toeplitz;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;

class SteeringRssUmrTest {
    final Harness h = new Harness();
    final Harness.Cq txCq = h.new Cq(10, 6, 1);
    final Harness.Sq sq = h.new Sq(20, 6, 10, InlineMode.NONE$VALUE);
    final int lkey = h.paKey(1, true, true);
    final Harness.Mem tx = h.dma(64 * 1024);

    void send(byte[] f) {
        MemorySegment.copy(f, 0, tx.seg(), ValueLayout.JAVA_BYTE, 0, f.length);
        sq.send(lkey, tx.bus(), f.length, tx.seg(), 18, 0, true);
        sq.ring();
        h.poll();
        MemorySegment c = txCq.poll();
        assertEquals(CqeOpcode.REQ.value, Cqe64.opcode(c), () -> "send failed: syndrome " + ErrCqe.syndrome(c));
    }

    @Test
    void rssSpreadsByToeplitzOverTheRqtAndReportsTheHash() {
        Harness.Cq rxCq = h.new Cq(11, 6, 1);
        Harness.Rq[] rqs = new Harness.Rq[4];
        int[] rqns = new int[4];
        for (int i = 0; i < 4; i++) {
            rqs[i] = h.new Rq(30 + i, 4, 11, 256, 0, true);
            rqs[i].post(8, lkey);
            rqns[i] = 30 + i;
        }
        h.objects.rqts.put(60, new Resources.Rqt(60, MemorySegment.ofArray(new byte[0x100]), rqns));
        MemorySegment tirc = MemorySegment.ofArray(new byte[(int) Tirc.SIZE]);
        Tirc.disp_type$set(tirc, TirDispType.INDIRECT);
        Tirc.indirect_table$set(tirc, 60);
        Tirc.rx_hash_fn$set(tirc, RxHashFn.TOEPLITZ);
        byte[] key = HexFormat.of().parseHex("6d5a56da255b0ec24167253d43a38fb0d0ca2bcbae7b30b477cb2da38030f20c6a42b73bbeac01fa");
        MemorySegment.copy(key, 0, tirc, ValueLayout.JAVA_BYTE, Tirc.rx_hash_toeplitz_key$BYTE_OFFSET, 40);
        long sel = Tirc.rx_hash_field_selector_outer$BYTE_OFFSET;
        RxHashFieldSelect.selected_fields$set(tirc, sel, RxHashFields.SRC_IP$MASK | RxHashFields.DST_IP$MASK | RxHashFields.L4_SPORT$MASK | RxHashFields.L4_DPORT$MASK);
        h.objects.tirs.put(41, new Resources.Tir(41, tirc));
        h.catchAll(50, 41);

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
            assertEquals(perRq[expectRq], rqs[expectRq].rq.consumerCounter, "frame went to RQ " + expectRq);
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
            h.poll();
            for (int k = 0; k < 6; k++) {
                MemorySegment c = txCq.poll();
                assertEquals(CqeOpcode.REQ.value, Cqe64.opcode(c), "send " + k + " of burst " + burst);
                MemorySegment rc = rxCq.poll();
                assertNotNull(rc, "frame " + k + " of burst " + burst);
                assertEquals(want[k], Cqe64.rss_hash_result(rc), "frame " + k + " of burst " + burst);
                perRq[want[k] & 3]++;
            }
            for (int q = 0; q < 4; q++) assertEquals(perRq[q], rqs[q].rq.consumerCounter, "frames in RQ " + q + " after burst " + burst);
        }
        // an IPv6 frame at an IPv4 TIR is not hashed: RQ 0, no hash types
        send(TestFrames.ipv6(Ethernet.PROTO_TCP, 1, 2, new byte[4]));
        MemorySegment rc = rxCq.poll();
        assertEquals(0, Cqe64.rss_hash_result(rc));
        assertEquals(CqeRssIp.NONE.value, Cqe64.rss_hash_ip_type(rc));
    }

    /**
     * INVERTED_XOR8 (Linux's direct TIRs, and ETH_RSS_HASH_XOR): the XOR of the selected bytes,
     * bit-reversed, picks the RQT entry; with rx_hash_symmetric a flow's two directions hash alike.
     */
    @Test
    void invertedXor8PicksTheEntryByTheReversedXorOfTheSelectedBytes() {
        Harness.Cq rxCq = h.new Cq(11, 6, 1);
        Harness.Rq[] rqs = new Harness.Rq[4];
        int[] rqns = new int[4];
        for (int i = 0; i < 4; i++) {
            rqs[i] = h.new Rq(30 + i, 4, 11, 256, 0, true);
            rqs[i].post(8, lkey);
            rqns[i] = 30 + i;
        }
        h.objects.rqts.put(60, new Resources.Rqt(60, MemorySegment.ofArray(new byte[0x100]), rqns));
        MemorySegment tirc = MemorySegment.ofArray(new byte[(int) Tirc.SIZE]);
        Tirc.disp_type$set(tirc, TirDispType.INDIRECT);
        Tirc.indirect_table$set(tirc, 60);
        Tirc.rx_hash_fn$set(tirc, RxHashFn.INVERTED_XOR8);
        Tirc.rx_hash_symmetric$set(tirc, true);
        long sel = Tirc.rx_hash_field_selector_outer$BYTE_OFFSET;
        RxHashFieldSelect.l4_prot_type$set(tirc, sel, true); // UDP
        RxHashFieldSelect.selected_fields$set(tirc, sel, RxHashFields.SRC_IP$MASK | RxHashFields.DST_IP$MASK | RxHashFields.L4_SPORT$MASK | RxHashFields.L4_DPORT$MASK);
        h.objects.tirs.put(41, new Resources.Tir(41, tirc));
        h.catchAll(50, 41);
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
                assertEquals(perRq[want & 3], rqs[want & 3].rq.consumerCounter, "frame went to RQ " + (want & 3));
            }
        }
    }

    @Test
    void flowTableMatchesOuterHeadersUnderTheGroupMaskAndTagsTheCqe() {
        Harness.Cq rxCq = h.new Cq(11, 6, 1);
        Harness.Rq a = h.new Rq(30, 4, 11, 2048, 0, true);
        Harness.Rq b = h.new Rq(31, 4, 11, 2048, 0, true);
        a.post(8, lkey);
        b.post(8, lkey);
        h.directTir(40, 30);
        h.directTir(41, 31);
        Resources.FlowTable t = new Resources.FlowTable(50, 0, MemorySegment.ofArray(new byte[0x28]), 16);
        MemorySegment c1 = MemorySegment.ofArray(new byte[(int) FteMatchParam.SIZE]);
        long o = FteMatchParam.outer_headers$BYTE_OFFSET;
        FteMatchSetLyr24.dmac_47_16$set(c1, o, 0xffffffff);
        FteMatchSetLyr24.dmac_15_0$set(c1, o, 0xffff);
        FteMatchSetLyr24.ethertype$set(c1, o, 0xffff);
        FteMatchSetLyr24.ip_protocol$set(c1, o, 0xff);
        FteMatchSetLyr24.udp_dport$set(c1, o, 0xffff);
        t.groups.put(1, new Resources.FlowGroup(1, 0, 7, MatchCriteriaEnable.OUTER_HEADERS$MASK, c1));
        MemorySegment e1 = Harness.forward(40, 0x1234);
        long mv = FlowContext.match_value$BYTE_OFFSET + o;
        FteMatchSetLyr24.dmac_47_16$set(e1, mv, 0x02000000);
        FteMatchSetLyr24.dmac_15_0$set(e1, mv, 0x0001); // TestFrames.DMAC
        FteMatchSetLyr24.ethertype$set(e1, mv, Ethernet.TYPE_IPV4);
        FteMatchSetLyr24.ip_protocol$set(e1, mv, Ethernet.PROTO_UDP);
        FteMatchSetLyr24.udp_dport$set(e1, mv, 2222);
        t.entries.put(0, new Resources.FlowEntry(0, 1, e1));
        MemorySegment c2 = MemorySegment.ofArray(new byte[(int) FteMatchParam.SIZE]);
        FteMatchSetLyr24.ethertype$set(c2, o, 0xffff);
        t.groups.put(2, new Resources.FlowGroup(2, 8, 15, MatchCriteriaEnable.OUTER_HEADERS$MASK, c2));
        MemorySegment e2 = Harness.forward(41, 0x99);
        FteMatchSetLyr24.ethertype$set(e2, mv, Ethernet.TYPE_IPV6);
        t.entries.put(8, new Resources.FlowEntry(8, 2, e2));
        h.objects.flowTables.put(50, t);
        h.objects.nicRxRoot = 50;
        // promiscuous: the frame to another MAC below reaches steering, whose dmac match is tested here
        h.objects.port.setPromiscuous(false, false, true);

        send(TestFrames.ipv4(Ethernet.PROTO_UDP, 1111, 2222, new byte[20]));
        send(TestFrames.ipv6(Ethernet.PROTO_UDP, 1111, 2222, new byte[20]));
        send(TestFrames.ipv4(Ethernet.PROTO_UDP, 1111, 3333, new byte[20])); // no entry: dropped
        send(TestFrames.ipv4(Ethernet.PROTO_TCP, 1111, 2222, new byte[20])); // TCP port 2222 is not a UDP port
        byte[] other = TestFrames.ipv4(new byte[] {2, 0, 0, 0, 0, 3}, Ethernet.PROTO_UDP, new byte[4], new byte[4], 1, 2222, new byte[20], 0);
        send(other); // another dmac
        List<MemorySegment> r = rxCq.drain();
        assertEquals(2, r.size());
        assertEquals(0x1234, Cqe64.flow_tag(r.get(0)));
        assertEquals(1, a.rq.consumerCounter);
        assertEquals(0x99, Cqe64.flow_tag(r.get(1)));
        assertEquals(1, b.rq.consumerCounter);
        assertEquals(3, h.dp.rxDropped());
        assertEquals(3, h.port.counters().rxDiscards);
    }

    /** An indirect (KLM) key with umr_en, free until a UMR fills it. */
    int klmKey(int index, boolean umrEn) {
        MemorySegment mkc = MemorySegment.ofArray(new byte[(int) Mkc.SIZE]);
        Mkc.access_mode_1_0$set(mkc, MkcAccessMode.KLMS$VALUE);
        Mkc.umr_en$set(mkc, umrEn);
        Mkc.free$set(mkc, true);
        Mkc.pd$set(mkc, Harness.PD);
        Mkc.mkey_7_0$set(mkc, 7);
        h.objects.mkeys.put(index, new Resources.Mkey(index << 8 | 7, mkc, null));
        return index << 8 | 7;
    }

    /** UMR WQE: inline KLMs (len, key, addr) made the target's translation; LEN|START_ADDR|LR|FREE from the mkey segment. */
    void umr(int target, long start, long[][] klms) {
        int ds = 1 + 3 + 4 + klms.length;
        int nbb = (ds + 3) / 4;
        MemorySegment w = MemorySegment.ofArray(new byte[nbb * 64]);
        WqeCtrlSeg.writer(w, 0).opcode(SendWqeOpcode.UMR).wqe_index(sq.pc & 0xffff).qpn(20).ds(ds)
                .ce(io.prmkit.mlx5.CompletionMode.CQE_ALWAYS).imm(target).write();
        long total = 0;
        for (long[] k : klms) total += k[0];
        WqeUmrCtrlSeg.writer(w, 16).umr_flags(UmrCtrlFlags.INLINE$MASK | UmrCtrlFlags.CHECK_FREE$MASK).klm_octowords(klms.length)
                .mkey_mask(UmrMkeyMask.LEN$MASK | UmrMkeyMask.START_ADDR$MASK | UmrMkeyMask.LR$MASK | UmrMkeyMask.FREE$MASK).write();
        Mkc.writer(w, 64).lr(true).start_addr(start).len(total).free(false).write();
        for (int i = 0; i < klms.length; i++) {
            WqeUmrKlmSeg.writer(w, 128 + 16L * i).byte_count((int) klms[i][0]).mkey((int) klms[i][1]).address(klms[i][2]).write();
        }
        sq.put(w, nbb);
        sq.ring();
        h.poll();
    }

    @Test
    void umrRewritesAnIndirectKeyAndSendsGatherThroughIt() {
        Harness.Cq rxCq = h.new Cq(11, 6, 1);
        Harness.Rq rq = h.new Rq(30, 4, 11, 2048, 0, true);
        rq.post(4, lkey);
        h.directTir(40, 30);
        h.catchAll(50, 40);
        byte[] f = TestFrames.ipv4(Ethernet.PROTO_UDP, 7, 8, TestFrames.payload(300, 2));
        // the frame lives in two pieces far apart: [0, 100) at tx+0x1000, the rest at tx+0x3000
        MemorySegment.copy(f, 0, tx.seg(), ValueLayout.JAVA_BYTE, 0x1000, 100);
        MemorySegment.copy(f, 100, tx.seg(), ValueLayout.JAVA_BYTE, 0x3000, f.length - 100);
        int key = klmKey(9, true);
        umr(key, 0x5000_0000L, new long[][] {{100, lkey, tx.bus() + 0x1000}, {f.length - 100, lkey, tx.bus() + 0x3000}});
        MemorySegment uc = txCq.poll();
        assertEquals(CqeOpcode.REQ.value, Cqe64.opcode(uc), () -> "UMR failed: " + ErrCqe.syndrome(uc));
        assertEquals(SendWqeOpcode.UMR.value, Cqe64.s_wqe_opcode(uc));
        assertFalse(Mkc.free(h.objects.mkey(key).mkc));
        assertEquals(f.length, Mkc.len(h.objects.mkey(key).mkc));

        sq.send(key, 0x5000_0000L, f.length, MemorySegment.ofArray(f), 0, 0, true);
        sq.ring();
        h.poll();
        assertEquals(CqeOpcode.REQ.value, Cqe64.opcode(txCq.poll()));
        assertArrayEquals(f, rq.buffer(0, f.length));

        // past the key's end: protection error
        sq.send(key, 0x5000_0000L + 1, f.length, MemorySegment.ofArray(f), 0, 0, true);
        sq.ring();
        h.poll();
        assertEquals(CqeErrorSyndrome.LOCAL_PROT_ERR.value, ErrCqe.syndrome(txCq.poll()));
    }

    @Test
    void umrOnAKeyWithoutUmrEnIsAProtectionError() {
        int key = klmKey(9, false);
        umr(key, 0, new long[][] {{64, lkey, tx.bus()}});
        MemorySegment e = txCq.poll();
        assertEquals(CqeOpcode.REQ_ERR.value, ErrCqe.opcode(e));
        assertEquals(CqeErrorSyndrome.LOCAL_PROT_ERR.value, ErrCqe.syndrome(e));
        assertEquals(SqState.ERR.value, sq.sq.state);
        assertTrue(Mkc.free(h.objects.mkey(key).mkc), "the key is unchanged");
    }
}

package io.prmkit.mlx5;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.prmkit.dsl.Property;
import io.prmkit.layout.PrmLayout;
import java.lang.foreign.MemorySegment;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The generated WQE validators (PrmWqes over PrmLayout.Wqe) on WQEs built with the generated
 * setters: a good send WQE breaks nothing; each rule of the bundled tx_wqe, umr_wqe and rx_wqe_cyc
 * is named with the values it read when a WQE breaks it; rules whose values the caller does not
 * supply are reported as not checked; any bytes give a report, never an exception.
 */
class WqeRulesTest {
    static final int LKEY = 0x1234;
    static final long MKEY_START = 0x1000;
    static final long MKEY_LEN = 0x1000;

    /** A SEND: ctrl, eth with 18 bytes of inline headers (an IPv4/TCP frame's first 18), one data segment: 4 DS. */
    static MemorySegment send() {
        MemorySegment w = MemorySegment.ofArray(new byte[128]);
        WqeCtrlSeg.opcode$set(w, 0, SendWqeOpcode.SEND);
        WqeCtrlSeg.qpn$set(w, 0, 0x42);
        WqeCtrlSeg.ds$set(w, 0, 4);
        long eth = WqeCtrlSeg.SIZE;
        WqeEthSeg.inline_hdr_sz$set(w, eth, 18);
        byte[] frame = frame();
        MemorySegment.copy(MemorySegment.ofArray(frame), 0, w, eth + WqeEthSeg.inline_hdr_start$BYTE_OFFSET, 18);
        long data = 48;
        WqeDataSeg.byte_count$set(w, data, 0x100);
        WqeDataSeg.lkey$set(w, data, LKEY);
        WqeDataSeg.addr$set(w, data, 0x1800);
        return w;
    }

    /** Ethernet (IPv4) + IPv4 (20 bytes, TCP) + TCP (20 bytes): 54 bytes of headers. */
    static byte[] frame() {
        byte[] f = new byte[64];
        for (int i = 0; i < 12; i++) f[i] = (byte) (i + 1);
        f[12] = 0x08;
        f[14] = 0x45;
        f[23] = 6;
        f[14 + 20 + 12] = 0x50;
        return f;
    }

    static MemorySegment mkc() {
        MemorySegment m = MemorySegment.ofArray(new byte[(int) Mkc.SIZE]);
        Mkc.start_addr$set(m, MKEY_START);
        Mkc.len$set(m, MKEY_LEN);
        return m;
    }

    static PrmLayout.Wqe.Context context(InlineMode mode) {
        MemorySegment m = mkc();
        return PrmLayout.Wqe.Context.none().with("min_wqe_inline_mode", mode.value).with("mkey", k -> k == LKEY ? m : null)
                .with("wqe_counter", 0).with("sqn", 0x42);
    }

    static List<String> broken(PrmLayout.Wqe.Report r) {
        return r.broken().stream().map(PrmLayout.Wqe.Broken::rule).toList();
    }

    @Test
    void aGoodSendBreaksNoRuleAndIsWalkedSegmentBySegment() {
        PrmLayout.Wqe.Report r = PrmWqes.TX_WQE.check(send(), 0, 128, context(InlineMode.L2));
        assertEquals(List.of(), r.broken());
        assertEquals(List.of(), r.unchecked());
        assertEquals("", r.truncated());
        assertEquals(64, r.size());
        assertEquals(List.of("ctrl@0x0/16", "eth@0x10/16", "headers@0x1e/18", "data[0] (pointer)@0x30/16"),
                r.segments().stream().map(p -> p.label() + "@0x" + Long.toHexString(p.offset()) + "/" + p.bytes()).toList());
        assertSame(PrmWqes.TX_WQE, PrmWqes.matching(send(), 0));
    }

    @Test
    void lsoWithMssZeroBreaksLsoNeedsMss() {
        MemorySegment w = send();
        WqeCtrlSeg.opcode$set(w, 0, SendWqeOpcode.LSO);
        PrmLayout.Wqe.Report r = PrmWqes.TX_WQE.check(w, 0, 128, context(InlineMode.L2));
        assertEquals(List.of("lso_needs_mss"), broken(r));
        assertEquals(List.of("ctrl.opcode = 0xe (LSO)", "eth.mss = 0"), r.broken().get(0).values());
        WqeEthSeg.mss$set(w, WqeCtrlSeg.SIZE, 1400);
        assertEquals(List.of(), broken(PrmWqes.TX_WQE.check(w, 0, 128, context(InlineMode.L2))));
        WqeCtrlSeg.opcode$set(w, 0, SendWqeOpcode.SEND);
        assertEquals(List.of("mss_only_for_lso"), broken(PrmWqes.TX_WQE.check(w, 0, 128, context(InlineMode.L2))));
    }

    @Test
    void dsTooSmallBreaksSizeAndSaysWhatTheSegmentsNeed() {
        MemorySegment w = send();
        WqeCtrlSeg.ds$set(w, 0, 2); // the inline headers run to 0x2f: three units at least
        PrmLayout.Wqe.Report r = PrmWqes.TX_WQE.check(w, 0, 128, context(InlineMode.L2));
        assertEquals(List.of("size"), broken(r));
        PrmLayout.Wqe.Broken b = r.broken().get(0);
        assertTrue(b.message().startsWith("ctrl.ds counts the 16-byte units of the whole WQE"), b.message());
        assertEquals(List.of("ctrl.ds * 16 = 32 bytes", "the segments need 48", "ctrl 0x0..0xf, eth 0x10..0x1f, headers 0x1e..0x2f"), b.values());
        // with ds 3 the WQE ends after the headers: a frame all in its inline headers, the data segment not part of it
        WqeCtrlSeg.ds$set(w, 0, 3);
        PrmLayout.Wqe.Report three = PrmWqes.TX_WQE.check(w, 0, 128, context(InlineMode.L2));
        assertEquals(List.of(), broken(three));
        assertEquals(3, three.segments().size());
    }

    @Test
    void inlineHeadersShorterThanTheMinInlineModeBreakMinInline() {
        // 18 bytes hold the Ethernet header (L2 asks 14) but not the IPv4 header (IP asks 34) or TCP (TCP_UDP asks 54)
        assertEquals(List.of(), broken(PrmWqes.TX_WQE.check(send(), 0, 128, context(InlineMode.NONE))));
        assertEquals(List.of(), broken(PrmWqes.TX_WQE.check(send(), 0, 128, context(InlineMode.L2))));
        PrmLayout.Wqe.Report ip = PrmWqes.TX_WQE.check(send(), 0, 128, context(InlineMode.IP));
        assertEquals(List.of("min_inline"), broken(ip));
        assertEquals(List.of("min_wqe_inline_mode = 2", "header_end(headers) = 19", "bytes(headers) = 18"), ip.broken().get(0).values());
        MemorySegment w = send();
        WqeEthSeg.inline_hdr_sz$set(w, WqeCtrlSeg.SIZE, 10); // shorter than the Ethernet header
        WqeCtrlSeg.ds$set(w, 0, 3);
        MemorySegment.copy(w, 48, w, 32, 16); // the data segment moves up: the headers end in the eth segment
        assertEquals(List.of("min_inline"), broken(PrmWqes.TX_WQE.check(w, 0, 128, context(InlineMode.L2))));
    }

    @Test
    void aVlanInsertWithoutInlineHeadersBreaksAnyMinInlineMode() {
        MemorySegment w = send();
        WqeEthSeg.insert_vlan$set(w, WqeCtrlSeg.SIZE, true);
        WqeEthSeg.vlan_tci$set(w, WqeCtrlSeg.SIZE, 5);
        WqeCtrlSeg.ds$set(w, 0, 3);
        MemorySegment.copy(w, 48, w, 32, 16);
        assertEquals(List.of(), broken(PrmWqes.TX_WQE.check(w, 0, 128, context(InlineMode.NONE))));
        assertEquals(List.of("min_inline"), broken(PrmWqes.TX_WQE.check(w, 0, 128, context(InlineMode.L2))));
    }

    @Test
    void aDataSegmentOutsideItsMkeyBreaksDataInMkey() {
        MemorySegment w = send();
        WqeDataSeg.addr$set(w, 48, MKEY_START + MKEY_LEN - 0x80); // 0x100 bytes from 0x80 before the end
        PrmLayout.Wqe.Report r = PrmWqes.TX_WQE.check(w, 0, 128, context(InlineMode.L2));
        assertEquals(List.of("data_in_mkey"), broken(r));
        PrmLayout.Wqe.Broken b = r.broken().get(0);
        assertEquals("data[0] (pointer)", b.where());
        assertTrue(b.values().contains("pointer.addr = 0x1f80"), b.values().toString());
        assertTrue(b.values().contains("mkey(0x1234).len = 0x1000"), b.values().toString());
        WqeDataSeg.addr$set(w, 48, MKEY_START - 1);
        assertEquals(List.of("data_in_mkey"), broken(PrmWqes.TX_WQE.check(w, 0, 128, context(InlineMode.L2))));
    }

    @Test
    void rulesWithoutTheValuesTheyNeedAreNotChecked() {
        PrmLayout.Wqe.Report r = PrmWqes.TX_WQE.check(send(), 0, 128, PrmLayout.Wqe.Context.none());
        assertEquals(List.of(), r.broken());
        assertEquals(List.of("wqe_index_is_counter: needs wqe_counter", "qpn_is_sq: needs sqn", "min_inline: needs min_wqe_inline_mode",
                "data_in_mkey: needs mkey(0x1234)"), r.unchecked());
    }

    @Test
    void theWqeIndexIsTheProducerCounterAndTheQpnTheQueue() {
        MemorySegment w = send();
        assertEquals(List.of("wqe_index_is_counter", "qpn_is_sq"),
                broken(PrmWqes.TX_WQE.check(w, 0, 128, context(InlineMode.L2).with("wqe_counter", 0x10005).with("sqn", 7))));
        WqeCtrlSeg.wqe_index$set(w, 0, 5);
        assertEquals(List.of(), broken(PrmWqes.TX_WQE.check(w, 0, 128, context(InlineMode.L2).with("wqe_counter", 0x10005))));
    }

    @Test
    void inlineDataSegmentsArePaddedTo16Bytes() {
        MemorySegment w = send();
        // replace the pointer by 20 bytes of inline data: 4 + 20 = 24 bytes, two DS
        WqeInlineSeg.inline_flag$set(w, 48, true);
        WqeInlineSeg.byte_count$set(w, 48, 20);
        WqeCtrlSeg.ds$set(w, 0, 5);
        PrmLayout.Wqe.Report r = PrmWqes.TX_WQE.check(w, 0, 128, context(InlineMode.L2));
        assertEquals(List.of(), broken(r));
        assertEquals("data[0] (inline_data)", r.segments().get(3).label());
        assertEquals(24, r.segments().get(3).bytes());
        WqeCtrlSeg.ds$set(w, 0, 4);
        assertEquals(List.of("size"), broken(PrmWqes.TX_WQE.check(w, 0, 128, context(InlineMode.L2))));
    }

    @Test
    void umrInlineEntriesMustMatchKlmOctowords() {
        MemorySegment w = MemorySegment.ofArray(new byte[256]);
        WqeCtrlSeg.opcode$set(w, 0, SendWqeOpcode.UMR);
        long uc = WqeCtrlSeg.SIZE;
        WqeUmrCtrlSeg.umr_flags$set(w, uc, UmrCtrlFlags.INLINE$MASK);
        WqeUmrCtrlSeg.klm_octowords$set(w, uc, 2);
        long entries = uc + WqeUmrCtrlSeg.SIZE + Mkc.SIZE;
        WqeCtrlSeg.ds$set(w, 0, (int) (entries / 16) + 2);
        assertSame(PrmWqes.UMR_WQE, PrmWqes.matching(w, 0));
        PrmLayout.Wqe.Report r = PrmWqes.UMR_WQE.check(w, 0, 256, PrmLayout.Wqe.Context.none());
        assertEquals(List.of(), broken(r), r.toString());
        assertEquals(2, r.segments().stream().filter(p -> "klm".equals(p.alternative())).count());
        WqeCtrlSeg.ds$set(w, 0, (int) (entries / 16) + 1);
        assertEquals(List.of("inline_octowords"), broken(PrmWqes.UMR_WQE.check(w, 0, 256, PrmLayout.Wqe.Context.none())));
        // without INLINE: one data segment that must cover the entries
        WqeUmrCtrlSeg.umr_flags$set(w, uc, 0);
        WqeDataSeg.byte_count$set(w, entries, 16);
        assertEquals(List.of("list_holds_entries"), broken(PrmWqes.UMR_WQE.check(w, 0, 256, PrmLayout.Wqe.Context.none())));
    }

    @Test
    void umrEntriesWithoutInlineNeedExactlyTheirList() {
        MemorySegment w = MemorySegment.ofArray(new byte[256]);
        WqeCtrlSeg.opcode$set(w, 0, SendWqeOpcode.UMR);
        long uc = WqeCtrlSeg.SIZE;
        long entries = uc + WqeUmrCtrlSeg.SIZE + Mkc.SIZE;
        WqeUmrCtrlSeg.klm_octowords$set(w, uc, 2);
        WqeCtrlSeg.ds$set(w, 0, (int) (entries / 16)); // entries, but no data segment pointing at them
        assertEquals(List.of("list_for_entries"), broken(PrmWqes.UMR_WQE.check(w, 0, 256, PrmLayout.Wqe.Context.none())));
        WqeCtrlSeg.ds$set(w, 0, (int) (entries / 16) + 1);
        WqeDataSeg.byte_count$set(w, entries, 32);
        assertEquals(List.of(), broken(PrmWqes.UMR_WQE.check(w, 0, 256, PrmLayout.Wqe.Context.none())));
        WqeUmrCtrlSeg.klm_octowords$set(w, uc, 0); // a list, but no entries
        assertEquals(List.of("no_list_without_entries"), broken(PrmWqes.UMR_WQE.check(w, 0, 256, PrmLayout.Wqe.Context.none())));
    }

    @Test
    void aNopIsItsControlSegmentAndWhatItsDsCovers() {
        MemorySegment w = MemorySegment.ofArray(new byte[128]);
        WqeNop.opcode$set(w, 0, SendWqeOpcode.NOP);
        WqeNop.ds$set(w, 0, 1);
        WqeNop.wqe_index$set(w, 0, 7);
        WqeNop.qpn$set(w, 0, 0x1234);
        assertSame(PrmWqes.NOP_WQE, PrmWqes.matching(w, 0));
        PrmLayout.Wqe.Context ctx = PrmLayout.Wqe.Context.none().with("sqn", 0x1234).with("wqe_counter", 7);
        PrmLayout.Wqe.Report r = PrmWqes.NOP_WQE.check(w, 0, 128, ctx);
        assertEquals(List.of(), broken(r), r.toString());
        assertEquals(16, r.size());
        WqeNop.ds$set(w, 0, 8); // a NOP over two basic blocks
        r = PrmWqes.NOP_WQE.check(w, 0, 128, ctx);
        assertEquals(List.of(), broken(r), r.toString());
        assertEquals(128, r.size());
        assertEquals(List.of("wqe_index_is_counter"), broken(PrmWqes.NOP_WQE.check(w, 0, 128, ctx.with("wqe_counter", 8))));
        assertEquals(List.of("qpn_is_sq"), broken(PrmWqes.NOP_WQE.check(w, 0, 128, ctx.with("sqn", 0x1235))));
    }

    @Test
    void aReceiveWqeIsItsStrideOfDataSegmentsInTheirKeys() {
        MemorySegment w = MemorySegment.ofArray(new byte[64]);
        WqeDataSeg.byte_count$set(w, 0, 0x80);
        WqeDataSeg.lkey$set(w, 0, LKEY);
        WqeDataSeg.addr$set(w, 0, MKEY_START);
        WqeDataSeg.lkey$set(w, 16, (int) PrmConstants.invalid_lkey);
        MemorySegment m = mkc();
        PrmLayout.Wqe.Context ctx = PrmLayout.Wqe.Context.none().with("log_wq_stride", 5).with("mkey", k -> k == LKEY ? m : null);
        PrmLayout.Wqe.Report r = PrmWqes.RX_WQE_CYC.check(w, 0, 64, ctx);
        assertEquals(32, r.size());
        assertEquals(List.of(), broken(r));
        assertEquals(2, r.segments().size());
        WqeDataSeg.addr$set(w, 0, MKEY_START + MKEY_LEN);
        assertEquals(List.of("data_in_mkey"), broken(PrmWqes.RX_WQE_CYC.check(w, 0, 64, ctx)));
    }

    @Test
    void theReusableCheckerAgreesWithTheReport() {
        MemorySegment m = mkc();
        PrmLayout.Wqe.Context ctx = context(InlineMode.IP).with("mkey", k -> k == LKEY ? m : null);
        PrmLayout.Wqe.Checker checker = PrmWqes.TX_WQE.checker(ctx);
        int counter = checker.given("wqe_counter");
        List<String> names = PrmWqes.TX_WQE.rules().stream().map(PrmLayout.Wqe.Rule::name).toList();
        assertEquals(names.indexOf("min_inline"), checker.firstBroken(send(), 0, 64), "IP asks 34 inline bytes");
        int tries = Property.check(3000, g -> {
            MemorySegment w = send();
            byte[] noise = new byte[g.between("noise", 0, 6)];
            g.random().nextBytes(noise);
            for (byte b : noise) w.set(java.lang.foreign.ValueLayout.JAVA_BYTE, g.between("at", 0, 63), b);
            if (g.random().nextBoolean()) WqeCtrlSeg.ds$set(w, 0, g.between("ds", 0, 8));
            int pc = g.between("pc", 0, 3);
            checker.set(counter, pc);
            int first = checker.firstBroken(w, 0, 128);
            PrmLayout.Wqe.Report r = PrmWqes.TX_WQE.check(w, 0, 128, ctx.with("wqe_counter", pc));
            int size = PrmWqes.TX_WQE.rules().size();
            if (first == -1) {
                assertEquals(List.of(), r.broken());
            } else if (first < size) {
                assertEquals(PrmWqes.TX_WQE.rules().get(first).name(), r.broken().get(0).rule());
            } else {
                assertTrue(!r.truncated().isEmpty() || broken(r).contains("size"), r.toString());
            }
        });
        assertTrue(tries >= 1);
    }

    @Test
    void anyBytesGiveAReportNeverAnException() {
        int tries = Property.check(2000, g -> {
            int n = g.between("bytes", 0, 256, 0, 1, 15, 16, 17, 64);
            byte[] b = new byte[n];
            g.random().nextBytes(b);
            MemorySegment w = MemorySegment.ofArray(b);
            int available = g.between("available", 0, n + 32);
            PrmLayout.Wqe.Context ctx = g.random().nextBoolean() ? PrmLayout.Wqe.Context.none()
                    : PrmLayout.Wqe.Context.none().with("min_wqe_inline_mode", g.between("mode", 0, 7)).with("log_wq_stride", g.between("stride", 0, 70))
                    .with("mkey", k -> k % 3 == 0 ? null : mkc());
            for (PrmLayout.Wqe wqe : PrmWqes.all()) {
                PrmLayout.Wqe.Report r = wqe.check(w, 0, available, ctx);
                for (PrmLayout.Wqe.Placed p : r.segments()) {
                    assertTrue(p.offset() >= 0 && p.offset() < Math.max(1, Math.min(n, available)), p + " in " + n);
                }
                wqe.matches(w, 0);
            }
        });
        assertTrue(tries >= 1);
    }
}

package io.prmkit.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.prmkit.cli.PrmkitCliTest.Run;
import io.prmkit.dsl.Property;
import io.prmkit.mlx5.Mkc;
import io.prmkit.mlx5.SendWqeOpcode;
import io.prmkit.mlx5.UmrCtrlFlags;
import io.prmkit.mlx5.WqeCtrlSeg;
import io.prmkit.mlx5.WqeDataSeg;
import io.prmkit.mlx5.WqeEthSeg;
import io.prmkit.mlx5.WqeUmrCtrlSeg;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code decode --wqe} and {@code --sq}: WQEs built with the generated setters, written as hex dumps,
 * walked segment by segment; each rule of the bundled tx_wqe that a WQE breaks (LSO with mss 0, ds
 * too small, inline headers shorter than the min inline mode asks, a data segment outside its mkey)
 * is named in a sentence, a good WQE breaks none; malformed input is one error line.
 */
class DecodeWqeTest {
    static final String[] GIVEN = {"--given", "min_wqe_inline_mode=L2", "--given", "mkey(0x1234).start_addr=0x1000",
        "--given", "mkey(0x1234).len=0x1000", "--given", "sqn=0x42", "--given", "wqe_counter=0"};

    @TempDir
    Path tmp;

    /** A SEND of 4 DS: ctrl, eth with 18 bytes of an IPv4/TCP frame's headers inline, a data segment at 0x1800 in key 0x1234. */
    static byte[] send() {
        byte[] b = new byte[64];
        MemorySegment w = MemorySegment.ofArray(b);
        WqeCtrlSeg.opcode$set(w, 0, SendWqeOpcode.SEND);
        WqeCtrlSeg.qpn$set(w, 0, 0x42);
        WqeCtrlSeg.ds$set(w, 0, 4);
        WqeEthSeg.inline_hdr_sz$set(w, WqeCtrlSeg.SIZE, 18);
        byte[] frame = new byte[18];
        for (int i = 0; i < 12; i++) frame[i] = (byte) (i + 1);
        frame[12] = 0x08;
        frame[14] = 0x45;
        MemorySegment.copy(MemorySegment.ofArray(frame), 0, w, WqeCtrlSeg.SIZE + WqeEthSeg.inline_hdr_start$BYTE_OFFSET, 18);
        WqeDataSeg.byte_count$set(w, 48, 0x100);
        WqeDataSeg.lkey$set(w, 48, 0x1234);
        WqeDataSeg.addr$set(w, 48, 0x1800);
        return b;
    }

    private String dump(byte[] b) throws IOException {
        return HexDump.file(tmp, HexDump.rows(b, "%08x:"));
    }

    private Run wqe(byte[] b, String... given) throws IOException {
        List<String> args = new ArrayList<>(List.of("decode", "--wqe"));
        args.addAll(List.of(given));
        args.add(dump(b));
        return PrmkitCliTest.run(args.toArray(String[]::new));
    }

    private void assertError(String expected, String... args) {
        Run run = PrmkitCliTest.run(args);
        assertEquals(1, run.exitCode(), run.out() + run.err());
        assertEquals(expected + "\n", run.err().replace("\r\n", "\n"));
    }

    @Test
    void aGoodSendIsWalkedSegmentBySegmentAndBreaksNoRule() throws IOException {
        Run run = wqe(send(), GIVEN);
        assertEquals(0, run.exitCode(), run.err());
        String out = run.out();
        assertTrue(out.startsWith("WQE tx_wqe (PRM: Send WQE format, Ethernet segment; kernel struct mlx5e_tx_wqe): 64 bytes (ctrl.ds * 16)\n"), out);
        assertTrue(out.contains("segment ctrl at 0x0: wqe_ctrl_seg, 16 bytes\n  dword 0x00 [7:0]     opcode = 0xa SEND\n"), out);
        assertTrue(out.contains("segment eth at 0x10: wqe_eth_seg, 16 bytes\n"), out);
        assertTrue(out.contains("segment headers at 0x1e: 18 bytes inline\n  0000  01 02 03 04 05 06 07 08 09 0a 0b 0c 08 00 45 00\n  0010  00 00\n"), out);
        assertTrue(out.contains("segment data[0] (pointer) at 0x30: wqe_data_seg, 16 bytes\n"), out);
        assertTrue(out.contains("lkey = 0x1234"), out);
        assertTrue(out.endsWith("rules: none broken (7 of 7 checked)\n"), out);
    }

    @Test
    void lsoWithMssZeroNamesTheRule() throws IOException {
        byte[] b = send();
        WqeCtrlSeg.opcode$set(MemorySegment.ofArray(b), 0, SendWqeOpcode.LSO);
        Run run = wqe(b, GIVEN);
        assertEquals(0, run.exitCode(), run.err());
        assertTrue(run.out().contains("rules: 1 broken rule\n  rule lso_needs_mss is broken: an LSO WQE needs a non-zero mss (the payload bytes of "
                + "each segment it cuts); here ctrl.opcode = 0xe (LSO), eth.mss = 0.\n"), run.out());
    }

    @Test
    void dsTooSmallNamesTheSizeRuleAndWhatTheSegmentsNeed() throws IOException {
        byte[] b = send();
        WqeCtrlSeg.ds$set(MemorySegment.ofArray(b), 0, 2);
        Run run = wqe(b, GIVEN);
        assertTrue(run.out().contains("  rule size is broken: ctrl.ds counts the 16-byte units of the whole WQE"), run.out());
        assertTrue(run.out().contains("; here ctrl.ds * 16 = 32 bytes, the segments need 48, ctrl 0x0..0xf, eth 0x10..0x1f, headers 0x1e..0x2f.\n"), run.out());
    }

    @Test
    void inlineHeadersShorterThanTheMinInlineModeNameTheRule() throws IOException {
        List<String> given = new ArrayList<>(List.of(GIVEN));
        given.set(1, "min_wqe_inline_mode=IP"); // 18 bytes hold Ethernet, not the IPv4 header
        Run run = wqe(send(), given.toArray(String[]::new));
        assertTrue(run.out().contains("  rule min_inline is broken: the inline headers must reach the end of the headers min_wqe_inline_mode "
                + "asks for"), run.out());
        assertTrue(run.out().contains("; here min_wqe_inline_mode = 2, header_end(headers) = 19, bytes(headers) = 18.\n"), run.out());
        assertTrue(wqe(send(), GIVEN).out().contains("rules: none broken"));
    }

    @Test
    void aDataSegmentOutsideItsMkeyNamesTheRuleAndTheElement() throws IOException {
        byte[] b = send();
        WqeDataSeg.addr$set(MemorySegment.ofArray(b), 48, 0x1f80);
        Run run = wqe(b, GIVEN);
        assertTrue(run.out().contains("  rule data_in_mkey is broken by data[0] (pointer): a data segment's buffer (addr, byte_count) lies within "
                + "its memory key (start_addr, len); here pointer.lkey = 0x1234, mkey(0x1234).length64 = 0, pointer.addr = 0x1f80, "
                + "mkey(0x1234).start_addr = 0x1000, pointer.byte_count = 0x100, mkey(0x1234).len = 0x1000.\n"), run.out());
    }

    @Test
    void rulesWithoutTheirValuesAreListedWithTheOptionThatGivesThem() throws IOException {
        Run run = wqe(send());
        assertEquals(0, run.exitCode(), run.err());
        assertTrue(run.out().contains("rules: none broken (3 of 7 checked)\n"), run.out());
        assertTrue(run.out().contains("  not checked: min_inline: needs min_wqe_inline_mode (give it: --given min_wqe_inline_mode=VALUE)\n"), run.out());
        assertTrue(run.out().contains("  not checked: data_in_mkey: needs mkey(0x1234) (give it: --given 'mkey(0x1234).FIELD=VALUE')\n"), run.out());
    }

    @Test
    void aUmrWqeIsPickedByItsOpcodeAndANamedDeclarationIsUsedAsNamed() throws IOException {
        byte[] b = new byte[192];
        MemorySegment w = MemorySegment.ofArray(b);
        WqeCtrlSeg.opcode$set(w, 0, SendWqeOpcode.UMR);
        WqeCtrlSeg.ds$set(w, 0, 9);
        WqeUmrCtrlSeg.umr_flags$set(w, WqeCtrlSeg.SIZE, UmrCtrlFlags.INLINE$MASK);
        WqeUmrCtrlSeg.klm_octowords$set(w, WqeCtrlSeg.SIZE, 2);
        Run run = wqe(b);
        assertTrue(run.out().startsWith("WQE umr_wqe (PRM: UMR WQE; kernel struct mlx5e_umr_wqe): 144 bytes"), run.out());
        assertTrue(run.out().contains("segment mkc at 0x40: mkc, 64 bytes\n"), run.out());
        assertTrue(run.out().contains("rule inline_octowords is broken: with INLINE, klm_octowords counts the translation entries in the WQE; "
                + "here uctrl.umr_flags = 0x80 (INLINE), uctrl.klm_octowords = 2, count(klm) = 1.\n"), run.out());
        Run rx = PrmkitCliTest.run("decode", "--wqe", "--given", "log_wq_stride=5", "rx_wqe_cyc", dump(new byte[32]));
        assertEquals(0, rx.exitCode(), rx.err());
        assertTrue(rx.out().startsWith("WQE rx_wqe_cyc (PRM: Receive WQE; kernel struct mlx5e_rx_wqe_cyc): 32 bytes (1 << log_wq_stride)\n"), rx.out());
        assertTrue(rx.out().contains("segment data[1] (pointer) at 0x10: wqe_data_seg, 16 bytes\n"), rx.out());
    }

    @Test
    void aRingIsReadWqeByWqeUpToTheProducerCounterAcrossItsEnd() throws IOException {
        byte[] ring = new byte[4 * 64];
        // counter 3 at the last basic block: a two-block WQE (ds 8: five data segments) that wraps to block 0
        byte[] first = java.util.Arrays.copyOf(send(), 128);
        MemorySegment f = MemorySegment.ofArray(first);
        WqeCtrlSeg.wqe_index$set(f, 0, 3);
        WqeCtrlSeg.ds$set(f, 0, 8);
        for (int d = 64; d < 128; d += 16) MemorySegment.copy(f, 48, f, d, 16);
        System.arraycopy(first, 0, ring, 3 * 64, 64);
        System.arraycopy(first, 64, ring, 0, 64);
        byte[] second = send();
        MemorySegment s = MemorySegment.ofArray(second);
        WqeCtrlSeg.opcode$set(s, 0, SendWqeOpcode.LSO);
        WqeCtrlSeg.wqe_index$set(s, 0, 7); // not its counter, 5
        System.arraycopy(second, 0, ring, 64, 64);
        Run run = PrmkitCliTest.run("decode", "--sq", "--pc", "6", "--cc", "3", "--given", "sqn=0x42", dump(ring));
        assertEquals(0, run.exitCode(), run.err());
        String out = run.out();
        assertTrue(out.startsWith("SQ ring: 4 basic blocks of 64 bytes; WQEs from counter 0x3 up to the producer counter 0x6 (3 basic blocks)\n"), out);
        assertTrue(out.contains("WQE at counter 0x3 (basic block 3, offset 0xc0):\n"), out);
        assertTrue(out.contains("  segment data[4] (pointer) at 0x70: wqe_data_seg, 16 bytes\n"), out);
        assertTrue(out.contains("WQE at counter 0x5 (basic block 1, offset 0x40):\n"), out);
        assertTrue(out.contains("rule wqe_index_is_counter is broken: ctrl.wqe_index holds the WQE's producer counter"), out);
        assertTrue(out.contains("here ctrl.wqe_index = 7, wqe_counter = 5."), out);
        assertTrue(out.contains("rule lso_needs_mss is broken"), out);
        assertTrue(out.endsWith("\n2 WQEs decoded\n"), out);
    }

    @Test
    void malformedInputIsOneErrorLine() throws IOException {
        Path bad = tmp.resolve("bad.hex");
        Files.writeString(bad, "00 11 zz\n");
        assertError(bad + ":1: error: 'zz' is not hex", "decode", "--wqe", bad.toString());
        assertError("prmkit decode: the input has 2 bytes; the shortest declared send WQE starts with 16 (its leading segments)",
                "decode", "--wqe", dump(new byte[2]));
        assertError("prmkit decode: unknown WQE 'nope' (the bundled spec declares nop_wqe, rx_wqe_cyc, tx_wqe, umr_wqe)", "decode", "--wqe", "nope", dump(send()));
        assertError("prmkit decode: --given mkey(0x1).foo=1: 'foo' is not a bit field of mkc", "decode", "--wqe", "--given", "mkey(0x1).foo=1",
                dump(send()));
        assertError("prmkit decode: --given min_wqe_inline_mode=L9: 'L9' is not a value of inline_mode (NONE, L2, IP, TCP_UDP)", "decode", "--wqe",
                "--given", "min_wqe_inline_mode=L9", dump(send()));
        assertError("prmkit decode: --pc: 'x1' is not a number (decimal or 0x hex)", "decode", "--sq", "--pc", "x1", dump(send()));
        assertError("prmkit decode: a send queue ring is a power of two of 64-byte basic blocks; the input has 192 bytes", "decode", "--sq", "--pc", "1",
                dump(new byte[192]));
        byte[] zero = new byte[64];
        byte[] undeclared = new byte[64];
        undeclared[3] = 0x01; // opcode 0x01 (all zero would be a NOP: opcode 0, nop_wqe)
        Run none = PrmkitCliTest.run("decode", "--wqe", dump(undeclared));
        assertEquals(1, none.exitCode());
        assertTrue(none.err().startsWith("prmkit decode: no declared WQE matches these bytes (nop_wqe when "), none.err());
        assertEquals(1, none.err().lines().count(), none.err());
        Run noPc = PrmkitCliTest.run("decode", "--sq", dump(zero));
        assertEquals(2, noPc.exitCode(), noPc.err());
        assertTrue(noPc.err().contains("--sq needs the producer counter: --pc COUNTER"), noPc.err());
    }

    @Test
    void anyBytesDecodeOrGetOneErrorLine() throws IOException {
        List<byte[]> cases = new ArrayList<>();
        Property.check(60, g -> {
            byte[] b = new byte[g.between("bytes", 1, 512, 1, 16, 64, 256)];
            g.random().nextBytes(b);
            if (g.random().nextBoolean()) { // a plausible control segment: a SEND, LSO or UMR with a small ds
                MemorySegment w = MemorySegment.ofArray(b);
                if (b.length >= 16) {
                    WqeCtrlSeg.opcode$set(w, 0, g.random().nextInt(3) == 0 ? 0x25 : g.random().nextBoolean() ? 0x0a : 0x0e);
                    WqeCtrlSeg.ds$set(w, 0, g.between("ds", 0, 63));
                }
            }
            cases.add(b);
        });
        for (byte[] b : cases) {
            String file = dump(b);
            for (String[] args : List.of(new String[] {"decode", "--wqe", file}, new String[] {"decode", "--sq", "--pc", "3", file},
                    new String[] {"decode", "--wqe", "--given", "min_wqe_inline_mode=3", "--given", "mkey(0x0).len=1", "umr_wqe", file})) {
                Run run = PrmkitCliTest.run(args);
                assertTrue(run.exitCode() == 0 || run.exitCode() == 1, run.err());
                assertFalse(run.err().contains("Exception") || run.out().contains("Exception"), run.err() + run.out());
                assertTrue(run.err().lines().count() <= 1, run.err());
                if (run.exitCode() == 1) assertEquals(1, run.err().lines().count(), run.out());
            }
        }
        assertTrue(Mkc.SIZE > 0);
    }
}

package io.prmkit.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.prmkit.cli.PrmkitCliTest.Run;
import io.prmkit.dsl.HostTools;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DecodeCommandTest {
    /** hexdump -C of an error CQE: REQ_ERR, syndrome 0x04 (local protection), vendor syndrome 0x51, qpn 0x123. */
    static final String ERR_CQE = """
            00000000  00 00 00 00 00 00 00 00  00 00 00 00 00 00 00 00  |................|
            *
            00000030  00 00 00 00 00 00 51 04  0a 00 01 23 00 05 00 d1  |......Q....#....|
            00000040
            """;

    @TempDir
    Path tmp;

    private String file(String text) throws IOException {
        return HexDump.file(tmp, text);
    }

    /** Asserts exit code 1 and exactly this one error line. */
    private void assertError(String expected, String... args) {
        Run run = PrmkitCliTest.run(args);
        assertEquals(1, run.exitCode(), run.out() + run.err());
        assertEquals(expected + "\n", run.err().replace("\r\n", "\n"));
    }

    @Test
    void anErrorCqeNamesAndExplainsItsSyndrome() throws IOException {
        Run run = PrmkitCliTest.run("decode", "--cqe", file(ERR_CQE));
        assertEquals(0, run.exitCode(), run.err());
        assertTrue(run.out().startsWith("CQE opcode REQ_ERR (0xd): err_cqe\nerr_cqe (64 bytes)\n"), run.out());
        assertTrue(run.out().contains("dword 0x34 [7:0]     syndrome = 0x4 LOCAL_PROT_ERR"), run.out());
        assertTrue(run.out().contains("dword 0x38 [23:0]    qpn = 0x123"), run.out());
        assertTrue(run.out().contains("syndrome: LOCAL_PROT_ERR (0x4): Local protection error. Likely cause: The lkey does not cover"), run.out());
        assertTrue(run.out().contains("vendor syndrome: 0x51"), run.out());
        assertTrue(run.out().contains("validate: ok"), run.out());
    }

    /**
     * The same CQE as {@code hexdump -C -v | cut -c1-58} (ASCII column cut off), od -Ax -tx1 and a dmesg paste: never
     * the offsets read as data (which made this REQ_ERR a RESP_SEND_IMM with "validate: ok").
     */
    @Test
    void everyDumpFormatOfAnErrorCqeDecodesTheSame() throws IOException {
        StringBuilder cut = new StringBuilder();
        StringBuilder od = new StringBuilder();
        StringBuilder dmesg = new StringBuilder("[ 8213.364211] mlx5_core 0000:08:00.0 eth0: Error cqe on cqn 0x40c, ci 0x2, qn 0x123, "
                + "opcode 0xd, syndrome 0x4, vendor syndrome 0x51\n");
        String last = "00 00 00 00 00 00 51 04 0a 00 01 23 00 05 00 d1";
        for (int row = 0; row < 4; row++) {
            String hex = row == 3 ? last : "00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00";
            cut.append(String.format("%08x  %s  %s%n", row * 16, hex.substring(0, 23), hex.substring(24)));
            od.append(String.format("%06x %s%n", row * 16, hex));
            dmesg.append(String.format("[ 8213.364216] %08x: %s%n", row * 16, hex));
        }
        cut.append("00000040\n");
        od.append("000040\n");
        for (String dump : List.of(cut.toString(), od.toString(), dmesg.toString())) {
            Run run = PrmkitCliTest.run("decode", "--cqe", file(dump));
            assertEquals(0, run.exitCode(), run.err());
            assertTrue(run.out().startsWith("CQE opcode REQ_ERR (0xd): err_cqe\n"), dump + run.out());
            assertTrue(run.out().contains("syndrome: LOCAL_PROT_ERR (0x4)"), run.out());
        }
    }

    @Test
    void a128ByteCqeIsReadFromItsSecondHalf() throws IOException {
        String inline = "ab".repeat(64); // inline data in the first half
        String cqe = "00".repeat(0x34) + "00005104" + "0a000123" + "000500d1";
        Run run = PrmkitCliTest.run("decode", "--cqe", "--cqe-size", "128", file(inline + cqe));
        assertEquals(0, run.exitCode(), run.err());
        assertTrue(run.out().startsWith("CQE opcode REQ_ERR (0xd): err_cqe (bytes 0x40..0x7f of the 128-byte CQE)\n"), run.out());
        assertTrue(run.out().contains("syndrome: LOCAL_PROT_ERR (0x4)"), run.out());
        assertError("prmkit decode: a 128-byte CQE needs 128 bytes, the input has 64", "decode", "--cqe", "--cqe-size", "128", file(cqe));
    }

    /** --cqe-size without --cqe was silently ignored. */
    @Test
    void cqeSizeWithoutCqeIsAUsageError() throws IOException {
        Run run = PrmkitCliTest.run("decode", "--cqe-size", "128", "cqe64", file("00"));
        assertEquals(2, run.exitCode(), run.err());
        assertTrue(run.err().startsWith("prmkit decode: --cqe-size applies to --cqe only"), run.err());
    }

    @Test
    void aNormalCqeIsReadAsCqe64() throws IOException {
        // opcode REQ (0), s_wqe_opcode SEND, qpn 0x123, wqe_counter 5, byte_cnt 60
        String hex = "00".repeat(0x2c) + "0000003c" + "00".repeat(8) + "0a000123" + "00050001";
        Run run = PrmkitCliTest.run("decode", "--cqe", file(hex));
        assertEquals(0, run.exitCode(), run.err());
        assertTrue(run.out().startsWith("CQE opcode REQ (0x0): cqe64\ncqe64 (64 bytes)\n"), run.out());
        assertTrue(run.out().contains("byte_cnt = 0x3c"), run.out());
        assertTrue(run.out().contains("s_wqe_opcode = 0xa SEND"), run.out());
        assertTrue(!run.out().contains("syndrome:"), run.out());
    }

    @Test
    void aCreateCqMailboxDecodesTheEmbeddedCqc() throws IOException {
        byte[] b = new byte[0x118];
        b[0] = 0x04; // opcode CREATE_CQ
        b[0x10 + 0x0c] = 0x0a; // cqc.log_cq_size
        b[0x10 + 0x0f] = 0x07; // cqc.uar_page
        b[0x10 + 0x17] = 0x03; // cqc.c_eqn_or_apu_element
        b[0x110 + 3] = 0x01; // pas[0] = 0x1_2345_6000
        b[0x110 + 4] = 0x23;
        b[0x110 + 5] = 0x45;
        b[0x110 + 6] = 0x60;
        String dump = HexDump.rows(b, "[   42.000001] mlx5_core 0000:08:00.0: %08x:");
        Run run = PrmkitCliTest.run("decode", "--command", file(dump));
        assertEquals(0, run.exitCode(), run.err());
        String o = run.out();
        assertTrue(o.startsWith("command CREATE_CQ (0x400) input: create_cq_in\ncreate_cq_in (272 bytes)\n"), o);
        assertTrue(o.contains("dword 0x00 [31:16]   opcode = 0x400 CREATE_CQ"), o);
        assertTrue(o.contains("bytes 0x10..0x4f     cq_context : mlx5.cqc\n"), o);
        assertTrue(o.contains("    dword 0x0c [28:24]   log_cq_size = 0xa\n"), o);
        assertTrue(o.contains("    dword 0x0c [23:0]    uar_page = 0x7\n"), o);
        assertTrue(o.contains("pas[0] = 0x123456000"), o);
        assertTrue(o.contains("validate: ok"), o);
    }

    /** A compressed session's title says where its completions are: the mini CQE arrays of the entries after it. */
    @Test
    void aCompressedTitleSaysWhereItsCompletionsAre() throws IOException {
        byte[] b = new byte[64];
        b[0x2f] = 7; // byte_cnt: 7 completions
        b[0x3d] = 0x10; // wqe_counter 0x10
        b[0x3f] = (byte) ((2 << 4) | (3 << 2) | 1); // RESP_SEND, COMPRESSED, owner 1
        StringBuilder hex = new StringBuilder();
        for (byte x : b) hex.append(String.format("%02x ", x));
        Run run = PrmkitCliTest.run("decode", "--cqe", file(hex.toString()));
        assertEquals(0, run.exitCode(), run.err());
        assertTrue(run.out().contains("cqe_format = 0x3 COMPRESSED"), run.out());
        assertTrue(run.out().contains("compressed session title: byte_cnt = 7 completions, wqe_counter 0x10 and on;"), run.out());
        Run plain = PrmkitCliTest.run("decode", "--cqe", file(hex.toString().replace("2d ", "21 ").trim()));
        assertFalse(plain.out().contains("compressed session"), plain.out());
    }

    /**
     * A CQ ring dump: each entry in turn; after a compressed title, the entries of its session as the
     * driver reads them (mini arrays in the next entry and in the entry 8 after the title, the rest skipped).
     */
    @Test
    void aRingDumpIsReadEntryByEntryWithItsSessions() throws IOException {
        byte[] ring = new byte[12 * 64];
        cqe(ring, 0, 0, 0x0f, 60); // plain
        cqe(ring, 1, 3, 0x10, 10); // title of 10 completions: entries 1..10
        for (int k = 0; k < 8; k++) mini(ring, 2, k, 0x1000 + k, 64 + k);
        for (int k = 0; k < 2; k++) mini(ring, 9, k, 0x2000 + k, 80 + k);
        cqe(ring, 11, 0, 0x1a, 70);
        StringBuilder hex = new StringBuilder();
        for (byte x : ring) hex.append(String.format("%02x ", x));
        Run run = PrmkitCliTest.run("decode", "--cqe", file(hex.toString()));
        assertEquals(0, run.exitCode(), run.err());
        String o = run.out();
        assertTrue(o.startsWith("CQ dump: 12 entries of 64 bytes\n"), o);
        assertTrue(o.contains("entry 2 (offset 0x80): mini CQEs of the session at entry 1, completions 0-7\n"
                + "  mini 0: completion 0, wqe_counter 0x10, byte_cnt 64, rx_hash_result 0x1000\n"), o);
        assertTrue(o.contains("  mini 7: completion 7, wqe_counter 0x17, byte_cnt 71, rx_hash_result 0x1007\n"), o);
        assertTrue(o.contains("entries 3-8 (offsets 0xc0-0x200): inside the session at entry 1 (not read)\n"), o);
        assertTrue(o.contains("entry 9 (offset 0x240): mini CQEs of the session at entry 1, completions 8-9\n"
                + "  mini 0: completion 8, wqe_counter 0x18, byte_cnt 80, rx_hash_result 0x2000\n"
                + "  mini 1: completion 9, wqe_counter 0x19, byte_cnt 81, rx_hash_result 0x2001\n"), o);
        assertTrue(o.contains("entry 10 (offset 0x280): inside the session at entry 1 (not read)\n"), o);
        assertTrue(o.contains("entry 11 (offset 0x2c0):\nCQE opcode RESP_SEND (0x2): cqe64\n"), o);
        assertTrue(o.contains("wqe_counter = 0x1a"), o);
        // cut inside the session: said, not guessed
        Run cut = PrmkitCliTest.run("decode", "--cqe", file(hex.substring(0, 3 * 64 * 3)));
        assertTrue(cut.out().contains("(the session runs past the end of the dump: 8 more entries)"), cut.out());
    }

    private static void cqe(byte[] ring, int entry, int format, int wqeCounter, int byteCnt) {
        int b = entry * 64;
        java.nio.ByteBuffer.wrap(ring, b + 0x2c, 4).putInt(byteCnt);
        java.nio.ByteBuffer.wrap(ring, b + 0x3c, 2).putShort((short) wqeCounter);
        ring[b + 0x3f] = (byte) ((2 << 4) | (format << 2) | 1); // RESP_SEND, owner 1
    }

    private static void mini(byte[] ring, int entry, int k, int hash, int byteCnt) {
        java.nio.ByteBuffer.wrap(ring, entry * 64 + k * 8, 8).putInt(hash).putInt(byteCnt);
    }

    @Test
    void aCommandOutputExplainsItsStatus() throws IOException {
        Run run = PrmkitCliTest.run("decode", "--output", "create_cq", file("03000000 00a1b2c3 00000000 00000000"));
        assertEquals(0, run.exitCode(), run.err());
        assertTrue(run.out().startsWith("command CREATE_CQ (0x400) output: create_cq_out\n"), run.out());
        assertTrue(run.out().contains("status: BAD_PARAM_ERR (0x3): Bad parameter. Likely cause: A field holds a value out of range"), run.out());
        assertTrue(run.out().contains("syndrome: 0xa1b2c3"), run.out());
        Run byNumber = PrmkitCliTest.run("decode", "--output", "0x400", file("00000000 00000000 00000042 00000000"));
        assertEquals(0, byNumber.exitCode(), byNumber.err());
        assertTrue(byNumber.out().contains("cqn = 0x42"), byNumber.out());
        assertTrue(byNumber.out().contains("status: OK (0x0): Success"), byNumber.out());
    }

    /**
     * A real ACCESS_REG input (PMTU read of port 1, as the driver and Linux send it) decodes as
     * access_register_in, the structure the spec's command declaration names (not "access_reg_in"
     * from the opcode's name), with the op_mod's name.
     */
    @Test
    void anAccessRegisterDumpDecodesAsItsDeclaredStructure() throws IOException {
        Run run = PrmkitCliTest.run("decode", "--command", file("08050000 00000001 00005003 00000000 00010000 00000000 00000000 00000000"));
        assertEquals(0, run.exitCode(), run.err());
        assertTrue(run.out().startsWith("command ACCESS_REG (0x805) input: access_register_in, op_mod READ\n"), run.out());
        assertTrue(run.out().contains("register_id = 0x5003 PMTU"), run.out());
        Run out = PrmkitCliTest.run("decode", "--output", "ACCESS_REG", file("00000000 00000000 00000000 00000000"));
        assertEquals(0, out.exitCode(), out.err());
        assertTrue(out.out().startsWith("command ACCESS_REG (0x805) output: access_register_out\n"), out.out());
    }

    /** The 16 bytes a command queue entry holds inline are enough to read a command's header; a named structure still needs all its bytes. */
    @Test
    void aCommandsInlineBytesAreEnoughForItsHeader() throws IOException {
        Run out = PrmkitCliTest.run("decode", "--output", "QUERY_HCA_CAP", file("03000000 1f3a2b01 00000000 00000000"));
        assertEquals(0, out.exitCode(), out.err());
        assertTrue(out.out().contains("  (only the first 16 of 4112 bytes were given: the rest is not decoded)\n"), out.out());
        assertTrue(out.out().contains("status: BAD_PARAM_ERR (0x3)"), out.out());
        assertTrue(out.out().contains("syndrome: 0x1f3a2b01"), out.out());
        Run in = PrmkitCliTest.run("decode", "--command", file("01090000 00000002 00000000 00000000"));
        assertEquals(0, in.exitCode(), in.err());
        assertTrue(in.out().contains("op_mod = 0x2 ETHERNET_OFFLOADS"), in.out());
        assertTrue(in.out().contains("(only the first 16 of 4112 bytes were given"), in.out());
        assertError("prmkit decode: query_hca_cap_in needs at least 8 of its 16 bytes, the input has 2", "decode", "--command", file("0100"));
        assertError("prmkit decode: query_hca_cap_out needs 4112 bytes, the input has 16", "decode", "query_hca_cap_out", file("00000000 00000000 00000000 00000000"));
    }

    @Test
    void aNamedStructureShowsReservedBitsAndValidateFindings() throws IOException {
        // wqe_ctrl_seg: opcode SEND, qpn 0xabcdef, ds 0 (violates range 1..63), reserved 0x04 [7:6] set
        Run run = PrmkitCliTest.run("decode", "wqe_ctrl_seg", file("0000010a abcdefc0 00000000 00000000"));
        assertEquals(0, run.exitCode(), run.err());
        assertTrue(run.out().contains("opcode = 0xa SEND"), run.out());
        assertTrue(run.out().contains("!! reserved bits set"), run.out());
        assertTrue(run.out().matches("(?s).*validate: \\d+ problems?\n.*ds.*"), run.out());
    }

    /** A joined field's whole value is printed beside its parts, named by its enum, in nested structures too. */
    @Test
    void aJoinedFieldsWholeValueIsShownBesideItsParts() throws IOException {
        // mkc dword 0: access_mode_4_2 [28:26] = 1, access_mode_1_0 [9:8] = 1: access mode 0b00101 = MEMIC
        String mkc = "04000100" + " 00000000".repeat(15);
        Run run = PrmkitCliTest.run("decode", "mkc", file(mkc));
        assertEquals(0, run.exitCode(), run.err());
        assertTrue(run.out().contains("access_mode_4_2 = 0x1\n"), run.out());
        assertTrue(run.out().contains("access_mode_1_0 = 0x1\n"), run.out());
        assertTrue(run.out().contains("\n  joined               access_mode = 0x5 MEMIC  (access_mode_4_2 [4:2], access_mode_1_0 [1:0])\n"), run.out());

        String in = "00000000".repeat(4) + mkc + " 00000000".repeat(0x110 / 4 - 4 - 16);
        Run nested = PrmkitCliTest.run("decode", "create_mkey_in", file(in));
        assertEquals(0, nested.exitCode(), nested.err());
        assertTrue(nested.out().contains("\n    joined               access_mode = 0x5 MEMIC  (access_mode_4_2 [4:2], access_mode_1_0 [1:0])\n"),
                nested.out());
        Run zero = PrmkitCliTest.run("decode", "mkc", file("00000000".repeat(16)));
        assertFalse(zero.out().contains("joined"), "a zero join is not shown, like a zero field: " + zero.out());
    }

    /** Raw bytes where a dump belongs: named as binary with the way to make a dump, never "Input length = 3". */
    @Test
    void aBinaryFileIsNamedAsOne() throws IOException {
        Path bin = tmp.resolve("cqe.bin");
        Files.write(bin, new byte[] {0x2a, (byte) 0xec, 0x00, 0x01});
        assertError(bin + ": error: binary, not a hex dump (byte 0xec at offset 1); for raw bytes run xxd " + bin + " | prmkit decode ...",
                "decode", "--cqe", bin.toString());
        Files.write(bin, new byte[] {'0', '0', ' ', 0x00, '0', '1'});
        assertError(bin + ": error: binary, not a hex dump (byte 0x00 at offset 3); for raw bytes run xxd " + bin + " | prmkit decode ...",
                "decode", "cqe64", bin.toString());
    }

    /** A file with no end is cut off at the pipeline's input limit, not read until the heap is gone. */
    @Test
    void anEndlessInputStopsAtTheLimit() {
        HostTools.requireSystem(Files.isReadable(Path.of("/dev/zero")), "/dev/zero", "an input with no end");
        Run run = PrmkitCliTest.run("decode", "cqe64", "/dev/zero");
        assertEquals(1, run.exitCode(), run.err());
        assertTrue(run.err().startsWith("/dev/zero: error: larger than 8 MiB"), run.err());
    }

    @Test
    void eachKindOfBadInputIsOneLine() throws IOException {
        String odd = file("00 01 0");
        assertError(odd + ":1: error: '0' has an odd number of hex digits (1)", "decode", "cqe64", odd);
        assertError("prmkit decode: err_cqe needs 64 bytes, the input has 4", "decode", "err_cqe", file("00000000"));
        assertError("prmkit decode: a 64-byte CQE needs 64 bytes, the input has 8", "decode", "--cqe", file("00000000 000000d1"));
        assertError("prmkit decode: unknown structure 'no_such_struct'", "decode", "no_such_struct", file("00"));
        assertError("prmkit decode: unknown command 'FROB' (give a command of cmd_opcode, e.g. CREATE_CQ, or an opcode like 0x400)",
                "decode", "--output", "FROB", file("00"));
        // The names are checked before the dump is read: a typo must not wait for a dump typed at a terminal.
        assertError("prmkit decode: unknown structure 'cqe' (did you mean cqe64, err_cqe, mini_cqe8?)", "decode", "cqe", file("not hex"));
        assertError("prmkit decode: unknown command 'FROB' (give a command of cmd_opcode, e.g. CREATE_CQ, or an opcode like 0x400)",
                "decode", "--output", "FROB", tmp.resolve("missing.txt").toString());
        assertError(tmp.resolve("missing.txt") + ": error: no such file or folder", "decode", "cqe64", tmp.resolve("missing.txt").toString());
        assertError(tmp + ": error: is a folder, not a file", "decode", "--cqe", tmp.toString());
        Run usage = PrmkitCliTest.run("decode", "--cqe", "--command", file("00"));
        assertEquals(2, usage.exitCode());
        assertTrue(usage.err().startsWith("prmkit decode: --command, --output, --cqe, --wqe and --sq exclude each other\n"), usage.err());
        Run nothing = PrmkitCliTest.run("decode");
        assertEquals(2, nothing.exitCode());
        assertTrue(nothing.err().startsWith("prmkit decode: name the structure to decode as"), nothing.err());
    }

    /**
     * Every structure of the bundled spec, random bytes (a third of them zero) in plain or xxd dump
     * format: the decoding succeeds and prints each top-level field's value as the bytes hold it, read
     * here bit by bit from the spec's positions (which GroundTruthTableTest checks against gcc), and no
     * line for a field that is zero. Fields of inline unions and nested structures are left to
     * their own tests (which alternative shows depends on a selector).
     */
    @Test
    void everyStructureDecodesRandomBytesToTheValuesTheyHold() throws Exception {
        io.prmkit.dsl.ir.LayoutModel model = SpecInputNames.bundledModel();
        long seed = Long.getLong("prmkit.seed", 20261205L);
        int structs = 0;
        long nonZero = 0;
        long zero = 0;
        for (io.prmkit.dsl.ir.StructLayout st : model.structs()) {
            assertEquals(java.nio.ByteOrder.BIG_ENDIAN, st.byteOrder(), st.name() + ": this test reads big-endian structures only");
            String name = st.name().name();
            java.util.SplittableRandom r = new java.util.SplittableRandom(seed ^ name.hashCode());
            byte[] b = new byte[(int) st.sizeBytes() + r.nextInt(17)];
            for (int i = 0; i < b.length; i++) b[i] = r.nextInt(3) == 0 ? 0 : (byte) r.nextInt(256);
            boolean xxd = r.nextBoolean();
            String dump = HexDump.rows(b, xxd ? "%08x:" : "");
            String where = name + " (seed " + seed + ", " + (xxd ? "xxd" : "plain") + " dump " + HexFormat.of().formatHex(b) + ")";
            Run run = PrmkitCliTest.run("decode", name, file(dump));
            assertEquals(0, run.exitCode(), where + ": " + run.err());
            assertEquals("", run.err(), where);
            assertTrue(run.out().startsWith(name + " ("), where + ":\n" + run.out());
            assertTrue(run.out().contains("\nvalidate: "), where + ":\n" + run.out());
            java.util.Map<String, String> shown = new java.util.HashMap<>();
            for (String line : run.out().split("\n")) {
                java.util.regex.Matcher m = TOP_LEVEL_FIELD.matcher(line);
                if (m.find()) shown.put(m.group(1), m.group(2));
            }
            for (io.prmkit.dsl.ir.Member f : st.members()) {
                if (f.reserved() || !f.isScalar() || f.variant().isPresent() || f.bitEnd() > st.sizeBits()) continue;
                long v = bitsOf(b, f.bitOffset(), (int) f.bitWidth());
                String got = shown.get(f.name());
                if (v == 0) {
                    assertEquals(null, got, where + ": " + f.name() + " is zero but printed:\n" + run.out());
                    zero++;
                } else {
                    assertEquals("0x" + Long.toHexString(v), got, where + ": " + f.name() + " (" + f.prmPosition() + "):\n" + run.out());
                    nonZero++;
                }
            }
            structs++;
        }
        System.out.printf("[decode fuzz] %d structures: %d field values checked against the bytes, %d zero fields checked absent%n",
                structs, nonZero, zero);
        assertEquals(model.structs().size(), structs);
        // 273 structures gave 1440 values and 596 zeros: a field the pattern misses fails above, these catch a loop that checks nothing.
        assertTrue(nonZero > 4L * structs && zero > structs, "too few fields checked: " + nonZero + " values, " + zero + " zeros");
    }

    /** A top-level field's line of the generated dump(): two spaces, its PRM position, its name, " = " and its value. */
    private static final java.util.regex.Pattern TOP_LEVEL_FIELD = java.util.regex.Pattern.compile("^  \\S.*?\\s([A-Za-z_]\\w*) = (0x[0-9a-f]+)\\b");

    /** Bits {@code off .. off+width-1} of big-endian bytes (bit 0: the MSB of byte 0), as an unsigned number. */
    static long bitsOf(byte[] b, long off, int width) {
        long v = 0;
        for (long bit = off; bit < off + width; bit++) {
            int byteValue = b[(int) (bit >>> 3)] & 0xff;
            v = (v << 1) | ((byteValue >>> (7 - (bit & 7))) & 1);
        }
        return v;
    }

    @Test
    void bitsAreReadFromTheMostSignificantBitOfByteZero() {
        byte[] b = {(byte) 0x80, 0x01, (byte) 0xf0};
        assertEquals(1, bitsOf(b, 0, 1));
        assertEquals(0x8001, bitsOf(b, 0, 16));
        assertEquals(0x1f, bitsOf(b, 15, 5));
        assertEquals(0, bitsOf(b, 1, 14));
    }
}

package io.prmkit.hex;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.prmkit.dsl.Property;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;

class HexInputTest {
    /** 0x00..0x2f, then the last 16 bytes of an error CQE. */
    private static final byte[] BYTES = HexFormat.of().parseHex(
            "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f202122232425262728292a2b2c2d2e2f"
                    + "0000000000005104" + "0a00012300 0500d1".replace(" ", ""));

    private static byte[] parse(String text) throws HexInput.BadHex {
        return HexInput.parse(text, "in", false);
    }

    private static String error(String text) {
        return assertThrows(HexInput.BadHex.class, () -> parse(text)).getMessage();
    }

    @Test
    void commentLinesAreSkipped() throws Exception {
        // the form of shared/reference/cx4-raw: a comment naming the capture, then offset-addressed dwords
        assertArrayEquals(HexFormat.of().parseHex("0f0f000e00170000"), parse("""
                # QUERY_HCA_CAP op_mod 0x1 output (8 bytes: a test), real ConnectX-4
                0000: 0f0f000e 00170000
                  # a note between rows
                """));
    }

    @Test
    void xxd() throws Exception {
        // real xxd output for these bytes, ASCII column included (its third row starts with a space)
        assertArrayEquals(BYTES, parse("""
                00000000: 0001 0203 0405 0607 0809 0a0b 0c0d 0e0f  ................
                00000010: 1011 1213 1415 1617 1819 1a1b 1c1d 1e1f  ................
                00000020: 2021 2223 2425 2627 2829 2a2b 2c2d 2e2f   !"#$%&'()*+,-./
                00000030: 0000 0000 0000 5104 0a00 0123 0005 00d1  ......Q....#....
                """));
    }

    @Test
    void hexdumpCanonicalWithRepeatedRows() throws Exception {
        byte[] zeros = new byte[0x40];
        zeros[0x3f] = (byte) 0xd1;
        assertArrayEquals(zeros, parse("""
                00000000  00 00 00 00 00 00 00 00  00 00 00 00 00 00 00 00  |................|
                *
                00000030  00 00 00 00 00 00 00 00  00 00 00 00 00 00 00 d1  |................|
                00000040
                """));
        assertArrayEquals(BYTES, parse("""
                00000000  00 01 02 03 04 05 06 07  08 09 0a 0b 0c 0d 0e 0f  |................|
                00000010  10 11 12 13 14 15 16 17  18 19 1a 1b 1c 1d 1e 1f  |................|
                00000020  20 21 22 23 24 25 26 27  28 29 2a 2b 2c 2d 2e 2f  | !"#$%&'()*+,-./|
                00000030  00 00 00 00 00 00 51 04  0a 00 01 23 00 05 00 d1  |......Q....#....|
                00000040
                """));
    }

    @Test
    void kernelPrintHexDumpWithOffsetAddressOrNothing() throws Exception {
        StringBuilder offset = new StringBuilder();
        StringBuilder address = new StringBuilder();
        StringBuilder none = new StringBuilder();
        for (int row = 0; row < 4; row++) {
            StringBuilder hex = new StringBuilder();
            for (int i = 0; i < 16; i++) hex.append(i == 0 ? "" : " ").append(String.format("%02x", BYTES[row * 16 + i]));
            offset.append(String.format("[  123.456789] mlx5_core 0000:08:00.0: %08x: %s  ................%n", row * 16, hex));
            address.append(String.format("ffff8881049c%04x: %s%n", 0x4000 + row * 16, hex));
            none.append("mlx5_core 0000:08:00.0: ").append(hex).append(row == 1 ? "  ................" : "").append('\n');
        }
        assertArrayEquals(BYTES, parse(offset.toString()));
        assertArrayEquals(BYTES, parse(address.toString()));
        assertArrayEquals(BYTES, parse(none.toString()));
    }

    @Test
    void mlx5CommandTraceDwords() throws Exception {
        assertArrayEquals(HexFormat.of().parseHex("0000040000000000"), parse("""
                mlx5_core 0000:08:00.0: dump_buf:834:(pid 512): 000: 00000400 00000000
                """));
    }

    @Test
    void plainHexInAnyGrouping() throws Exception {
        byte[] expected = HexFormat.of().parseHex("00000400deadbeef");
        assertArrayEquals(expected, parse("00 00 04 00 de ad be ef"));
        assertArrayEquals(expected, parse("00000400deadbeef\n"));
        assertArrayEquals(expected, parse("0x00000400 0xdeadbeef"));
        assertArrayEquals(expected, parse("0x00, 0x00, 0x04, 0x00,\n0xde, 0xad, 0xbe, 0xef"));
        assertArrayEquals(expected, parse("00000400  deadbeef"));
    }

    @Test
    void littleEndianGroupsAreSwapped() throws Exception {
        assertArrayEquals(HexFormat.of().parseHex("0000040001020304"), HexInput.parse("00000000: 00040000 04030201", "in", true));
    }

    /** hexdump -C with its ASCII column cut off ({@code hexdump -C -v f | cut -c1-58}): the offsets are not data. */
    @Test
    void hexdumpCanonicalWithoutItsAsciiColumn() throws Exception {
        assertArrayEquals(BYTES, parse("""
                00000000  00 01 02 03 04 05 06 07  08 09 0a 0b 0c 0d 0e 0f
                00000010  10 11 12 13 14 15 16 17  18 19 1a 1b 1c 1d 1e 1f
                00000020  20 21 22 23 24 25 26 27  28 29 2a 2b 2c 2d 2e 2f
                00000030  00 00 00 00 00 00 51 04  0a 00 01 23 00 05 00 d1
                00000040
                """));
        byte[] zeros = new byte[0x56];
        zeros[0x50] = 0x51;
        // real hexdump -C | cut -c1-58 output: '*' rows, a short last row padded with spaces
        assertArrayEquals(zeros, parse("""
                00000000  00 00 00 00 00 00 00 00  00 00 00 00 00 00 00 00
                *
                00000050  51 00 00 00 00 00                              \s
                00000056
                """));
    }

    /** od -Ax -tx1 (either order), with and without -v, with and without its ASCII column (-tx1z). */
    @Test
    void odWithHexOffsets() throws Exception {
        assertArrayEquals(BYTES, parse("""
                000000 00 01 02 03 04 05 06 07 08 09 0a 0b 0c 0d 0e 0f
                000010 10 11 12 13 14 15 16 17 18 19 1a 1b 1c 1d 1e 1f
                000020 20 21 22 23 24 25 26 27 28 29 2a 2b 2c 2d 2e 2f
                000030 00 00 00 00 00 00 51 04 0a 00 01 23 00 05 00 d1
                000040
                """));
        assertArrayEquals(BYTES, parse("""
                000000 00 01 02 03 04 05 06 07 08 09 0a 0b 0c 0d 0e 0f  >................<
                000010 10 11 12 13 14 15 16 17 18 19 1a 1b 1c 1d 1e 1f  >................<
                000020 20 21 22 23 24 25 26 27 28 29 2a 2b 2c 2d 2e 2f  > !"#$%&'()*+,-./<
                000030 00 00 00 00 00 00 51 04 0a 00 01 23 00 05 00 d1  >......Q....#....<
                000040
                """));
        byte[] zeros = new byte[0x36];
        zeros[0x35] = 0x23;
        assertArrayEquals(zeros, parse("""
                000000 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00
                *
                000030 00 00 00 00 00 23
                000036
                """));
    }

    /** od's default octal (or -Ad decimal) offsets cannot be told from data by their digits: refused, with the way out. */
    @Test
    void odWithOctalOffsetsIsRefused() {
        assertEquals("in:1: error: '0000000' has an odd number of hex digits (7); od or plain hexdump output? "
                + "use od -Ax -tx1, hexdump -C or xxd", error("0000000 00 01 02 03 04 05 06 07 10 11 12 13 14 15 16 17\n0000020 00\n"));
    }

    /** A single row whose first group could be an offset or data, with nothing to tell which: refused, never guessed. */
    @Test
    void anOffsetColumnThatCannotBeConfirmedIsRefused() {
        assertEquals("in:1: error: '00000000' may be an offset column (hexdump -C or od -Ax -tx1) or data, and nothing after it says "
                + "which: keep the dump's last line (its length), or remove the offsets", error("00000000  00 01 02 03 04 05 06 07\n"));
    }

    /** A dmesg paste: the driver's "Error cqe" line and other kernel text lines around print_hex_dump's rows are skipped. */
    @Test
    void kernelLogLinesAroundAHexDumpAreSkipped() throws Exception {
        assertArrayEquals(java.util.Arrays.copyOfRange(BYTES, 0x30, 0x40), parse("""
                [ 8213.364211] mlx5_core 0000:08:00.0 enp8s0f0np0: Error cqe on cqn 0x40c, ci 0x2, qn 0x123, opcode 0xd, syndrome 0x4, vendor syndrome 0x51
                [ 8213.364216] 00000000: 00 00 00 00 00 00 51 04 0a 00 01 23 00 05 00 d1
                [ 8213.364230] mlx5_core 0000:08:00.0 enp8s0f0np0: ERR CQE on SQ: 0x123
                """));
        assertArrayEquals(java.util.Arrays.copyOfRange(BYTES, 0x30, 0x40), parse("""
                Dec 05 00:11:59 host kernel: mlx5_core 0000:08:00.0 enp8s0f0np0: Error cqe on cqn 0x40c, ci 0x2, qn 0x123, opcode 0xd, syndrome 0x4, vendor syndrome 0x51
                Dec 05 00:11:59 host kernel: 00000000: 00 00 00 00 00 00 51 04 0a 00 01 23 00 05 00 d1
                """));
        // without a log prefix a word is still not hex
        assertEquals("in:1: error: 'Error' is not hex", error("Error cqe on cqn 0x40c\n00 01\n"));
    }

    @Test
    void badInputIsOneLineNamingTheLine() {
        assertEquals("in:2: error: '040' has an odd number of hex digits (3)", error("00000000\n00 040\n"));
        assertEquals("in:1: error: '0000000' has an odd number of hex digits (7); od or plain hexdump output? use od -Ax -tx1, hexdump -C or xxd",
                error("0000000 0004 0000 0000 0000\n"));
        assertEquals("in:1: error: 'zz' is not hex", error("00 zz 11"));
        assertEquals("in: error: no hex bytes in the input", error("\n  \n"));
        assertEquals("in:2: error: offset 0x20 where 0x10 was expected (a line missing or repeated?)",
                error("00000000: 00 01 02 03 04 05 06 07 08 09 0a 0b 0c 0d 0e 0f\n00000020: 00\n"));
        assertEquals("in:1: error: '*' (hexdump's repeated rows) before any row", error("*\n"));
        assertEquals("in:2: error: the dump ends in '*' without the final offset that says how long it is",
                error("00000000  00 00 00 00 00 00 00 00  00 00 00 00 00 00 00 00  |................|\n*\n"));
    }

    /** An error about a '*' line names that line (it named the line after it, or no line at all). */
    @Test
    void aStarLinesErrorIsOnItsLine() {
        assertEquals("in:2: error: '*' needs offsets to say how many rows it stands for", error("00 01 02 03\n*\n04 05\n"));
        assertEquals("in:3: error: offset 0x28 does not end the run of repeated rows that '*' at line 2 stands for (rows of 16 bytes from 0x10)",
                error("00000000: 00 01 02 03 04 05 06 07 08 09 0a 0b 0c 0d 0e 0f\n*\n00000028: 00\n"));
    }

    /** Whatever the text, the parser returns bytes or a BadHex: never another exception. */
    @Test
    void fuzzedDumpsNeverCrash() {
        String[] seeds = {
            "00000000: 0001 0203 0405 0607 0809 0a0b 0c0d 0e0f  ................\n",
            "00000000  00 01 02 03 04 05 06 07  08 09 0a 0b 0c 0d 0e 0f  |................|\n*\n00000040\n",
            "[  1.2] mlx5_core 0000:08:00.0: 00000000: 04 00 00 00\n",
            "0x00, 0x01,\n0xff\n",
        };
        String alphabet = "0123456789abcdefx:|*[] .\n\t,-Zq";
        Property.check(500, g -> {
            StringBuilder sb = new StringBuilder(g.oneOf(seeds));
            int edits = g.between("edits", 1, 8);
            for (int i = 0; i < edits; i++) {
                int at = g.between(0, sb.length());
                char c = alphabet.charAt(g.between(0, alphabet.length() - 1));
                switch (g.between(0, 2)) {
                    case 0 -> sb.insert(at, c);
                    case 1 -> { if (at < sb.length()) sb.deleteCharAt(at); }
                    default -> { if (at < sb.length()) sb.setCharAt(at, c); }
                }
            }
            String text = g.note("text", sb.toString());
            try {
                HexInput.parse(text, "in", g.bool("le"));
            } catch (HexInput.BadHex e) {
                if (e.getMessage().contains("\n")) throw new AssertionError("multi-line message: " + e.getMessage());
            }
        });
    }
}

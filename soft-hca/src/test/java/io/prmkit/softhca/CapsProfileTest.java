package io.prmkit.softhca;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.prmkit.mlx5.CmdHcaCap;
import io.prmkit.mlx5.HcaCapType;
import io.prmkit.mlx5.PerProtocolNetworkingOffloadCaps;
import io.prmkit.layout.PrmLayout;
import io.prmkit.mlx5.QueryAdapterParamBlock;
import io.prmkit.mlx5.QueryHcaCapOut;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.lang.foreign.MemorySegment;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The ConnectX-4 profile against the card's facts: its raw QUERY_HCA_CAP pages (bundled) agree with
 * every field of the field-by-field decoding in cx4-caps.md (a test resource, a second source),
 * the bits the card sets in fields the 6.1 headers call reserved are there, and so are its LRO
 * timer periods, board id and page requests. {@code fromRawPages} reads a user's captures in the
 * dump formats people have.
 */
class CapsProfileTest {
    private static final Pattern SECTION = Pattern.compile("## (\\w+) \\(cap type (\\d+), (max|current)\\)");

    /** The cap type -> page layout relation is the spec's (hca_cap_union's 'when' values); which types are answered is the device's. */
    @Test
    void capPageLayoutsComeFromTheSpec() {
        java.util.Map<io.prmkit.mlx5.HcaCapType, String> want = java.util.Map.of(
                io.prmkit.mlx5.HcaCapType.GENERAL, "mlx5.cmd_hca_cap", io.prmkit.mlx5.HcaCapType.ETHERNET_OFFLOADS, "mlx5.per_protocol_networking_offload_caps",
                io.prmkit.mlx5.HcaCapType.ATOMIC, "mlx5.atomic_caps", io.prmkit.mlx5.HcaCapType.ROCE, "mlx5.roce_cap",
                io.prmkit.mlx5.HcaCapType.FLOW_TABLE, "mlx5.flow_table_nic_cap", io.prmkit.mlx5.HcaCapType.ESWITCH_FLOW_TABLE, "mlx5.flow_table_eswitch_cap",
                io.prmkit.mlx5.HcaCapType.ESWITCH, "mlx5.e_switch_cap", io.prmkit.mlx5.HcaCapType.GENERAL_2, "mlx5.cmd_hca_cap_2");
        assertEquals(want.size(), CapsProfile.TYPES.length);
        for (var e : want.entrySet()) assertEquals(e.getValue(), CapsProfile.layoutOf((int) e.getKey().value).name(), e.getKey().name());
        int odp = (int) io.prmkit.mlx5.HcaCapType.ODP.value;
        assertEquals("mlx5.odp_cap", CapsProfile.capPageLayout(odp).name(), "the spec knows ODP's page");
        assertNull(CapsProfile.layoutOf(odp), "the device does not answer ODP");
        assertNull(CapsProfile.capPageLayout(0x7ffe));
    }

    @Test
    void everyFieldOfTheCardsDecodingIsInTheRawPages() throws Exception {
        CapsProfile p = CapsProfile.connectX4();
        int checked = 0;
        List<String> wrong = new ArrayList<>();
        try (BufferedReader r = new BufferedReader(new InputStreamReader(
                CapsProfileTest.class.getResourceAsStream("cx4-caps.txt"), StandardCharsets.UTF_8))) {
            byte[] page = null;
            PrmLayout.Struct layout = null;
            for (String line; (line = r.readLine()) != null; ) {
                Matcher m = SECTION.matcher(line);
                if (m.matches()) {
                    int type = Integer.parseInt(m.group(2));
                    layout = CapsProfile.layoutOf(type);
                    page = m.group(3).equals("max") ? p.max(type) : p.current(type);
                    continue;
                }
                int eq = line.indexOf(" = ");
                if (line.startsWith("## Beyond")) break;
                if (page == null || eq < 0) continue;
                String field = line.substring(0, eq).trim();
                BigInteger want = new BigInteger(line.substring(eq + 3).trim().substring(2), 16);
                PrmLayout.Field f = layout.field(field).orElseThrow(() -> new AssertionError("no field " + field));
                BigInteger got;
                if (f.kind() == PrmLayout.Kind.BITS) {
                    got = BigInteger.valueOf(layout.get(MemorySegment.ofArray(page), 0, f));
                } else {
                    byte[] b = java.util.Arrays.copyOfRange(page, (int) f.byteOffset(), (int) (f.byteOffset() + f.bitWidth() / 8));
                    got = new BigInteger(1, b);
                }
                if (!got.equals(want)) wrong.add(layout.simpleName() + "." + field + " = 0x" + got.toString(16) + ", the card: 0x" + want.toString(16));
                checked++;
            }
        }
        assertEquals(List.of(), wrong);
        assertTrue(checked > 200, "fields checked: " + checked);
    }

    /** The value of {@code width} bits at bit {@code bit} of a page (for fields the 6.1 headers call reserved_at_<bit>). */
    private static long bits(byte[] page, int bit, int width) {
        long v = 0;
        for (int i = 0; i < width; i++) {
            int b = bit + i;
            v = v << 1 | (page[b / 8] >>> (7 - b % 8) & 1);
        }
        return v;
    }

    @Test
    void bitsTheHeadersCallReservedAndTheLroPeriodsAreTheCards() {
        CapsProfile p = CapsProfile.connectX4();
        byte[] general = p.max(HcaCapType.GENERAL$VALUE);
        assertEquals(3, bits(general, 0x20d, 2), "cmd_hca_cap reserved_at_20d");
        assertEquals(1, bits(general, 0x229, 1), "cmd_hca_cap reserved_at_229");
        byte[] eth = p.current(HcaCapType.ETHERNET_OFFLOADS$VALUE);
        assertEquals(3, bits(eth, 0x9, 2), "per_protocol_networking_offload_caps reserved_at_9 (self_lb_uc/mc in later headers)");
        assertEquals(4, bits(p.current(HcaCapType.ROCE$VALUE), 0x1, 3), "roce_cap reserved_at_1");
        MemorySegment e = MemorySegment.ofArray(eth);
        long[] periods = new long[4];
        for (int i = 0; i < 4; i++) periods[i] = PerProtocolNetworkingOffloadCaps.lro_timer_supported_periods$elem(e, i);
        assertArrayEquals(new long[] {8, 16, 32, 512}, periods);
        // the general current page as first queried: log_max_qp 0xe, before Linux's SET_HCA_CAP
        assertEquals(0xe, CmdHcaCap.log_max_qp(MemorySegment.ofArray(p.current(0))));
        assertEquals(0x17, CmdHcaCap.log_max_qp(MemorySegment.ofArray(general)));
        // the card has no hca_cap_2: general 2 is all zero
        assertTrue(allZero(p.max(HcaCapType.GENERAL_2$VALUE)));
    }

    @Test
    void adapterAndPagesAreTheCards() {
        CapsProfile p = CapsProfile.connectX4();
        assertEquals("MT_2430110027", p.boardId());
        MemorySegment a = MemorySegment.ofArray(p.adapter());
        assertEquals(0x2c9, QueryAdapterParamBlock.ieee_vendor_id(a));
        assertEquals(0x15b3, QueryAdapterParamBlock.vsd_vendor_id(a));
        assertEquals(List.of(6, 12_868, 0), List.of(p.bootPages(), p.initPages(), p.regularPages()));
        CapsProfile d = CapsProfile.defaults();
        assertEquals(List.of(8, 32, 0), List.of(d.bootPages(), d.initPages(), d.regularPages()));
        assertArrayEquals(p.max(0), d.max(0));
    }

    /** xxd's lines: offset, eight groups of two bytes, the ASCII column. */
    static String xxd(byte[] b) {
        StringBuilder s = new StringBuilder();
        for (int off = 0; off < b.length; off += 16) {
            s.append(String.format("%08x:", off));
            StringBuilder ascii = new StringBuilder();
            for (int i = off; i < off + 16 && i < b.length; i++) {
                if ((i - off) % 2 == 0) s.append(' ');
                s.append(String.format("%02x", b[i] & 0xff));
                ascii.append(b[i] >= 0x20 && b[i] < 0x7f ? (char) b[i] : '.');
            }
            s.append("  ").append(ascii).append('\n');
        }
        return s.toString();
    }

    /** hexdump -C's lines, with '*' for rows equal to the one before and the total length last. */
    static String hexdumpC(byte[] b) {
        StringBuilder s = new StringBuilder();
        byte[] prev = null;
        boolean starred = false;
        for (int off = 0; off < b.length; off += 16) {
            byte[] row = java.util.Arrays.copyOfRange(b, off, Math.min(b.length, off + 16));
            if (prev != null && java.util.Arrays.equals(prev, row)) {
                if (!starred) s.append("*\n");
                starred = true;
                continue;
            }
            starred = false;
            prev = row;
            s.append(String.format("%08x ", off));
            StringBuilder ascii = new StringBuilder();
            for (int i = 0; i < row.length; i++) {
                s.append(i == 8 ? "  " : " ").append(String.format("%02x", row[i] & 0xff));
                ascii.append(row[i] >= 0x20 && row[i] < 0x7f ? (char) row[i] : '.');
            }
            s.append("  |").append(ascii).append("|\n");
        }
        s.append(String.format("%08x%n", b.length));
        return s.toString();
    }

    /** The kernel's print_hex_dump(KERN_DEBUG, "", DUMP_PREFIX_OFFSET, 16, 1, ...) behind a dmesg prefix. */
    static String printHexDump(byte[] b) {
        StringBuilder s = new StringBuilder();
        for (int off = 0; off < b.length; off += 16) {
            s.append(String.format("[  %d.%06d] mlx5_core 0000:08:00.0: %08x:", 12, off, off));
            for (int i = off; i < off + 16 && i < b.length; i++) s.append(String.format(" %02x", b[i] & 0xff));
            s.append('\n');
        }
        return s.toString();
    }

    @Test
    void fromRawPagesReadsXxdHexdumpAndPrintHexDumpCaptures(@TempDir Path dir) throws Exception {
        CapsProfile card = CapsProfile.connectX4();
        byte[] general = new byte[(int) QueryHcaCapOut.SIZE];
        System.arraycopy(card.max(0), 0, general, (int) QueryHcaCapOut.capability$BYTE_OFFSET, card.max(0).length);
        Files.writeString(dir.resolve("query_hca_cap_general_max.xxd"), xxd(general));
        Files.writeString(dir.resolve("query_hca_cap_general_cur.txt"), hexdumpC(card.current(0))); // the page alone
        Files.writeString(dir.resolve("query_hca_cap_roce_max.log"), printHexDump(card.max(HcaCapType.ROCE$VALUE)));
        Files.writeString(dir.resolve("notes.md"), "not a capture: ignored");
        CapsProfile mine = CapsProfile.fromRawPages(dir);
        assertArrayEquals(card.max(0), mine.max(0));
        assertArrayEquals(card.current(0), mine.current(0));
        assertArrayEquals(card.max(HcaCapType.ROCE$VALUE), mine.max(HcaCapType.ROCE$VALUE));
        assertArrayEquals(card.max(HcaCapType.ROCE$VALUE), mine.current(HcaCapType.ROCE$VALUE), "no current page: the maximum");
        assertTrue(allZero(mine.max(HcaCapType.ETHERNET_OFFLOADS$VALUE)), "no file: a card without the feature");
        assertEquals("", mine.boardId());
        assertEquals(0x15b3, QueryAdapterParamBlock.vsd_vendor_id(MemorySegment.ofArray(mine.adapter())));
        // a device on it answers with the captured pages
        try (TestHost h = TestHost.started(new SoftHca.Options().caps(mine), ExecutionMode.STEP)) {
            BringUpCommandsTest.enable(h).ok();
            MemorySegment out = h.exec(Cmds.header(io.prmkit.mlx5.CmdOpcode.QUERY_HCA_CAP, 16, 0), QueryHcaCapOut.SIZE).ok().out();
            assertArrayEquals(general, java.util.Arrays.copyOf(out.toArray(java.lang.foreign.ValueLayout.JAVA_BYTE), general.length));
        }
    }

    @Test
    void fromRawPagesNamesTheFileItCannotUse(@TempDir Path dir) throws Exception {
        assertTrue(assertThrows(IllegalArgumentException.class, () -> CapsProfile.fromRawPages(dir)).getMessage()
                .contains("no query_hca_cap_general_max or _cur file"));
        Files.writeString(dir.resolve("query_hca_cap_general_max.hex"), "0000: 0f0f000e 00170000\n");
        String short_ = assertThrows(IllegalArgumentException.class, () -> CapsProfile.fromRawPages(dir)).getMessage();
        assertTrue(short_.contains("query_hca_cap_general_max.hex: 8 bytes; expected the whole output (4112 bytes) or its body (4096 bytes)"), short_);
        Files.writeString(dir.resolve("query_hca_cap_general_max.hex"), "0000: 0f0f000e 0017zz00\n");
        String bad = assertThrows(IllegalArgumentException.class, () -> CapsProfile.fromRawPages(dir)).getMessage();
        assertTrue(bad.contains("query_hca_cap_general_max.hex:1: error:"), bad);
        Files.writeString(dir.resolve("query_hca_cap_general_max.hex"), xxd(new byte[4096]));
        Files.writeString(dir.resolve("query_hca_cap_odp_max.hex"), xxd(new byte[4096]));
        String odp = assertThrows(IllegalArgumentException.class, () -> CapsProfile.fromRawPages(dir)).getMessage();
        assertTrue(odp.contains("query_hca_cap_odp_max.hex: cap type 'odp' is not one the device models"), odp);
    }

    private static boolean allZero(byte[] b) {
        for (byte x : b) if (x != 0) return false;
        return true;
    }
}

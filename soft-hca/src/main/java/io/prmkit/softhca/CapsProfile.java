package io.prmkit.softhca;

import io.prmkit.hex.HexInput;
import io.prmkit.softhca.cmd.CapTypes;
import io.prmkit.mlx5.HcaCapType;
import io.prmkit.mlx5.HcaCapUnion;
import io.prmkit.layout.PrmLayout;
import io.prmkit.mlx5.QueryAdapterOut;
import io.prmkit.mlx5.QueryAdapterParamBlock;
import io.prmkit.mlx5.QueryHcaCapOut;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.lang.foreign.MemorySegment;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * What the device reports about itself: the capability pages of QUERY_HCA_CAP (maximum and current,
 * per cap type), the adapter block of QUERY_ADAPTER, and the pages QUERY_PAGES asks for (boot, init,
 * regular). {@link #connectX4()} is one real ConnectX-4 (firmware 14.12.1220), byte for byte from
 * its raw command outputs (shared/reference/cx4-raw, bundled; reserved bits the card sets included);
 * {@link #fromRawPages} builds a profile from the outputs a user captured of their own card; tests
 * derive other profiles with {@link #with}. Immutable: every {@code with*} returns a copy.
 */
public final class CapsProfile {

    /** Cap types the device answers (others: BAD_PARAM); see {@link CapTypes}. */
    public static final int[] TYPES = CapTypes.types();

    /** The ConnectX-4's page requests: 6 boot pages, 12,868 init pages (about 50 MiB), no regular pages. */
    public static final int CX4_BOOT_PAGES = 6;
    public static final int CX4_INIT_PAGES = 12_868;

    private final Map<Integer, byte[]> max;
    private final Map<Integer, byte[]> current;
    private final byte[] adapter;
    private final int[] pages;

    private CapsProfile(Map<Integer, byte[]> max, Map<Integer, byte[]> current, byte[] adapter, int[] pages) {
        this.max = max;
        this.current = current;
        this.adapter = adapter;
        this.pages = pages;
    }

    /**
     * The layout of the capability page of {@code type}, or null for a type the device does not answer.
     * Which layout a type has is the spec's: the alternatives of {@code hca_cap_union} (the page
     * QUERY_HCA_CAP returns) carry their cap type as their {@code when} value; which types are
     * answered is the device's ({@link #TYPES}).
     */
    public static PrmLayout.Struct layoutOf(int type) {
        return CapTypes.layoutOf(type);
    }

    /** The alternative of {@code hca_cap_union} whose {@code when} value is {@code type}, or null. */
    static PrmLayout.Struct capPageLayout(int type) {
        return CapTypes.capPageLayout(type);
    }

    /** A raw QUERY_HCA_CAP output file: {@code query_hca_cap_<type>_<cur|max>.<ext>}, type as hca_cap_type names it. */
    private static final Pattern RAW_CAP = Pattern.compile("query_hca_cap_([a-z0-9_]+)_(cur|max)\\.\\w+");
    private static final String RAW_ADAPTER = "query_adapter_out";

    /**
     * What one ConnectX-4 (firmware 14.12.1220, one Ethernet port) reported: its QUERY_HCA_CAP pages
     * byte for byte (the general current page as first queried, before the driver's SET_HCA_CAP),
     * its QUERY_ADAPTER block (board id "MT_2430110027") and its page requests (6 / 12,868 / 0).
     * Cap types it was not asked for (general 2: the card has no {@code hca_cap_2}) are all zero.
     */
    public static CapsProfile connectX4() {
        Map<String, String> files = new TreeMap<>();
        for (int t : TYPES) {
            for (String kind : new String[] {"cur", "max"}) {
                String name = "query_hca_cap_" + HcaCapType.nameOf(t).toLowerCase(Locale.ROOT) + "_" + kind + ".hex";
                String text = resource("cx4-raw/" + name);
                if (text != null) files.put(name, text);
            }
        }
        files.put(RAW_ADAPTER + ".hex", resource("cx4-raw/" + RAW_ADAPTER + ".hex"));
        return parse(files, "cx4-raw").withPages(CX4_BOOT_PAGES, CX4_INIT_PAGES, 0);
    }

    /**
     * The default device's profile: {@link #connectX4()} asking for 8 boot and 32 init pages instead
     * of the card's 6 and 12,868 (50 MiB per device is much for tests and the demo; the driver's
     * page handling is the same for both).
     */
    public static CapsProfile defaults() {
        return connectX4().withPages(DEFAULT_BOOT_PAGES, DEFAULT_INIT_PAGES, 0);
    }

    /**
     * A profile from the command outputs captured on a card, one file each in {@code dir}:
     * {@code query_hca_cap_<type>_<cur|max>.<ext>} (the QUERY_HCA_CAP output, 16-byte header and
     * 4 KiB page, or the page alone; {@code <type>} as hca_cap_type names the cap type: general,
     * ethernet_offloads, atomic, roce, flow_table, eswitch_flow_table, eswitch, general_2) and optionally
     * {@code query_adapter_out.<ext>} (the QUERY_ADAPTER output). Each file is a hex dump in any
     * form {@code prmkit decode} reads (xxd, {@code hexdump -C}, the kernel's print_hex_dump or
     * {@code dump_buf} lines, plain hex; {@code #} comment lines). A type without files is all
     * zero (a card without the feature); a missing current page is the maximum page. Without an
     * adapter file the block holds the Mellanox vendor ids and no board id. Page requests are the
     * model's small defaults (8 / 32 / 0; {@link #withPages} changes them).
     *
     * @throws IllegalArgumentException naming the file (and line) that cannot be used
     * @throws UncheckedIOException when the directory or a file cannot be read
     */
    public static CapsProfile fromRawPages(Path dir) {
        Map<String, String> files = new TreeMap<>();
        try (Stream<Path> list = Files.list(dir)) {
            for (Path p : (Iterable<Path>) list.sorted()::iterator) {
                String name = p.getFileName().toString();
                if (Files.isRegularFile(p) && (RAW_CAP.matcher(name).matches() || name.startsWith(RAW_ADAPTER + "."))) {
                    files.put(name, Files.readString(p, StandardCharsets.ISO_8859_1));
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        if (files.keySet().stream().noneMatch(n -> n.startsWith("query_hca_cap_general_"))) {
            throw new IllegalArgumentException(dir + ": no query_hca_cap_general_max or _cur file (the general capability page is needed)");
        }
        return parse(files, dir.toString()).withPages(DEFAULT_BOOT_PAGES, DEFAULT_INIT_PAGES, 0);
    }

    /** The pages the default device asks for (a smaller count than the card's 12,868 init pages: 50 MiB per device is much for tests). */
    static final int DEFAULT_BOOT_PAGES = 8;
    static final int DEFAULT_INIT_PAGES = 32;

    private static CapsProfile parse(Map<String, String> files, String where) {
        Map<Integer, byte[]> max = new TreeMap<>();
        Map<Integer, byte[]> cur = new TreeMap<>();
        byte[] adapter = null;
        for (Map.Entry<String, String> f : files.entrySet()) {
            String source = where + "/" + f.getKey();
            byte[] raw;
            try {
                raw = HexInput.parse(f.getValue(), source, false);
            } catch (HexInput.BadHex e) {
                throw new IllegalArgumentException(e.getMessage(), e);
            }
            if (f.getKey().startsWith(RAW_ADAPTER + ".")) {
                adapter = body(raw, QueryAdapterOut.SIZE, QueryAdapterOut.query_adapter_struct$BYTE_OFFSET, QueryAdapterParamBlock.SIZE, source);
                continue;
            }
            Matcher m = RAW_CAP.matcher(f.getKey());
            if (!m.matches()) continue;
            HcaCapType type = capType(m.group(1));
            if (type == null || layoutOf((int) type.value) == null) {
                throw new IllegalArgumentException(source + ": cap type '" + m.group(1) + "' is not one the device models (general, ethernet_offloads, "
                        + "atomic, roce, flow_table, eswitch_flow_table, eswitch, general_2)");
            }
            byte[] page = body(raw, QueryHcaCapOut.SIZE, QueryHcaCapOut.capability$BYTE_OFFSET, HcaCapUnion.SIZE, source);
            (m.group(2).equals("max") ? max : cur).put((int) type.value, page);
        }
        for (int t : TYPES) {
            max.putIfAbsent(t, new byte[(int) HcaCapUnion.SIZE]);
            cur.putIfAbsent(t, max.get(t).clone());
        }
        if (adapter == null) {
            adapter = new byte[(int) QueryAdapterParamBlock.SIZE];
            MemorySegment a = MemorySegment.ofArray(adapter);
            QueryAdapterParamBlock.ieee_vendor_id$set(a, MELLANOX_OUI);
            QueryAdapterParamBlock.vsd_vendor_id$set(a, MELLANOX_PCI_VENDOR);
        }
        return new CapsProfile(max, cur, adapter, new int[] {DEFAULT_BOOT_PAGES, DEFAULT_INIT_PAGES, 0});
    }

    /** The IEEE OUI and PCI vendor id the ConnectX-4 reports in QUERY_ADAPTER. */
    static final int MELLANOX_OUI = 0x2c9;
    static final int MELLANOX_PCI_VENDOR = 0x15b3;

    /** The body of a command output given whole ({@code outSize} bytes, body at {@code at}) or as the body alone. */
    private static byte[] body(byte[] raw, long outSize, long at, long bodySize, String source) {
        if (raw.length == outSize) return java.util.Arrays.copyOfRange(raw, (int) at, (int) (at + bodySize));
        if (raw.length == bodySize) return raw;
        throw new IllegalArgumentException(source + ": " + raw.length + " bytes; expected the whole output (" + outSize + " bytes) or its body ("
                + bodySize + " bytes)");
    }

    private static HcaCapType capType(String name) {
        try {
            return HcaCapType.valueOf(name.toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    private static String resource(String name) {
        try (InputStream in = CapsProfile.class.getResourceAsStream(name)) {
            return in == null ? null : new String(in.readAllBytes(), StandardCharsets.ISO_8859_1);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void put(PrmLayout.Struct layout, byte[] page, String field, BigInteger value) {
        PrmLayout.Field f = layout.field(field).orElseThrow(() -> new IllegalArgumentException(layout.name() + " has no field " + field));
        MemorySegment s = MemorySegment.ofArray(page);
        if (f.kind() == PrmLayout.Kind.BITS) {
            layout.set(s, 0, f, value.longValue());
        } else {
            // A nested structure or byte string given as its raw bytes, most significant first.
            int n = (int) (f.bitWidth() >>> 3);
            byte[] raw = value.toByteArray();
            for (int i = 0; i < n; i++) {
                int src = raw.length - n + i;
                page[(int) f.byteOffset() + i] = src >= 0 ? raw[src] : 0;
            }
        }
    }

    /** A copy with {@code field} of cap page {@code type} set to {@code value}, in the max page, the current page, or both. */
    public CapsProfile with(int type, String field, long value, boolean inMax, boolean inCurrent) {
        PrmLayout.Struct layout = layoutOf(type);
        if (layout == null) throw new IllegalArgumentException("cap type " + type + " is not modelled");
        Map<Integer, byte[]> m = copy(max);
        Map<Integer, byte[]> c = copy(current);
        if (inMax) put(layout, m.get(type), field, BigInteger.valueOf(value));
        if (inCurrent) put(layout, c.get(type), field, BigInteger.valueOf(value));
        return new CapsProfile(m, c, adapter, pages);
    }

    /** A copy with {@code field} of the general cap page ({@code cmd_hca_cap}) set in both pages. */
    public CapsProfile withGeneral(String field, long value) {
        return with(0, field, value, true, true);
    }

    /**
     * A copy with DEVX turned on, as a ConnectX-5 or later reports it and as rdma-core's DEVX and
     * mlx5_vfio need it: user contexts ({@code log_max_uctx} 8), umems ({@code log_max_umem} 16) and
     * umems of uid 0 ({@code umem_uid_0}, which mlx5_vfio requires). The ConnectX-4 of
     * {@link #connectX4()} (firmware 14.12) has none of them.
     */
    public CapsProfile withDevx() {
        return withGeneral("log_max_uctx", 8).withGeneral("log_max_umem", 16).withGeneral("umem_uid_0", 1);
    }

    private static Map<Integer, byte[]> copy(Map<Integer, byte[]> m) {
        Map<Integer, byte[]> c = new TreeMap<>();
        m.forEach((k, v) -> c.put(k, v.clone()));
        return c;
    }

    /** A copy that asks for these pages through QUERY_PAGES (boot and init before INIT_HCA, regular after). */
    public CapsProfile withPages(int boot, int init, int regular) {
        if (boot < 0 || init < 0 || regular < 0) throw new IllegalArgumentException("page counts must be >= 0");
        return new CapsProfile(max, current, adapter, new int[] {boot, init, regular});
    }

    /** Pages QUERY_PAGES asks for: boot, init, regular. */
    public int bootPages() {
        return pages[0];
    }

    public int initPages() {
        return pages[1];
    }

    public int regularPages() {
        return pages[2];
    }

    /** A fresh copy of the QUERY_ADAPTER block ({@code query_adapter_param_block}, 256 bytes). */
    public byte[] adapter() {
        return adapter.clone();
    }

    /** The board id QUERY_ADAPTER reports ({@code vsd_contd_psid}, up to its first NUL). */
    public String boardId() {
        byte[] psid = new byte[QueryAdapterParamBlock.vsd_contd_psid$LENGTH];
        QueryAdapterParamBlock.vsd_contd_psid$copyTo(MemorySegment.ofArray(adapter), psid);
        int n = 0;
        while (n < psid.length && psid[n] != 0) n++;
        return new String(psid, 0, n, StandardCharsets.US_ASCII);
    }

    /** A fresh copy of the maximum page of {@code type} (4096 bytes), or null. */
    public byte[] max(int type) {
        byte[] b = max.get(type);
        return b == null ? null : b.clone();
    }

    /** A fresh copy of the current page of {@code type}, or null. */
    public byte[] current(int type) {
        byte[] b = current.get(type);
        return b == null ? null : b.clone();
    }
}

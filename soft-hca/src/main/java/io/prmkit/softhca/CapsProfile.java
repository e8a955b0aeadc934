package io.prmkit.softhca;

import io.prmkit.mlx5.AtomicCaps;
import io.prmkit.mlx5.CmdHcaCap;
import io.prmkit.mlx5.CmdHcaCap2;
import io.prmkit.mlx5.FlowTableNicCap;
import io.prmkit.mlx5.HcaCapType;
import io.prmkit.mlx5.HcaCapUnion;
import io.prmkit.mlx5.PerProtocolNetworkingOffloadCaps;
import io.prmkit.mlx5.PrmLayout;
import io.prmkit.mlx5.RoceCap;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.lang.foreign.MemorySegment;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The capability pages the device reports through QUERY_HCA_CAP, maximum and current, per cap
 * type. {@link #connectX4()} is what a real ConnectX-4 reports (shared/reference/cx4-caps.md);
 * tests derive other profiles with {@link #with}. Immutable: {@code with} returns a copy.
 */
public final class CapsProfile {

    /** Cap types the device answers (others: BAD_PARAM). */
    public static final int[] TYPES = {
        (int) HcaCapType.GENERAL.value, (int) HcaCapType.ETHERNET_OFFLOADS.value, (int) HcaCapType.ATOMIC.value,
        (int) HcaCapType.ROCE.value, (int) HcaCapType.FLOW_TABLE.value, (int) HcaCapType.GENERAL_2.value};

    private final Map<Integer, byte[]> max;
    private final Map<Integer, byte[]> current;

    private CapsProfile(Map<Integer, byte[]> max, Map<Integer, byte[]> current) {
        this.max = max;
        this.current = current;
    }

    /** The layout of the capability page of {@code type}, or null for a type the device does not answer. */
    public static PrmLayout.Struct layoutOf(int type) {
        return switch (type) {
            case HcaCapType.GENERAL$VALUE -> CmdHcaCap.layout();
            case HcaCapType.ETHERNET_OFFLOADS$VALUE -> PerProtocolNetworkingOffloadCaps.layout();
            case HcaCapType.ATOMIC$VALUE -> AtomicCaps.layout();
            case HcaCapType.ROCE$VALUE -> RoceCap.layout();
            case HcaCapType.FLOW_TABLE$VALUE -> FlowTableNicCap.layout();
            case HcaCapType.GENERAL_2$VALUE -> CmdHcaCap2.layout();
            default -> null;
        };
    }

    private static final Pattern SECTION = Pattern.compile("## (\\w+) \\(cap type (\\d+), (max|current)\\)");

    /** What one ConnectX-4 (firmware 14.12.1220, one Ethernet port) reported. */
    public static CapsProfile connectX4() {
        Map<Integer, byte[]> max = new TreeMap<>();
        Map<Integer, byte[]> cur = new TreeMap<>();
        for (int t : TYPES) {
            max.put(t, new byte[(int) HcaCapUnion.SIZE]);
            cur.put(t, new byte[(int) HcaCapUnion.SIZE]);
        }
        try (InputStream in = CapsProfile.class.getResourceAsStream("cx4-caps.txt");
                BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
            byte[] page = null;
            PrmLayout.Struct layout = null;
            for (String line; (line = r.readLine()) != null; ) {
                Matcher m = SECTION.matcher(line);
                if (m.matches()) {
                    int type = Integer.parseInt(m.group(2));
                    layout = layoutOf(type);
                    page = (m.group(3).equals("max") ? max : cur).get(type);
                    continue;
                }
                int eq = line.indexOf(" = ");
                if (page == null || eq < 0 || line.startsWith("#")) continue;
                put(layout, page, line.substring(0, eq).trim(), new BigInteger(line.substring(eq + 3).trim().substring(2), 16));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return new CapsProfile(max, cur);
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
        return new CapsProfile(m, c);
    }

    /** A copy with {@code field} of the general cap page ({@code cmd_hca_cap}) set in both pages. */
    public CapsProfile withGeneral(String field, long value) {
        return with(0, field, value, true, true);
    }

    private static Map<Integer, byte[]> copy(Map<Integer, byte[]> m) {
        Map<Integer, byte[]> c = new TreeMap<>();
        m.forEach((k, v) -> c.put(k, v.clone()));
        return c;
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

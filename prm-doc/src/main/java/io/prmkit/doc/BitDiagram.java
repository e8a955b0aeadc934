package io.prmkit.doc;

import io.prmkit.dsl.Words;
import io.prmkit.dsl.ir.Member;
import io.prmkit.dsl.ir.MemberType;
import io.prmkit.dsl.ir.StructLayout;
import io.prmkit.dsl.ir.Variant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * Draws a structure the way the PRM tables do: one row per dword, 32 bit columns numbered 31..0,
 * each field a cell spanning its bits. Members wider than a dword that cover whole dwords become
 * one row spanning those dwords. Inline union alternatives get rows of their own after the rows
 * of the union, labelled with the alternative and its tag condition; a union structure draws
 * each of its members as an alternative.
 */
final class BitDiagram {

    /** One cell's worth of content: bits {@code [start, end)} from the MSB of byte 0. */
    private record Item(long start, long end, Member member, String unionLabel) {
        boolean covers(long bit) {
            return bit >= start && bit < end;
        }
    }

    /** One alternative of a union: its members and the label of its rows. */
    private record Alternative(String union, String label, List<Item> items) {
    }

    private final StructLayout struct;
    private final Function<Member, String> link;
    private final Map<String, String> marks;
    private final StringBuilder sb = new StringBuilder();

    /**
     * @param link  the href for a member's cell (its row in the field table, or a nested structure), or null for none
     * @param marks extra CSS classes by member name (the diff page marks added, moved, ... fields)
     */
    private BitDiagram(StructLayout struct, Function<Member, String> link, Map<String, String> marks) {
        this.struct = struct;
        this.link = link;
        this.marks = marks;
    }

    static String render(StructLayout struct, Function<Member, String> link, Map<String, String> marks) {
        return new BitDiagram(struct, link, marks).render();
    }

    private String render() {
        List<Item> base = new ArrayList<>();
        Map<String, Alternative> alternatives = new LinkedHashMap<>();
        Map<String, long[]> unionRanges = new LinkedHashMap<>();
        for (Member m : struct.members()) {
            if (m.bitWidth() == 0) continue; // flexible arrays: rows of their own below the table's dwords
            String union = null;
            String label = null;
            if (m.variant().isPresent()) {
                Variant v = m.variant().get();
                union = v.union();
                label = v.alternative() + condition(v);
            } else if (struct.isUnion()) {
                union = struct.name().name();
                label = m.name();
            }
            Item item = new Item(m.bitOffset(), m.bitEnd(), m, null);
            if (union == null) {
                base.add(item);
                continue;
            }
            String u = union;
            String l = label;
            alternatives.computeIfAbsent(u + "\u0000" + l, k -> new Alternative(u, l, new ArrayList<>())).items().add(item);
            long[] r = unionRanges.computeIfAbsent(u, k -> new long[] {Long.MAX_VALUE, 0});
            r[0] = Math.min(r[0], m.bitOffset());
            r[1] = Math.max(r[1], m.bitEnd());
        }
        if (!struct.isUnion()) {
            unionRanges.forEach((u, r) -> base.add(new Item(r[0], r[1], null, u)));
        }
        base.sort((a, b) -> Long.compare(a.start(), b.start()));

        long dwords = (struct.sizeBits() + 31) / 32;
        sb.append("<table class=\"bits\" data-struct=\"").append(Html.esc(struct.name().name())).append("\">\n<thead><tr><th class=\"off\">offset</th>");
        for (int b = 31; b >= 0; b--) sb.append("<th>").append(b).append("</th>");
        sb.append("<th class=\"alt\"></th></tr></thead>\n<tbody>\n");
        if (struct.isUnion()) {
            for (Alternative a : alternatives.values()) altRows(a, 0, dwords - 1, a.label());
        } else {
            long d = 0;
            while (d < dwords) {
                long next = row(base, d, dwords, null);
                // The alternatives of a union follow the base row that holds the union's last bit.
                for (Map.Entry<String, long[]> u : unionRanges.entrySet()) {
                    long last = (u.getValue()[1] - 1) / 32;
                    if (last >= d && last < next) {
                        for (Alternative a : alternatives.values()) {
                            if (a.union().equals(u.getKey())) altRows(a, u.getValue()[0] / 32, last, a.union() + ": " + a.label());
                        }
                    }
                }
                d = next;
            }
        }
        for (Member m : struct.members()) {
            if (m.bitWidth() == 0) {
                sb.append("<tr class=\"flex\"><td class=\"off\">").append(Html.hex2(m.byteOffset())).append("..</td>");
                sb.append("<td colspan=\"32\" class=\"").append(cellClass(m)).append("\" data-field=\"").append(Html.esc(m.name())).append("\">");
                label(m, " (flexible array)");
                // a flexible alternative of a union starts at the union's start, over its fixed alternatives
                String alt = m.variant().map(v -> v.union() + ": " + v.alternative() + condition(v)).orElse("");
                sb.append("</td><td class=\"alt\">").append(Html.esc(alt)).append("</td></tr>\n");
            }
        }
        sb.append("</tbody>\n</table>\n");
        return sb.toString();
    }

    /** {@code (insert_vlan == 0x1)}; a union declaration's alternatives name no selector (the member holding the union does). */
    static String condition(Variant v) {
        if (v.tag().isEmpty()) return "";
        return " (" + (v.selector().isEmpty() ? "tag" : v.selector()) + " == " + Html.hex(v.tag().getAsLong()) + ")";
    }

    private void altRows(Alternative a, long first, long last, String label) {
        for (long d = first; d <= last; ) d = row(a.items(), d, last + 1, label);
    }

    /**
     * Draws the row of dword {@code d}: a block row when one item covers it and the next dword
     * whole (the block stops at dword {@code limit}), else a row of bit cells. Returns the dword
     * after the row.
     */
    private long row(List<Item> items, long d, long limit, String alt) {
        long lo = d * 32;
        for (Item it : items) {
            if (it.start() <= lo && it.end() >= lo + 64 && d + 1 < limit) {
                long n = (Math.min(it.end(), limit * 32) - lo) / 32;
                blockRow(it, d, n, alt);
                return d + n;
            }
        }
        // Dwords no item touches (the rest of a union after a short alternative) collapse into one row.
        long next = limit * 32;
        for (Item it : items) {
            if (it.end() > lo && it.start() < next && it.end() > it.start()) next = Math.max(lo, it.start());
        }
        long empty = (next - lo) / 32;
        if (empty >= 2) {
            sb.append("<tr class=\"block").append(alt == null ? "" : " altrow").append("\" data-dword=\"").append(Html.hex2(d * 4))
                    .append("\"><td class=\"off\">").append(Html.hex2(d * 4)).append("..").append(Html.hex2((d + empty - 1) * 4))
                    .append("</td><td class=\"gap\" colspan=\"32\"></td>");
            altCell(alt);
            return d + empty;
        }
        dwordRow(items, d, alt);
        return d + 1;
    }

    private void blockRow(Item it, long d, long n, String alt) {
        sb.append("<tr class=\"").append(alt == null ? "block" : "block altrow").append("\" data-dword=\"").append(Html.hex2(d * 4))
                .append("\"><td class=\"off\">").append(Html.hex2(d * 4)).append("..").append(Html.hex2((d + n - 1) * 4))
                .append("</td>");
        cell(it, 32, d * 32 > it.start() || (d + n) * 32 < it.end(), 31, 0);
        altCell(alt);
    }

    private void dwordRow(List<Item> items, long d, String alt) {
        sb.append("<tr").append(alt == null ? "" : " class=\"altrow\"").append(" data-dword=\"").append(Html.hex2(d * 4))
                .append("\"><td class=\"off\">").append(Html.hex2(d * 4)).append("</td>");
        long lo = d * 32;
        long hi = lo + 32;
        long bit = lo;
        while (bit < hi) {
            Item at = null;
            for (Item it : items) {
                if (it.covers(bit)) {
                    at = it;
                    break;
                }
            }
            if (at == null) {
                long next = hi;
                for (Item it : items) {
                    if (it.start() > bit && it.start() < next && it.end() > it.start()) next = it.start();
                }
                int span = (int) (next - bit);
                sb.append("<td class=\"gap\" colspan=\"").append(span).append("\"></td>");
                bit = next;
                continue;
            }
            long end = Math.min(at.end(), hi);
            int span = (int) (end - bit);
            int hiBit = 31 - (int) (bit - lo);
            cell(at, span, bit > at.start() || end < at.end(), hiBit, hiBit - span + 1);
            bit = end;
        }
        altCell(alt);
    }

    private void altCell(String alt) {
        sb.append("<td class=\"alt\">");
        if (alt != null) sb.append(Html.esc(alt));
        sb.append("</td></tr>\n");
    }

    private void cell(Item it, int span, boolean partial, int hiBit, int loBit) {
        if (it.member() == null) {
            sb.append("<td class=\"union\" colspan=\"").append(span).append("\" data-union=\"").append(Html.esc(it.unionLabel()))
                    .append("\">union ").append(Html.esc(it.unionLabel())).append(partial ? " \u2026" : "").append("</td>");
            return;
        }
        Member m = it.member();
        sb.append("<td class=\"").append(cellClass(m)).append(span <= 3 ? " narrow" : "").append("\" colspan=\"").append(span)
                .append("\" data-field=\"").append(Html.esc(m.name())).append("\" data-hi=\"").append(hiBit)
                .append("\" data-lo=\"").append(loBit).append("\" title=\"").append(Html.esc(m.name() + ": " + m.prmPosition()
                        + (m.doc().text().isEmpty() ? "" : " \u2014 " + m.doc().text()))).append("\">");
        label(m, partial ? " \u2026" : "");
        sb.append("</td>");
    }

    private String cellClass(Member m) {
        String c = m.reserved() ? "rsvd" : "f";
        if (!m.reserved() && m.constraints().mustBeZero()) c += " mbz";
        String mark = marks.get(m.name());
        return mark == null ? c : c + " " + mark;
    }

    private void label(Member m, String suffix) {
        String text = m.reserved() ? "reserved" : m.name();
        String href = link == null || m.reserved() ? null : link.apply(m);
        if (href != null) sb.append("<a href=\"").append(Html.esc(href)).append("\">");
        sb.append(Html.esc(text));
        if (href != null) sb.append("</a>");
        if (!m.reserved() && m.constraints().mustBeZero()) sb.append(" <span class=\"mbzmark\" title=\"must be zero\">0</span>");
        String type = m.reserved() ? "" : typeSuffix(m);
        if (!type.isEmpty()) sb.append("<span class=\"ty\">").append(Html.esc(type)).append("</span>");
        sb.append(Html.esc(suffix));
    }

    /** A short type note for cells that are not plain bit fields: {@code : cqc}, {@code : u64[4]}, {@code : u8[6]}. */
    static String typeSuffix(Member m) {
        return m.type() instanceof MemberType.Bits ? "" : " : " + typeName(m.type());
    }

    static String typeName(MemberType t) {
        if (t instanceof MemberType.Bits b) {
            int w = b.width();
            return w == 8 || w == 16 || w == 32 || w == 64 ? "u" + w : Words.plural(w, "bit");
        }
        if (t instanceof MemberType.Bytes b) return "u8[" + b.length() + "]";
        if (t instanceof MemberType.StructRef s) return s.target().name();
        MemberType.Array a = (MemberType.Array) t;
        return typeName(a.element()) + (a.flexible() ? "[]" : "[" + a.count() + "]");
    }
}

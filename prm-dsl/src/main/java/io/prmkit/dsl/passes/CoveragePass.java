package io.prmkit.dsl.passes;

import io.prmkit.dsl.Diagnostic;
import io.prmkit.dsl.SourceLocation;
import io.prmkit.dsl.ast.StructDecl;
import io.prmkit.dsl.ir.MemberType;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Every bit of a struct is covered exactly once: by a member, by reserved space or by one inline
 * union as a whole. Gaps and overlaps are errors naming the members on both sides; with
 * {@code gaps reserved}, gaps become implicit reserved members. Members of one union alternative
 * must not overlap each other either.
 */
final class CoveragePass implements Pass {
    @Override
    public String name() {
        return "coverage";
    }

    @Override
    public List<Diagnostic> run(Compilation c) {
        List<Diagnostic> diags = new ArrayList<>();
        for (StructDecl s : c.structs()) {
            Layout lay = c.layouts.get(s);
            if (lay == null) continue;
            int before = diags.size();
            alternatives(lay, diags);
            if (!s.union()) cover(lay, diags);
            if (diags.size() > before) c.broken.add(s);
        }
        return diags;
    }

    private static void cover(Layout lay, List<Diagnostic> diags) {
        StructDecl s = lay.decl;
        List<Layout.Span> spans = new ArrayList<>(lay.spans);
        spans.sort(Comparator.comparingLong(Layout.Span::start)); // stable: equal starts keep declaration order
        Map<Layout.LaidMember, List<Layout.LaidMember>> fillers = new IdentityHashMap<>();
        List<Layout.LaidMember> tail = new ArrayList<>();
        long covered = 0;
        Layout.Span last = null;
        for (Layout.Span sp : spans) {
            if (sp.start() > covered) {
                if (s.gapsReserved()) {
                    fillers.put(sp.first(), fill(covered, sp.start(), sp.location()));
                } else {
                    gap(covered, sp.start(), last, sp, s, diags);
                }
            } else if (sp.start() < covered) {
                diags.add(Diagnostic.error(sp.location(), "'" + sp.name() + "' overlaps '" + last.name() + "' at "
                                + Bits.span(sp.start(), Math.min(covered, sp.end())),
                        new Diagnostic.Related(last.location(), "'" + last.name() + "' is declared here")));
            }
            if (sp.end() > covered) {
                covered = sp.end();
                last = sp;
            }
        }
        if (covered < lay.sizeBits) {
            if (s.gapsReserved()) {
                tail.addAll(fill(covered, lay.sizeBits, s.name().location()));
            } else {
                gap(covered, lay.sizeBits, last, null, s, diags);
            }
        }
        if (!fillers.isEmpty() || !tail.isEmpty()) {
            List<Layout.LaidMember> merged = new ArrayList<>();
            for (Layout.LaidMember m : lay.members) {
                if (m == lay.flexible) merged.addAll(tail);
                merged.addAll(fillers.getOrDefault(m, List.of()));
                merged.add(m);
            }
            if (lay.flexible == null) merged.addAll(tail);
            lay.members.clear();
            lay.members.addAll(merged);
        }
    }

    private static void gap(long from, long to, Layout.Span before, Layout.Span after, StructDecl s, List<Diagnostic> diags) {
        String where = Bits.span(from, to);
        String between = before == null && after == null ? ""
                : before == null ? " (before '" + after.name() + "')"
                : after == null ? " (after '" + before.name() + "', up to the size of " + s.kindWord() + " '" + s.name().text() + "')"
                : " (between '" + before.name() + "' and '" + after.name() + "')";
        String hint = (from >>> 5) == ((to - 1) >>> 5)
                ? "; if they are reserved, write '" + Bits.span(from, to) + " reserved;'"
                : "; if they are reserved, write 'reserved : " + Bits.hex(to - from) + ";'";
        SourceLocation at = after != null ? after.location() : s.name().location();
        List<Diagnostic.Related> related = new ArrayList<>();
        if (before != null) related.add(new Diagnostic.Related(before.location(), "'" + before.name() + "' ends at " + Bits.at(from - 1)));
        diags.add(new Diagnostic(io.prmkit.dsl.Severity.ERROR, at, (where.startsWith("bytes") ? "" : "bits ") + where + " are not covered" + between + hint, related));
    }

    /** Implicit reserved space for bits [from, to), named as the kernel would name it. */
    private static List<Layout.LaidMember> fill(long from, long to, SourceLocation at) {
        long width = to - from;
        MemberType type = width <= 64 ? new MemberType.Bits((int) width) : reservedSpan(width, from);
        return List.of(new Layout.LaidMember(null, "reserved_at_" + Long.toHexString(from), from, type, true, at));
    }

    static MemberType reservedSpan(long width, long bitOff) {
        if (bitOff % 8 == 0 && width % 8 == 0) return new MemberType.Bytes((int) (width / 8));
        return new MemberType.Array(new MemberType.Bits(1), (int) width, false);
    }

    /** Within each union alternative, members must not overlap. */
    private static void alternatives(Layout lay, List<Diagnostic> diags) {
        Map<Layout.UnionInfo, Map<String, List<Layout.LaidMember>>> groups = new IdentityHashMap<>();
        for (Layout.LaidMember m : lay.members) {
            if (m.union == null || m.directAlternative) continue;
            groups.computeIfAbsent(m.union, k -> new LinkedHashMap<>()).computeIfAbsent(m.alternative, k -> new ArrayList<>()).add(m);
        }
        for (Map<String, List<Layout.LaidMember>> byAlt : groups.values()) {
            for (List<Layout.LaidMember> ms : byAlt.values()) {
                List<Layout.LaidMember> sorted = new ArrayList<>(ms);
                sorted.sort(Comparator.comparingLong(m -> m.bitOffset));
                Layout.LaidMember reach = null;
                for (Layout.LaidMember m : sorted) {
                    if (reach != null && m.bitOffset < reach.end()) {
                        diags.add(Diagnostic.error(m.location, "'" + m.name + "' overlaps '" + reach.name + "' at "
                                        + Bits.span(m.bitOffset, Math.min(reach.end(), m.end())),
                                new Diagnostic.Related(reach.location, "'" + reach.name + "' is declared here")));
                    }
                    if (reach == null || m.end() > reach.end()) reach = m;
                }
            }
        }
    }
}

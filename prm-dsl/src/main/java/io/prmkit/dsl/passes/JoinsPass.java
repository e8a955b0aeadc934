package io.prmkit.dsl.passes;

import io.prmkit.dsl.Diagnostic;
import io.prmkit.dsl.SourceLocation;
import io.prmkit.dsl.ast.Attr;
import io.prmkit.dsl.ast.EnumDecl;
import io.prmkit.dsl.ast.JoinDecl;
import io.prmkit.dsl.ast.QName;
import io.prmkit.dsl.ast.SpecFile;
import io.prmkit.dsl.ast.StructDecl;
import io.prmkit.dsl.ir.Access;
import io.prmkit.dsl.ir.Doc;
import io.prmkit.dsl.ir.EnumLayout;
import io.prmkit.dsl.ir.Join;
import io.prmkit.dsl.ir.QualifiedName;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Joined fields: each part is a bit field of the same structure (not reserved, not an array), named
 * once; written ranges {@code [hi:lo]} are as wide as their part, within a 64-bit value, and neither
 * overlap nor leave a gap between parts (bits below the lowest part are zero: an aligned address); the
 * whole value is at most 64 bits; all parts have one access (the whole value's setter goes where the
 * parts' setters are); the join's name is not a member's or another join's; an {@code enum} names an
 * enum whose values fit the whole value. Without ranges the parts are concatenated down to bit 0; with
 * no parts at all ({@code join NAME;}) they are {@code NAME_high} and {@code NAME_low}.
 */
final class JoinsPass implements Pass {
    @Override
    public String name() {
        return "joins";
    }

    @Override
    public List<Diagnostic> run(Compilation c) {
        List<Diagnostic> diags = new ArrayList<>();
        for (StructDecl s : c.structs()) {
            Layout lay = c.layouts.get(s);
            if (lay == null || s.joins().isEmpty()) continue;
            int before = diags.size();
            Map<String, Layout.LaidMember> fields = new HashMap<>();
            for (Layout.LaidMember m : lay.members) fields.putIfAbsent(m.name, m);
            Map<String, JoinDecl> names = new HashMap<>();
            for (JoinDecl j : s.joins()) {
                JoinDecl first = names.putIfAbsent(j.name().text(), j);
                if (first != null) {
                    diags.add(Diagnostic.error(j.name().location(), "duplicate join '" + j.name().text() + "'",
                            new Diagnostic.Related(first.name().location(), "first declared here")));
                    continue;
                }
                Layout.LaidMember clash = fields.get(j.name().text());
                if (clash != null) {
                    diags.add(Diagnostic.error(j.name().location(), "join '" + j.name().text() + "' has the name of a member of " + s.kindWord()
                            + " '" + s.name().text() + "'", new Diagnostic.Related(clash.location, "the member is declared here")));
                    continue;
                }
                Join join = new One(c, c.fileOf.get(s), s, fields, j, diags).resolve();
                if (join != null) lay.joins.add(join);
            }
            if (diags.stream().skip(before).anyMatch(Diagnostic::isError)) c.broken.add(s);
        }
        return diags;
    }

    /** One join being resolved; reports into {@code diags}. */
    private static final class One {
        final Compilation c;
        final SpecFile file;
        final StructDecl s;
        final Map<String, Layout.LaidMember> fields;
        final JoinDecl j;
        final List<Diagnostic> diags;
        final String what;

        One(Compilation c, SpecFile file, StructDecl s, Map<String, Layout.LaidMember> fields, JoinDecl j, List<Diagnostic> diags) {
            this.c = c;
            this.file = file;
            this.s = s;
            this.fields = fields;
            this.j = j;
            this.diags = diags;
            this.what = "join '" + j.name().text() + "'";
        }

        Join resolve() {
            List<JoinDecl.Part> written = j.parts();
            List<String> names = new ArrayList<>();
            List<SourceLocation> at = new ArrayList<>();
            if (written.isEmpty()) {
                for (String suffix : List.of("_high", "_low")) {
                    names.add(j.name().text() + suffix);
                    at.add(j.name().location());
                }
            } else {
                for (JoinDecl.Part p : written) {
                    names.add(p.field().text());
                    at.add(p.field().location());
                }
            }
            if (names.size() < 2) {
                error(j.name().location(), what + " has one part; a join puts two or more fields together");
                return null;
            }
            boolean ranged = written.stream().anyMatch(p -> p.bits().isPresent());
            if (ranged && written.stream().anyMatch(p -> p.bits().isEmpty())) {
                JoinDecl.Part bare = written.stream().filter(p -> p.bits().isEmpty()).findFirst().get();
                error(bare.field().location(), what + ": give every part its bits of the whole value ([hi:lo]), or none");
                return null;
            }
            List<Layout.LaidMember> members = new ArrayList<>();
            Map<String, Integer> seen = new HashMap<>();
            for (int i = 0; i < names.size(); i++) {
                String n = names.get(i);
                Layout.LaidMember m = fields.get(n);
                if (seen.putIfAbsent(n, i) != null) {
                    error(at.get(i), what + " names '" + n + "' twice");
                    return null;
                }
                if (m == null) {
                    error(at.get(i), what + ": '" + n + "' is not a field of " + s.kindWord() + " '" + s.name().text() + "'"
                            + (written.isEmpty() ? " ('join " + j.name().text() + ";' joins " + names.get(0) + " and " + names.get(1) + ")" : ""));
                    return null;
                }
                if (!m.isScalar() || m.reserved) {
                    error(at.get(i), what + ": part '" + n + "' is " + (m.reserved ? "reserved space" : "not a bit field"),
                            new Diagnostic.Related(m.location, "'" + n + "' is declared here"));
                    return null;
                }
                members.add(m);
            }
            Access access = members.get(0).access;
            for (Layout.LaidMember m : members) {
                if (m.access.writable() != access.writable()) {
                    error(j.name().location(), what + ": parts '" + members.get(0).name + "' (" + word(members.get(0).access) + ") and '" + m.name + "' ("
                            + word(m.access) + ") differ in who writes them");
                    return null;
                }
            }

            List<Join.Part> parts = new ArrayList<>();
            if (ranged) {
                List<long[]> spans = new ArrayList<>(); // hi, lo per part
                for (int i = 0; i < written.size(); i++) {
                    var r = written.get(i).bits().get();
                    long hi = r.hi().value();
                    long lo = r.lo().map(x -> x.value()).orElse(hi);
                    int w = (int) members.get(i).type.bitWidth();
                    if (Long.compareUnsigned(hi, lo) < 0) {
                        error(r.location(), what + ": " + r + " has its high bit below its low bit; write [hi:lo]");
                        return null;
                    }
                    if (Long.compareUnsigned(hi, 63) > 0) {
                        error(r.location(), what + ": " + r + " reaches past bit 63; the whole value is at most 64 bits");
                        return null;
                    }
                    if (hi - lo + 1 != w) {
                        error(r.location(), what + ": " + r + " is " + (hi - lo + 1) + " bits, but '" + members.get(i).name + "' has " + w);
                        return null;
                    }
                    for (int k = 0; k < spans.size(); k++) {
                        long[] o = spans.get(k);
                        if (lo <= o[0] && o[1] <= hi) { // the two ranges intersect
                            error(r.location(), what + ": " + r + " of '" + members.get(i).name + "' overlaps " + written.get(k).bits().get() + " of '"
                                    + members.get(k).name + "'", new Diagnostic.Related(written.get(k).location(), "'" + members.get(k).name + "' is here"));
                            return null;
                        }
                    }
                    if (i > 0 && lo > spans.get(i - 1)[0]) {
                        error(r.location(), what + ": list the parts from the most significant; " + r + " of '" + members.get(i).name + "' is above "
                                + written.get(i - 1).bits().get());
                        return null;
                    }
                    if (i > 0 && hi + 1 != spans.get(i - 1)[1]) {
                        error(r.location(), what + ": bits " + (spans.get(i - 1)[1] - 1) + ".." + (hi + 1) + " of the value are in no part, between '"
                                + members.get(i - 1).name + "' and '" + members.get(i).name + "' (a part missing?)");
                        return null;
                    }
                    spans.add(new long[] {hi, lo});
                    parts.add(new Join.Part(members.get(i).name, w, (int) lo));
                }
            } else {
                long total = 0;
                for (Layout.LaidMember m : members) total += m.type.bitWidth();
                if (total > 64) {
                    error(j.name().location(), what + " is " + total + " bits; a joined value is at most 64 bits");
                    return null;
                }
                long shift = total;
                for (Layout.LaidMember m : members) {
                    shift -= m.type.bitWidth();
                    parts.add(new Join.Part(m.name, (int) m.type.bitWidth(), (int) shift));
                }
            }
            int width = parts.get(0).shift() + parts.get(0).width();

            Optional<QualifiedName> enumType = Optional.empty();
            String ref = "";
            String since = "";
            for (Attr a : j.attrs()) {
                if (a instanceof Attr.EnumAttr e) {
                    EnumLayout el = enumOf(e.type(), width);
                    if (el == null) return null;
                    enumType = Optional.of(el.name());
                } else if (a instanceof Attr.RefAttr r) {
                    ref = r.text();
                } else if (a instanceof Attr.SinceAttr si) {
                    since = si.text();
                } else {
                    error(a.location(), "'" + a.keyword() + "' does not apply to a join (its parts carry their own attributes); a join takes enum, ref and since");
                    return null;
                }
            }
            return new Join(j.name().text(), width, parts, enumType, new Doc(j.doc(), ref, since), j.location());
        }

        private EnumLayout enumOf(QName q, int width) {
            Compilation.Lookup l = c.lookup(q, file);
            if (!l.found()) {
                if (l.miss() != Compilation.Miss.REPORTED) {
                    error(q.location(), l.miss() == Compilation.Miss.UNKNOWN ? "unknown enum '" + q.dotted() + "'" : l.error());
                }
                return null;
            }
            if (!(l.decl() instanceof EnumDecl e) || e.flags()) {
                error(q.location(), "'" + q.dotted() + "' is " + Compilation.article(l.decl().kindWord()) + ", not an enum");
                return null;
            }
            EnumLayout el = c.enums.get(e);
            if (el == null) return null;
            if (el.width() != 0 && el.width() != width) {
                error(q.location(), "enum '" + q.dotted() + "' is " + el.width() + " bits wide but " + what + " has " + width + " bits");
                return null;
            }
            for (EnumLayout.EnumValue v : el.values()) {
                if (width < 64 && Long.compareUnsigned(v.value(), 1L << width) >= 0) {
                    error(q.location(), "value " + q.dotted() + "." + v.name() + " = 0x" + Long.toHexString(v.value()) + " does not fit the " + width + "-bit " + what,
                            new Diagnostic.Related(v.location(), "'" + v.name() + "' is declared here"));
                    return null;
                }
            }
            return el;
        }

        private static String word(Access a) {
            return a.name().toLowerCase(java.util.Locale.ROOT);
        }

        private void error(SourceLocation where, String message, Diagnostic.Related... related) {
            diags.add(Diagnostic.error(where, message, related));
        }
    }
}

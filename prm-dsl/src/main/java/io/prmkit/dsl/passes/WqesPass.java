package io.prmkit.dsl.passes;

import io.prmkit.dsl.Diagnostic;
import io.prmkit.dsl.SourceLocation;
import io.prmkit.dsl.ast.Decl;
import io.prmkit.dsl.ast.EnumDecl;
import io.prmkit.dsl.ast.ExprNode;
import io.prmkit.dsl.ast.QName;
import io.prmkit.dsl.ast.RuleDecl;
import io.prmkit.dsl.ast.SpecFile;
import io.prmkit.dsl.ast.StructDecl;
import io.prmkit.dsl.ast.WqeDecl;
import io.prmkit.dsl.ir.Doc;
import io.prmkit.dsl.ir.Expr;
import io.prmkit.dsl.ir.Rule;
import io.prmkit.dsl.ir.WqeLayout;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * WQEs: segment structures resolve; names (givens, segments, alternatives) are unique in a WQE; the
 * repeated segment is last; inline bytes
 * start after the previous segment or at a byte-aligned member of an earlier one; every expression
 * reads only what is known where it is evaluated (the size and match: the leading fixed segments
 * and givens; a segment's condition and size: the fixed segments before it and, for an
 * alternative or a sized structure, its own fields; a rule: any segment, at most one repeated
 * alternative, givens, lookups and the built-ins {@code count}, {@code bytes} and {@code header_end}).
 */
final class WqesPass implements Pass {
    @Override
    public String name() {
        return "wqes";
    }

    private final List<Diagnostic> diags = new ArrayList<>();
    private Compilation c;

    @Override
    public List<Diagnostic> run(Compilation c) {
        this.c = c;
        diags.clear();
        for (Decl d : c.decls()) {
            if (d instanceof WqeDecl w) {
                int before = diags.size();
                WqeLayout l = wqe(w);
                if (l != null && diags.stream().skip(before).noneMatch(Diagnostic::isError)) c.wqes.put(w, l);
            }
        }
        return List.copyOf(diags);
    }

    /** What a name in a WQE stands for. */
    private record Seg(String name, WqeDecl.Kind kind, Layout layout, int index, boolean fixed, boolean alternative, SourceLocation location) {
    }

    private record GivenInfo(WqeDecl.Given decl, Layout lookup) {
    }

    private WqeLayout wqe(WqeDecl w) {
        SpecFile file = c.fileOf.get(w);
        String what = "wqe '" + w.name().text() + "'";
        Map<String, SourceLocation> names = new HashMap<>();
        Map<String, GivenInfo> givens = new LinkedHashMap<>();
        List<WqeLayout.Given> givenIr = new ArrayList<>();
        boolean ok = true;
        for (WqeDecl.Given g : w.givens()) {
            if (!unique(names, g.name().text(), g.name().location())) {
                ok = false;
                continue;
            }
            Layout lookup = null;
            if (g.lookup().isPresent()) {
                lookup = structure(g.lookup().get(), file, "the structure given '" + g.name().text() + "' looks up");
                if (lookup == null) {
                    ok = false;
                    continue;
                }
            }
            Optional<io.prmkit.dsl.ir.QualifiedName> enumName = Optional.empty();
            if (g.enumType().isPresent()) {
                QName q = g.enumType().get();
                Compilation.Lookup l = c.lookup(q, file);
                if (!l.found() || !(l.decl() instanceof EnumDecl ed) || ed.flags()) {
                    error(q.location(), !l.found() && l.miss() != Compilation.Miss.UNKNOWN ? l.error()
                            : "'" + q.dotted() + "' is " + (l.found() ? Compilation.article(l.decl().kindWord()) + ", not an enum" : "not a known enum"));
                    ok = false;
                    continue;
                }
                if (lookup != null) {
                    error(q.location(), "given '" + g.name().text() + "' looks up a structure; it has no enum (its fields have theirs)");
                    ok = false;
                    continue;
                }
                enumName = Optional.of(c.qualifiedName(ed));
            }
            givens.put(g.name().text(), new GivenInfo(g, lookup));
            givenIr.add(new WqeLayout.Given(g.name().text(), Optional.ofNullable(lookup).map(x -> c.qualifiedName(x.decl)), enumName, g.doc()));
        }

        // segments: names, structures and order
        Map<String, Seg> segs = new LinkedHashMap<>();
        List<WqeDecl.Segment> decls = w.segments();
        if (decls.isEmpty()) {
            error(w.name().location(), what + " has no segments: write 'NAME : STRUCT;' for each, the control segment first");
            return null;
        }
        int firstOpen = decls.size();
        for (int i = 0; i < decls.size(); i++) {
            WqeDecl.Segment s = decls.get(i);
            boolean fixed = s.kind() == WqeDecl.Kind.STRUCT && s.when().isEmpty() && s.size().isEmpty();
            if (!fixed && firstOpen == decls.size()) firstOpen = i;
            if (s.kind() == WqeDecl.Kind.REPEATED && i != decls.size() - 1) {
                error(s.location(), "repeated segment '" + s.name().text() + "' runs to the end of the WQE, so it must be the last segment of " + what);
                ok = false;
            }
            if (!unique(names, s.name().text(), s.name().location())) {
                ok = false;
                continue;
            }
            Layout lay = null;
            if (s.kind() == WqeDecl.Kind.STRUCT) {
                lay = structure(s.type().get(), file, "segment '" + s.name().text() + "'");
                if (lay == null) ok = false;
            }
            segs.put(s.name().text(), new Seg(s.name().text(), s.kind(), lay, i, fixed && i < firstOpen, false, s.location()));
            if (s.kind() == WqeDecl.Kind.REPEATED) {
                if (s.alternatives().isEmpty()) {
                    error(s.location(), "repeated segment '" + s.name().text() + "' has no alternatives: write 'NAME : STRUCT [when CONDITION];' inside");
                    ok = false;
                }
                boolean open = false;
                for (WqeDecl.Segment a : s.alternatives()) {
                    if (open) {
                        error(a.location(), "alternative '" + a.name().text() + "' is never taken: an earlier alternative of '" + s.name().text()
                                + "' has no 'when' and takes every element");
                        ok = false;
                    }
                    if (a.when().isEmpty()) open = true;
                    if (!unique(names, a.name().text(), a.name().location())) {
                        ok = false;
                        continue;
                    }
                    Layout al = structure(a.type().get(), file, "alternative '" + a.name().text() + "'");
                    if (al == null) ok = false;
                    segs.put(a.name().text(), new Seg(a.name().text(), WqeDecl.Kind.STRUCT, al, i, false, true, a.location()));
                }
            }
        }
        if (!ok) return null;

        // expressions
        Optional<Expr> size = Optional.empty();
        if (w.size().isEmpty()) {
            error(w.name().location(), what + " needs 'size EXPR \"message\";': the bytes the device reads (e.g. ctrl.ds * 16)");
            ok = false;
        } else {
            size = Optional.ofNullable(new Resolver(file, segs, givens, Scope.LEADING, null, -1).resolve(w.size().get()));
            if (size.isEmpty()) ok = false;
        }
        Optional<Expr> match = Optional.empty();
        if (w.match().isPresent()) {
            match = Optional.ofNullable(new Resolver(file, segs, givens, Scope.LEADING, null, -1).resolve(w.match().get()));
            if (match.isEmpty()) ok = false;
        }
        List<WqeLayout.Segment> segIr = new ArrayList<>();
        for (int i = 0; i < decls.size(); i++) {
            WqeDecl.Segment s = decls.get(i);
            WqeLayout.Segment ir = segment(s, file, segs, givens, i);
            if (ir == null) ok = false;
            else segIr.add(ir);
        }
        List<Rule> rules = new ArrayList<>();
        Map<String, RuleDecl> ruleNames = new HashMap<>();
        for (RuleDecl r : w.rules()) {
            RuleDecl first = ruleNames.putIfAbsent(r.name().text(), r);
            if (first != null) {
                error(r.name().location(), "duplicate rule '" + r.name().text() + "'", new Diagnostic.Related(first.name().location(), "first declared here"));
                ok = false;
                continue;
            }
            Resolver res = new Resolver(file, segs, givens, Scope.RULE, null, -1);
            Expr e = res.resolve(r.expr());
            if (e == null) {
                ok = false;
                continue;
            }
            if (res.alternatives.size() > 1) {
                error(r.location(), "rule '" + r.name().text() + "' reads fields of alternatives " + String.join(" and ", res.alternatives)
                        + "; a rule holds for each element of one alternative: write one rule for each");
                ok = false;
                continue;
            }
            rules.add(new Rule(r.name().text(), e, r.message(), r.location()));
        }
        if (!ok) return null;
        return new WqeLayout(c.qualifiedName(w), size.get(), w.sizeMessage(), match, givenIr, segIr, rules, new Doc(w.doc(), w.ref(), w.since()),
                w.location());
    }

    private WqeLayout.Segment segment(WqeDecl.Segment s, SpecFile file, Map<String, Seg> segs, Map<String, GivenInfo> givens, int index) {
        Seg self = segs.get(s.name().text());
        switch (s.kind()) {
            case STRUCT -> {
                Optional<Expr> size = s.size().map(x -> new Resolver(file, segs, givens, Scope.SEGMENT, self, index).resolve(x));
                Optional<Expr> when = s.when().map(x -> new Resolver(file, segs, givens, Scope.SEGMENT, self, index).resolve(x));
                if (size.isPresent() && size.get() == null || when.isPresent() && when.get() == null) return null;
                return new WqeLayout.Segment(s.name().text(), WqeLayout.Kind.STRUCT, Optional.of(c.qualifiedName(self.layout.decl)),
                        size.map(x -> x), Optional.empty(), when.map(x -> x), List.of(), s.doc(), s.location());
            }
            case INLINE -> {
                Expr size = new Resolver(file, segs, givens, Scope.SEGMENT, null, index).resolve(s.size().get());
                Optional<Expr> when = s.when().map(x -> new Resolver(file, segs, givens, Scope.SEGMENT, null, index).resolve(x));
                Optional<WqeLayout.Anchor> at = Optional.empty();
                if (s.at().isPresent()) {
                    QName q = s.at().get();
                    Seg base = q.isSimple() ? null : segs.get(q.prefix());
                    if (base == null || base.alternative || base.kind != WqeDecl.Kind.STRUCT || base.index >= index) {
                        error(q.location(), "inline bytes start 'at' a member of an earlier segment (SEGMENT.MEMBER); '" + q.dotted() + "' is not one");
                        return null;
                    }
                    Layout.LaidMember m = member(base.layout, q.last());
                    if (m == null || m.bitOffset % 8 != 0) {
                        error(q.location(), m == null ? "'" + q.last() + "' is not a member of " + base.layout.decl.name().text() + " (segment '" + base.name + "')"
                                : "'" + q.dotted() + "' does not start on a byte");
                        return null;
                    }
                    at = Optional.of(new WqeLayout.Anchor(base.name, m.name, m.bitOffset / 8));
                }
                if (size == null || when.isPresent() && when.get() == null) return null;
                return new WqeLayout.Segment(s.name().text(), WqeLayout.Kind.INLINE, Optional.empty(), Optional.of(size), at, when.map(x -> x),
                        List.of(), s.doc(), s.location());
            }
            default -> {
                List<WqeLayout.Segment> alts = new ArrayList<>();
                for (WqeDecl.Segment a : s.alternatives()) {
                    WqeLayout.Segment ir = segment(a, file, segs, givens, index);
                    if (ir == null) return null;
                    alts.add(ir);
                }
                return new WqeLayout.Segment(s.name().text(), WqeLayout.Kind.REPEATED, Optional.empty(), Optional.empty(), Optional.empty(),
                        Optional.empty(), alts, s.doc(), s.location());
            }
        }
    }

    /** Where an expression is evaluated, which decides what it may read. */
    private enum Scope { LEADING, SEGMENT, RULE }

    private final class Resolver extends ExprResolver {
        final SpecFile file;
        final Map<String, Seg> segs;
        final Map<String, GivenInfo> givens;
        final Scope scope;
        /** The segment whose own fields bare names read (a sized structure or an alternative), or null. */
        final Seg own;
        /** The index of the segment being placed (SEGMENT scope). */
        final int index;
        final Set<String> alternatives = new java.util.LinkedHashSet<>();

        Resolver(SpecFile file, Map<String, Seg> segs, Map<String, GivenInfo> givens, Scope scope, Seg own, int index) {
            this.file = file;
            this.segs = segs;
            this.givens = givens;
            this.scope = scope;
            this.own = own;
            this.index = index;
        }

        @Override
        Expr name(QName q) {
            if (q.isSimple() && own != null && own.layout != null) {
                Layout.LaidMember m = member(own.layout, q.last());
                if (m != null) return field(own, m, q);
            }
            if (!q.isSimple() && q.parts().size() == 2 && segs.containsKey(q.prefix())) {
                Seg s = segs.get(q.prefix());
                if (s.layout == null) {
                    error(q.location(), "'" + s.name + "' is " + (s.kind == WqeDecl.Kind.INLINE ? "inline bytes" : "a repeated segment")
                            + " and has no fields; " + (s.kind == WqeDecl.Kind.INLINE ? "bytes(" + s.name + ")" : "count(" + s.name + ")") + " gives its size");
                    return null;
                }
                if (!readable(s, q.location())) return null;
                Layout.LaidMember m = member(s.layout, q.last());
                if (m == null) {
                    error(q.location(), "'" + q.last() + "' is not a field of " + s.layout.decl.name().text() + " (segment '" + s.name + "')");
                    return null;
                }
                return field(s, m, q);
            }
            if (q.isSimple() && givens.containsKey(q.last())) {
                GivenInfo g = givens.get(q.last());
                if (g.lookup != null) {
                    error(q.location(), "given '" + q.last() + "' looks up a " + g.lookup.decl.name().text() + " by key: write " + q.last() + "(KEY).FIELD");
                    return null;
                }
                if (scope == Scope.SEGMENT) {
                    error(q.location(), "a segment's condition or size reads the WQE only, not given '" + q.last() + "' (rules may)");
                    return null;
                }
                return new Expr.GivenValue(q.last());
            }
            Compilation.Value v = c.value(q, file, null);
            if (v.found()) return new Expr.Literal(v.value(), q.dotted());
            if (v.miss() != Compilation.Miss.REPORTED) {
                error(q.location(), v.miss() == Compilation.Miss.UNKNOWN
                        ? "unknown name '" + q.dotted() + "': not SEGMENT.FIELD, a given, a constant or an enum value" : v.error());
            }
            return null;
        }

        /** Whether this scope may read segment {@code s}'s fields (reports why not). */
        private boolean readable(Seg s, SourceLocation at) {
            String why = null;
            if (scope == Scope.LEADING && !s.fixed) {
                why = "the WQE's size and match read only the structures before the first optional, inline or repeated segment";
            } else if (scope == Scope.SEGMENT && (s.alternative || s.index >= index || !s.fixed && s != own)) {
                why = "a segment's condition and size read only structures placed before it that are always there (and its own fields)";
            }
            if (why != null) {
                error(at, "'" + s.name + "' cannot be read here: " + why);
                return false;
            }
            return true;
        }

        private Expr field(Seg s, Layout.LaidMember m, QName q) {
            if (!m.isScalar()) {
                error(q.location(), "a rule can only use bit fields, and '" + m.name + "' is not one",
                        new Diagnostic.Related(m.location, "'" + m.name + "' is declared here"));
                return null;
            }
            if (s.alternative && scope == Scope.RULE) alternatives.add(s.name);
            return new Expr.SegmentField(s.name, m.name);
        }

        @Override
        Expr call(ExprNode.Call k) {
            String f = k.function().text();
            GivenInfo g = givens.get(f);
            if (g != null && g.lookup != null) {
                if (scope != Scope.RULE) {
                    error(k.location(), "only rules look up given '" + f + "'");
                    return null;
                }
                if (k.args().size() != 1 || k.field().isEmpty()) {
                    error(k.location(), "a lookup takes one key and names a field: " + f + "(KEY).FIELD");
                    return null;
                }
                Layout.LaidMember m = member(g.lookup, k.field().get().text());
                if (m == null || !m.isScalar()) {
                    error(k.field().get().location(), "'" + k.field().get().text() + "' is not a bit field of " + g.lookup.decl.name().text()
                            + " (what given '" + f + "' looks up)");
                    return null;
                }
                Expr key = resolve(k.args().get(0));
                return key == null ? null : new Expr.Lookup(f, key, m.name);
            }
            Expr.Function fn = null;
            for (Expr.Function x : Expr.Function.values()) if (x.word.equals(f)) fn = x;
            if (fn == null) {
                error(k.location(), "unknown function '" + f + "': a WQE's rules call count(SEGMENT), bytes(SEGMENT), header_end(SEGMENT, LEVEL)"
                        + " or a given that looks up a structure");
                return null;
            }
            if (scope != Scope.RULE) {
                error(k.location(), "only rules call " + f + "()");
                return null;
            }
            int arity = fn == Expr.Function.HEADER_END ? 2 : 1;
            if (k.args().size() != arity || k.field().isPresent()) {
                error(k.location(), f + " takes " + (arity == 1 ? "a segment: " + f + "(SEGMENT)" : "inline bytes and a level: header_end(SEGMENT, LEVEL)"));
                return null;
            }
            ExprNode a = k.args().get(0);
            Seg s = a instanceof ExprNode.NameRef r && r.name().isSimple() ? segs.get(r.name().last()) : null;
            boolean fits = s != null && switch (fn) {
                case COUNT -> s.kind == WqeDecl.Kind.REPEATED || s.alternative;
                default -> s.kind == WqeDecl.Kind.INLINE;
            };
            if (!fits) {
                error(a.location(), f + "() takes " + (fn == Expr.Function.COUNT ? "a repeated segment or one of its alternatives" : "an inline segment")
                        + (s == null ? "" : "; '" + s.name + "' is not one"));
                return null;
            }
            Optional<Expr> arg = Optional.empty();
            if (fn == Expr.Function.HEADER_END) {
                Expr level = resolve(k.args().get(1));
                if (level == null) return null;
                arg = Optional.of(level);
            }
            return new Expr.Builtin(fn, s.name, arg);
        }
    }

    private boolean unique(Map<String, SourceLocation> names, String name, SourceLocation at) {
        SourceLocation first = names.putIfAbsent(name, at);
        if (first == null) return true;
        error(at, "'" + name + "' is already a name in this WQE", new Diagnostic.Related(first, "first declared here"));
        return false;
    }

    private Layout structure(QName q, SpecFile file, String what) {
        Compilation.Lookup l = c.lookup(q, file);
        if (!l.found()) {
            if (l.miss() != Compilation.Miss.REPORTED) {
                error(q.location(), l.miss() == Compilation.Miss.UNKNOWN ? "unknown structure '" + q.dotted() + "' (" + what + ")" : l.error());
            }
            return null;
        }
        if (!(l.decl() instanceof StructDecl s)) {
            error(q.location(), "'" + q.dotted() + "' is " + Compilation.article(l.decl().kindWord()) + ", not a structure (" + what + ")");
            return null;
        }
        Layout lay = c.layouts.get(s);
        if (lay == null || c.broken.contains(s)) return null; // its own errors are reported
        return lay;
    }

    private static Layout.LaidMember member(Layout l, String name) {
        for (Layout.LaidMember m : l.members) {
            if (m.name.equals(name) && !m.reserved) return m;
        }
        return null;
    }

    private void error(SourceLocation at, String message, Diagnostic.Related... related) {
        diags.add(Diagnostic.error(at, message, related));
    }
}

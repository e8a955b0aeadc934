package io.prmkit.dsl.passes;

import io.prmkit.dsl.Diagnostic;
import io.prmkit.dsl.SourceLocation;
import io.prmkit.dsl.ast.Attr;
import io.prmkit.dsl.ast.EnumDecl;
import io.prmkit.dsl.ast.Num;
import io.prmkit.dsl.ast.QName;
import io.prmkit.dsl.ast.SpecFile;
import io.prmkit.dsl.ast.StructDecl;
import io.prmkit.dsl.ast.ValueRef;
import io.prmkit.dsl.ir.Access;
import io.prmkit.dsl.ir.Constraints;
import io.prmkit.dsl.ir.Doc;
import io.prmkit.dsl.ir.EnumLayout;
import io.prmkit.dsl.ir.FieldRef;
import io.prmkit.dsl.ir.MemberType;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.regex.Pattern;

/**
 * Member names and attributes: unique names (reserved ones named as the kernel names them), access
 * (default from the struct's name), enums, flags, ranges, capabilities, and union tags with their
 * selector values.
 */
final class MembersPass implements Pass {
    private static final Pattern KERNEL_RESERVED = Pattern.compile("reserved_at_([0-9a-f]+)");

    @Override
    public String name() {
        return "members";
    }

    @Override
    public List<Diagnostic> run(Compilation c) {
        List<Diagnostic> diags = new ArrayList<>();
        for (StructDecl s : c.structs()) {
            Layout lay = c.layouts.get(s);
            if (lay == null) continue;
            int before = diags.size();
            new Checker(c, lay, diags).run();
            if (diags.size() > before) c.broken.add(s);
        }
        return diags;
    }

    private static final class Checker {
        final Compilation c;
        final Layout lay;
        final StructDecl s;
        final SpecFile file;
        final List<Diagnostic> diags;
        final Map<String, Layout.LaidMember> byName = new LinkedHashMap<>();

        Checker(Compilation c, Layout lay, List<Diagnostic> diags) {
            this.c = c;
            this.lay = lay;
            this.s = lay.decl;
            this.file = c.fileOf.get(s);
            this.diags = diags;
        }

        void error(SourceLocation at, String message, Diagnostic.Related... related) {
            diags.add(Diagnostic.error(at, message, related));
        }

        void run() {
            names();
            Access dflt = s.name().text().endsWith("_in") ? Access.IN : s.name().text().endsWith("_out") ? Access.OUT : Access.RW;
            for (Layout.LaidMember m : lay.members) {
                m.access = dflt;
                if (m.reserved) m.constraints = Constraints.MBZ;
                if (m.decl != null) attributes(m);
            }
            unionTags();
        }

        void names() {
            for (Layout.LaidMember m : lay.members) {
                var k = KERNEL_RESERVED.matcher(m.name);
                if (m.decl != null && k.matches() && !reservedNameFits(m, Long.parseLong(k.group(1), 16))) {
                    // The kernel itself has a few of these; a warning keeps such names transcribable.
                    diags.add(Diagnostic.warning(m.location, "'" + m.name + "' is at bit " + Bits.hex(m.bitOffset)
                            + ", so its name should be 'reserved_at_" + Long.toHexString(m.bitOffset) + "' (or write plain 'reserved')"));
                }
                Layout.LaidMember first = byName.get(m.name);
                if (first != null && m.reserved && m.union != null) {
                    // The same reserved name in another union alternative (kernel unions name their reserved
                    // bits from the union's start): keep both, told apart by union and alternative.
                    List<String> candidates = m.alternative.equals(m.name)
                            ? List.of(m.name + "_" + m.union.name)
                            : List.of(m.name + "_" + m.alternative, m.name + "_" + m.union.name, m.name + "_" + m.union.name + "_" + m.alternative);
                    for (String candidate : candidates) {
                        if (!byName.containsKey(candidate)) {
                            m.name = candidate;
                            break;
                        }
                    }
                    first = byName.get(m.name);
                }
                if (first != null) {
                    error(m.location, "duplicate member '" + m.name + "' in " + s.kindWord() + " '" + s.name().text() + "'",
                            new Diagnostic.Related(first.location, "first declared here"));
                    continue;
                }
                byName.put(m.name, m);
            }
        }

        /** Whether a reserved_at_X name counts X from the struct's start, its union's start or its group's start. */
        boolean reservedNameFits(Layout.LaidMember m, long named) {
            if (named == m.bitOffset) return true;
            if (m.union == null) return false;
            if (named == m.bitOffset - m.union.start) return true;
            long groupStart = Long.MAX_VALUE;
            for (Layout.LaidMember o : lay.members) {
                if (o.union == m.union && o.alternative.equals(m.alternative)) groupStart = Math.min(groupStart, o.bitOffset);
            }
            return named == m.bitOffset - groupStart;
        }

        void attributes(Layout.LaidMember m) {
            Map<String, Attr> seen = new HashMap<>();
            String ref = "";
            String since = "";
            Optional<Long> min = Optional.empty();
            Optional<Long> max = Optional.empty();
            boolean pow2 = false;
            boolean log2 = false;
            boolean mbz = m.reserved;
            for (Attr a : m.decl.attrs()) {
                Attr prev = seen.put(a.keyword(), a);
                if (prev != null) {
                    error(a.location(), a.keyword().equals("access") ? "'" + m.name + "' has two access attributes"
                            : "duplicate '" + a.keyword() + "' attribute", new Diagnostic.Related(prev.location(), "first given here"));
                    continue;
                }
                if (m.reserved && !(a instanceof Attr.RefAttr || a instanceof Attr.SinceAttr || a instanceof Attr.MbzAttr
                        || a instanceof Attr.WhenAttr)) {
                    error(a.location(), "reserved space takes no '" + (a instanceof Attr.AccessAttr aa ? aa.access().name().toLowerCase() : a.keyword())
                            + "' attribute");
                    continue;
                }
                if (a instanceof Attr.AccessAttr aa) {
                    m.access = aa.access();
                } else if (a instanceof Attr.EnumAttr e) {
                    bindEnum(m, e.type(), false, e.location());
                } else if (a instanceof Attr.FlagsAttr f) {
                    bindEnum(m, f.type(), true, f.location());
                } else if (a instanceof Attr.RangeAttr r) {
                    if (scalar(m, a) && range(m, r.min(), r.max())) {
                        min = Optional.of(r.min().value());
                        max = Optional.of(r.max().value());
                    }
                } else if (a instanceof Attr.Pow2Attr) {
                    pow2 = scalar(m, a);
                } else if (a instanceof Attr.Log2Attr) {
                    log2 = scalar(m, a);
                } else if (a instanceof Attr.MbzAttr) {
                    mbz = true;
                } else if (a instanceof Attr.CapAttr cap) {
                    capability(m, cap.field());
                } else if (a instanceof Attr.TagAttr t) {
                    selector(m, t);
                } else if (a instanceof Attr.RefAttr r) {
                    ref = r.text();
                } else if (a instanceof Attr.SinceAttr si) {
                    since = si.text();
                } // 'when' is checked with its union
            }
            m.doc = new Doc(m.decl.doc(), ref, since);
            if (min.isPresent() || pow2 || log2 || mbz) {
                m.constraints = new Constraints(min.map(OptionalLong::of).orElse(OptionalLong.empty()),
                        max.map(OptionalLong::of).orElse(OptionalLong.empty()), pow2, log2, mbz);
            }
        }

        boolean scalar(Layout.LaidMember m, Attr a) {
            if (m.isScalar()) return true;
            error(a.location(), "'" + a.keyword() + "' needs a bit field, and '" + m.name + "' is " + describe(m.type));
            return false;
        }

        boolean range(Layout.LaidMember m, Num min, Num max) {
            if (Long.compareUnsigned(min.value(), max.value()) > 0) {
                error(min.location(), "range " + min.text() + ".." + max.text() + " is empty: the minimum comes first");
                return false;
            }
            int w = (int) m.type.bitWidth();
            if (w < 64 && Long.compareUnsigned(max.value(), (1L << w) - 1) > 0) {
                error(max.location(), "range maximum " + max.text() + " does not fit in the " + w + "-bit field '" + m.name
                        + "' (at most " + Bits.hex((1L << w) - 1) + ")");
                return false;
            }
            return true;
        }

        void bindEnum(Layout.LaidMember m, QName q, boolean flags, SourceLocation at) {
            String word = flags ? "flags" : "enum";
            if (!m.isScalar()) {
                error(at, "'" + word + "' needs a bit field, and '" + m.name + "' is " + describe(m.type));
                return;
            }
            Compilation.Lookup l = c.lookup(q, file);
            if (!l.found()) {
                String msg = l.miss() == Compilation.Miss.UNKNOWN ? "unknown " + (flags ? "flag set" : "enum") + " '" + q.dotted() + "'" : l.error();
                diags.add(new Diagnostic(io.prmkit.dsl.Severity.ERROR, q.location(), msg, l.related()));
                return;
            }
            if (!(l.decl() instanceof EnumDecl e) || e.flags() != flags) {
                String hint = l.decl() instanceof EnumDecl e2 ? "; write '" + (e2.flags() ? "flags " : "enum ") + q.dotted() + "'" : "";
                error(q.location(), "'" + q.dotted() + "' is " + Compilation.article(l.decl().kindWord()) + ", not " + (flags ? "a flag set" : "an enum") + hint,
                        new Diagnostic.Related(l.decl().name().location(), "declared here"));
                return;
            }
            EnumLayout el = c.enums.get(e);
            if (el == null) return;
            int w = (int) m.type.bitWidth();
            if (!flags && el.width() != 0 && el.width() != w) {
                error(q.location(), "enum '" + q.dotted() + "' is " + el.width() + " bits wide but '" + m.name + "' has " + w + " bits");
                return;
            }
            for (EnumLayout.EnumValue v : el.values()) {
                boolean fits = flags ? Long.compareUnsigned(v.value(), w) < 0 : w >= 64 || Long.compareUnsigned(v.value(), 1L << w) < 0;
                if (!fits) {
                    error(q.location(), (flags ? "flag " : "value ") + q.dotted() + "." + v.name() + " = " + Bits.hex(v.value())
                            + " does not fit in the " + w + "-bit field '" + m.name + "'",
                            new Diagnostic.Related(v.location(), "'" + v.name() + "' is declared here"));
                    return;
                }
            }
            if (flags) m.flagsType = Optional.of(el.name()); else m.enumType = Optional.of(el.name());
        }

        void capability(Layout.LaidMember m, QName q) {
            if (q.isSimple()) {
                error(q.location(), "'cap' names a capability bit as STRUCT.FIELD (e.g. cmd_hca_cap.swp), not '" + q.dotted() + "'");
                return;
            }
            QName structName = q.withoutLast();
            Compilation.Lookup l = c.lookup(structName, file);
            if (!l.found()) {
                String msg = l.miss() == Compilation.Miss.UNKNOWN ? "unknown capability struct '" + structName.dotted() + "'" : l.error();
                diags.add(new Diagnostic(io.prmkit.dsl.Severity.ERROR, q.location(), msg, l.related()));
                return;
            }
            if (!(l.decl() instanceof StructDecl target)) {
                error(q.location(), "'" + structName.dotted() + "' is " + Compilation.article(l.decl().kindWord()) + ", not a struct");
                return;
            }
            Layout tl = c.layouts.get(target);
            if (tl == null) return; // its own errors are reported
            Optional<Layout.LaidMember> f = tl.members.stream().filter(x -> x.name.equals(q.last())).findFirst();
            if (f.isEmpty()) {
                error(q.location(), "struct '" + structName.dotted() + "' has no field '" + q.last() + "'");
                return;
            }
            if (!f.get().isScalar()) {
                error(q.location(), "capability '" + q.dotted() + "' must be a bit field, not " + describe(f.get().type));
                return;
            }
            m.capability = Optional.of(new FieldRef(c.qualifiedName(target), q.last()));
        }

        void selector(Layout.LaidMember m, Attr.TagAttr t) {
            MemberType mt = m.type;
            boolean union = mt instanceof MemberType.StructRef && m.decl.type().isPresent()
                    && c.typeTargets.get(m.decl.type().get()) != null && c.typeTargets.get(m.decl.type().get()).union();
            if (!union) {
                error(t.location(), "'tag' applies to a member whose type is a union; '" + m.name + "' is " + describe(mt));
                return;
            }
            Layout.LaidMember sel = byName.get(t.field().text());
            if (sel == null || sel == m) {
                error(t.field().location(), "unknown selector field '" + t.field().text() + "' in " + s.kindWord() + " '" + s.name().text() + "'");
                return;
            }
            if (!sel.isScalar()) {
                error(t.field().location(), "selector '" + sel.name + "' must be a bit field, not " + describe(sel.type));
                return;
            }
            m.selector = sel.name;
        }

        /** Tags of inline unions and the 'when' values of alternatives (top-level unions too). */
        void unionTags() {
            Map<Layout.UnionInfo, List<Layout.LaidMember>> unions = new IdentityHashMap<>();
            List<Layout.UnionInfo> order = new ArrayList<>();
            for (Layout.LaidMember m : lay.members) {
                if (m.union == null) continue;
                if (!unions.containsKey(m.union)) order.add(m.union);
                unions.computeIfAbsent(m.union, k -> new ArrayList<>()).add(m);
            }
            for (Layout.UnionInfo u : order) {
                List<Layout.LaidMember> ms = unions.get(u);
                Layout.LaidMember tag = null;
                EnumLayout tagEnum = null;
                if (u.tag != null) {
                    tag = byName.get(u.tag.text());
                    if (tag == null || tag.union == u) {
                        error(u.tag.location(), tag == null ? "unknown tag field '" + u.tag.text() + "'"
                                : "tag field '" + u.tag.text() + "' must be outside the union it selects");
                        continue;
                    }
                    if (!tag.isScalar()) {
                        error(u.tag.location(), "tag field '" + tag.name + "' must be a bit field, not " + describe(tag.type));
                        continue;
                    }
                    if (tag.enumType.isPresent()) {
                        var wanted = tag.enumType.get();
                        tagEnum = c.enums.values().stream().filter(e -> e.name().equals(wanted)).findFirst().orElse(null);
                    }
                }
                Map<String, OptionalLong> altValue = new LinkedHashMap<>();
                Map<Long, String> valueAlt = new HashMap<>();
                for (Layout.LaidMember m : ms) {
                    if (altValue.containsKey(m.alternative)) {
                        m.tagValue = altValue.get(m.alternative);
                        m.variantSelector = tag != null ? tag.name : "";
                        continue;
                    }
                    OptionalLong v = OptionalLong.empty();
                    if (m.when != null) {
                        boolean inline = u.inline;
                        if (inline && tag == null) {
                            if (u.tag == null) {
                                error(m.when.location(), "'when' needs the union to name its selector: union " + u.name + " tag FIELD { ... }");
                            }
                        } else {
                            v = value(m.when, tagEnum);
                            if (v.isPresent() && tag != null && tag.type.bitWidth() < 64
                                    && Long.compareUnsigned(v.getAsLong(), (1L << tag.type.bitWidth()) - 1) > 0) {
                                error(m.when.location(), "selector value " + Bits.hex(v.getAsLong()) + " does not fit in the "
                                        + tag.type.bitWidth() + "-bit tag field '" + tag.name + "'");
                            }
                            if (v.isPresent()) {
                                String other = valueAlt.putIfAbsent(v.getAsLong(), m.alternative);
                                if (other != null) {
                                    error(m.when.location(), "alternatives '" + other + "' and '" + m.alternative
                                            + "' have the same selector value " + Bits.hex(v.getAsLong()));
                                }
                            }
                        }
                    }
                    altValue.put(m.alternative, v);
                    m.tagValue = v;
                }
                if (tag != null) {
                    for (Layout.LaidMember m : ms) m.variantSelector = tag.name;
                }
            }
        }

        OptionalLong value(ValueRef v, EnumLayout preferred) {
            if (v instanceof Num n) return OptionalLong.of(n.value());
            QName q = (QName) v;
            Compilation.Value r = c.value(q, file, preferred);
            if (r.found()) return OptionalLong.of(r.value());
            if (r.miss() != Compilation.Miss.REPORTED) error(q.location(), r.error());
            return OptionalLong.empty();
        }

        static String describe(MemberType t) {
            if (t instanceof MemberType.Bits b) return "a " + b.width() + "-bit field";
            if (t instanceof MemberType.Bytes) return "a byte array";
            if (t instanceof MemberType.StructRef r) return "of type " + r.target().name();
            return ((MemberType.Array) t).flexible() ? "a flexible array" : "an array";
        }
    }
}

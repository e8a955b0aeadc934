package io.prmkit.dsl.diff;

import io.prmkit.dsl.diff.Change.Bits;
import io.prmkit.dsl.diff.Change.Kind;
import io.prmkit.dsl.ir.Constant;
import io.prmkit.dsl.ir.EnumLayout;
import io.prmkit.dsl.ir.Expr;
import io.prmkit.dsl.ir.Join;
import io.prmkit.dsl.ir.LayoutModel;
import io.prmkit.dsl.ir.Member;
import io.prmkit.dsl.ir.MemberType;
import io.prmkit.dsl.ir.Rule;
import io.prmkit.dsl.ir.StructLayout;
import io.prmkit.dsl.ir.WqeLayout;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeMap;

/**
 * Compares two layout models, structure by structure (matched by qualified name) and member by
 * member (matched by name). What counts as breaking: anything that makes a reader or writer built
 * against the old layout touch the wrong bits or lose a name it used: a field removed, moved,
 * resized, retyped or renamed, a structure removed or shrunk, an enum value or constant removed
 * or changed, a field's enum or flags binding removed or changed, a writable field made read-only,
 * constraints that refuse values the old ones accepted. Additive: new structures, fields, enums and
 * values, a structure that grew, a binding added, a field made writable, constraints relaxed, and a
 * reserved range that became a field with exactly its bits. Reserved members are never reported
 * on their own: their names encode their offsets, so any layout change renames them; the named
 * changes around them say what happened. Joined fields compare by name: one removed, or with other
 * parts, bits or enum, breaks its accessors; one added is additive. WQE declarations compare by name,
 * then their size, match, givens and segments (a change in any breaks code that builds or checks the
 * WQE) and their rules by name (a rule added or changed makes {@code check} report WQEs it passed;
 * one removed only relaxes it).
 */
public final class LayoutDiff {
    private LayoutDiff() {}

    public static DiffReport diff(LayoutModel older, LayoutModel newer) {
        List<Change> out = new ArrayList<>();
        structs(older, newer, out);
        enums(older, newer, out);
        constants(older, newer, out);
        wqes(older, newer, out);
        return new DiffReport(out);
    }

    /** Enum values by {@code pkg.NAME}, the key space constants use too. */
    private static Map<String, Long> enumValuesByName(LayoutModel m) {
        Map<String, Long> values = new HashMap<>();
        for (EnumLayout e : m.enums()) {
            for (EnumLayout.EnumValue v : e.values()) values.put(e.name().pkg() + "." + v.name(), v.value());
        }
        return values;
    }

    private static Map<String, Long> constantsByName(LayoutModel m) {
        Map<String, Long> values = new HashMap<>();
        for (Constant c : m.constants()) values.put(c.name().toString(), c.value());
        return values;
    }

    /** A name that left an enum for the constants, or the other way, with its value: not a removal. */
    private static boolean survives(String key, long value, Map<String, Long> elsewhere) {
        Long v = elsewhere.get(key);
        return v != null && v == value;
    }

    private static Change change(Kind k, String owner, String name, String newName, Optional<Bits> before, Optional<Bits> after,
                                 OptionalLong oldValue, OptionalLong newValue, boolean breaking) {
        return new Change(k, owner, name, newName, before, after, oldValue, newValue, breaking);
    }

    private static Optional<Bits> bits(Member m) {
        return Optional.of(new Bits(m.bitOffset(), m.bitWidth()));
    }

    private static void structs(LayoutModel older, LayoutModel newer, List<Change> out) {
        Map<String, StructLayout> o = new TreeMap<>(), n = new TreeMap<>();
        older.structs().forEach(s -> o.put(s.name().toString(), s));
        newer.structs().forEach(s -> n.put(s.name().toString(), s));
        Set<String> all = new java.util.TreeSet<>(o.keySet());
        all.addAll(n.keySet());
        for (String name : all) {
            StructLayout a = o.get(name), b = n.get(name);
            if (a == null) {
                out.add(change(Kind.STRUCT_ADDED, name, "", "", Optional.empty(), Optional.empty(), OptionalLong.empty(),
                        OptionalLong.of(b.sizeBytes()), false));
            } else if (b == null) {
                out.add(change(Kind.STRUCT_REMOVED, name, "", "", Optional.empty(), Optional.empty(), OptionalLong.of(a.sizeBytes()),
                        OptionalLong.empty(), true));
            } else {
                struct(name, a, b, out);
            }
        }
    }

    private static void struct(String owner, StructLayout a, StructLayout b, List<Change> out) {
        if (a.kind() != b.kind()) {
            out.add(change(Kind.KIND_CHANGED, owner, "", "", Optional.empty(), Optional.empty(), OptionalLong.empty(),
                    OptionalLong.empty(), true));
        }
        if (a.sizeBytes() != b.sizeBytes()) {
            out.add(change(Kind.SIZE_CHANGED, owner, "", "", Optional.empty(), Optional.empty(), OptionalLong.of(a.sizeBytes()),
                    OptionalLong.of(b.sizeBytes()), b.sizeBytes() < a.sizeBytes()));
        }
        Map<String, Member> oldNamed = named(a), newNamed = named(b);
        Set<String> claimed = new HashSet<>(); // new names explained by a rename
        for (Member m : a.members()) {
            if (m.reserved()) continue;
            Member now = newNamed.get(m.name());
            if (now == null) {
                Member same = sameBits(b, m, oldNamed);
                if (same != null && !same.reserved()) {
                    claimed.add(same.name());
                    out.add(change(Kind.FIELD_RENAMED, owner, m.name(), same.name(), bits(m), bits(same),
                            OptionalLong.empty(), OptionalLong.empty(), true));
                } else {
                    out.add(change(Kind.FIELD_REMOVED, owner, m.name(), "", bits(m), Optional.empty(),
                            OptionalLong.empty(), OptionalLong.empty(), true));
                }
                continue;
            }
            if (m.bitOffset() != now.bitOffset()) {
                out.add(change(Kind.FIELD_MOVED, owner, m.name(), "", bits(m), bits(now), OptionalLong.empty(), OptionalLong.empty(), true));
            }
            if (m.bitWidth() != now.bitWidth()) {
                out.add(change(Kind.FIELD_RESIZED, owner, m.name(), "", bits(m), bits(now), OptionalLong.empty(), OptionalLong.empty(), true));
            } else if (!sameType(m.type(), now.type())) {
                out.add(change(Kind.FIELD_RETYPED, owner, m.name(), "", bits(m), bits(now), OptionalLong.empty(), OptionalLong.empty(), true));
            }
            attributes(owner, m, now, out);
        }
        for (Member m : b.members()) {
            if (m.reserved() || oldNamed.containsKey(m.name()) || claimed.contains(m.name())) continue;
            Member was = reservedWithBits(a, m);
            if (was != null) {
                out.add(change(Kind.FIELD_RENAMED, owner, was.name(), m.name(), bits(was), bits(m),
                        OptionalLong.empty(), OptionalLong.empty(), false));
            } else {
                out.add(change(Kind.FIELD_ADDED, owner, m.name(), "", Optional.empty(), bits(m),
                        OptionalLong.empty(), OptionalLong.empty(), false));
            }
        }
        joins(owner, a, b, out);
    }

    /** Joined fields by name: removed or changed (parts, their bits, the enum) is breaking, added is not. */
    private static void joins(String owner, StructLayout a, StructLayout b, List<Change> out) {
        Map<String, Join> o = new LinkedHashMap<>(), n = new LinkedHashMap<>();
        a.joins().forEach(j -> o.put(j.name(), j));
        b.joins().forEach(j -> n.put(j.name(), j));
        for (Join j : a.joins()) {
            Join now = n.get(j.name());
            if (now == null) {
                out.add(text(Kind.JOIN_REMOVED, owner, j.name(), join(j), "", true));
            } else if (!join(j).equals(join(now))) {
                out.add(text(Kind.JOIN_CHANGED, owner, j.name(), join(j), join(now), !sameParts(j, now) || j.enumType().isPresent()));
            }
        }
        for (Join j : b.joins()) {
            if (!o.containsKey(j.name())) out.add(text(Kind.JOIN_ADDED, owner, j.name(), "", join(j), false));
        }
    }

    private static boolean sameParts(Join x, Join y) {
        return x.bitWidth() == y.bitWidth() && x.parts().equals(y.parts());
    }

    /** {@code access_mode_4_2 [4:2], access_mode_1_0 [1:0] enum mlx5.mkc_access_mode}: the join as the spec writes it. */
    static String join(Join j) {
        return j.partsText() + j.enumType().map(e -> " enum " + e).orElse("");
    }

    private static Change text(Kind kind, String owner, String name, String was, String is, boolean breaking) {
        return new Change(kind, owner, name, "", Optional.empty(), Optional.empty(), OptionalLong.empty(), OptionalLong.empty(), was, is, breaking);
    }

    private static void wqes(LayoutModel older, LayoutModel newer, List<Change> out) {
        Map<String, WqeLayout> o = new TreeMap<>(), n = new TreeMap<>();
        older.wqes().forEach(w -> o.put(w.name().toString(), w));
        newer.wqes().forEach(w -> n.put(w.name().toString(), w));
        Set<String> all = new java.util.TreeSet<>(o.keySet());
        all.addAll(n.keySet());
        for (String name : all) {
            WqeLayout a = o.get(name), b = n.get(name);
            if (a == null) {
                out.add(text(Kind.WQE_ADDED, name, "", "", segments(b), false));
            } else if (b == null) {
                out.add(text(Kind.WQE_REMOVED, name, "", segments(a), "", true));
            } else {
                wqe(name, a, b, out);
            }
        }
    }

    private static void wqe(String owner, WqeLayout a, WqeLayout b, List<Change> out) {
        if (!a.size().source().equals(b.size().source())) out.add(text(Kind.WQE_CHANGED, owner, "", "size " + a.size().source(), "size " + b.size().source(), true));
        String am = a.match().map(Expr::source).orElse("(none)"), bm = b.match().map(Expr::source).orElse("(none)");
        if (!am.equals(bm)) out.add(text(Kind.WQE_CHANGED, owner, "", "match " + am, "match " + bm, true));
        if (!givens(a).equals(givens(b))) out.add(text(Kind.WQE_CHANGED, owner, "", "given " + givens(a), "given " + givens(b), true));
        if (!segments(a).equals(segments(b))) out.add(text(Kind.WQE_CHANGED, owner, "", "segments " + segments(a), "segments " + segments(b), true));
        Map<String, Rule> ro = new LinkedHashMap<>(), rn = new LinkedHashMap<>();
        a.rules().forEach(r -> ro.put(r.name(), r));
        b.rules().forEach(r -> rn.put(r.name(), r));
        for (Rule r : a.rules()) {
            Rule now = rn.get(r.name());
            if (now == null) out.add(text(Kind.WQE_RULE_REMOVED, owner, r.name(), r.condition().source(), "", false));
            else if (!r.condition().source().equals(now.condition().source())) {
                out.add(text(Kind.WQE_RULE_CHANGED, owner, r.name(), r.condition().source(), now.condition().source(), true));
            }
        }
        for (Rule r : b.rules()) {
            if (!ro.containsKey(r.name())) out.add(text(Kind.WQE_RULE_ADDED, owner, r.name(), "", r.condition().source(), true));
        }
    }

    private static String givens(WqeLayout w) {
        List<String> g = new ArrayList<>();
        for (WqeLayout.Given x : w.givens()) g.add(x.name() + x.lookup().map(q -> " -> " + q).orElse(""));
        return g.isEmpty() ? "(none)" : String.join(", ", g);
    }

    /** {@code ctrl: wqe_ctrl_seg, eth: wqe_eth_seg, data: repeated {pointer: wqe_data_seg}}: a WQE's segments as the spec writes them, on one line. */
    static String segments(WqeLayout w) {
        List<String> s = new ArrayList<>();
        for (WqeLayout.Segment seg : w.segments()) s.add(segment(seg));
        return String.join(", ", s);
    }

    private static String segment(WqeLayout.Segment seg) {
        String body = switch (seg.kind()) {
            case STRUCT -> seg.struct().orElseThrow().name() + seg.size().map(e -> " size " + e.source()).orElse("");
            case INLINE -> "inline " + seg.size().orElseThrow().source() + seg.at().map(x -> " at " + x.segment() + "." + x.member()).orElse("");
            case REPEATED -> {
                List<String> alts = new ArrayList<>();
                for (WqeLayout.Segment alt : seg.alternatives()) alts.add(segment(alt));
                yield "repeated {" + String.join("; ", alts) + "}";
            }
        };
        return seg.name() + ": " + body + seg.when().map(e -> " when " + e.source()).orElse("");
    }

    /**
     * What the generated API and validate() make of a member's attributes: an enum or flags binding
     * removed or changed takes away or retypes its {@code $enum} accessors (added: new ones, additive);
     * a writable member made read-only loses its setters to the {@code Device} class; constraints that
     * refuse a value the old ones accepted (a range added or narrowed, mbz, power of two, log2) make
     * validate() fail on data it passed.
     */
    private static void attributes(String owner, Member m, Member now, List<Change> out) {
        binding(Kind.FIELD_ENUM_CHANGED, owner, m, m.enumType().map(Object::toString).orElse(""), now.enumType().map(Object::toString).orElse(""), out);
        binding(Kind.FIELD_FLAGS_CHANGED, owner, m, m.flagsType().map(Object::toString).orElse(""), now.flagsType().map(Object::toString).orElse(""), out);
        if (m.access() != now.access()) {
            out.add(new Change(Kind.FIELD_ACCESS_CHANGED, owner, m.name(), "", bits(m), bits(now), OptionalLong.empty(), OptionalLong.empty(),
                    access(m), access(now), m.access().writable() && !now.access().writable()));
        }
        if (!m.constraints().equals(now.constraints())) {
            out.add(new Change(Kind.FIELD_CONSTRAINTS_CHANGED, owner, m.name(), "", bits(m), bits(now), OptionalLong.empty(), OptionalLong.empty(),
                    constraints(m.constraints()), constraints(now.constraints()), narrower(m.constraints(), now.constraints())));
        }
    }

    private static void binding(Kind kind, String owner, Member m, String was, String is, List<Change> out) {
        if (was.equals(is)) return;
        out.add(new Change(kind, owner, m.name(), "", bits(m), bits(m), OptionalLong.empty(), OptionalLong.empty(), was, is, !was.isEmpty()));
    }

    private static String access(Member m) {
        return m.access().name().toLowerCase(java.util.Locale.ROOT);
    }

    /** {@code range 1..63, power of two, mbz}, as the spec writes them; "" for none. */
    static String constraints(io.prmkit.dsl.ir.Constraints c) {
        List<String> parts = new ArrayList<>();
        if (c.min().isPresent() || c.max().isPresent()) {
            parts.add("range " + (c.min().isPresent() ? Long.toUnsignedString(c.min().getAsLong()) : "")
                    + ".." + (c.max().isPresent() ? Long.toUnsignedString(c.max().getAsLong()) : ""));
        }
        if (c.powerOfTwo()) parts.add("power of two");
        if (c.log2()) parts.add("log2");
        if (c.mustBeZero()) parts.add("mbz");
        return String.join(", ", parts);
    }

    /** Whether {@code b} refuses a value {@code a} accepts. */
    private static boolean narrower(io.prmkit.dsl.ir.Constraints a, io.prmkit.dsl.ir.Constraints b) {
        if (b.mustBeZero() && !a.mustBeZero()) return true;
        if (b.powerOfTwo() && !a.powerOfTwo()) return true;
        if (b.log2() != a.log2()) return true; // the range means exponents on one side, values on the other
        long aMin = a.min().orElse(0), bMin = b.min().orElse(0);
        long aMax = a.max().orElse(-1), bMax = b.max().orElse(-1); // -1: unsigned maximum
        return Long.compareUnsigned(bMin, aMin) > 0 || Long.compareUnsigned(bMax, aMax) < 0;
    }

    private static Map<String, Member> named(StructLayout s) {
        Map<String, Member> m = new LinkedHashMap<>();
        for (Member x : s.members()) {
            if (!x.reserved()) m.put(x.name(), x);
        }
        return m;
    }

    /** A member of s with exactly m's bits whose name is new (not a name the old layout had). */
    private static Member sameBits(StructLayout s, Member m, Map<String, Member> oldNamed) {
        for (Member x : s.members()) {
            if (x.bitOffset() == m.bitOffset() && x.bitWidth() == m.bitWidth() && !oldNamed.containsKey(x.name())) return x;
        }
        return null;
    }

    private static Member reservedWithBits(StructLayout s, Member m) {
        for (Member x : s.members()) {
            if (x.reserved() && x.bitOffset() == m.bitOffset() && x.bitWidth() == m.bitWidth()) return x;
        }
        return null;
    }

    /** Types compare by shape; a nested structure by its name (its own changes are reported under its name). */
    private static boolean sameType(MemberType x, MemberType y) {
        if (x instanceof MemberType.StructRef a && y instanceof MemberType.StructRef b) return a.target().equals(b.target());
        if (x instanceof MemberType.Array a && y instanceof MemberType.Array b) {
            return a.count() == b.count() && a.flexible() == b.flexible() && sameType(a.element(), b.element());
        }
        return x.equals(y);
    }

    private static void enums(LayoutModel older, LayoutModel newer, List<Change> out) {
        Map<String, EnumLayout> o = new TreeMap<>(), n = new TreeMap<>();
        older.enums().forEach(e -> o.put(e.name().toString(), e));
        newer.enums().forEach(e -> n.put(e.name().toString(), e));
        Set<String> all = new java.util.TreeSet<>(o.keySet());
        all.addAll(n.keySet());
        Map<String, String> renamed = renamedEnums(o, n);
        Map<String, Long> newConstants = constantsByName(newer);
        Set<String> renamedTo = new HashSet<>(renamed.values());
        for (String name : all) {
            EnumLayout a = o.get(name), b = n.get(name);
            if (a == null && renamedTo.contains(name)) continue; // reported with its old name
            if (a == null) {
                out.add(change(Kind.ENUM_ADDED, name, "", "", Optional.empty(), Optional.empty(), OptionalLong.empty(), OptionalLong.empty(), false));
                continue;
            }
            if (b == null && renamed.containsKey(name)) {
                b = n.get(renamed.get(name));
                out.add(change(Kind.ENUM_RENAMED, name, "", b.name().toString(), Optional.empty(), Optional.empty(),
                        OptionalLong.empty(), OptionalLong.empty(), false));
                enumValues(b.name().toString(), a, b, newConstants, out);
                continue;
            }
            if (b == null) {
                out.add(change(Kind.ENUM_REMOVED, name, "", "", Optional.empty(), Optional.empty(), OptionalLong.empty(), OptionalLong.empty(), true));
                continue;
            }
            enumValues(name, a, b, newConstants, out);
        }
    }

    /**
     * Enums that only changed their name: an old enum missing from the new model whose value names
     * are, at least half of them, in one new enum missing from the old model. Imported anonymous
     * enums are named after their values' common prefix, which a new value can change
     * ({@code cmd_op} becomes {@code cmd} when {@code MLX5_CMD_OPCODE_X} arrives).
     */
    private static Map<String, String> renamedEnums(Map<String, EnumLayout> o, Map<String, EnumLayout> n) {
        Map<String, String> pairs = new LinkedHashMap<>();
        Set<String> taken = new HashSet<>();
        for (var old : o.entrySet()) {
            if (n.containsKey(old.getKey())) continue;
            Set<String> names = new HashSet<>();
            old.getValue().values().forEach(v -> names.add(v.name()));
            String best = null;
            long bestShared = 0;
            for (var neu : n.entrySet()) {
                if (o.containsKey(neu.getKey()) || taken.contains(neu.getKey())) continue;
                long shared = neu.getValue().values().stream().filter(v -> names.contains(v.name())).count();
                if (shared > bestShared) {
                    best = neu.getKey();
                    bestShared = shared;
                }
            }
            if (best != null && bestShared * 2 >= names.size()) {
                pairs.put(old.getKey(), best);
                taken.add(best);
            }
        }
        return pairs;
    }

    private static void enumValues(String name, EnumLayout a, EnumLayout b, Map<String, Long> newConstants, List<Change> out) {
        Map<String, Long> ov = new LinkedHashMap<>(), nv = new LinkedHashMap<>();
        a.values().forEach(v -> ov.put(v.name(), v.value()));
        b.values().forEach(v -> nv.put(v.name(), v.value()));
        for (var e : ov.entrySet()) {
            Long now = nv.get(e.getKey());
            if (now == null && survives(a.name().pkg() + "." + e.getKey(), e.getValue(), newConstants)) continue;
            if (now == null) {
                out.add(change(Kind.ENUM_VALUE_REMOVED, name, e.getKey(), "", Optional.empty(), Optional.empty(),
                        OptionalLong.of(e.getValue()), OptionalLong.empty(), true));
            } else if (now.longValue() != e.getValue()) {
                out.add(change(Kind.ENUM_VALUE_CHANGED, name, e.getKey(), "", Optional.empty(), Optional.empty(),
                        OptionalLong.of(e.getValue()), OptionalLong.of(now), true));
            }
        }
        for (var e : nv.entrySet()) {
            if (!ov.containsKey(e.getKey())) {
                out.add(change(Kind.ENUM_VALUE_ADDED, name, e.getKey(), "", Optional.empty(), Optional.empty(),
                        OptionalLong.empty(), OptionalLong.of(e.getValue()), false));
            }
        }
    }

    private static void constants(LayoutModel older, LayoutModel newer, List<Change> out) {
        Map<String, Long> o = new TreeMap<>(), n = new TreeMap<>();
        for (Constant c : older.constants()) o.put(c.name().toString(), c.value());
        for (Constant c : newer.constants()) n.put(c.name().toString(), c.value());
        Set<String> all = new java.util.TreeSet<>(o.keySet());
        all.addAll(n.keySet());
        Map<String, Long> newEnumValues = enumValuesByName(newer);
        for (String name : all) {
            Long a = o.get(name), b = n.get(name);
            if (b == null && survives(name, a, newEnumValues)) continue; // now a value of an enum, reported there
            if (a == null) {
                out.add(change(Kind.CONST_ADDED, name, "", "", Optional.empty(), Optional.empty(), OptionalLong.empty(), OptionalLong.of(b), false));
            } else if (b == null) {
                out.add(change(Kind.CONST_REMOVED, name, "", "", Optional.empty(), Optional.empty(), OptionalLong.of(a), OptionalLong.empty(), true));
            } else if (!a.equals(b)) {
                out.add(change(Kind.CONST_CHANGED, name, "", "", Optional.empty(), Optional.empty(), OptionalLong.of(a), OptionalLong.of(b), true));
            }
        }
    }
}

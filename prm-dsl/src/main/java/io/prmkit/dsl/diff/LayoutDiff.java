package io.prmkit.dsl.diff;

import io.prmkit.dsl.diff.Change.Bits;
import io.prmkit.dsl.diff.Change.Kind;
import io.prmkit.dsl.ir.Constant;
import io.prmkit.dsl.ir.EnumLayout;
import io.prmkit.dsl.ir.LayoutModel;
import io.prmkit.dsl.ir.Member;
import io.prmkit.dsl.ir.MemberType;
import io.prmkit.dsl.ir.StructLayout;
import java.util.ArrayList;
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
 * or changed. Additive: new structures, fields, enums and values, a structure that grew, and a
 * reserved range that became a field with exactly its bits. Reserved members are never reported
 * on their own: their names encode their offsets, so any layout change renames them; the named
 * changes around them say what happened.
 */
public final class LayoutDiff {
    private LayoutDiff() {}

    public static DiffReport diff(LayoutModel older, LayoutModel newer) {
        List<Change> out = new ArrayList<>();
        structs(older, newer, out);
        enums(older, newer, out);
        constants(older, newer, out);
        return new DiffReport(out);
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
        for (String name : all) {
            EnumLayout a = o.get(name), b = n.get(name);
            if (a == null) {
                out.add(change(Kind.ENUM_ADDED, name, "", "", Optional.empty(), Optional.empty(), OptionalLong.empty(), OptionalLong.empty(), false));
                continue;
            }
            if (b == null) {
                out.add(change(Kind.ENUM_REMOVED, name, "", "", Optional.empty(), Optional.empty(), OptionalLong.empty(), OptionalLong.empty(), true));
                continue;
            }
            Map<String, Long> ov = new LinkedHashMap<>(), nv = new LinkedHashMap<>();
            a.values().forEach(v -> ov.put(v.name(), v.value()));
            b.values().forEach(v -> nv.put(v.name(), v.value()));
            for (var e : ov.entrySet()) {
                Long now = nv.get(e.getKey());
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
    }

    private static void constants(LayoutModel older, LayoutModel newer, List<Change> out) {
        Map<String, Long> o = new TreeMap<>(), n = new TreeMap<>();
        for (Constant c : older.constants()) o.put(c.name().toString(), c.value());
        for (Constant c : newer.constants()) n.put(c.name().toString(), c.value());
        Set<String> all = new java.util.TreeSet<>(o.keySet());
        all.addAll(n.keySet());
        for (String name : all) {
            Long a = o.get(name), b = n.get(name);
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

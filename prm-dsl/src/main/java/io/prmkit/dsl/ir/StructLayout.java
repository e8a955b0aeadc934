package io.prmkit.dsl.ir;

import io.prmkit.dsl.SourceLocation;
import java.nio.ByteOrder;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A fully resolved structure or union. Members are in declaration order; members of an inline union
 * appear in place, each carrying its {@link Variant}. Reserved space appears as members too, so the
 * members of a positioned structure tile all of its bits.
 *
 * <p>The constructor throws {@link IllegalArgumentException} for a member reaching past the size, or a
 * rule reading what is not a bit field here.
 *
 * @param name      the kernel's name for it (e.g. {@code mlx5.create_cq_in})
 * @param kind      struct or union
 * @param sizeBytes size in bytes, not counting a flexible trailing array (like C's sizeof)
 * @param byteOrder order of the bytes within each dword (big-endian for every PRM structure)
 * @param members   all members including reserved space
 * @param rules     cross-field rules
 * @param joins     logical fields split over several bit fields ({@code access_mode_4_2}/{@code access_mode_1_0}, {@code _high}/{@code _low})
 * @param doc       one-line description and PRM reference
 * @param location  where it is declared
 */
public record StructLayout(
        QualifiedName name,
        Kind kind,
        long sizeBytes,
        ByteOrder byteOrder,
        List<Member> members,
        List<Rule> rules,
        List<Join> joins,
        Doc doc,
        SourceLocation location) {

    /** A structure without joins. */
    public StructLayout(QualifiedName name, Kind kind, long sizeBytes, ByteOrder byteOrder, List<Member> members, List<Rule> rules,
            Doc doc, SourceLocation location) {
        this(name, kind, sizeBytes, byteOrder, members, rules, List.of(), doc, location);
    }

    public enum Kind { STRUCT, UNION }

    public StructLayout {
        Objects.requireNonNull(name, "name == null");
        Objects.requireNonNull(kind, "kind == null");
        Objects.requireNonNull(byteOrder, "byteOrder == null");
        Objects.requireNonNull(doc, "doc == null");
        Objects.requireNonNull(location, "location == null");
        members = List.copyOf(members);
        rules = List.copyOf(rules);
        if (sizeBytes < 0) throw new IllegalArgumentException("negative size for " + name);
        for (Member m : members) {
            boolean flexible = m.type() instanceof MemberType.Array a && a.flexible();
            if (flexible ? m.bitOffset() > sizeBytes * 8 : m.bitEnd() > sizeBytes * 8) {
                throw new IllegalArgumentException(name + "." + m.name() + " ends at bit 0x" + Long.toHexString(m.bitEnd())
                        + ", past the " + sizeBytes + "-byte " + kind.name().toLowerCase(java.util.Locale.ROOT));
            }
        }
        for (Rule r : rules) ruleFields(name, members, r, r.condition());
        joins = List.copyOf(joins);
        java.util.Map<String, Member> byName = new java.util.HashMap<>();
        for (Member m : members) byName.putIfAbsent(m.name(), m);
        java.util.Set<String> joined = new java.util.HashSet<>();
        for (Join j : joins) {
            if (!joined.add(j.name()) || byName.containsKey(j.name())) {
                throw new IllegalArgumentException(name + "." + j.name() + ": a join's name is taken");
            }
            for (Join.Part p : j.parts()) {
                Member m = byName.get(p.field());
                if (m == null || !m.isScalar() || m.reserved() || m.bitWidth() != p.width()) {
                    throw new IllegalArgumentException(name + "." + j.name() + ": part " + p.field() + " is not a " + p.width() + "-bit field of it");
                }
            }
        }
    }

    /** Every field a rule reads is a bit field of this structure (the compiler resolves them so). */
    private static void ruleFields(QualifiedName name, List<Member> members, Rule r, Expr e) {
        if (e instanceof Expr.FieldValue f) {
            if (members.stream().noneMatch(m -> m.name().equals(f.field()) && m.isScalar())) {
                throw new IllegalArgumentException("rule " + r.name() + " of " + name + " reads " + f.field() + ", which is not a bit field of it");
            }
        } else if (e instanceof Expr.SegmentField || e instanceof Expr.GivenValue || e instanceof Expr.Lookup || e instanceof Expr.Builtin) {
            throw new IllegalArgumentException("rule " + r.name() + " of " + name + " reads " + e.source() + ", which only a WQE's rule can");
        } else if (e instanceof Expr.Unary u) {
            ruleFields(name, members, r, u.operand());
        } else if (e instanceof Expr.Binary b) {
            ruleFields(name, members, r, b.left());
            ruleFields(name, members, r, b.right());
        }
    }

    public long sizeBits() {
        return sizeBytes * 8;
    }

    public boolean isUnion() {
        return kind == Kind.UNION;
    }

    /** The member with this name, if any (reserved members are found by their generated name). */
    public Optional<Member> member(String memberName) {
        for (Member m : members) {
            if (m.name().equals(memberName)) return Optional.of(m);
        }
        return Optional.empty();
    }

    /** The join with this name, if any. */
    public Optional<Join> join(String joinName) {
        return joins.stream().filter(j -> j.name().equals(joinName)).findFirst();
    }

    /** The flexible trailing array, if the structure ends in one. */
    public Optional<Member> flexibleArray() {
        return members.stream()
                .filter(m -> m.type() instanceof MemberType.Array a && a.flexible())
                .findFirst();
    }
}

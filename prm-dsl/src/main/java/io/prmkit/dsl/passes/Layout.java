package io.prmkit.dsl.passes;

import io.prmkit.dsl.SourceLocation;
import io.prmkit.dsl.ast.MemberDecl;
import io.prmkit.dsl.ast.StructDecl;
import io.prmkit.dsl.ast.ValueRef;
import io.prmkit.dsl.ir.Access;
import io.prmkit.dsl.ir.Constraints;
import io.prmkit.dsl.ir.Doc;
import io.prmkit.dsl.ir.FieldRef;
import io.prmkit.dsl.ir.MemberType;
import io.prmkit.dsl.ir.QualifiedName;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/** A struct or union as the layout pass resolved it; later passes fill in the members' attributes. */
final class Layout {
    final StructDecl decl;
    long sizeBits;
    /** All members in declaration order, union alternatives in place (implicit reserved gaps are inserted by coverage). */
    final List<LaidMember> members = new ArrayList<>();
    /** What coverage checks: top-level members and whole inline unions, each one span. */
    final List<Span> spans = new ArrayList<>();
    /** Cross-field rules, resolved by the rules pass. */
    final List<io.prmkit.dsl.ir.Rule> rules = new ArrayList<>();
    /** Joined fields, resolved by the joins pass. */
    final List<io.prmkit.dsl.ir.Join> joins = new ArrayList<>();
    /** Whether any member or inline union was placed with an offset. */
    boolean positioned;
    /** The flexible trailing array, if any. */
    LaidMember flexible;

    Layout(StructDecl decl) {
        this.decl = decl;
    }

    /** A range of bits occupied by one top-level member or one inline union; {@code first} is its first member. */
    record Span(String name, long start, long end, SourceLocation location, LaidMember first) {
    }

    /** One inline (or top-level) union's facts that alternatives share. */
    static final class UnionInfo {
        final String name;
        final long start;
        long end;
        final io.prmkit.dsl.ast.Name tag;
        final SourceLocation location;
        /** An inline union inside a struct, as opposed to a top-level union declaration. */
        final boolean inline;

        UnionInfo(String name, long start, io.prmkit.dsl.ast.Name tag, SourceLocation location, boolean inline) {
            this.name = name;
            this.start = start;
            this.tag = tag;
            this.location = location;
            this.inline = inline;
        }
    }

    /** A placed member. Mutable only while the passes run; the IR pass copies it into an immutable Member. */
    static final class LaidMember {
        final MemberDecl decl; // null for an implicit reserved gap
        String name;
        final long bitOffset;
        final MemberType type;
        final boolean reserved;
        final SourceLocation location;

        UnionInfo union;          // the union this member is an alternative of (or belongs to a group of)
        String alternative;       // group name or member name
        ValueRef when;            // the selector value written for the alternative, if any
        boolean directAlternative; // the member itself is a union alternative (not inside a group)

        Access access = Access.RW;
        Optional<QualifiedName> enumType = Optional.empty();
        Optional<QualifiedName> flagsType = Optional.empty();
        Constraints constraints = Constraints.NONE;
        Optional<FieldRef> capability = Optional.empty();
        OptionalLong tagValue = OptionalLong.empty();
        String selector = "";
        String variantSelector = "";
        Doc doc = Doc.NONE;

        LaidMember(MemberDecl decl, String name, long bitOffset, MemberType type, boolean reserved, SourceLocation location) {
            this.decl = decl;
            this.name = name;
            this.bitOffset = bitOffset;
            this.type = type;
            this.reserved = reserved;
            this.location = location;
        }

        long end() {
            return bitOffset + type.bitWidth();
        }

        boolean isScalar() {
            return type instanceof MemberType.Bits;
        }
    }
}

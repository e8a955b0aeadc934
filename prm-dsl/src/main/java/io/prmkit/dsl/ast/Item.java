package io.prmkit.dsl.ast;

import io.prmkit.dsl.SourceLocation;

/** Something that occupies space in a structure: a member, an inline union, or a union's struct group. */
public sealed interface Item permits MemberDecl, InlineUnion, GroupAlt {
    SourceLocation location();
}

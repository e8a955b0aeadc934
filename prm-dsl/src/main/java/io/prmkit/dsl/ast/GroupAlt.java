package io.prmkit.dsl.ast;

import io.prmkit.dsl.SourceLocation;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/** A union alternative made of several members: {@code struct NAME [when V] { members }}. */
public record GroupAlt(Name name, Optional<ValueRef> when, List<MemberDecl> members, String doc, SourceLocation location)
        implements Item {
    public GroupAlt {
        Objects.requireNonNull(name, "name == null");
        Objects.requireNonNull(when, "when == null");
        members = List.copyOf(members);
        Objects.requireNonNull(doc, "doc == null");
        Objects.requireNonNull(location, "location == null");
    }
}

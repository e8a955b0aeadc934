package io.prmkit.dsl.ast;

import io.prmkit.dsl.SourceLocation;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * One member row: optional placement, name, optional type, attributes and doc.
 *
 * @param doc the trailing doc string, else the joined {@code ///} lines before the row, else ""
 */
public record MemberDecl(
        Optional<Placement> placement,
        Name name,
        Optional<TypeRef> type,
        List<Attr> attrs,
        String doc,
        SourceLocation location) implements Item {

    public MemberDecl {
        Objects.requireNonNull(placement, "placement == null");
        Objects.requireNonNull(name, "name == null");
        Objects.requireNonNull(type, "type == null");
        attrs = List.copyOf(attrs);
        Objects.requireNonNull(doc, "doc == null");
        Objects.requireNonNull(location, "location == null");
    }

    /** Reserved space: a name beginning with "reserved". */
    public boolean isReserved() {
        return name.text().startsWith("reserved");
    }
}

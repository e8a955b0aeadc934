package io.prmkit.dsl.ast;

import io.prmkit.dsl.SourceLocation;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/** {@code [offset] union [NAME] [size N] [tag F] { alternatives }} inside a struct. */
public record InlineUnion(
        Optional<Placement> placement,
        Optional<Name> name,
        Optional<Num> size,
        Optional<Name> tag,
        List<Item> alternatives,
        SourceLocation location) implements Item {

    public InlineUnion {
        Objects.requireNonNull(placement, "placement == null");
        Objects.requireNonNull(name, "name == null");
        Objects.requireNonNull(size, "size == null");
        Objects.requireNonNull(tag, "tag == null");
        alternatives = List.copyOf(alternatives);
        Objects.requireNonNull(location, "location == null");
    }
}

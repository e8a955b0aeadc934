package io.prmkit.dsl.ast;

import io.prmkit.dsl.SourceLocation;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/** {@code enum} or {@code flags} declaration. */
public record EnumDecl(Name name, boolean flags, Optional<Num> width, List<Value> values, String doc, SourceLocation location)
        implements Decl {
    public EnumDecl {
        Objects.requireNonNull(name, "name == null");
        Objects.requireNonNull(width, "width == null");
        values = List.copyOf(values);
        Objects.requireNonNull(doc, "doc == null");
        Objects.requireNonNull(location, "location == null");
    }

    @Override
    public String kindWord() {
        return flags ? "flags" : "enum";
    }

    /** {@code NAME = N ["doc"] [detail "..."];} */
    public record Value(Name name, Num value, String doc, String detail, SourceLocation location) {
        public Value {
            Objects.requireNonNull(name, "name == null");
            Objects.requireNonNull(value, "value == null");
            Objects.requireNonNull(doc, "doc == null");
            Objects.requireNonNull(detail, "detail == null");
            Objects.requireNonNull(location, "location == null");
        }
    }
}

package io.prmkit.dsl.ast;

import io.prmkit.dsl.SourceLocation;
import java.util.Objects;

/** An identifier as written, with where it was written. */
public record Name(String text, SourceLocation location) {
    public Name {
        Objects.requireNonNull(text, "text == null");
        Objects.requireNonNull(location, "location == null");
    }

    @Override
    public String toString() {
        return text;
    }
}

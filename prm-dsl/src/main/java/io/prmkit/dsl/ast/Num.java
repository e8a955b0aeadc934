package io.prmkit.dsl.ast;

import io.prmkit.dsl.SourceLocation;
import java.util.Objects;

/** An integer literal: its unsigned 64-bit value and its spelling (kept for messages). */
public record Num(long value, String text, SourceLocation location) implements ValueRef {
    public Num {
        Objects.requireNonNull(text, "text == null");
        Objects.requireNonNull(location, "location == null");
    }

    @Override
    public String toString() {
        return text;
    }
}

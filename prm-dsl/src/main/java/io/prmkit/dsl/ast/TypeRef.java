package io.prmkit.dsl.ast;

import io.prmkit.dsl.SourceLocation;
import java.util.Objects;
import java.util.Optional;

/**
 * A member's type as written after the colon: a width in bits or a name ({@code u32}, a struct),
 * optionally an array ({@code [N]}, N an integer or a named constant, or {@code []} for a flexible
 * trailing array).
 */
public record TypeRef(Optional<Num> width, Optional<QName> name, Arity arity, Optional<ValueRef> count, SourceLocation location) {

    public enum Arity { SINGLE, FIXED, FLEXIBLE }

    public TypeRef {
        Objects.requireNonNull(width, "width == null");
        Objects.requireNonNull(name, "name == null");
        Objects.requireNonNull(arity, "arity == null");
        Objects.requireNonNull(count, "count == null");
        Objects.requireNonNull(location, "location == null");
        if (width.isPresent() == name.isPresent()) throw new IllegalArgumentException("a type is a width or a name");
        if ((arity == Arity.FIXED) != count.isPresent()) throw new IllegalArgumentException("count iff fixed array");
    }

    @Override
    public String toString() {
        String base = width.map(Num::text).orElseGet(() -> name.orElseThrow().dotted());
        return switch (arity) {
            case SINGLE -> base;
            case FIXED -> base + "[" + count.orElseThrow() + "]";
            case FLEXIBLE -> base + "[]";
        };
    }
}

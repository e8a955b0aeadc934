package io.prmkit.dsl.ast;

import io.prmkit.dsl.SourceLocation;
import java.util.Objects;
import java.util.Optional;

/**
 * A member's type as written after the colon: a width in bits or a name ({@code u32}, a struct),
 * optionally an array ({@code [N]}, N an integer or a named constant, or {@code []} for a flexible
 * trailing array).
 */
public record TypeRef(Optional<Num> width, Optional<QName> name, Arity arity, Optional<ValueRef> count, SourceLocation location,
        Optional<Builtin> builtin) {

    public enum Arity { SINGLE, FIXED, FLEXIBLE }

    /** The built-in unsigned types, recognised once when the type is built (a simple name only). */
    public enum Builtin {
        U8(8), U16(16), U32(32), U64(64);

        public final int bits;

        Builtin(int bits) {
            this.bits = bits;
        }

        /** {@code u8}, {@code u16}, {@code u32} or {@code u64} written as a simple name. */
        public static Optional<Builtin> of(Optional<QName> name) {
            if (name.isEmpty() || !name.get().isSimple()) return Optional.empty();
            for (Builtin b : values()) {
                if (name.get().last().equals("u" + b.bits)) return Optional.of(b);
            }
            return Optional.empty();
        }
    }

    public TypeRef(Optional<Num> width, Optional<QName> name, Arity arity, Optional<ValueRef> count, SourceLocation location) {
        this(width, name, arity, count, location, Builtin.of(name));
    }

    public TypeRef {
        Objects.requireNonNull(builtin, "builtin == null");
        if (!builtin.equals(Builtin.of(name))) throw new IllegalArgumentException("builtin does not match the name");
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

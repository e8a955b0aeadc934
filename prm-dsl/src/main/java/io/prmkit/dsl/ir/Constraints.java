package io.prmkit.dsl.ir;

import java.util.Objects;
import java.util.OptionalLong;

/**
 * Value constraints a PRM states for one field. {@code log2} marks a field that holds the log2 of a
 * size (its range is then a range of exponents). {@code mustBeZero} holds for every reserved field
 * and for fields the spec marks {@code mbz}.
 */
public record Constraints(OptionalLong min, OptionalLong max, boolean powerOfTwo, boolean log2, boolean mustBeZero) {
    public static final Constraints NONE = new Constraints(OptionalLong.empty(), OptionalLong.empty(), false, false, false);
    public static final Constraints MBZ = new Constraints(OptionalLong.empty(), OptionalLong.empty(), false, false, true);

    public Constraints {
        Objects.requireNonNull(min, "min == null");
        Objects.requireNonNull(max, "max == null");
        if (min.isPresent() && max.isPresent() && Long.compareUnsigned(min.getAsLong(), max.getAsLong()) > 0) {
            throw new IllegalArgumentException("empty range " + Long.toUnsignedString(min.getAsLong()) + ".." + Long.toUnsignedString(max.getAsLong()));
        }
    }

    public boolean isEmpty() {
        return min.isEmpty() && max.isEmpty() && !powerOfTwo && !log2 && !mustBeZero;
    }
}

package io.prmkit.dsl.ir;

import io.prmkit.dsl.SourceLocation;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A named set of values. An {@link Kind#ENUM} names whole values of a field (opcodes, states,
 * syndromes); a {@link Kind#FLAGS} set names single bits of a field, each value being a bit number
 * counted from the field's least significant bit. Enums are open: a field may hold a value no
 * constant names, and readers must keep it.
 *
 * <p>The constructor throws {@link IllegalArgumentException} for a value that does not fit the width
 * (a flag's bit number: below it).
 *
 * @param width the field width the values are meant for, or 0 when the spec does not say
 */
public record EnumLayout(QualifiedName name, Kind kind, int width, List<EnumValue> values, Doc doc, SourceLocation location) {

    public enum Kind { ENUM, FLAGS }

    public EnumLayout {
        Objects.requireNonNull(name, "name == null");
        Objects.requireNonNull(kind, "kind == null");
        Objects.requireNonNull(doc, "doc == null");
        Objects.requireNonNull(location, "location == null");
        values = List.copyOf(values);
        if (width < 0 || width > 64) throw new IllegalArgumentException("bad enum width " + width);
        for (EnumValue v : values) {
            if (kind == Kind.FLAGS ? Long.compareUnsigned(v.value(), width == 0 ? 64 : width) >= 0
                    : width > 0 && width < 64 && Long.compareUnsigned(v.value(), 1L << width) >= 0) {
                throw new IllegalArgumentException(name + "." + v.name() + ": " + (kind == Kind.FLAGS ? "bit " : "value ")
                        + Long.toUnsignedString(v.value()) + " does not fit " + (width == 0 ? "64" : width) + " bits");
            }
        }
    }

    /** The first constant with this value, if any. */
    public Optional<EnumValue> byValue(long value) {
        for (EnumValue v : values) {
            if (v.value() == value) return Optional.of(v);
        }
        return Optional.empty();
    }

    /**
     * One named value.
     *
     * @param detail an optional longer explanation, e.g. the likely cause of an error syndrome
     */
    public record EnumValue(String name, long value, Doc doc, String detail, SourceLocation location) {
        public EnumValue {
            Objects.requireNonNull(name, "name == null");
            Objects.requireNonNull(doc, "doc == null");
            Objects.requireNonNull(detail, "detail == null");
            Objects.requireNonNull(location, "location == null");
        }
    }
}

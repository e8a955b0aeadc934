package io.prmkit.dsl.ir;

import io.prmkit.dsl.SourceLocation;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * One logical field the PRM splits over several bit fields of a structure: {@code mkc.access_mode},
 * 5 bits, held by {@code access_mode_4_2} (bits 4..2 of the value) and {@code access_mode_1_0} (bits
 * 1..0); or a {@code _high}/{@code _low} pair. The whole value is
 * {@code OR over parts of (part << part.shift)}; bits of the value no part holds lie below the lowest
 * part (an address whose low part starts at bit 12 is 4 KiB aligned) and are zero.
 *
 * <p>The constructor throws {@link IllegalArgumentException} for parts that overlap, reach past bit 63,
 * leave a gap between them, or a value whose width is not the top of its highest part.
 *
 * @param name     the whole field's name ({@code access_mode})
 * @param bitWidth the whole value's width: the top bit of its most significant part plus one, 2..64
 * @param parts    most significant first
 * @param enumType the enum naming the whole value, if any
 * @param doc      description and PRM reference
 * @param location where it is declared
 */
public record Join(String name, int bitWidth, List<Part> parts, Optional<QualifiedName> enumType, Doc doc, SourceLocation location) {

    /**
     * A part: the bit field {@code field} of {@code width} bits holds bits
     * {@code shift + width - 1 .. shift} of the whole value.
     */
    public record Part(String field, int width, int shift) {
        public Part {
            Objects.requireNonNull(field, "field == null");
            if (width < 1 || shift < 0 || shift + width > 64) {
                throw new IllegalArgumentException(field + ": bits " + (shift + width - 1) + ".." + shift + " are not within a 64-bit value");
            }
        }

        /** The part's bits in the whole value. */
        public long mask() {
            return (width == 64 ? -1L : (1L << width) - 1) << shift;
        }
    }

    public Join {
        Objects.requireNonNull(name, "name == null");
        parts = List.copyOf(parts);
        Objects.requireNonNull(enumType, "enumType == null");
        Objects.requireNonNull(doc, "doc == null");
        Objects.requireNonNull(location, "location == null");
        if (parts.size() < 2) throw new IllegalArgumentException(name + ": a join has at least two parts");
        for (int i = 1; i < parts.size(); i++) {
            Part hi = parts.get(i - 1);
            Part lo = parts.get(i);
            if (lo.shift() + lo.width() != hi.shift()) {
                throw new IllegalArgumentException(name + ": " + lo.field() + " does not end where " + hi.field() + " starts (overlap or gap)");
            }
        }
        Part top = parts.get(0);
        if (bitWidth != top.shift() + top.width()) throw new IllegalArgumentException(name + ": width " + bitWidth + " is not the top of " + top.field());
    }

    /** The parts as the spec's long form writes them: {@code access_mode_4_2 [4:2], access_mode_1_0 [1:0]}. */
    public String partsText() {
        List<String> out = new java.util.ArrayList<>();
        for (Part p : parts) {
            int hi = p.shift() + p.width() - 1;
            out.add(p.field() + (hi == p.shift() ? " [" + hi + "]" : " [" + hi + ":" + p.shift() + "]"));
        }
        return String.join(", ", out);
    }

    /** The bits of the value that the parts hold (the rest are zero). */
    public long mask() {
        long m = 0;
        for (Part p : parts) m |= p.mask();
        return m;
    }
}

package io.prmkit.dsl.ast;

import io.prmkit.dsl.SourceLocation;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * {@code join NAME = part [hi:lo], part [hi:lo] [enum E] ["doc"];}: one logical field split over several
 * bit fields of its structure. {@code join NAME;} alone (no parts) is the pair {@code NAME_high, NAME_low}.
 *
 * @param name  the whole field's name
 * @param parts the parts as written, most significant first (empty for the {@code _high}/{@code _low} shorthand)
 * @param attrs the attributes as written (the joins pass accepts {@code enum}, {@code ref}, {@code since})
 * @param doc   the doc string, or the {@code ///} lines before the declaration
 */
public record JoinDecl(Name name, List<Part> parts, List<Attr> attrs, String doc, SourceLocation location) {
    public JoinDecl {
        Objects.requireNonNull(name, "name == null");
        parts = List.copyOf(parts);
        attrs = List.copyOf(attrs);
        Objects.requireNonNull(doc, "doc == null");
        Objects.requireNonNull(location, "location == null");
    }

    /** A part: a bit field of the structure and, when written, the bits {@code [hi:lo]} of the whole value it holds. */
    public record Part(Name field, Optional<Placement.BitRange> bits, SourceLocation location) {
        public Part {
            Objects.requireNonNull(field, "field == null");
            Objects.requireNonNull(bits, "bits == null");
            Objects.requireNonNull(location, "location == null");
        }
    }
}

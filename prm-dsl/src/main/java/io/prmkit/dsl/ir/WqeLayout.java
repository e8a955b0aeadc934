package io.prmkit.dsl.ir;

import io.prmkit.dsl.SourceLocation;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * A work queue entry as the PRM draws it: segments in order, the size the device reads, the values
 * its rules need from the device, and rules across segments. A walker places the segments: each
 * starts where the previous one ended, rounded up to 16 bytes (a DS unit); an optional one only when
 * its condition holds; inline bytes may start inside an earlier segment (the Ethernet segment's
 * {@code inline_hdr_start}); a repeated segment takes elements to the end of the WQE, each the
 * first alternative whose condition holds on its own fields. A rule that reads a field of a
 * repeated segment's alternative holds for every element of it.
 *
 * @param size        the WQE's bytes, over the segments before the first non-fixed one and the givens
 * @param sizeMessage what a WQE whose segments do not fit its size breaks
 * @param match       which WQEs of a queue this declaration describes (over its leading fixed segments), if it says
 * @throws IllegalArgumentException for names that break the above
 */
public record WqeLayout(QualifiedName name, Expr size, String sizeMessage, Optional<Expr> match, List<Given> givens, List<Segment> segments,
                        List<Rule> rules, Doc doc, SourceLocation location) {
    /** A WQE is made of 16-byte units (DS). */
    public static final long UNIT = 16;

    public WqeLayout {
        Objects.requireNonNull(name, "name == null");
        Objects.requireNonNull(size, "size == null");
        Objects.requireNonNull(sizeMessage, "sizeMessage == null");
        Objects.requireNonNull(match, "match == null");
        givens = List.copyOf(givens);
        segments = List.copyOf(segments);
        rules = List.copyOf(rules);
        Objects.requireNonNull(doc, "doc == null");
        Objects.requireNonNull(location, "location == null");
        if (segments.isEmpty()) throw new IllegalArgumentException(name + " has no segments");
        Set<String> names = new HashSet<>();
        for (Given g : givens) if (!names.add(g.name())) throw new IllegalArgumentException(name + ": name " + g.name() + " used twice");
        for (int i = 0; i < segments.size(); i++) {
            Segment s = segments.get(i);
            if (!names.add(s.name())) throw new IllegalArgumentException(name + ": name " + s.name() + " used twice");
            if (s.kind() == Kind.REPEATED && i != segments.size() - 1) throw new IllegalArgumentException(name + ": repeated " + s.name() + " is not last");
            for (Segment a : s.alternatives()) if (!names.add(a.name())) throw new IllegalArgumentException(name + ": name " + a.name() + " used twice");
        }
    }

    /** A value the device holds: a capability or context field, or (with {@code lookup}) a structure by key. */
    public record Given(String name, Optional<QualifiedName> lookup, Optional<QualifiedName> enumType, String doc) {
        public Given {
            Objects.requireNonNull(name, "name == null");
            Objects.requireNonNull(lookup, "lookup == null");
            Objects.requireNonNull(enumType, "enumType == null");
            Objects.requireNonNull(doc, "doc == null");
        }
    }

    public enum Kind { STRUCT, INLINE, REPEATED }

    /**
     * A segment. STRUCT: {@code struct}, its bytes ({@code size} over its own fields, else the structure's
     * size), present when {@code when} holds. INLINE: {@code size} bytes from {@code at} (a segment and a byte
     * offset in it) or from the end of the previous segment. REPEATED: its {@code alternatives}.
     */
    public record Segment(String name, Kind kind, Optional<QualifiedName> struct, Optional<Expr> size, Optional<Anchor> at, Optional<Expr> when,
                          List<Segment> alternatives, String doc, SourceLocation location) {
        public Segment {
            Objects.requireNonNull(name, "name == null");
            Objects.requireNonNull(kind, "kind == null");
            Objects.requireNonNull(struct, "struct == null");
            Objects.requireNonNull(size, "size == null");
            Objects.requireNonNull(at, "at == null");
            Objects.requireNonNull(when, "when == null");
            alternatives = List.copyOf(alternatives);
            Objects.requireNonNull(doc, "doc == null");
            Objects.requireNonNull(location, "location == null");
            if ((kind == Kind.STRUCT) != struct.isPresent()) throw new IllegalArgumentException(name + ": a structure segment names its structure");
            if (kind == Kind.INLINE && size.isEmpty()) throw new IllegalArgumentException(name + ": inline bytes need a length");
            if ((kind == Kind.REPEATED) == alternatives.isEmpty()) throw new IllegalArgumentException(name + ": only a repeated segment has alternatives");
        }
    }

    /** Inline bytes that start inside an earlier segment: at {@code byteOffset} of segment {@code segment}. */
    public record Anchor(String segment, String member, long byteOffset) {
        public Anchor {
            Objects.requireNonNull(segment, "segment == null");
            Objects.requireNonNull(member, "member == null");
            if (byteOffset < 0) throw new IllegalArgumentException("negative offset");
        }
    }
}

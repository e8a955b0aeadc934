package io.prmkit.dsl.ast;

import io.prmkit.dsl.SourceLocation;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * {@code wqe NAME [ref "..."] { ... }}: a work queue entry as a sequence of segments, with its size,
 * the values its rules need from the device, and rules across segments (docs/dsl.md, "WQEs").
 *
 * @param size        {@code size EXPR "message";}: the WQE's bytes as the device reads them
 * @param sizeMessage the message when the segments do not fit that size
 * @param match       {@code match EXPR;}: which WQEs of a queue this declaration describes (over its first segment)
 */
public record WqeDecl(Name name, Optional<ExprNode> size, String sizeMessage, SourceLocation sizeLocation, Optional<ExprNode> match,
                      List<Given> givens, List<Segment> segments, List<RuleDecl> rules, String ref, String since, String doc,
                      SourceLocation location) implements Decl {
    public WqeDecl {
        Objects.requireNonNull(name, "name == null");
        Objects.requireNonNull(size, "size == null");
        Objects.requireNonNull(sizeMessage, "sizeMessage == null");
        Objects.requireNonNull(match, "match == null");
        givens = List.copyOf(givens);
        segments = List.copyOf(segments);
        rules = List.copyOf(rules);
        Objects.requireNonNull(ref, "ref == null");
        Objects.requireNonNull(since, "since == null");
        Objects.requireNonNull(doc, "doc == null");
        Objects.requireNonNull(location, "location == null");
    }

    @Override
    public String kindWord() {
        return "wqe";
    }

    /**
     * {@code given NAME [: STRUCT] [enum E] "doc";}: a value the device holds (a capability, a queue
     * context field), or with a structure, a lookup by key ({@code mkey(lkey).start_addr}).
     */
    public record Given(Name name, Optional<QName> lookup, Optional<QName> enumType, String doc, SourceLocation location) {
        public Given {
            Objects.requireNonNull(name, "name == null");
            Objects.requireNonNull(lookup, "lookup == null");
            Objects.requireNonNull(enumType, "enumType == null");
            Objects.requireNonNull(doc, "doc == null");
            Objects.requireNonNull(location, "location == null");
        }
    }

    /** What a segment is. */
    public enum Kind {
        /** A structure, present always or when its condition holds. */
        STRUCT,
        /** Inline bytes, padded to 16 bytes. */
        INLINE,
        /** A run of alternatives to the end of the WQE. */
        REPEATED
    }

    /**
     * One segment. STRUCT: {@code type}, an optional {@code size} (over its own fields) and {@code when}.
     * INLINE: {@code size} bytes, starting at member {@code at} of an earlier segment or after the previous one.
     * REPEATED: {@code alternatives}, each a STRUCT segment whose {@code when} reads its own fields.
     */
    public record Segment(Name name, Kind kind, Optional<QName> type, Optional<ExprNode> size, Optional<QName> at, Optional<ExprNode> when,
                          List<Segment> alternatives, String doc, SourceLocation location) {
        public Segment {
            Objects.requireNonNull(name, "name == null");
            Objects.requireNonNull(kind, "kind == null");
            Objects.requireNonNull(type, "type == null");
            Objects.requireNonNull(size, "size == null");
            Objects.requireNonNull(at, "at == null");
            Objects.requireNonNull(when, "when == null");
            alternatives = List.copyOf(alternatives);
            Objects.requireNonNull(doc, "doc == null");
            Objects.requireNonNull(location, "location == null");
        }
    }
}

package io.prmkit.dsl.ast;

import io.prmkit.dsl.SourceLocation;
import java.util.Objects;
import java.util.Optional;

/**
 * Where a member is placed: a byte offset, or (with a bit range) the byte offset of a dword and
 * the PRM bit range {@code [hi:lo]} within it.
 */
public record Placement(Num offset, Optional<BitRange> range, SourceLocation location) {
    public Placement {
        Objects.requireNonNull(offset, "offset == null");
        Objects.requireNonNull(range, "range == null");
        Objects.requireNonNull(location, "location == null");
    }

    /** {@code [hi:lo]} or {@code [bit]} (then lo is empty). */
    public record BitRange(Num hi, Optional<Num> lo, SourceLocation location) {
        public BitRange {
            Objects.requireNonNull(hi, "hi == null");
            Objects.requireNonNull(lo, "lo == null");
            Objects.requireNonNull(location, "location == null");
        }

        @Override
        public String toString() {
            return lo.map(l -> "[" + hi.text() + ":" + l.text() + "]").orElse("[" + hi.text() + "]");
        }
    }
}

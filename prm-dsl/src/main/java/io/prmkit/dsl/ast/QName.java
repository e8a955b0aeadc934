package io.prmkit.dsl.ast;

import io.prmkit.dsl.SourceLocation;
import java.util.List;
import java.util.Objects;

/** A possibly qualified name as written ({@code a.b.c}); its meaning is decided by the passes. */
public record QName(List<String> parts, SourceLocation location) implements ValueRef {
    public QName {
        parts = List.copyOf(parts);
        Objects.requireNonNull(location, "location == null");
        if (parts.isEmpty()) throw new IllegalArgumentException("empty qualified name");
    }

    public String dotted() {
        return String.join(".", parts);
    }

    public boolean isSimple() {
        return parts.size() == 1;
    }

    public String last() {
        return parts.get(parts.size() - 1);
    }

    /** All parts but the last, dotted ("" for a simple name). */
    public String prefix() {
        return String.join(".", parts.subList(0, parts.size() - 1));
    }

    /** All parts but the last, as a name (only for qualified names). */
    public QName withoutLast() {
        return new QName(parts.subList(0, parts.size() - 1), location);
    }

    @Override
    public String toString() {
        return dotted();
    }
}

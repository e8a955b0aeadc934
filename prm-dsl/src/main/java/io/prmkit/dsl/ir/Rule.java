package io.prmkit.dsl.ir;

import io.prmkit.dsl.SourceLocation;
import java.util.Objects;

/**
 * A cross-field rule of one structure: a boolean expression over its fields that must hold, and the
 * message to report when it does not.
 */
public record Rule(String name, Expr condition, String message, SourceLocation location) {
    public Rule {
        Objects.requireNonNull(name, "name == null");
        Objects.requireNonNull(condition, "condition == null");
        Objects.requireNonNull(message, "message == null");
        Objects.requireNonNull(location, "location == null");
    }
}

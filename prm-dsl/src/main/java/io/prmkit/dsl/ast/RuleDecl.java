package io.prmkit.dsl.ast;

import io.prmkit.dsl.SourceLocation;
import java.util.Objects;

/** {@code rule NAME: EXPR "message";} */
public record RuleDecl(Name name, ExprNode expr, String message, SourceLocation location) {
    public RuleDecl {
        Objects.requireNonNull(name, "name == null");
        Objects.requireNonNull(expr, "expr == null");
        Objects.requireNonNull(message, "message == null");
        Objects.requireNonNull(location, "location == null");
    }
}

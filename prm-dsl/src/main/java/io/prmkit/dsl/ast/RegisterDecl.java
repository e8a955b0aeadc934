package io.prmkit.dsl.ast;

import io.prmkit.dsl.SourceLocation;
import java.util.Objects;
import java.util.Optional;

/**
 * {@code register NAME [ref "..."] { id V; layout S; }}: a device register reached through the
 * command that carries registers (ACCESS_REG).
 *
 * @param id     the register id, when not the register's own name
 * @param layout the register's layout
 */
public record RegisterDecl(Name name, Optional<ValueRef> id, Optional<QName> layout, String ref, String since, String doc,
                           SourceLocation location) implements Decl {
    public RegisterDecl {
        Objects.requireNonNull(name, "name == null");
        Objects.requireNonNull(id, "id == null");
        Objects.requireNonNull(layout, "layout == null");
        Objects.requireNonNull(ref, "ref == null");
        Objects.requireNonNull(since, "since == null");
        Objects.requireNonNull(doc, "doc == null");
        Objects.requireNonNull(location, "location == null");
    }

    @Override
    public String kindWord() {
        return "register";
    }
}

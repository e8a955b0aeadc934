package io.prmkit.dsl.ast;

import io.prmkit.dsl.SourceLocation;
import java.util.Objects;

/** {@code const NAME = N ["doc"];} */
public record ConstDecl(Name name, Num value, String doc, SourceLocation location) implements Decl {
    public ConstDecl {
        Objects.requireNonNull(name, "name == null");
        Objects.requireNonNull(value, "value == null");
        Objects.requireNonNull(doc, "doc == null");
        Objects.requireNonNull(location, "location == null");
    }

    @Override
    public String kindWord() {
        return "const";
    }
}

package io.prmkit.dsl.ir;

import io.prmkit.dsl.SourceLocation;
import java.util.Objects;

/** A named integer constant of a spec package (e.g. the 64-byte send WQE basic block). */
public record Constant(QualifiedName name, long value, Doc doc, SourceLocation location) {
    public Constant {
        Objects.requireNonNull(name, "name == null");
        Objects.requireNonNull(doc, "doc == null");
        Objects.requireNonNull(location, "location == null");
    }
}

package io.prmkit.generator;

import io.prmkit.dsl.Diagnostic;
import java.util.List;

/**
 * The layout model cannot be turned into Java: names that collide once converted, or a member whose
 * placement the accessors cannot express. Carries every problem found as a located
 * {@link Diagnostic} (the same ones {@link AccessorGenerator#check} returns).
 */
public final class GeneratorException extends RuntimeException {
    private final List<Diagnostic> diagnostics;

    public GeneratorException(List<Diagnostic> diagnostics) {
        super(String.join("\n", diagnostics.stream().map(Diagnostic::toString).toList()));
        this.diagnostics = List.copyOf(diagnostics);
    }

    public List<Diagnostic> diagnostics() {
        return diagnostics;
    }

    /** Each diagnostic in its one-line form {@code file:line:col: error: message}. */
    public List<String> problems() {
        return diagnostics.stream().map(Diagnostic::toString).toList();
    }
}

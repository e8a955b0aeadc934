package io.prmkit.dsl;

import io.prmkit.dsl.ir.LayoutModel;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/** Diagnostics of a run, sorted by location, and the model, which is present iff there is no error. */
public record CompileResult(List<Diagnostic> diagnostics, Optional<LayoutModel> model) {
    public CompileResult {
        diagnostics = List.copyOf(diagnostics);
        Objects.requireNonNull(model, "model == null");
        if (model.isPresent() && diagnostics.stream().anyMatch(Diagnostic::isError)) {
            throw new IllegalArgumentException("a model with errors");
        }
    }

    public boolean hasErrors() {
        return diagnostics.stream().anyMatch(Diagnostic::isError);
    }

    public List<Diagnostic> errors() {
        return diagnostics.stream().filter(Diagnostic::isError).toList();
    }
}

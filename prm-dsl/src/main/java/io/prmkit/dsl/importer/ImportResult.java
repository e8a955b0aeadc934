package io.prmkit.dsl.importer;

import io.prmkit.dsl.Diagnostic;
import io.prmkit.dsl.SourceFile;
import io.prmkit.dsl.ir.LayoutModel;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * What an import produced: one DSL file per header (named like the header, ending in
 * {@code .prm}), and every note about what could not be translated as is, located at its header
 * line. When any note is an error there are no files: an import is whole or nothing. The files
 * always compile (the importer compiles them before it answers): {@code model} is their layout model.
 */
public record ImportResult(List<SourceFile> dslFiles, List<Diagnostic> notes, Optional<LayoutModel> model) {
    public ImportResult {
        dslFiles = List.copyOf(dslFiles);
        notes = List.copyOf(notes);
        Objects.requireNonNull(model, "model == null");
        if (!dslFiles.isEmpty() && notes.stream().anyMatch(Diagnostic::isError)) {
            throw new IllegalArgumentException("an import with errors has no output");
        }
        if (model.isPresent() == notes.stream().anyMatch(Diagnostic::isError)) {
            throw new IllegalArgumentException("an import has a model exactly when it has no errors");
        }
    }

    public boolean hasErrors() {
        return notes.stream().anyMatch(Diagnostic::isError);
    }
}

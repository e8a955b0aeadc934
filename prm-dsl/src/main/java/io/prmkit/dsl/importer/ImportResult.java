package io.prmkit.dsl.importer;

import io.prmkit.dsl.Diagnostic;
import io.prmkit.dsl.SourceFile;
import java.util.List;

/**
 * What an import produced: one DSL file per header (named like the header, ending in
 * {@code .prm}), and every note about what could not be translated as is, located at its header
 * line. When any note is an error there are no files: an import is whole or nothing.
 */
public record ImportResult(List<SourceFile> dslFiles, List<Diagnostic> notes) {
    public ImportResult {
        dslFiles = List.copyOf(dslFiles);
        notes = List.copyOf(notes);
        if (!dslFiles.isEmpty() && notes.stream().anyMatch(Diagnostic::isError)) {
            throw new IllegalArgumentException("an import with errors has no output");
        }
    }

    public boolean hasErrors() {
        return notes.stream().anyMatch(Diagnostic::isError);
    }
}

package io.prmkit.dsl;

import io.prmkit.dsl.ast.SpecFile;
import io.prmkit.dsl.parser.SpecParser;
import io.prmkit.dsl.passes.Passes;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * Spec text to layout model: parse every file, then run the semantic passes ({@link Passes}) over
 * all of them. Syntax errors in any file stop the run before the passes (a half-parsed file would
 * only cause follow-on errors elsewhere). Every error found is reported; the model is returned
 * only when there is none.
 */
public final class PrmCompiler {
    private PrmCompiler() {
    }

    public static CompileResult compile(List<SourceFile> files) {
        return compile(files, null);
    }

    /** Like {@link #compile(List)}, stopping after the named pass (a test hook; then there is no model). */
    public static CompileResult compile(List<SourceFile> files, String stopAfterPass) {
        List<Diagnostic> diags = new ArrayList<>();
        List<SpecFile> asts = new ArrayList<>();
        for (SourceFile f : files) {
            SpecParser.Result r = SpecParser.parse(f);
            diags.addAll(r.diagnostics());
            r.ast().ifPresent(asts::add);
        }
        if (diags.stream().anyMatch(Diagnostic::isError)) {
            return new CompileResult(sorted(diags), Optional.empty());
        }
        Passes.Outcome out = Passes.run(asts, stopAfterPass);
        diags.addAll(out.diagnostics());
        return new CompileResult(sorted(diags), out.model());
    }

    private static List<Diagnostic> sorted(List<Diagnostic> diags) {
        List<Diagnostic> out = new ArrayList<>(diags);
        out.sort(Comparator.comparing(Diagnostic::location)); // stable: same place keeps pass order
        return out;
    }
}

package io.prmkit.cli;

import io.prmkit.dsl.Diagnostic;
import io.prmkit.dsl.SourceFile;
import io.prmkit.dsl.Words;
import io.prmkit.generator.GeneratorOptions;
import io.prmkit.pipeline.Pipeline;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code prmkit check [SPEC...]}: compiles specs (the bundled spec by default) and prints only their diagnostics. */
@Command(name = "check", mixinStandardHelpOptions = true,
        description = "Checks spec files (or folders of *.prm files; default: the bundled mlx5 spec) and prints their diagnostics.",
        exitCodeList = {"0:no errors (warnings may be printed)", "1:the specs have errors, or cannot be read"})
public final class CheckCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Parameters(arity = "0..*", paramLabel = "SPEC", description = "Spec files or folders (default: the bundled mlx5 spec).")
    List<Path> specs;

    @Override
    public Integer call() {
        PrintWriter err = spec.commandLine().getErr();
        List<SourceFile> files;
        try {
            files = SpecInput.load(specs, spec);
        } catch (SpecInput.Failed e) {
            return PrmkitCli.INPUT_ERROR;
        }
        Pipeline.Result r = Pipeline.check(files, List.of(), GeneratorOptions.defaults());
        report(r, files, err);
        return r.hasErrors() ? PrmkitCli.INPUT_ERROR : PrmkitCli.OK;
    }

    /** Prints every diagnostic with its source line and caret, then a count of errors and warnings. */
    static void report(Pipeline.Result r, List<SourceFile> files, PrintWriter err) {
        report(r.diagnostics(), r.errorCount(), files, err);
    }

    private static void report(List<Diagnostic> diagnostics, long errors, List<SourceFile> files, PrintWriter err) {
        SpecInput.print(diagnostics, files, err);
        long warnings = diagnostics.size() - errors;
        if (errors + warnings > 0) {
            err.println(Words.plural(errors, "error") + (warnings > 0 ? ", " + Words.plural(warnings, "warning") : ""));
        }
        err.flush();
    }
}

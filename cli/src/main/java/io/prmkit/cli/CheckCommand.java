package io.prmkit.cli;

import io.prmkit.dsl.CompileResult;
import io.prmkit.dsl.Diagnostic;
import io.prmkit.dsl.PrmCompiler;
import io.prmkit.dsl.SourceFile;
import java.io.PrintWriter;
import io.prmkit.generator.AccessorGenerator;
import io.prmkit.generator.GeneratorOptions;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code prmkit check SPEC...}: compiles specs and prints only their diagnostics. Exit 1 on any error. */
@Command(name = "check", mixinStandardHelpOptions = true,
        description = "Checks spec files (or directories of *.prm files) and prints their diagnostics.",
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:no errors (warnings may be printed)", "1:the specs have errors, or cannot be read", "2:usage error"})
public final class CheckCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Parameters(arity = "1..*", paramLabel = "SPEC", description = "Spec files or directories.")
    List<Path> specs;

    @Override
    public Integer call() {
        PrintWriter err = spec.commandLine().getErr();
        List<SourceFile> files;
        try {
            files = SpecInput.load(specs);
        } catch (SpecInput.InputException e) {
            err.println("prmkit: " + e.getMessage());
            return 1;
        }
        CompileResult r = withGeneratorChecks(PrmCompiler.compile(files));
        report(r, files, err);
        return r.hasErrors() ? 1 : 0;
    }

    /**
     * Adds what the generator would refuse (colliding Java names, unplaceable members), so a spec
     * {@code check} accepts also generates.
     */
    static CompileResult withGeneratorChecks(CompileResult r) {
        if (r.model().isEmpty()) return r;
        List<Diagnostic> generator = new AccessorGenerator(GeneratorOptions.defaults()).check(r.model().get());
        if (generator.isEmpty()) return r;
        List<Diagnostic> all = new ArrayList<>(r.diagnostics());
        all.addAll(generator);
        return new CompileResult(all, generator.stream().anyMatch(Diagnostic::isError) ? java.util.Optional.empty() : r.model());
    }

    /** Prints every diagnostic with its source line and caret, then a count of errors and warnings. */
    static void report(CompileResult r, List<SourceFile> files, PrintWriter err) {
        SpecInput.print(r.diagnostics(), files, err);
        long errors = r.errors().size();
        long warnings = r.diagnostics().size() - errors;
        if (errors + warnings > 0) {
            err.println(count(errors, "error") + (warnings > 0 ? ", " + count(warnings, "warning") : ""));
        }
        err.flush();
    }

    private static String count(long n, String word) {
        return n + " " + word + (n == 1 ? "" : "s");
    }
}

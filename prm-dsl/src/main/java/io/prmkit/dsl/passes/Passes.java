package io.prmkit.dsl.passes;

import io.prmkit.dsl.Diagnostic;
import io.prmkit.dsl.ast.SpecFile;
import io.prmkit.dsl.ir.LayoutModel;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** The semantic passes, in order. */
public final class Passes {
    private Passes() {
    }

    /** A fresh pass list (passes are stateless, but a new list keeps callers from sharing one). */
    public static List<Pass> all() {
        return List.of(
                new PackagesPass(),
                new EnumsPass(),
                new TypesPass(),
                new LayoutPass(),
                new CoveragePass(),
                new MembersPass(),
                new RulesPass(),
                new JoinsPass(),
                new CommandsPass(),
                new WqesPass(),
                new BuildIrPass());
    }

    public static List<String> names() {
        return all().stream().map(Pass::name).toList();
    }

    /** What running the passes gave: all diagnostics, and the model when no pass reported an error. */
    public record Outcome(List<Diagnostic> diagnostics, Optional<LayoutModel> model) {
        public Outcome {
            diagnostics = List.copyOf(diagnostics);
        }
    }

    /**
     * Runs the passes over parsed files, stopping after the pass named {@code stopAfter} (a test
     * hook; null runs all). The model is present only if every pass ran and none reported an error.
     */
    public static Outcome run(List<SpecFile> files, String stopAfter) {
        if (stopAfter != null && !names().contains(stopAfter)) {
            throw new IllegalArgumentException("no pass named " + stopAfter + "; passes: " + names());
        }
        return run(new Compilation(files), stopAfter);
    }

    /** {@link #run(List, String)} on a given compilation (tests look at what the passes left in it). */
    static Outcome run(Compilation c, String stopAfter) {
        List<Diagnostic> diags = new ArrayList<>();
        boolean ranAll = true;
        boolean errors = false;
        for (Pass p : all()) {
            if (errors && !p.runsAfterErrors()) {
                ranAll = false;
                break;
            }
            diags.addAll(p.run(c));
            errors = diags.stream().anyMatch(Diagnostic::isError);
            if (p.name().equals(stopAfter)) {
                ranAll = stopAfter.equals(names().get(names().size() - 1));
                break;
            }
        }
        return new Outcome(diags, ranAll && !errors ? Optional.ofNullable(c.model) : Optional.empty());
    }
}

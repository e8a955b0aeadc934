package io.prmkit.cli;

import io.prmkit.dsl.Diagnostic;
import io.prmkit.dsl.SourceFile;
import io.prmkit.dsl.Words;
import io.prmkit.dsl.importer.ImportOptions;
import io.prmkit.dsl.ir.LayoutModel;
import io.prmkit.pipeline.Inputs;
import io.prmkit.pipeline.Pipeline;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import picocli.CommandLine.Model.CommandSpec;

/**
 * Turns a command-line path into a layout model: a {@code .prm} file or a folder of them is
 * compiled; a C header (or a folder holding {@code mlx5_ifc*.h} and no {@code .prm}) is imported
 * first. Problems are printed with their location and end in {@link SpecInput.Failed}.
 */
final class LayoutInput {
    private LayoutInput() {}

    static LayoutModel load(Path path, ImportOptions options, CommandSpec cmd) throws SpecInput.Failed {
        PrintWriter err = cmd.commandLine().getErr();
        List<Path> headers;
        try {
            headers = headers(path);
        } catch (IOException e) {
            SpecInput.say(cmd, err, path + ": " + Inputs.reason(path, e));
            throw new SpecInput.Failed();
        }
        if (headers.isEmpty()) {
            Inputs.Read read = Inputs.specs(List.of(path));
            failOnProblems(read, cmd, "no .prm files and no mlx5_ifc*.h headers");
            return compile(read.files(), path.toString(), cmd);
        }
        Inputs.Read read = Inputs.headers(headers);
        failOnProblems(read, cmd, null);
        Pipeline.Result r = Pipeline.compile(List.of(), read.files(), options);
        // The importer's notes (what it translated how) are import-ifc's to print; its errors stop here.
        List<Diagnostic> errors = r.diagnostics().stream().filter(Diagnostic::isError).toList();
        SpecInput.print(errors, read.files(), err);
        if (r.hasErrors() || r.model().isEmpty()) {
            SpecInput.say(cmd, err, path + ": the header could not be imported (" + Words.plural(errors.size(), "error") + ")");
            throw new SpecInput.Failed();
        }
        return r.model().get();
    }

    private static void failOnProblems(Inputs.Read read, CommandSpec cmd, String emptyFolder) throws SpecInput.Failed {
        if (!read.hasProblems()) return;
        List<Diagnostic> problems = new ArrayList<>();
        for (Diagnostic d : read.problems()) {
            // a folder without specs may hold headers only when it names none: say both
            problems.add(emptyFolder != null && d.message().equals("no .prm files in this folder")
                    ? Diagnostic.error(d.location(), emptyFolder + " in this folder") : d);
        }
        SpecInput.print(problems, read.files(), cmd.commandLine().getErr());
        throw new SpecInput.Failed();
    }

    /**
     * Specs compiled through the pipeline, as {@code check} compiles them; their diagnostics, warnings
     * too, printed as {@code check} prints them. {@link SpecInput.Failed} when they do not compile.
     */
    static LayoutModel compile(List<SourceFile> sources, String what, CommandSpec cmd) throws SpecInput.Failed {
        return model(Pipeline.compile(sources, List.of()), sources, what, cmd);
    }

    /** The model of a pipeline result, its diagnostics printed as {@code check} prints them; {@link SpecInput.Failed} on errors. */
    static LayoutModel model(Pipeline.Result r, List<SourceFile> sources, String what, CommandSpec cmd) throws SpecInput.Failed {
        PrintWriter err = cmd.commandLine().getErr();
        CheckCommand.report(r, sources, err);
        if (r.hasErrors() || r.model().isEmpty()) {
            SpecInput.say(cmd, err, what + ": the spec does not compile (" + Words.plural(r.errorCount(), "error") + ")");
            throw new SpecInput.Failed();
        }
        return r.model().get();
    }

    /** The headers a path names: itself if it is a .h file, the mlx5_ifc*.h of a folder without .prm files. */
    private static List<Path> headers(Path path) throws IOException {
        if (!Files.isDirectory(path)) {
            return path.getFileName() != null && path.getFileName().toString().endsWith(".h") ? List.of(path) : List.of();
        }
        try (Stream<Path> all = Files.walk(path)) {
            if (all.anyMatch(p -> p.getFileName().toString().endsWith(".prm"))) return List.of();
        }
        try (Stream<Path> here = Files.list(path)) {
            return here.filter(p -> {
                String n = p.getFileName().toString();
                return n.startsWith("mlx5_ifc") && n.endsWith(".h") && Files.isRegularFile(p);
            }).sorted().toList();
        }
    }
}

package io.prmkit.cli;

import io.prmkit.dsl.Diagnostic;
import io.prmkit.dsl.DiagnosticPrinter;
import io.prmkit.dsl.SourceFile;
import io.prmkit.dsl.Words;
import io.prmkit.pipeline.InputFile;
import io.prmkit.pipeline.Inputs;
import io.prmkit.pipeline.OutputSync;
import io.prmkit.pipeline.Pipeline;
import io.prmkit.dsl.ir.LayoutModel;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Model.CommandSpec;

/**
 * Where the CLI gets spec text: files and folders named on the command line (read by the shared
 * {@link Inputs}: strict UTF-8, each file once, size limit), or the bundled spec; and how it prints
 * problems.
 */
final class SpecInput {
    /** Resource listing the bundled spec files, one path relative to {@code prm/} per line. */
    static final String BUNDLED_INDEX = "prm/index.txt";

    /** The problem was already printed; the command exits with 1. */
    static final class Failed extends Exception {
        Failed() {
            super(null, null, false, false);
        }
    }

    private SpecInput() {
    }

    /** Prints diagnostics the compiler way: {@code file:line:col: error: ...}, the source line, a caret. */
    static void print(List<Diagnostic> diagnostics, List<SourceFile> files, PrintWriter err) {
        Map<String, SourceFile> byName = new LinkedHashMap<>();
        files.forEach(f -> byName.put(f.name(), f));
        for (Diagnostic d : diagnostics) {
            err.print(DiagnosticPrinter.render(d, byName));
        }
    }

    /** One message from a command: {@code prmkit COMMAND: message}. */
    static void say(CommandSpec cmd, PrintWriter err, String message) {
        err.println(cmd.qualifiedName() + ": " + message);
        err.flush();
    }

    /**
     * Why writing to the folder {@code output} failed, for {@code generate}, {@code doc} and
     * {@code import-ifc}: the path that blocked as the user would write it (below {@code output}),
     * then the reason; the caller adds that nothing was written (the folder is as it was).
     */
    static String cannotWrite(Path output, IOException e) {
        Path root = output.toAbsolutePath().normalize();
        if (e instanceof OutputSync.Blocked b && !b.path().equals(root)) {
            Path shown = b.path().startsWith(root) ? output.resolve(root.relativize(b.path())) : b.path();
            return "cannot write " + shown + ": " + (e instanceof OutputSync.FileNotAFolder ? "is a file, not a folder" : b.reason());
        }
        return "cannot write to " + output + ": " + Inputs.reason(output, e);
    }

    /** The specs named (files or folders), or the bundled spec when none is named. Problems are printed, then {@link Failed}. */
    static List<SourceFile> load(List<Path> specs, CommandSpec cmd) throws Failed {
        PrintWriter err = cmd.commandLine().getErr();
        if (specs == null || specs.isEmpty()) return bundled(SpecInput.class.getClassLoader(), cmd);
        Inputs.Read read = Inputs.specs(specs);
        if (read.hasProblems()) {
            print(read.problems(), read.files(), err);
            say(cmd, err, Words.plural(read.problems().size(), "error") + " reading the specs");
            throw new Failed();
        }
        return read.files();
    }

    /** The bundled spec's model, compiled once per JVM (a model is immutable); null until the first call. */
    private static volatile LayoutModel bundledModel;

    /**
     * The bundled spec compiled through the pipeline, as {@code check} compiles it; compiled once per
     * JVM, since decode reads every dump through it. Problems are printed, then {@link Failed}.
     */
    static LayoutModel bundledModel(CommandSpec cmd) throws Failed {
        LayoutModel m = bundledModel;
        if (m != null) return m;
        List<SourceFile> files = bundled(SpecInput.class.getClassLoader(), cmd);
        Pipeline.Result r = Pipeline.compile(files, List.of());
        if (r.model().isEmpty() || r.hasErrors()) {
            PrintWriter err = cmd.commandLine().getErr();
            print(r.diagnostics(), files, err);
            say(cmd, err, "the bundled spec does not compile (" + Words.plural(r.errorCount(), "error") + ")");
            throw new Failed();
        }
        bundledModel = r.model().get();
        return bundledModel;
    }

    /** The spec packaged under {@code prm/} on the class path (the generated-runtime jar), listed by {@code prm/index.txt}. */
    static List<SourceFile> bundled(ClassLoader cl, CommandSpec cmd) throws Failed {
        PrintWriter err = cmd.commandLine().getErr();
        List<String> names = new ArrayList<>();
        try (InputStream in = cl.getResourceAsStream(BUNDLED_INDEX)) {
            if (in == null) {
                say(cmd, err, "no bundled spec is available (no " + BUNDLED_INDEX + " on the class path); name spec files or folders");
                throw new Failed();
            }
            try (BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
                for (String line = r.readLine(); line != null; line = r.readLine()) {
                    String name = line.strip();
                    if (!name.isEmpty() && !name.startsWith("#")) names.add(name);
                }
            }
            List<SourceFile> files = new ArrayList<>();
            for (String name : names) {
                String resource = "prm/" + name;
                try (InputStream s = cl.getResourceAsStream(resource)) {
                    if (s == null) {
                        say(cmd, err, BUNDLED_INDEX + " lists " + name + ", which is not on the class path");
                        throw new Failed();
                    }
                    Inputs.Decoded d = Inputs.decode(new InputFile(resource, s.readNBytes((int) Inputs.MAX_FILE_BYTES)));
                    if (!d.ok()) {
                        print(List.of(d.problem()), List.of(), err);
                        throw new Failed();
                    }
                    files.add(d.file());
                }
            }
            if (files.isEmpty()) {
                say(cmd, err, BUNDLED_INDEX + " lists no spec files");
                throw new Failed();
            }
            return files;
        } catch (IOException e) {
            say(cmd, err, "cannot read the bundled spec: " + e.getMessage());
            throw new Failed();
        }
    }
}

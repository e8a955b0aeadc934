package io.prmkit.pipeline;

import io.prmkit.dsl.CompileResult;
import io.prmkit.dsl.Diagnostic;
import io.prmkit.dsl.PrmCompiler;
import io.prmkit.dsl.SourceFile;
import io.prmkit.dsl.importer.IfcImporter;
import io.prmkit.dsl.importer.ImportOptions;
import io.prmkit.dsl.importer.ImportResult;
import io.prmkit.dsl.ir.LayoutModel;
import io.prmkit.generator.AccessorGenerator;
import io.prmkit.generator.GeneratedFile;
import io.prmkit.generator.GeneratorException;
import io.prmkit.generator.GeneratorOptions;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The shared middle of every front end: headers imported (if any), specs compiled, the layout model
 * turned into Java. Reading comes before ({@link Inputs}), writing after ({@link OutputSync}); none of
 * these steps knows which front end called it.
 */
public final class Pipeline {
    private Pipeline() {}

    /**
     * Diagnostics of every severity (header import first, then the compiler's, then the generator's);
     * the model when the specs compiled; and the files, none when there is an error.
     */
    public record Result(List<Diagnostic> diagnostics, Optional<LayoutModel> model, List<OutputFile> files) {
        public Result {
            diagnostics = List.copyOf(diagnostics);
            files = List.copyOf(files);
            if (!files.isEmpty() && diagnostics.stream().anyMatch(Diagnostic::isError)) {
                throw new IllegalArgumentException("files generated despite errors");
            }
        }

        public boolean hasErrors() {
            return diagnostics.stream().anyMatch(Diagnostic::isError);
        }

        public long errorCount() {
            return diagnostics.stream().filter(Diagnostic::isError).count();
        }
    }

    /** Imports the headers into spec package {@code mlx5} and compiles them with the specs. */
    public static Result compile(List<SourceFile> specs, List<SourceFile> headers) {
        return compile(specs, headers, ImportOptions.DEFAULTS);
    }

    /**
     * Imports the headers with {@code options} and compiles them with the specs: the one way every
     * front end turns spec text into a layout model ({@code check}, {@code generate}, {@code layout},
     * {@code diff}, {@code doc}, {@code decode}, the Maven plugin). Headers alone are compiled once,
     * by the importer, which answers with their model.
     */
    public static Result compile(List<SourceFile> specs, List<SourceFile> headers, ImportOptions options) {
        List<Diagnostic> diagnostics = new ArrayList<>();
        List<SourceFile> all = specs;
        if (!headers.isEmpty()) {
            ImportResult imported = IfcImporter.importSources(headers, options);
            diagnostics.addAll(imported.notes());
            if (imported.hasErrors()) return new Result(diagnostics, Optional.empty(), List.of());
            if (specs.isEmpty()) return new Result(diagnostics, imported.model(), List.of());
            all = new ArrayList<>(specs);
            all.addAll(imported.dslFiles());
        }
        CompileResult compiled = PrmCompiler.compile(all);
        diagnostics.addAll(compiled.diagnostics());
        return new Result(diagnostics, compiled.model(), List.of());
    }

    /**
     * {@link #compile}, plus everything the generator would refuse (colliding Java names, members it
     * cannot place), located in the spec: a spec that passes generates.
     */
    public static Result check(List<SourceFile> specs, List<SourceFile> headers, GeneratorOptions options) {
        Result compiled = compile(specs, headers);
        if (compiled.model().isEmpty() || compiled.hasErrors()) return compiled;
        List<Diagnostic> generator = new AccessorGenerator(options).check(compiled.model().get());
        if (generator.isEmpty()) return compiled;
        List<Diagnostic> all = new ArrayList<>(compiled.diagnostics());
        all.addAll(generator);
        return new Result(all, compiled.model(), List.of());
    }

    /** {@link #compile}, then the Java accessors unless there were errors. */
    public static Result generate(List<SourceFile> specs, List<SourceFile> headers, GeneratorOptions options) {
        Result compiled = compile(specs, headers);
        if (compiled.model().isEmpty() || compiled.hasErrors()) return compiled;
        List<GeneratedFile> generated;
        try {
            generated = new AccessorGenerator(options).generate(compiled.model().get());
        } catch (GeneratorException e) {
            // The specs are valid but cannot all become Java (e.g. colliding names): located diagnostics.
            List<Diagnostic> all = new ArrayList<>(compiled.diagnostics());
            all.addAll(e.diagnostics());
            return new Result(all, compiled.model(), List.of());
        }
        List<OutputFile> files = new ArrayList<>(generated.size());
        for (GeneratedFile g : generated) files.add(new OutputFile(g.relativePath(), g.content()));
        return new Result(compiled.diagnostics(), compiled.model(), files);
    }
}

package io.prmkit.cli;

import io.prmkit.dsl.SourceFile;
import io.prmkit.dsl.Words;
import io.prmkit.dsl.ir.LayoutModel;
import io.prmkit.generator.GeneratorOptions;
import io.prmkit.pipeline.Inputs;
import io.prmkit.pipeline.OutputSync;
import io.prmkit.pipeline.Pipeline;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code prmkit generate [SPEC...] [--headers H...] -o DIR [--package P]}: the shared pipeline
 * (io.prmkit.pipeline, also behind the Maven plugin): read, import headers, compile, generate, write.
 * Nothing is written unless everything compiles; then the files are written all or nothing, files
 * whose bytes are unchanged are not touched, and files a previous run generated that are no longer
 * produced (a renamed struct's old class) are deleted, as listed in {@code DIR/.prmkit-generated}.
 */
@Command(
        name = "generate",
        mixinStandardHelpOptions = true,
        description = "Generates Java FFM accessors from spec files (default: the bundled mlx5 spec) and mlx5_ifc-style headers.",
        exitCodeList = {"0:generated (unchanged files are not rewritten)", "1:errors in the specs or headers, "
                + "or a file that cannot be read or written; nothing was written"})
public final class GenerateCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Parameters(paramLabel = "SPEC", arity = "0..*",
            description = "Spec files or folders (walked for *.prm). Default: the bundled mlx5 spec, unless --headers is given.")
    List<Path> specs = new ArrayList<>();

    @Option(names = "--headers", paramLabel = "HEADER", arity = "1..*",
            description = "C headers in the kernel's mlx5_ifc style to import into spec package mlx5 and generate with the specs "
                    + "(a header's #include \"x.h\" of a file next to it comes along).")
    List<Path> headers = new ArrayList<>();

    @Option(names = {"-o", "--output"}, paramLabel = "DIR", required = true, description = "Folder to write the Java sources to (created if missing).")
    Path output;

    @Option(names = {"-p", "--package"}, paramLabel = "P", defaultValue = "",
            description = "Java package prefix: spec package mlx5 becomes P.mlx5. Default: none (package mlx5).")
    String packagePrefix;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        GeneratorOptions options;
        try {
            options = new GeneratorOptions(packagePrefix.trim());
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), "--package: " + e.getMessage());
        }
        List<SourceFile> sources = List.of();
        List<SourceFile> headerSources = List.of();
        try {
            if (!specs.isEmpty() || headers.isEmpty()) sources = SpecInput.load(specs, spec);
            if (!headers.isEmpty()) {
                Inputs.Read read = Inputs.headers(headers);
                if (read.hasProblems()) {
                    SpecInput.print(read.problems(), read.files(), err);
                    SpecInput.say(spec, err, Words.plural(read.problems().size(), "error") + " reading the headers");
                    return PrmkitCli.INPUT_ERROR;
                }
                headerSources = read.files();
            }
        } catch (SpecInput.Failed e) {
            return PrmkitCli.INPUT_ERROR;
        }

        Pipeline.Result result;
        int inputs = sources.size() + headerSources.size();
        try (Progress p = Progress.start("generate", () -> "compiling " + Words.plural(inputs, "file") + " and generating the accessors")) {
            result = Pipeline.generate(sources, headerSources, options);
        }
        List<SourceFile> all = new ArrayList<>(sources);
        all.addAll(headerSources);
        SpecInput.print(result.diagnostics(), all, err);
        if (result.hasErrors()) {
            SpecInput.say(spec, err, Words.plural(result.errorCount(), "error") + ", nothing written");
            return PrmkitCli.INPUT_ERROR;
        }
        LayoutModel model = result.model().orElseThrow();

        OutputSync.Report written;
        try {
            try (Progress p = Progress.start("generate", () -> "writing " + Words.plural(result.files().size(), "file") + " to " + output)) {
                written = OutputSync.applyWithManifest(output, result.files());
            }
        } catch (IOException e) {
            SpecInput.say(spec, err, SpecInput.cannotWrite(output, e) + "; nothing written");
            return PrmkitCli.INPUT_ERROR;
        }
        long fields = model.structs().stream().flatMap(s -> s.members().stream()).filter(m -> !m.reserved()).count();
        List<String> extra = new ArrayList<>();
        if (!written.unchanged().isEmpty()) extra.add(written.unchanged().size() + " unchanged");
        if (!written.deleted().isEmpty()) extra.add(written.deleted().size() + " stale deleted");
        out.println(Words.plural(model.structs().size(), "structure") + ", " + Words.plural(fields, "field") + ", "
                + Words.plural(model.enums().size(), "enum") + ", " + Words.plural(written.written().size(), "file") + " written to "
                + output + (extra.isEmpty() ? "" : " (" + String.join(", ", extra) + ")"));
        return PrmkitCli.OK;
    }
}

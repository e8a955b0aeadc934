package io.prmkit.cli;

import io.prmkit.dsl.CompileResult;
import io.prmkit.dsl.Diagnostic;
import io.prmkit.dsl.PrmCompiler;
import io.prmkit.dsl.SourceFile;
import io.prmkit.dsl.ir.LayoutModel;
import io.prmkit.generator.AccessorGenerator;
import io.prmkit.generator.GeneratedFile;
import io.prmkit.generator.GeneratorException;
import io.prmkit.generator.GeneratorOptions;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code prmkit generate [SPEC...] -o DIR [--package P]}: compiles spec files (the bundled mlx5
 * spec by default) and writes the Java accessors. Nothing is written unless the spec compiles and
 * the generator accepts the model; files whose content is unchanged are not rewritten, so a build
 * that compiles them sees no change.
 */
@Command(
        name = "generate",
        mixinStandardHelpOptions = true,
        description = "Generates Java FFM accessors from spec files (default: the bundled mlx5 spec).")
public final class GenerateCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Parameters(paramLabel = "SPEC", arity = "0..*", description = "Spec files or directories (walked for *.prm). Default: the bundled mlx5 spec.")
    List<Path> specs = new ArrayList<>();

    @Option(names = {"-o", "--output"}, paramLabel = "DIR", required = true, description = "Directory to write the Java sources to (created if missing).")
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
            err.println("prmkit generate: --package: " + e.getMessage());
            return 2;
        }
        List<SourceFile> sources;
        try {
            sources = SpecInput.load(specs);
        } catch (SpecInput.InputException e) {
            err.println("prmkit generate: " + e.getMessage());
            return 1;
        }

        CompileResult result = PrmCompiler.compile(sources);
        SpecInput.print(result.diagnostics(), sources, err);
        if (result.model().isEmpty()) {
            long errors = result.diagnostics().stream().filter(Diagnostic::isError).count();
            err.println("prmkit generate: " + errors + (errors == 1 ? " error" : " errors") + ", nothing written");
            return 1;
        }
        LayoutModel model = result.model().get();

        List<GeneratedFile> files;
        try {
            files = new AccessorGenerator(options).generate(model);
        } catch (GeneratorException e) {
            SpecInput.print(e.diagnostics(), sources, err);
            err.println("prmkit generate: the generator rejected the spec, nothing written");
            return 1;
        }

        int written = 0;
        try {
            for (GeneratedFile f : files) {
                Path target = output.resolve(f.relativePath());
                byte[] bytes = f.content().getBytes(StandardCharsets.UTF_8);
                if (Files.isRegularFile(target) && Arrays.equals(Files.readAllBytes(target), bytes)) continue;
                Files.createDirectories(target.getParent());
                Files.write(target, bytes);
                written++;
            }
        } catch (IOException e) {
            err.println("prmkit generate: cannot write to " + output + ": " + e);
            return 1;
        }
        long fields = model.structs().stream().flatMap(s -> s.members().stream()).filter(m -> !m.reserved()).count();
        int unchanged = files.size() - written;
        out.println(model.structs().size() + " structures, " + fields + " fields, " + model.enums().size() + " enums, "
                + written + " files written to " + output + (unchanged > 0 ? " (" + unchanged + " unchanged)" : ""));
        return 0;
    }
}

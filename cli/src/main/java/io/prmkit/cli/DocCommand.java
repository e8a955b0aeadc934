package io.prmkit.cli;

import io.prmkit.dsl.Words;
import io.prmkit.doc.DocSite;
import io.prmkit.dsl.SourceFile;
import io.prmkit.dsl.ir.LayoutModel;
import io.prmkit.generator.GeneratorOptions;
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
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code prmkit doc [SPEC...] -o DIR}: a static HTML reference of the spec (the bundled mlx5 spec
 * by default), with PRM-style bit diagrams, enum pages, back-links and a search box. Nothing is
 * written unless the spec passes what {@code check} checks (the pipeline's check: a page per
 * structure has the same name limits as its class).
 */
@Command(
        name = "doc",
        mixinStandardHelpOptions = true,
        description = {
            "Writes a browsable HTML reference of spec files (default: the bundled mlx5 spec): an index with a search box, "
                    + "one page per structure (bit diagram, field table, rules, enums used, structures embedding it) and "
                    + "one per enum or flag set. Open DIR/index.html in a browser; no server or network is needed."},
        exitCodeList = {"0:the site was written", "1:errors in the specs, or a file that cannot be read or written; "
                + "with errors in the specs nothing was written"})
public final class DocCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Parameters(paramLabel = "SPEC", arity = "0..*", description = "Spec files or directories (walked for *.prm). Default: the bundled mlx5 spec.")
    List<Path> specs = new ArrayList<>();

    @Option(names = {"-o", "--output"}, paramLabel = "DIR", required = true, description = "Directory to write the site to (created if missing).")
    Path output;

    @Option(names = "--title", paramLabel = "TEXT", description = "Title of the site (default: mlx5 PRM reference for the bundled spec, else PRM reference).")
    String title;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        List<SourceFile> sources;
        try {
            sources = SpecInput.load(specs, spec);
        } catch (SpecInput.Failed e) {
            return PrmkitCli.INPUT_ERROR;
        }
        // Checked as generate checks: a page per structure and per enum, so the same names and limits (issue 36 item 10).
        Pipeline.Result result;
        try (Progress p = Progress.start("doc", () -> "compiling " + Words.plural(sources.size(), "file"))) {
            result = Pipeline.check(sources, List.of(), GeneratorOptions.defaults());
        }
        SpecInput.print(result.diagnostics(), sources, err);
        if (result.hasErrors() || result.model().isEmpty()) {
            SpecInput.say(spec, err, Words.plural(result.errorCount(), "error") + ", nothing written");
            return PrmkitCli.INPUT_ERROR;
        }
        LayoutModel model = result.model().get();
        String t = title != null ? title : specs.isEmpty() ? "mlx5 PRM reference" : "PRM reference";
        int files;
        try {
            try (Progress p = Progress.start("doc", () -> "writing the pages of " + Words.plural(model.structs().size(), "structure") + " to " + output)) {
                files = DocSite.write(model, t, output);
            }
        } catch (IOException e) {
            SpecInput.say(spec, err, SpecInput.cannotWrite(output, e) + "; nothing written");
            return PrmkitCli.INPUT_ERROR;
        }
        out.println(Words.plural(model.structs().size(), "structure") + ", " + Words.plural(model.enums().size(), "enum")
                + " and flag sets, " + Words.plural(files, "file") + " written to " + output + "; open " + output.resolve("index.html"));
        return PrmkitCli.OK;
    }
}

package io.prmkit.maven;

import io.prmkit.doc.DocSite;
import io.prmkit.dsl.Diagnostic;
import io.prmkit.dsl.DiagnosticPrinter;
import io.prmkit.dsl.SourceFile;
import io.prmkit.dsl.ir.LayoutModel;
import io.prmkit.pipeline.Inputs;
import io.prmkit.pipeline.Pipeline;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The {@code doc} goal without Maven: read the specs (and headers) the way {@code generate} does,
 * compile them through the shared pipeline and write the same HTML reference as {@code prmkit doc}.
 * Errors are reported and nothing is written.
 */
final class DocTask {

    /**
     * @param sourceDirectoryRequired fail if the source directory is missing (it was configured explicitly)
     */
    record Request(Path baseDirectory, Path sourceDirectory, Path outputDirectory, List<String> includes, List<String> excludes,
                   List<Path> headers, String title, boolean failOnWarnings, boolean sourceDirectoryRequired) {
        Request {
            Objects.requireNonNull(baseDirectory, "baseDirectory == null");
            Objects.requireNonNull(sourceDirectory, "sourceDirectory == null");
            Objects.requireNonNull(outputDirectory, "outputDirectory == null");
            includes = includes == null || includes.isEmpty() ? SpecScanner.DEFAULT_INCLUDES : List.copyOf(includes);
            excludes = excludes == null ? List.of() : List.copyOf(excludes);
            headers = headers == null ? List.of() : List.copyOf(headers);
            title = title == null || title.isBlank() ? "PRM reference" : title.strip();
        }
    }

    private final Reporter reporter;

    DocTask(Reporter reporter) {
        this.reporter = Objects.requireNonNull(reporter, "reporter == null");
    }

    /** Writes the site; returns the number of files written (0 when there are no specs). */
    int run(Request req) throws IOException, GenerationException {
        Path sourceDir = req.sourceDirectory();
        if (req.sourceDirectoryRequired() && !Files.isDirectory(sourceDir)) {
            throw new GenerationException("sourceDirectory " + display(req, sourceDir) + " does not exist");
        }
        for (Path h : req.headers()) {
            if (!Files.isRegularFile(h)) throw new GenerationException("header " + display(req, h) + " does not exist");
        }
        List<Path> specs = new SpecScanner(req.includes(), req.excludes()).scan(sourceDir).stream().map(sourceDir::resolve).toList();
        if (specs.isEmpty() && req.headers().isEmpty()) {
            reporter.info("No prm specs found in " + display(req, sourceDir) + "; no PRM reference written");
            return 0;
        }
        Inputs.Read specRead = Inputs.specs(specs, p -> display(req, p));
        Inputs.Read headerRead = Inputs.headers(req.headers(), p -> display(req, p));
        List<Diagnostic> problems = new ArrayList<>(specRead.problems());
        problems.addAll(headerRead.problems());
        if (!problems.isEmpty()) {
            problems.forEach(d -> reporter.error(d.toString()));
            throw new GenerationException(GenerationTask.plural(problems.size(), "error") + " in prm specs");
        }
        Pipeline.Result result = Pipeline.compile(specRead.files(), headerRead.files());
        List<SourceFile> all = new ArrayList<>(specRead.files());
        all.addAll(headerRead.files());
        Map<String, SourceFile> byName = new LinkedHashMap<>();
        all.forEach(s -> byName.put(s.name(), s));
        int warnings = 0;
        for (Diagnostic d : result.diagnostics()) {
            List<String> lines = DiagnosticPrinter.render(d, byName).lines().toList();
            switch (d.severity()) {
                case ERROR -> lines.forEach(reporter::error);
                case WARNING -> {
                    warnings++;
                    lines.forEach(reporter::warn);
                }
                case NOTE -> lines.forEach(reporter::info);
            }
        }
        if (result.hasErrors() || result.model().isEmpty()) {
            throw new GenerationException(GenerationTask.plural((int) result.errorCount(), "error") + " in prm specs");
        }
        if (warnings > 0 && req.failOnWarnings()) {
            throw new GenerationException(GenerationTask.plural(warnings, "warning") + " in prm specs (failOnWarnings is set)");
        }
        LayoutModel model = result.model().get();
        Path out = req.outputDirectory().toAbsolutePath().normalize();
        int files = DocSite.write(model, req.title(), out);
        reporter.info("Wrote the PRM reference of " + GenerationTask.plural(model.structs().size(), "structure") + " ("
                + GenerationTask.plural(files, "file") + ") to " + display(req, out) + "; open " + display(req, out.resolve("index.html")));
        return files;
    }

    private static String display(Request req, Path p) {
        Path base = req.baseDirectory().toAbsolutePath().normalize();
        Path abs = p.toAbsolutePath().normalize();
        if (abs.startsWith(base) && !abs.equals(base)) return SpecScanner.toSlashes(base.relativize(abs));
        return abs.toString();
    }
}

package io.prmkit.mlx5.conformance;

import io.prmkit.dsl.CompileResult;
import io.prmkit.dsl.Diagnostic;
import io.prmkit.dsl.DiagnosticPrinter;
import io.prmkit.dsl.PrmCompiler;
import io.prmkit.dsl.SourceFile;
import io.prmkit.dsl.ir.LayoutModel;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The spec bundled with generated-runtime: the files listed in src/main/resources/prm/index.txt
 * (paths relative to src/main/prm), compiled once with the real compiler.
 */
final class BundledSpec {
    static final Path SPEC_ROOT = Path.of("src/main/prm");
    static final Path INDEX = Path.of("src/main/resources/prm/index.txt");

    private static LayoutModel model;

    private BundledSpec() {}

    static List<String> index() {
        try {
            return Files.readAllLines(INDEX, StandardCharsets.UTF_8).stream()
                    .map(String::strip)
                    .filter(l -> !l.isEmpty() && !l.startsWith("#"))
                    .toList();
        } catch (IOException e) {
            throw new AssertionError("cannot read " + INDEX.toAbsolutePath() + ": " + e.getMessage(), e);
        }
    }

    static List<SourceFile> sources() {
        List<SourceFile> files = new ArrayList<>();
        for (String rel : index()) {
            Path p = SPEC_ROOT.resolve(rel);
            try {
                files.add(new SourceFile(rel, Files.readString(p, StandardCharsets.UTF_8)));
            } catch (IOException e) {
                throw new AssertionError(INDEX + " lists " + rel + " but " + p.toAbsolutePath() + " cannot be read", e);
            }
        }
        return files;
    }

    /** The compiled model; fails with the rendered diagnostics if the spec does not compile. */
    static synchronized LayoutModel model() {
        if (model == null) {
            List<SourceFile> files = sources();
            CompileResult result = PrmCompiler.compile(files);
            if (result.model().isEmpty()) {
                Map<String, SourceFile> byName = new LinkedHashMap<>();
                files.forEach(f -> byName.put(f.name(), f));
                String rendered = result.diagnostics().stream()
                        .filter(Diagnostic::isError)
                        .map(d -> DiagnosticPrinter.render(d, byName))
                        .collect(Collectors.joining("\n"));
                throw new AssertionError("the bundled mlx5 spec does not compile:\n" + rendered);
            }
            model = result.model().get();
        }
        return model;
    }
}

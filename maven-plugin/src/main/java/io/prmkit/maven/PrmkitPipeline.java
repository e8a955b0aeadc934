package io.prmkit.maven;

import io.prmkit.dsl.CompileResult;
import io.prmkit.dsl.Diagnostic;
import io.prmkit.dsl.DiagnosticPrinter;
import io.prmkit.dsl.PrmCompiler;
import io.prmkit.dsl.SourceFile;
import io.prmkit.dsl.importer.IfcImporter;
import io.prmkit.dsl.importer.ImportOptions;
import io.prmkit.dsl.importer.ImportResult;
import io.prmkit.generator.AccessorGenerator;
import io.prmkit.generator.GeneratedFile;
import io.prmkit.generator.GeneratorException;
import io.prmkit.generator.GeneratorOptions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** The real pipeline: the mlx5_ifc importer (if there are headers), the prm compiler, then the accessor generator. */
final class PrmkitPipeline implements SpecPipeline {

    @Override
    public Result run(List<SourceFile> sources, List<SourceFile> headers, String packagePrefix) {
        GeneratorOptions options;
        try {
            options = new GeneratorOptions(packagePrefix);
        } catch (IllegalArgumentException e) {
            return new Result(List.of(), List.of("packagePrefix: " + e.getMessage()), List.of());
        }
        List<Diagnostic> importNotes = List.of();
        List<SourceFile> all = sources;
        if (!headers.isEmpty()) {
            ImportResult imported = IfcImporter.importSources(headers, ImportOptions.DEFAULTS);
            if (imported.hasErrors()) {
                return new Result(imported.notes(), List.of(), List.of());
            }
            importNotes = imported.notes();
            all = new ArrayList<>(sources);
            all.addAll(imported.dslFiles());
        }
        CompileResult compiled = PrmCompiler.compile(all);
        List<Diagnostic> diagnostics = new ArrayList<>(importNotes);
        diagnostics.addAll(compiled.diagnostics());
        if (compiled.model().isEmpty()) {
            return new Result(diagnostics, List.of(), List.of());
        }
        List<GeneratedFile> generated;
        try {
            generated = new AccessorGenerator(options).generate(compiled.model().get());
        } catch (GeneratorException e) {
            // The specs are valid but can't all become Java (e.g. colliding class names): located diagnostics too.
            diagnostics.addAll(e.diagnostics());
            return new Result(diagnostics, List.of(), List.of());
        }
        List<OutputFile> files = new ArrayList<>(generated.size());
        for (GeneratedFile g : generated) {
            files.add(new OutputFile(g.relativePath(), g.content()));
        }
        return new Result(diagnostics, List.of(), files);
    }

    @Override
    public String render(Diagnostic diagnostic, Map<String, SourceFile> sourcesByName) {
        return DiagnosticPrinter.render(diagnostic, sourcesByName);
    }
}

package io.prmkit.maven;

import io.prmkit.dsl.CompileResult;
import io.prmkit.dsl.Diagnostic;
import io.prmkit.dsl.DiagnosticPrinter;
import io.prmkit.dsl.PrmCompiler;
import io.prmkit.dsl.SourceFile;
import io.prmkit.generator.AccessorGenerator;
import io.prmkit.generator.GeneratedFile;
import io.prmkit.generator.GeneratorException;
import io.prmkit.generator.GeneratorOptions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** The real pipeline: the prm compiler, then the accessor generator. */
final class PrmkitPipeline implements SpecPipeline {

    @Override
    public Result run(List<SourceFile> sources, String packagePrefix) {
        GeneratorOptions options;
        try {
            options = new GeneratorOptions(packagePrefix);
        } catch (IllegalArgumentException e) {
            return new Result(List.of(), List.of("packagePrefix: " + e.getMessage()), List.of());
        }
        CompileResult compiled = PrmCompiler.compile(sources);
        if (compiled.model().isEmpty()) {
            return new Result(compiled.diagnostics(), List.of(), List.of());
        }
        List<GeneratedFile> generated;
        try {
            generated = new AccessorGenerator(options).generate(compiled.model().get());
        } catch (GeneratorException e) {
            // The specs are valid but can't all become Java (e.g. colliding class names).
            return new Result(compiled.diagnostics(), e.problems(), List.of());
        }
        List<OutputFile> files = new ArrayList<>(generated.size());
        for (GeneratedFile g : generated) {
            files.add(new OutputFile(g.relativePath(), g.content()));
        }
        return new Result(compiled.diagnostics(), List.of(), files);
    }

    @Override
    public String render(Diagnostic diagnostic, Map<String, SourceFile> sourcesByName) {
        return DiagnosticPrinter.render(diagnostic, sourcesByName);
    }
}

package io.prmkit.maven;

import io.prmkit.dsl.Diagnostic;
import io.prmkit.dsl.DiagnosticPrinter;
import io.prmkit.dsl.SourceFile;
import io.prmkit.generator.GeneratorOptions;
import io.prmkit.pipeline.Pipeline;
import java.util.List;
import java.util.Map;

/** The real pipeline: the shared {@link Pipeline} (header import, prm compiler, accessor generator). */
final class PrmkitPipeline implements SpecPipeline {

    @Override
    public Result run(List<SourceFile> sources, List<SourceFile> headers, String packagePrefix) {
        GeneratorOptions options;
        try {
            options = new GeneratorOptions(packagePrefix);
        } catch (IllegalArgumentException e) {
            return new Result(List.of(), List.of("packagePrefix: " + e.getMessage()), List.of());
        }
        Pipeline.Result r = Pipeline.generate(sources, headers, options);
        return new Result(r.diagnostics(), List.of(), r.files());
    }

    @Override
    public String render(Diagnostic diagnostic, Map<String, SourceFile> sourcesByName) {
        return DiagnosticPrinter.render(diagnostic, sourcesByName);
    }
}

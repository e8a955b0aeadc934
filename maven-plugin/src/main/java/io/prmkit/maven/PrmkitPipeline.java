package io.prmkit.maven;

import io.prmkit.dsl.CompileResult;
import io.prmkit.dsl.Diagnostic;
import io.prmkit.dsl.DiagnosticPrinter;
import io.prmkit.dsl.PrmCompiler;
import io.prmkit.dsl.SourceFile;
import io.prmkit.generator.AccessorGenerator;
import io.prmkit.generator.GeneratedFile;
import io.prmkit.generator.GeneratorOptions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** The real pipeline: the prm compiler, then the accessor generator. */
final class PrmkitPipeline implements SpecPipeline {

    @Override
    public Result run(List<SourceFile> sources, String packagePrefix) {
        CompileResult compiled = PrmCompiler.compile(sources);
        if (compiled.model().isEmpty()) {
            return new Result(compiled.diagnostics(), List.of());
        }
        List<GeneratedFile> generated = new AccessorGenerator(new GeneratorOptions(packagePrefix))
                .generate(compiled.model().get());
        List<OutputFile> files = new ArrayList<>(generated.size());
        for (GeneratedFile g : generated) {
            files.add(new OutputFile(g.relativePath(), g.content()));
        }
        return new Result(compiled.diagnostics(), files);
    }

    @Override
    public String render(Diagnostic diagnostic, Map<String, SourceFile> sourcesByName) {
        return DiagnosticPrinter.render(diagnostic, sourcesByName);
    }
}

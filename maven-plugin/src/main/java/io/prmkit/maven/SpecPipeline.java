package io.prmkit.maven;

import io.prmkit.dsl.Diagnostic;
import io.prmkit.dsl.SourceFile;
import io.prmkit.pipeline.OutputFile;
import java.util.List;
import java.util.Map;

/**
 * The part of a generation that knows about specs: compile the sources and, if they have no
 * errors, generate files. {@link PrmkitPipeline} is the real one; the plugin's own logic (digests,
 * file writing, logging) is tested against simple fakes.
 */
interface SpecPipeline {

    /**
     * Diagnostics of every severity; errors that have no place in a spec (e.g. two structs whose
     * Java class names collide, an invalid package prefix), each a self-contained sentence; and the
     * generated files, none when there is an error of either kind.
     */
    record Result(List<Diagnostic> diagnostics, List<String> problems, List<OutputFile> files) {
        public Result {
            diagnostics = List.copyOf(diagnostics);
            problems = List.copyOf(problems);
            files = List.copyOf(files);
            if (!files.isEmpty() && (!problems.isEmpty() || diagnostics.stream().anyMatch(Diagnostic::isError))) {
                throw new IllegalArgumentException("files generated despite errors");
            }
        }
    }

    /**
     * @param headers mlx5_ifc-style C headers to import and compile together with the specs
     */
    Result run(List<SourceFile> sources, List<SourceFile> headers, String packagePrefix);

    /** Renders one diagnostic as lines starting with {@code file:line:col: severity: message}. */
    String render(Diagnostic diagnostic, Map<String, SourceFile> sourcesByName);

}

package io.prmkit.doc;

import static org.junit.jupiter.api.Assertions.assertFalse;

import io.prmkit.dsl.CompileResult;
import io.prmkit.dsl.PrmCompiler;
import io.prmkit.dsl.SourceFile;
import io.prmkit.dsl.SpecLoader;
import io.prmkit.dsl.ir.LayoutModel;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.List;

/** The repository's mlx5 spec (generated-runtime/src/main/prm/mlx5), compiled once for the tests. */
final class BundledSpec {
    static final Path DIR = Path.of("..", "generated-runtime", "src", "main", "prm", "mlx5");
    private static LayoutModel model;

    private BundledSpec() {
    }

    static synchronized LayoutModel model() {
        if (model == null) model = compile(files());
        return model;
    }

    static List<SourceFile> files() {
        try {
            return SpecLoader.load(List.of(DIR));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static LayoutModel compile(List<SourceFile> files) {
        CompileResult r = PrmCompiler.compile(files);
        assertFalse(r.hasErrors(), () -> "the bundled spec does not compile: " + r.errors());
        return r.model().orElseThrow();
    }
}

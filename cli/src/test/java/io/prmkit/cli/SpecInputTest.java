package io.prmkit.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.prmkit.dsl.SourceFile;
import java.io.IOException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SpecInputTest {
    @TempDir
    Path dir;

    ClassLoader loaderOf(Path root) throws IOException {
        return new URLClassLoader(new URL[] {root.toUri().toURL()}, null);
    }

    @Test
    void bundledSpecIsReadThroughItsIndex() throws Exception {
        Files.createDirectories(dir.resolve("prm/mlx5"));
        Files.writeString(dir.resolve("prm/index.txt"), "# bundled spec\nmlx5/b.prm\n\nmlx5/a.prm\n");
        Files.writeString(dir.resolve("prm/mlx5/a.prm"), "package mlx5;\n");
        Files.writeString(dir.resolve("prm/mlx5/b.prm"), "package mlx5;\nconst X = 1;\n");
        List<SourceFile> files = SpecInput.bundled(loaderOf(dir));
        assertEquals(List.of(new SourceFile("prm/mlx5/b.prm", "package mlx5;\nconst X = 1;\n"),
                new SourceFile("prm/mlx5/a.prm", "package mlx5;\n")), files);
    }

    @Test
    void noIndexMeansNoBundledSpec() {
        SpecInput.InputException e = assertThrows(SpecInput.InputException.class, () -> SpecInput.bundled(loaderOf(dir)));
        assertEquals("no bundled spec is available (no prm/index.txt on the class path); name spec files or directories instead",
                e.getMessage());
    }

    @Test
    void indexNamingAMissingFile() throws Exception {
        Files.createDirectories(dir.resolve("prm"));
        Files.writeString(dir.resolve("prm/index.txt"), "mlx5/gone.prm\n");
        SpecInput.InputException e = assertThrows(SpecInput.InputException.class, () -> SpecInput.bundled(loaderOf(dir)));
        assertEquals("prm/index.txt lists mlx5/gone.prm, which is not on the class path", e.getMessage());
    }
}

package io.prmkit.maven;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SpecScannerTest {
    @TempDir
    Path dir;

    private void touch(String rel) throws IOException {
        Path p = dir.resolve(rel);
        Files.createDirectories(p.getParent());
        Files.writeString(p, "x");
    }

    @Test
    void findsPrmFilesSortedWithSlashes() throws IOException {
        touch("z.prm");
        touch("mlx5/caps.prm");
        touch("mlx5/cmd/create_cq.prm");
        touch("mlx5/README.md");
        Files.createDirectories(dir.resolve("empty.prm")); // a directory, not a spec
        assertEquals(List.of("mlx5/caps.prm", "mlx5/cmd/create_cq.prm", "z.prm"), new SpecScanner(null, null).scan(dir));
    }

    @Test
    void excludesWin() throws IOException {
        touch("a.prm");
        touch("drafts/b.prm");
        assertEquals(List.of("a.prm"), new SpecScanner(List.of("**/*.prm"), List.of("drafts/**")).scan(dir));
    }

    @Test
    void customIncludes() throws IOException {
        touch("a.prm");
        touch("b.layout");
        assertEquals(List.of("b.layout"), new SpecScanner(List.of("**/*.layout"), List.of()).scan(dir));
    }

    @Test
    void missingDirectoryHasNoSpecs() throws IOException {
        assertEquals(List.of(), new SpecScanner(null, null).scan(dir.resolve("nope")));
    }
}

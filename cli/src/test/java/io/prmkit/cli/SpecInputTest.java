package io.prmkit.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.prmkit.dsl.SourceFile;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;

class SpecInputTest {
    @TempDir
    Path dir;

    private final StringWriter err = new StringWriter();
    private final CommandSpec check = check(err);

    private static CommandSpec check(StringWriter err) {
        CommandLine cl = PrmkitCli.commandLine();
        cl.setErr(new PrintWriter(err, true));
        return cl.getSubcommands().get("check").getCommandSpec();
    }

    ClassLoader loaderOf(Path root) throws IOException {
        return new URLClassLoader(new URL[] {root.toUri().toURL()}, null);
    }

    @Test
    void bundledSpecIsReadThroughItsIndex() throws Exception {
        Files.createDirectories(dir.resolve("prm/mlx5"));
        Files.writeString(dir.resolve("prm/index.txt"), "# bundled spec\nmlx5/b.prm\n\nmlx5/a.prm\n");
        Files.writeString(dir.resolve("prm/mlx5/a.prm"), "package mlx5;\n");
        Files.writeString(dir.resolve("prm/mlx5/b.prm"), "package mlx5;\nconst X = 1;\n");
        List<SourceFile> files = SpecInput.bundled(loaderOf(dir), check);
        assertEquals(List.of(new SourceFile("prm/mlx5/b.prm", "package mlx5;\nconst X = 1;\n"),
                new SourceFile("prm/mlx5/a.prm", "package mlx5;\n")), files);
    }

    @Test
    void noIndexMeansNoBundledSpec() {
        assertThrows(SpecInput.Failed.class, () -> SpecInput.bundled(loaderOf(dir), check));
        assertEquals("prmkit check: no bundled spec is available (no prm/index.txt on the class path); name spec files or folders\n",
                err.toString());
    }

    @Test
    void indexNamingAMissingFile() throws Exception {
        Files.createDirectories(dir.resolve("prm"));
        Files.writeString(dir.resolve("prm/index.txt"), "mlx5/gone.prm\n");
        assertThrows(SpecInput.Failed.class, () -> SpecInput.bundled(loaderOf(dir), check));
        assertEquals("prmkit check: prm/index.txt lists mlx5/gone.prm, which is not on the class path\n", err.toString());
    }
}

package io.prmkit.generator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * The emitted support class is prm-layout's compiled and tested {@code io.prmkit.layout.PrmLayout},
 * byte for byte, except for its package line.
 */
class SupportEmitterTest {
    private static final Path ORIGINAL = Path.of("../prm-layout/src/main/java/io/prmkit/layout/PrmLayout.java");

    private static String original() throws IOException {
        return Files.readString(ORIGINAL, StandardCharsets.UTF_8).replace("\r\n", "\n");
    }

    @Test
    void copiesTheOriginalWithOnlyThePackageLineChanged() throws IOException {
        String original = original();
        assertTrue(original.startsWith(SupportEmitter.ORIGINAL_PACKAGE_LINE), "the original starts with its package line");
        String body = original.substring(SupportEmitter.ORIGINAL_PACKAGE_LINE.length());
        assertEquals("package io.prmkit.gen.mlx5;\n" + body, new SupportEmitter().emit("io.prmkit.gen.mlx5"));
    }

    @Test
    void theUnnamedPackageGetsNoPackageLine() throws IOException {
        String emitted = new SupportEmitter().emit("");
        assertTrue(emitted.lines().noneMatch(l -> l.startsWith("package ")), "no package line");
        assertTrue(emitted.startsWith("// java.lang types") || emitted.startsWith("import "), emitted.substring(0, 40));
        assertTrue(original().endsWith(emitted));
    }

    @Test
    void theCopyNamesNoOtherPackageOfPrmkit() {
        String emitted = new SupportEmitter().emit("x.y");
        assertTrue(emitted.lines().noneMatch(l -> l.startsWith("package io.prmkit")), "the original's package line is gone");
        assertFalse(emitted.contains("import io.prmkit"), "the copy depends on java.base only");
    }
}

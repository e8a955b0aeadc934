package io.prmkit.platform.devx;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The bindings depend on java.base, the platform interface and their own generated rdma-core
 * accessors (with the support class they import, io.prmkit.layout.PrmLayout) only: no driver, no
 * device model, no third-party library.
 */
class DevxDependenciesTest {
    @Test
    void mainCodeImportsJavaBasePlatformAndItsDevxAccessorsOnly() throws IOException {
        List<String> bad = new ArrayList<>();
        int files = 0;
        for (Path root : List.of(Path.of("src/main/java"), Path.of("target/generated-sources/prm"))) {
            try (Stream<Path> s = Files.walk(root)) {
                for (Path f : s.filter(p -> p.toString().endsWith(".java")).toList()) {
                    files++;
                    for (String line : Files.readAllLines(f)) {
                        if (!line.startsWith("import ")) continue;
                        String what = line.substring(7).replace("static ", "").strip();
                        if (!(what.startsWith("java.") || what.startsWith("io.prmkit.platform.") || what.startsWith("io.prmkit.devx.")
                                || what.startsWith("io.prmkit.layout.PrmLayout")))
                            bad.add(f + ": " + line);
                    }
                }
            }
        }
        assertTrue(files > 8, "read " + files + " files");
        assertEquals(List.of(), bad);
    }
}

package io.prmkit.cli;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.jar.JarFile;
import java.util.zip.ZipEntry;
import org.junit.jupiter.api.Test;

/**
 * The library jars the README names come with a -sources.jar, so an IDE shows the generated
 * accessors' Javadoc (the PRM's field descriptions) to those who depend on them ({@link BuiltJars}).
 */
class SourcesJarTest {
    private static Path sourcesJar(String module, String artifact) throws IOException {
        return BuiltJars.find(module, artifact, "-sources");
    }

    private static String entry(Path jar, String name) throws IOException {
        try (JarFile j = new JarFile(jar.toFile())) {
            ZipEntry e = j.getEntry(name);
            assertNotNull(e, jar.getFileName() + " has " + name);
            return new String(j.getInputStream(e).readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    @Test
    void theGeneratedAccessorsShipTheirSourcesWithTheirJavadoc() throws IOException {
        Path jar = sourcesJar("generated-runtime", "prmkit-generated-runtime");
        String cqe = entry(jar, "io/prmkit/mlx5/Cqe64.java");
        assertTrue(cqe.contains("public static int byte_cnt(MemorySegment"), "the generated getter is there");
        assertTrue(cqe.contains("/**"), "with its Javadoc");
        entry(jar, "io/prmkit/net/Iphdr.java");
        entry(jar, "prm/mlx5/cqe.prm"); // the spec the accessors come from
    }

    @Test
    void theDriverAndTheDeviceShipTheirSources() throws IOException {
        entry(sourcesJar("driver", "prmkit-driver"), "io/prmkit/driver/dp/TxQueue.java");
        entry(sourcesJar("soft-hca", "prmkit-soft-hca"), "io/prmkit/softhca/SoftHca.java");
    }
}

package io.prmkit.maven;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import org.apache.maven.artifact.Artifact;
import org.apache.maven.artifact.DefaultArtifact;
import org.apache.maven.artifact.handler.DefaultArtifactHandler;
import org.apache.maven.plugin.descriptor.PluginDescriptor;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PluginFingerprintTest {
    @TempDir
    Path tmp;

    private Path classesDir(String classBytes) throws IOException {
        Path dir = tmp.resolve("classes-" + classBytes.hashCode());
        Files.createDirectories(dir.resolve("io/prmkit/generator"));
        Files.createDirectories(dir.resolve("META-INF/maven"));
        Files.writeString(dir.resolve("io/prmkit/generator/Gen.class"), classBytes);
        Files.writeString(dir.resolve("META-INF/maven/plugin.xml"), "<plugin/>");
        return dir;
    }

    private Path jar(String classBytes, String manifestNoise) throws IOException {
        Path jar = tmp.resolve("gen-" + classBytes.hashCode() + "-" + manifestNoise.hashCode() + ".jar");
        try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar))) {
            put(out, "META-INF/MANIFEST.MF", manifestNoise);
            put(out, "io/prmkit/generator/Gen.class", classBytes);
        }
        return jar;
    }

    private static void put(JarOutputStream out, String name, String text) throws IOException {
        out.putNextEntry(new JarEntry(name));
        ((OutputStream) out).write(text.getBytes(java.nio.charset.StandardCharsets.UTF_8));
        out.closeEntry();
    }

    private static String hash(Path p) throws IOException {
        Hashing h = new Hashing();
        PluginFingerprint.hashPath(h, p);
        return h.hex();
    }

    @Test
    void jarAndClassesDirectoryWithTheSameCodeAgree() throws IOException {
        assertEquals(hash(classesDir("v1")), hash(jar("v1", "Built-By: a")));
        assertEquals(hash(jar("v1", "Built-By: a")), hash(jar("v1", "Built-By: b")));
    }

    @Test
    void changedCodeChangesTheHash() throws IOException {
        assertNotEquals(hash(classesDir("v1")), hash(classesDir("v2")));
        assertNotEquals(hash(jar("v1", "")), hash(jar("v2", "")));
    }

    private PluginDescriptor descriptor(String version, Path pluginFile, Path generatorFile) {
        PluginDescriptor d = new PluginDescriptor();
        d.setGroupId("io.prmkit");
        d.setArtifactId("prmkit-maven-plugin");
        d.setVersion(version);
        Artifact plugin = new DefaultArtifact("io.prmkit", "prmkit-maven-plugin", version, null, "maven-plugin", null,
                new DefaultArtifactHandler("maven-plugin"));
        plugin.setFile(pluginFile.toFile());
        Artifact gen = new DefaultArtifact("io.prmkit", "prmkit-generator", version, "runtime", "jar", null,
                new DefaultArtifactHandler("jar"));
        gen.setFile(generatorFile.toFile());
        Artifact other = new DefaultArtifact("com.palantir.javapoet", "javapoet", "0.22.0", "runtime", "jar", null,
                new DefaultArtifactHandler("jar"));
        other.setFile(tmp.resolve("javapoet-does-not-matter.jar").toFile());
        d.setPluginArtifact(plugin);
        d.setArtifacts(new java.util.ArrayList<>(Set.of(gen, other)));
        return d;
    }

    @Test
    void releaseIsIdentifiedByItsVersion() throws IOException {
        assertEquals("io.prmkit:prmkit-maven-plugin:1.2.0",
                PluginFingerprint.of(descriptor("1.2.0", jar("p", ""), jar("g1", ""))));
    }

    @Test
    void snapshotIsIdentifiedByItsCode() throws IOException {
        String a = PluginFingerprint.of(descriptor("1.0-SNAPSHOT", jar("p", ""), jar("g1", "")));
        String same = PluginFingerprint.of(descriptor("1.0-SNAPSHOT", classesDir("p"), jar("g1", "x")));
        String rebuilt = PluginFingerprint.of(descriptor("1.0-SNAPSHOT", jar("p", ""), jar("g2", "")));
        assertTrue(a.startsWith("io.prmkit:prmkit-maven-plugin:1.0-SNAPSHOT@"), a);
        assertEquals(a, same);
        assertNotEquals(a, rebuilt);
    }
}

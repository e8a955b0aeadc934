package io.prmkit.maven;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import org.apache.maven.artifact.Artifact;
import org.apache.maven.plugin.descriptor.PluginDescriptor;

/**
 * Identifies the code that generates: a released plugin by its version; a snapshot also by the
 * bytes of its prmkit artifacts, because a rebuilt snapshot keeps its version (antlr4 #4618 is the
 * bug where an upgraded tool did not regenerate). In a reactor build those artifacts may be
 * jars or {@code target/classes} directories; both are hashed by their entries.
 */
final class PluginFingerprint {
    private static final String GROUP = "io.prmkit";

    private PluginFingerprint() {}

    static String of(PluginDescriptor plugin) throws IOException {
        String version = plugin.getVersion();
        if (version == null || !version.endsWith("-SNAPSHOT")) {
            return plugin.getGroupId() + ":" + plugin.getArtifactId() + ":" + version;
        }
        List<File> files = new ArrayList<>();
        if (plugin.getPluginArtifact() != null) files.add(plugin.getPluginArtifact().getFile());
        if (plugin.getArtifacts() != null) {
            for (Artifact a : plugin.getArtifacts()) {
                if (GROUP.equals(a.getGroupId())) files.add(a.getFile());
            }
        }
        Hashing h = new Hashing().add(plugin.getId());
        List<Path> seen = new ArrayList<>();
        for (File f : files) {
            if (f == null) continue;
            Path p = f.toPath().toAbsolutePath().normalize();
            if (seen.contains(p)) continue;
            seen.add(p);
            hashPath(h, p);
        }
        return plugin.getId() + "@" + h.hex();
    }

    /**
     * Hashes the code and resources in a jar or a classes directory, without {@code META-INF}
     * (manifest, Maven metadata), so a module's jar and its {@code target/classes} give the same
     * fingerprint when they hold the same classes.
     */
    static void hashPath(Hashing h, Path p) throws IOException {
        SortedMap<String, byte[]> entries = new TreeMap<>();
        if (Files.isRegularFile(p)) {
            try (ZipFile zip = new ZipFile(p.toFile())) {
                for (ZipEntry e : Collections.list(zip.entries())) {
                    if (e.isDirectory() || e.getName().startsWith("META-INF/")) continue;
                    try (InputStream in = zip.getInputStream(e)) {
                        entries.put(e.getName(), in.readAllBytes());
                    }
                }
            }
        } else if (Files.isDirectory(p)) {
            try (Stream<Path> s = Files.walk(p)) {
                for (Path f : (Iterable<Path>) s.filter(Files::isRegularFile)::iterator) {
                    String name = SpecScanner.toSlashes(p.relativize(f));
                    if (!name.startsWith("META-INF/")) entries.put(name, Files.readAllBytes(f));
                }
            }
        }
        for (Map.Entry<String, byte[]> e : entries.entrySet()) {
            h.add(e.getKey()).add(e.getValue());
        }
    }
}

package io.prmkit.maven;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.apache.maven.artifact.Artifact;
import org.apache.maven.plugin.descriptor.PluginDescriptor;

/**
 * Identifies the code that generates: a released plugin by its version; a snapshot also by the
 * bytes of its prmkit artifacts, because a rebuilt snapshot keeps its version (antlr4 #4618 is the
 * bug where an upgraded tool did not regenerate). In a reactor build those artifacts may be
 * {@code target/classes} directories, which are hashed file by file.
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

    static void hashPath(Hashing h, Path p) throws IOException {
        if (Files.isRegularFile(p)) {
            h.add(p.getFileName().toString()).add(Files.readAllBytes(p));
        } else if (Files.isDirectory(p)) {
            List<Path> files;
            try (Stream<Path> s = Files.walk(p)) {
                files = s.filter(Files::isRegularFile).sorted().toList();
            }
            for (Path f : files) {
                h.add(SpecScanner.toSlashes(p.relativize(f))).add(Files.readAllBytes(f));
            }
        }
    }
}

package io.prmkit.maven;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/** Finds the spec files under a source directory that match the includes and none of the excludes. */
final class SpecScanner {
    static final List<String> DEFAULT_INCLUDES = List.of("**/*.prm");

    private final List<AntPattern> includes;
    private final List<AntPattern> excludes;

    SpecScanner(List<String> includes, List<String> excludes) {
        List<String> inc = includes == null || includes.isEmpty() ? DEFAULT_INCLUDES : includes;
        this.includes = inc.stream().map(AntPattern::of).toList();
        this.excludes = (excludes == null ? List.<String>of() : excludes).stream().map(AntPattern::of).toList();
    }

    /**
     * The matching regular files below {@code dir}, as {@code /}-separated paths relative to it,
     * sorted so that the digest and the compiler see them in the same order on every machine.
     * A missing directory has no specs.
     */
    List<String> scan(Path dir) throws IOException {
        if (!Files.isDirectory(dir)) return List.of();
        List<String> found = new ArrayList<>();
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path f : (Iterable<Path>) files::iterator) {
                if (!Files.isRegularFile(f)) continue;
                String rel = toSlashes(dir.relativize(f));
                if (matchesAny(includes, rel) && !matchesAny(excludes, rel)) found.add(rel);
            }
        }
        found.sort(null);
        return List.copyOf(found);
    }

    private static boolean matchesAny(List<AntPattern> patterns, String path) {
        for (AntPattern p : patterns) {
            if (p.matches(path)) return true;
        }
        return false;
    }

    static String toSlashes(Path relative) {
        return relative.toString().replace(relative.getFileSystem().getSeparator(), "/");
    }
}

package io.prmkit.dsl;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * Reads spec files for the compiler. A directory is walked for {@code *.prm} files, sorted by path
 * so that runs are deterministic; each file is named by its path as the user gave it (a file in a
 * given directory is named {@code dir/sub/file.prm}).
 */
public final class SpecLoader {
    private SpecLoader() {
    }

    public static List<SourceFile> load(List<Path> filesOrDirs) throws IOException {
        List<SourceFile> out = new ArrayList<>();
        for (Path p : filesOrDirs) {
            if (Files.isDirectory(p)) {
                List<Path> found;
                try (Stream<Path> walk = Files.walk(p)) {
                    found = walk.filter(f -> Files.isRegularFile(f) && f.getFileName().toString().endsWith(".prm"))
                            .sorted()
                            .toList();
                }
                for (Path f : found) {
                    out.add(read(f, p.resolve(p.relativize(f)).toString()));
                }
            } else {
                out.add(read(p, p.toString()));
            }
        }
        return out;
    }

    private static SourceFile read(Path file, String name) throws IOException {
        return new SourceFile(name.replace('\\', '/'), Files.readString(file, StandardCharsets.UTF_8));
    }
}

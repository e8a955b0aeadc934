package io.prmkit.generator;

import java.util.Objects;

/** One generated source file: its path relative to the output root (with '/') and its text. */
public record GeneratedFile(String relativePath, String content) {
    public GeneratedFile {
        Objects.requireNonNull(relativePath, "relativePath == null");
        Objects.requireNonNull(content, "content == null");
        if (relativePath.isEmpty() || relativePath.startsWith("/") || relativePath.contains("\\")) {
            throw new IllegalArgumentException("bad relative path: " + relativePath);
        }
    }
}

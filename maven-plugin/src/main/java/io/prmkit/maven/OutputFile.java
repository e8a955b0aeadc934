package io.prmkit.maven;

import java.nio.charset.StandardCharsets;
import java.util.Objects;

/**
 * A file to generate: a {@code /}-separated path below the output directory and its text, written
 * as UTF-8 bytes exactly as given.
 */
record OutputFile(String relativePath, String content) {
    OutputFile {
        Objects.requireNonNull(relativePath, "relativePath == null");
        Objects.requireNonNull(content, "content == null");
    }

    byte[] bytes() {
        return content.getBytes(StandardCharsets.UTF_8);
    }
}

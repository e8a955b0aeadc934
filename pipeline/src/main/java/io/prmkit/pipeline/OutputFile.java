package io.prmkit.pipeline;

import java.nio.charset.StandardCharsets;
import java.util.Objects;

/** A file to write: a {@code /}-separated path below the output folder and its text, written as UTF-8. */
public record OutputFile(String relativePath, String content) {
    public OutputFile {
        Objects.requireNonNull(relativePath, "relativePath == null");
        Objects.requireNonNull(content, "content == null");
    }

    public byte[] bytes() {
        return content.getBytes(StandardCharsets.UTF_8);
    }
}

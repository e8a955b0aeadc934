package io.prmkit.pipeline;

import java.util.Objects;

/**
 * One input file as read once from disk: the name diagnostics use for it and its bytes. Digests and
 * the compiler see these very bytes, so a file edited during a run cannot be compiled in one
 * version and recorded as another.
 */
public record InputFile(String name, byte[] bytes) {
    public InputFile {
        Objects.requireNonNull(name, "name == null");
        Objects.requireNonNull(bytes, "bytes == null");
    }
}

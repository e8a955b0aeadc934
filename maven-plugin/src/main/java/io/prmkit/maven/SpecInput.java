package io.prmkit.maven;

import java.util.Objects;

/**
 * One spec file as read once from disk: the digest and the compiler see these very bytes, so a file
 * edited during the build can't be compiled in one version and recorded as another.
 *
 * @param relativePath {@code /}-separated path below the source directory
 * @param displayName  the name diagnostics show (relative to the project's base directory)
 */
record SpecInput(String relativePath, String displayName, byte[] bytes) {
    SpecInput {
        Objects.requireNonNull(relativePath, "relativePath == null");
        Objects.requireNonNull(displayName, "displayName == null");
        Objects.requireNonNull(bytes, "bytes == null");
    }
}

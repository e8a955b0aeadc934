package io.prmkit.generator;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/**
 * Emits the per-package support class {@code PrmLayout}: the layout metadata records, the shared
 * value layouts and the generic validate/dump walkers. Its text is fixed except for the package, so
 * it is ordinary Java, {@code io.prmkit.layout.PrmLayout} in the prm-layout module (compiled and
 * unit-tested there), whose source the generator jar carries and copies with the package line replaced.
 */
final class SupportEmitter {
    /** The package line of the original, the only line the copy changes. */
    static final String ORIGINAL_PACKAGE_LINE = "package io.prmkit.layout;\n";

    private static final String SOURCE = load();

    private static String load() {
        try (InputStream in = SupportEmitter.class.getResourceAsStream("PrmLayout.java")) {
            if (in == null) throw new IllegalStateException("PrmLayout.java missing from the generator jar");
            String text = new String(in.readAllBytes(), StandardCharsets.UTF_8).replace("\r\n", "\n");
            if (!text.startsWith(ORIGINAL_PACKAGE_LINE)) {
                throw new IllegalStateException("PrmLayout.java in the generator jar does not start with " + ORIGINAL_PACKAGE_LINE.strip());
            }
            return text.substring(ORIGINAL_PACKAGE_LINE.length());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The source of {@code PrmLayout} for {@code javaPackage} (empty for the unnamed package). */
    String emit(String javaPackage) {
        if (javaPackage.isEmpty()) return SOURCE.startsWith("\n") ? SOURCE.substring(1) : SOURCE;
        return "package " + javaPackage + ";\n" + SOURCE;
    }
}

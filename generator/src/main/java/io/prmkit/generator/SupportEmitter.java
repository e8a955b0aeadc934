package io.prmkit.generator;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/**
 * Emits the per-package support class {@code PrmLayout}: the layout metadata records, the shared
 * value layouts and the generic validate/dump walkers. Its text is fixed except for the package, so
 * it is kept as a readable template rather than built statement by statement.
 */
final class SupportEmitter {
    private static final String TEMPLATE = load();

    private static String load() {
        try (InputStream in = SupportEmitter.class.getResourceAsStream("PrmLayout.java.tmpl")) {
            if (in == null) throw new IllegalStateException("PrmLayout.java.tmpl missing from the generator jar");
            return new String(in.readAllBytes(), StandardCharsets.UTF_8).replace("\r\n", "\n");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The source of {@code PrmLayout} for {@code javaPackage} (empty for the unnamed package). */
    String emit(String javaPackage) {
        if (javaPackage.isEmpty()) return TEMPLATE.replace("package __PACKAGE__;\n\n", "");
        return TEMPLATE.replace("__PACKAGE__", javaPackage);
    }
}

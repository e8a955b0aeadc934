package io.prmkit.dsl;

import java.util.Objects;

/**
 * A spec file's text and the name diagnostics use for it (usually the path as the user gave it).
 * The compiler reads only these values; file-system I/O belongs to the CLI and the Maven plugin.
 */
public record SourceFile(String name, String text) {
    public SourceFile {
        Objects.requireNonNull(name, "name == null");
        Objects.requireNonNull(text, "text == null");
    }

    /** The text of a 1-based line without its line terminator, or "" when out of range. */
    public String line(int line) {
        int start = 0;
        for (int i = 1; i < line; i++) {
            int nl = text.indexOf('\n', start);
            if (nl < 0) return "";
            start = nl + 1;
        }
        int end = text.indexOf('\n', start);
        String s = end < 0 ? text.substring(start) : text.substring(start, end);
        return s.endsWith("\r") ? s.substring(0, s.length() - 1) : s;
    }
}

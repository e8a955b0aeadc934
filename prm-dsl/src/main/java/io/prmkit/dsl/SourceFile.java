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

    /** The text of a 1-based line without its line terminator (LF, CRLF or a lone CR), or "" when out of range. */
    public String line(int line) {
        int start = 0;
        for (int i = 1; i < line; i++) {
            int nl = lineEnd(start);
            if (nl >= text.length()) return "";
            start = nl + (text.startsWith("\r\n", nl) ? 2 : 1);
        }
        return start > text.length() ? "" : text.substring(start, lineEnd(start));
    }

    private int lineEnd(int from) {
        int i = from;
        while (i < text.length() && text.charAt(i) != '\n' && text.charAt(i) != '\r') i++;
        return i;
    }
}

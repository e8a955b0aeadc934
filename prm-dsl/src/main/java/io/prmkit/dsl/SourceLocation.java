package io.prmkit.dsl;

import java.util.Objects;

/**
 * A position in a spec file: the file as the user named it, a 1-based line and a 1-based column.
 * Columns count characters, tabs included, so a caret printed under the source line lines up.
 */
public record SourceLocation(String file, int line, int column) implements Comparable<SourceLocation> {
    public static final SourceLocation NONE = new SourceLocation("<none>", 0, 0);

    public SourceLocation {
        Objects.requireNonNull(file, "file == null");
        if (line < 0 || column < 0) {
            throw new IllegalArgumentException("negative position: " + line + ":" + column);
        }
    }

    @Override
    public int compareTo(SourceLocation o) {
        int c = file.compareTo(o.file);
        if (c != 0) return c;
        c = Integer.compare(line, o.line);
        return c != 0 ? c : Integer.compare(column, o.column);
    }

    /** {@code file:line:col}, or just {@code file} for a problem with the whole file (line 0). */
    @Override
    public String toString() {
        return line == 0 ? file : file + ":" + line + ":" + column;
    }
}

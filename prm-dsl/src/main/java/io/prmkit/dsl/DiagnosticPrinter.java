package io.prmkit.dsl;

import java.util.Map;

/**
 * Renders a diagnostic the way compilers do: {@code file:line:col: error: message}, the source
 * line, and a caret under the column; then each related location as a note in the same form.
 */
public final class DiagnosticPrinter {
    /** Source lines longer than this are cut around the column. */
    static final int MAX_LINE = 160;
    /** Tokens and names quoted in messages are cut to this many characters. */
    public static final int MAX_QUOTED = 40;

    private DiagnosticPrinter() {
    }

    /** {@code s}, or its first {@link #MAX_QUOTED} characters and "..." when longer. */
    public static String cut(String s) {
        return s.length() <= MAX_QUOTED ? s : s.substring(0, MAX_QUOTED) + "...";
    }

    public static String render(Diagnostic d, Map<String, SourceFile> sources) {
        StringBuilder sb = new StringBuilder();
        block(sb, d.location(), d.severity().label(), d.message(), sources);
        for (Diagnostic.Related r : d.related()) {
            block(sb, r.location(), Severity.NOTE.label(), r.message(), sources);
        }
        return sb.toString();
    }

    private static void block(StringBuilder sb, SourceLocation at, String label, String message, Map<String, SourceFile> sources) {
        sb.append(at).append(": ").append(label).append(": ").append(message).append('\n');
        SourceFile f = sources.get(at.file());
        if (f == null || at.line() < 1) return;
        String line = f.line(at.line());
        int col = Math.max(1, at.column());
        if (line.length() > MAX_LINE) {
            // A long line (minified, generated, garbage) is shown as a window around the column.
            int from = Math.max(0, Math.min(col - 1 - MAX_LINE / 2, line.length() - MAX_LINE));
            int to = Math.min(line.length(), from + MAX_LINE);
            String prefix = from > 0 ? "..." : "";
            line = prefix + line.substring(from, to) + (to < line.length() ? "..." : "");
            col = col - from + prefix.length();
        }
        sb.append(line).append('\n');
        for (int i = 0; i < col - 1; i++) {
            sb.append(i < line.length() && line.charAt(i) == '\t' ? '\t' : ' ');
        }
        sb.append("^\n");
    }
}

package io.prmkit.dsl;

import java.util.Map;

/**
 * Renders a diagnostic the way compilers do: {@code file:line:col: error: message}, the source
 * line, and a caret under the column; then each related location as a note in the same form.
 */
public final class DiagnosticPrinter {
    private DiagnosticPrinter() {
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
        sb.append(line).append('\n');
        int col = Math.max(1, at.column());
        for (int i = 0; i < col - 1; i++) {
            sb.append(i < line.length() && line.charAt(i) == '\t' ? '\t' : ' ');
        }
        sb.append("^\n");
    }
}

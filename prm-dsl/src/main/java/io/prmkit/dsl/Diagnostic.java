package io.prmkit.dsl;

import java.util.List;
import java.util.Objects;

/**
 * A message about a spec, as a value: severity, where, what, and related places (for example the
 * other field of an overlap). Rendering is separate (see {@link DiagnosticPrinter}), so tools can
 * sort, filter or serialise diagnostics without parsing text.
 */
public record Diagnostic(Severity severity, SourceLocation location, String message, List<Related> related) {

    /** Another place that explains this diagnostic, e.g. "previous definition here". */
    public record Related(SourceLocation location, String message) {
        public Related {
            Objects.requireNonNull(location, "location == null");
            Objects.requireNonNull(message, "message == null");
        }
    }

    public Diagnostic {
        Objects.requireNonNull(severity, "severity == null");
        Objects.requireNonNull(location, "location == null");
        Objects.requireNonNull(message, "message == null");
        related = List.copyOf(related);
    }

    public static Diagnostic error(SourceLocation at, String message, Related... related) {
        return new Diagnostic(Severity.ERROR, at, message, List.of(related));
    }

    public static Diagnostic warning(SourceLocation at, String message, Related... related) {
        return new Diagnostic(Severity.WARNING, at, message, List.of(related));
    }

    public boolean isError() {
        return severity == Severity.ERROR;
    }

    /** The one-line form {@code file:line:col: error: message}. */
    @Override
    public String toString() {
        return location + ": " + severity.label() + ": " + message;
    }
}

package io.prmkit.dsl;

/** How bad a diagnostic is. Any {@link #ERROR} stops emission. */
public enum Severity {
    ERROR, WARNING, NOTE;

    public String label() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }
}

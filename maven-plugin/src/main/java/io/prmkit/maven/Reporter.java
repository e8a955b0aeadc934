package io.prmkit.maven;

/** Where a generation reports progress and diagnostics (the Maven log, or a list in tests). */
interface Reporter {
    void debug(String line);

    void info(String line);

    void warn(String line);

    void error(String line);
}

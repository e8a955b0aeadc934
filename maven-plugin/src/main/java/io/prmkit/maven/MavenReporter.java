package io.prmkit.maven;

import org.apache.maven.plugin.logging.Log;

/** Sends each line to the Maven log, so IDE consoles can link {@code file:line:col}; shared by every goal. */
record MavenReporter(Log log) implements Reporter {
    @Override
    public void debug(String line) {
        log.debug(line);
    }

    @Override
    public void info(String line) {
        log.info(line);
    }

    @Override
    public void warn(String line) {
        log.warn(line);
    }

    @Override
    public void error(String line) {
        log.error(line);
    }
}

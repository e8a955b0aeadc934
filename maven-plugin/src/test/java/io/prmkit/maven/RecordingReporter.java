package io.prmkit.maven;

import java.util.ArrayList;
import java.util.List;

/** Collects log lines as "LEVEL text". */
final class RecordingReporter implements Reporter {
    final List<String> lines = new ArrayList<>();

    @Override
    public void debug(String line) {
        lines.add("DEBUG " + line);
    }

    @Override
    public void info(String line) {
        lines.add("INFO " + line);
    }

    @Override
    public void warn(String line) {
        lines.add("WARN " + line);
    }

    @Override
    public void error(String line) {
        lines.add("ERROR " + line);
    }

    List<String> at(String level) {
        return lines.stream().filter(l -> l.startsWith(level + " ")).map(l -> l.substring(level.length() + 1)).toList();
    }

    void clear() {
        lines.clear();
    }
}

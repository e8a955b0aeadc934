package io.prmkit.maven;

import io.prmkit.pipeline.OutputSync;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * What the last successful generation recorded under {@code target/}: the input digest, the
 * absolute output directory and every output file in it with the SHA-256 of its bytes (to find stale files and hand-edited outputs) and the
 * warnings it printed (so an up-to-date build still shows them, and {@code failOnWarnings} still
 * applies).
 */
record GenerationState(
        String digest, String outputDirectory, SortedMap<String, String> outputs, int warningCount, List<String> warningLines) {
    private static final String HEADER = "# prmkit-maven-plugin state; delete this file to force regeneration";

    GenerationState {
        Objects.requireNonNull(digest, "digest == null");
        Objects.requireNonNull(outputDirectory, "outputDirectory == null");
        outputs = new TreeMap<>(outputs);
        warningLines = List.copyOf(warningLines);
        if (warningCount < 0) throw new IllegalArgumentException("warningCount < 0");
    }

    /** The state in {@code file}, or empty if there is none or it can't be understood. */
    static Optional<GenerationState> read(Path file) throws IOException {
        if (!Files.isRegularFile(file)) return Optional.empty();
        List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        if (lines.size() < 3 || !lines.get(0).equals(HEADER) || !lines.get(1).equals("format " + InputDigest.FORMAT)) {
            return Optional.empty();
        }
        String digest = null;
        String outputDirectory = null;
        SortedMap<String, String> outputs = new TreeMap<>();
        int warningCount = 0;
        List<String> warningLines = new ArrayList<>();
        for (String line : lines.subList(2, lines.size())) {
            if (line.startsWith("digest ")) {
                digest = line.substring(7);
            } else if (line.startsWith("outputDirectory ")) {
                outputDirectory = line.substring(16);
            } else if (line.startsWith("output ")) {
                int sp = line.indexOf(' ', 7);
                if (sp < 0) return Optional.empty();
                outputs.put(line.substring(sp + 1), line.substring(7, sp));
            } else if (line.startsWith("warnings ")) {
                try {
                    warningCount = Integer.parseInt(line.substring(9));
                } catch (NumberFormatException e) {
                    return Optional.empty();
                }
            } else if (line.startsWith("warning ")) {
                warningLines.add(line.substring(8));
            } else if (!line.isEmpty()) {
                return Optional.empty();
            }
        }
        if (digest == null || outputDirectory == null) return Optional.empty();
        return Optional.of(new GenerationState(digest, outputDirectory, outputs, warningCount, warningLines));
    }

    /** Writes the state; a crash halfway leaves either the old file or the new one. */
    void write(Path file) throws IOException {
        StringBuilder sb = new StringBuilder();
        sb.append(HEADER).append('\n');
        sb.append("format ").append(InputDigest.FORMAT).append('\n');
        sb.append("digest ").append(digest).append('\n');
        sb.append("outputDirectory ").append(outputDirectory).append('\n');
        for (Map.Entry<String, String> e : outputs.entrySet()) {
            sb.append("output ").append(e.getValue()).append(' ').append(e.getKey()).append('\n');
        }
        sb.append("warnings ").append(warningCount).append('\n');
        for (String line : warningLines) {
            sb.append("warning ").append(line.replace("\n", " ")).append('\n');
        }
        Files.createDirectories(file.getParent());
        OutputSync.writeAtomically(file, sb.toString().getBytes(StandardCharsets.UTF_8));
    }
}

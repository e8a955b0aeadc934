package io.prmkit.cli;

import io.prmkit.dsl.Diagnostic;
import io.prmkit.dsl.DiagnosticPrinter;
import io.prmkit.dsl.SourceFile;
import io.prmkit.dsl.SpecLoader;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Where the CLI gets spec text: files and directories named on the command line, or the bundled spec. */
final class SpecInput {
    /** Resource listing the bundled spec files, one path relative to {@code prm/} per line. */
    static final String BUNDLED_INDEX = "prm/index.txt";

    /** Bad input the user can fix (a missing file, no bundled spec): one line, no stack trace. */
    static final class InputException extends Exception {
        InputException(String message) {
            super(message);
        }
    }

    private SpecInput() {
    }

    /** Prints diagnostics the compiler way: {@code file:line:col: error: ...}, the source line, a caret. */
    static void print(List<Diagnostic> diagnostics, List<SourceFile> files, PrintWriter err) {
        Map<String, SourceFile> byName = new LinkedHashMap<>();
        files.forEach(f -> byName.put(f.name(), f));
        for (Diagnostic d : diagnostics) {
            err.print(DiagnosticPrinter.render(d, byName));
        }
    }

    static List<SourceFile> load(List<Path> specs) throws InputException {
        if (specs == null || specs.isEmpty()) return bundled(SpecInput.class.getClassLoader());
        for (Path p : specs) {
            if (!Files.exists(p)) throw new InputException("no such file or directory: " + p);
        }
        try {
            List<SourceFile> files = SpecLoader.load(specs);
            if (files.isEmpty()) throw new InputException("no .prm files in " + specs);
            return files;
        } catch (IOException e) {
            throw new InputException("cannot read spec: " + e.getMessage());
        }
    }

    /** The spec packaged under {@code prm/} on the class path (the generated-runtime jar), listed by {@code prm/index.txt}. */
    static List<SourceFile> bundled(ClassLoader cl) throws InputException {
        List<String> names = new ArrayList<>();
        try (InputStream in = cl.getResourceAsStream(BUNDLED_INDEX)) {
            if (in == null) {
                throw new InputException("no bundled spec is available (no " + BUNDLED_INDEX
                        + " on the class path); name spec files or directories instead");
            }
            try (BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
                for (String line = r.readLine(); line != null; line = r.readLine()) {
                    String name = line.strip();
                    if (!name.isEmpty() && !name.startsWith("#")) names.add(name);
                }
            }
            List<SourceFile> files = new ArrayList<>();
            for (String name : names) {
                String resource = "prm/" + name;
                try (InputStream s = cl.getResourceAsStream(resource)) {
                    if (s == null) throw new InputException(BUNDLED_INDEX + " lists " + name + ", which is not on the class path");
                    files.add(new SourceFile(resource, new String(s.readAllBytes(), StandardCharsets.UTF_8)));
                }
            }
            if (files.isEmpty()) throw new InputException(BUNDLED_INDEX + " lists no spec files");
            return files;
        } catch (IOException e) {
            throw new InputException("cannot read the bundled spec: " + e.getMessage());
        }
    }
}

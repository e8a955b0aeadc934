package io.prmkit.mlx5.conformance;

import io.prmkit.dsl.Child;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Compiles a generated C program with gcc under target/ and runs it. The program prints one
 * tab-separated line per query, keyed by its first column; offsets and sizes therefore come from
 * the compiler, not from anything we computed by hand.
 */
final class Gcc {
    private final String gcc;
    private final Path workDir;

    Gcc(String gcc, Path workDir) {
        this.gcc = gcc;
        this.workDir = workDir;
    }

    /** Writes {@code name}.c, compiles and runs it, and returns its output lines by key. */
    Map<String, String[]> run(String name, String source, List<String> includeDirs) {
        try {
            Files.createDirectories(workDir);
            Path c = workDir.resolve(name + ".c");
            Path exe = workDir.resolve(name);
            Files.writeString(c, source, StandardCharsets.UTF_8);
            List<String> cmd = new ArrayList<>(List.of(gcc, "-std=gnu11", "-O0", "-w"));
            for (String inc : includeDirs) cmd.add("-I" + inc);
            cmd.addAll(List.of("-o", exe.toString(), c.toString()));
            exec(cmd, "gcc failed on " + c);
            String out = exec(List.of(exe.toString()), "running " + exe + " failed");
            Map<String, String[]> byKey = new HashMap<>();
            for (String line : out.split("\n")) {
                if (line.isEmpty()) continue;
                String[] cols = line.split("\t");
                byKey.put(cols[0], cols);
            }
            return byKey;
        } catch (IOException e) {
            throw new AssertionError("cannot write or run C program in " + workDir + ": " + e.getMessage(), e);
        }
    }

    private static String exec(List<String> cmd, String what) throws IOException {
        Child.Result r = Child.run(new ProcessBuilder(cmd).redirectErrorStream(true), Duration.ofMinutes(2));
        if (r.exit() != 0) {
            throw new AssertionError(what + " (exit " + r.exit() + "):\n" + tail(r.stdout()));
        }
        return r.stdout();
    }

    private static String tail(String s) {
        return s.length() <= 4000 ? s : "..." + s.substring(s.length() - 4000);
    }
}

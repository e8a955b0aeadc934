package io.prmkit.cli;

import io.prmkit.dsl.Words;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The machine a {@code prmkit bench} run measured, as one line: the same code has measured on the
 * far side of a goal on one CPU kind and on the near side on another (wqe-build generated/C 0.89 on
 * an Intel Xeon VM, 1.43 on an AMD Zen 5 one), so a figure means little without it.
 */
final class BenchMachine {
    private BenchMachine() {}

    /**
     * {@code machine: <cpu>, N CPUs, <os> <version>, JDK <version>, <compiler>}. The CPU is named from
     * {@code cpuinfo} (Linux's {@code /proc/cpuinfo}: the first processor's model name, and on x86 its
     * family and model numbers, which tell core generations apart where the name does not), else
     * from {@code arch}; a missing compiler version is left out.
     */
    static String describe(String cpuinfo, String arch, int cpus, String os, String osVersion, String jdk, String compiler) {
        Map<String, String> first = firstProcessor(cpuinfo == null ? "" : cpuinfo);
        String name = first.getOrDefault("model name", "");
        String cpu = name.isEmpty() ? arch + " CPU" : name;
        String family = first.get("cpu family");
        String model = first.get("model");
        if (family != null && model != null && family.matches("\\d+") && model.matches("\\d+")) {
            cpu += " (family " + family + " model " + model + ")";
        }
        StringBuilder line = new StringBuilder("machine: ").append(cpu)
                .append(String.format(Locale.ROOT, ", %s, %s %s, JDK %s", Words.plural(cpus, "CPU"), os, osVersion, jdk));
        if (compiler != null && !compiler.isBlank()) line.append(", ").append(compiler.strip());
        return line.toString();
    }

    /** The {@code key: value} lines of the first processor block (up to the first blank line). */
    private static Map<String, String> firstProcessor(String cpuinfo) {
        Map<String, String> fields = new LinkedHashMap<>();
        for (String line : cpuinfo.split("\n", -1)) {
            if (line.isBlank()) {
                if (!fields.isEmpty()) break;
                continue;
            }
            int colon = line.indexOf(':');
            if (colon < 0) continue;
            fields.putIfAbsent(line.substring(0, colon).strip(), line.substring(colon + 1).strip());
        }
        return fields;
    }

    /** This machine's line; {@code cc} is the C compiler the run built its references with. */
    static String current(String cc) {
        String cpuinfo;
        try {
            cpuinfo = Files.readString(Path.of("/proc/cpuinfo"), StandardCharsets.ISO_8859_1);
        } catch (IOException | SecurityException e) {
            cpuinfo = null; // not Linux: the architecture names the CPU
        }
        return describe(cpuinfo, System.getProperty("os.arch"), Runtime.getRuntime().availableProcessors(),
                System.getProperty("os.name"), System.getProperty("os.version"), Runtime.version().toString(), compilerVersion(cc));
    }

    /** The first line of {@code cc --version} (gcc and clang both print their name and version there), or null. */
    private static String compilerVersion(String cc) {
        try {
            Process p = new ProcessBuilder(cc, "--version").redirectErrorStream(true).start();
            String text = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!p.waitFor(10, TimeUnit.SECONDS) || p.exitValue() != 0) return null;
            int end = text.indexOf('\n');
            return end < 0 ? text : text.substring(0, end);
        } catch (IOException e) {
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }
}

package io.prmkit.dsl;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.opentest4j.TestAbortedException;

/**
 * The one place tests find the system tools some of them need: the kernel's mlx5 headers (Debian
 * linux-headers-VERSION-common), rdma-core's mlx5dv.h (libibverbs-dev), gcc, tshark and chromium;
 * and the one place that decides whether tests run in CI ({@link #inCi()}).
 *
 * <p>Without them such tests are skipped, with one line per missing tool saying what to install, so
 * a newcomer's {@code ./mvnw verify} passes with just the JDKs; in CI ({@code CI} set to anything but
 * empty, {@code false} or {@code 0}) they fail instead, naming every tool this machine lacks
 * ({@code .ci/run} installs the packages, so there they must run). Only a missing tool may skip a
 * test, never what the code under test does. The headers used are printed once, with their version.
 *
 * <p>Where to look, first match wins:
 * <ul>
 *   <li>kernel headers: {@code -Dprmkit.ifc.dir} / {@code PRMKIT_IFC_DIR} (a folder holding
 *       mlx5_ifc.h), else the newest {@code ROOT/usr/src/linux-headers-*-common/include/linux/mlx5};</li>
 *   <li>mlx5dv.h: {@code -Dprmkit.mlx5dv.h} / {@code PRMKIT_MLX5DV_H}, else {@code ROOT/usr/include/infiniband/mlx5dv.h};</li>
 *   <li>gcc, tshark: on {@code PATH}, or in {@code ROOT/usr/bin} when a root is given;</li>
 *   <li>chromium: {@code -Dprmkit.chromium} / {@code PRMKIT_CHROMIUM}, else chromium, chromium-browser
 *       or google-chrome as gcc.</li>
 * </ul>
 * {@code ROOT} is {@code -Dprmkit.sysroot} / {@code PRMKIT_SYSROOT}, default {@code /}; pointing it at
 * an empty folder shows what a machine without the packages does.
 */
public final class HostTools {
    private HostTools() {}

    /** A tool some tests need, with the Debian package that provides it. */
    public enum Tool {
        KERNEL_HEADERS("the kernel's mlx5 headers (include/linux/mlx5/mlx5_ifc.h)",
                "apt-get install linux-headers-<version>-common, e.g. linux-headers-6.1.0-57-common; or -Dprmkit.ifc.dir=<folder with mlx5_ifc.h>"),
        MLX5DV("rdma-core's infiniband/mlx5dv.h", "apt-get install libibverbs-dev, or -Dprmkit.mlx5dv.h=<file>"),
        GCC("gcc", "apt-get install gcc"),
        TSHARK("tshark", "apt-get install tshark"),
        CHROMIUM("a headless Chromium", "apt-get install chromium, or -Dprmkit.chromium=<binary>"),
        LIBMLX5("rdma-core's libmlx5.so.1 (the mlx5 provider with mlx5_vfio)", "apt-get install libibverbs-dev ibverbs-providers");

        final String what;
        final String install;

        Tool(String what, String install) {
            this.what = what;
            this.install = install;
        }
    }

    /** What was found where; empty where a tool is missing. */
    public record Found(Optional<Path> kernelMlx5Dir, Optional<Path> mlx5dvHeader, Optional<Path> gcc,
                        Optional<Path> tshark, Optional<Path> chromium, Optional<Path> libmlx5) {
        public Set<Tool> missing() {
            Set<Tool> m = EnumSet.noneOf(Tool.class);
            if (kernelMlx5Dir.isEmpty()) m.add(Tool.KERNEL_HEADERS);
            if (mlx5dvHeader.isEmpty()) m.add(Tool.MLX5DV);
            if (gcc.isEmpty()) m.add(Tool.GCC);
            if (tshark.isEmpty()) m.add(Tool.TSHARK);
            if (chromium.isEmpty()) m.add(Tool.CHROMIUM);
            if (libmlx5.isEmpty()) m.add(Tool.LIBMLX5);
            return m;
        }
    }

    private static Found host;
    private static final Set<Tool> announced = new HashSet<>();
    private static boolean versionPrinted;

    /** The tools of this machine (from the system properties and environment above), looked up once. */
    public static synchronized Found host() {
        if (host == null) host = locate(setting("prmkit.sysroot", "PRMKIT_SYSROOT"), setting("prmkit.ifc.dir", "PRMKIT_IFC_DIR"),
                setting("prmkit.mlx5dv.h", "PRMKIT_MLX5DV_H"), setting("prmkit.chromium", "PRMKIT_CHROMIUM"),
                System.getenv().getOrDefault("PATH", "/usr/bin:/bin"));
        return host;
    }

    /**
     * Whether tests run in CI, where every tool must be there: the {@code CI} variable set to anything
     * but empty, {@code false} or {@code 0} (GitHub, GitLab and most CIs set {@code CI=true}; {@code CI=1} counts).
     */
    public static boolean inCi() {
        return ciValue(System.getenv("CI"));
    }

    /** The rule of {@link #inCi()} for one value of {@code CI}. */
    public static boolean ciValue(String ci) {
        if (ci == null) return false;
        String v = ci.strip();
        return !v.isEmpty() && !v.equalsIgnoreCase("false") && !v.equals("0");
    }

    /** The kernel's include/linux/mlx5 folder, or the test is skipped (failed in CI). */
    public static Path kernelMlx5Dir() {
        require(Tool.KERNEL_HEADERS);
        return host().kernelMlx5Dir().orElseThrow();
    }

    /** rdma-core's mlx5dv.h, or the test is skipped (failed in CI). */
    public static Path mlx5dvHeader() {
        require(Tool.MLX5DV);
        return host().mlx5dvHeader().orElseThrow();
    }

    /** gcc, or the test is skipped (failed in CI). */
    public static String gcc() {
        require(Tool.GCC);
        return host().gcc().orElseThrow().toString();
    }

    /** tshark, or the test is skipped (failed in CI). */
    public static String tshark() {
        require(Tool.TSHARK);
        return host().tshark().orElseThrow().toString();
    }

    /** rdma-core's libmlx5.so.1 ({@code ROOT/usr/lib/<multiarch>/}, {@code ROOT/usr/lib64/}), or the test is skipped (failed in CI). */
    public static Path libmlx5() {
        require(Tool.LIBMLX5);
        return host().libmlx5().orElseThrow();
    }

    /** A Chromium binary, or the test is skipped (failed in CI). */
    public static Path chromium() {
        require(Tool.CHROMIUM);
        return host().chromium().orElseThrow();
    }

    /**
     * Skips the test (fails it in CI) unless a part of the operating system it needs is there, e.g.
     * Linux's /dev/full; {@code what} names it, {@code why} says what the test does with it.
     */
    public static void requireSystem(boolean present, String what, String why) {
        requireSystem(present, what, why, inCi(), System.out);
    }

    static void requireSystem(boolean present, String what, String why, boolean ci, PrintStream out) {
        if (present) return;
        String message = "missing " + what + " (" + why + ")";
        if (ci) throw new IllegalStateException(message + " -- CI is set: every test must run in CI");
        out.println("[prmkit] SKIPPED: a test that needs " + what + " (" + why + ")");
        throw new TestAbortedException(message);
    }

    /** Skips the test (fails it in CI) unless all these tools are there. */
    public static synchronized void require(Tool... tools) {
        Found f = host();
        printVersionsOnce(f, System.out);
        Set<Tool> missing = EnumSet.noneOf(Tool.class);
        for (Tool t : tools) {
            if (f.missing().contains(t)) missing.add(t);
        }
        if (missing.isEmpty()) return;
        for (Tool t : missing) {
            if (announced.add(t) && !inCi()) System.out.println(skipLine(t));
        }
        throw decide(missing, inCi(), f.missing());
    }

    /** The one line printed when tests are skipped for lack of {@code t}. */
    public static String skipLine(Tool t) {
        return "[prmkit] SKIPPED: tests that need " + t.what + " (to run them: " + t.install + ")";
    }

    /**
     * A skip outside CI, a failure in CI; either names every missing tool and how to get it. In CI the
     * message also lists every tool this machine lacks ({@code allMissing}), so the first failure says
     * what to install.
     */
    public static RuntimeException decide(Set<Tool> missing, boolean ci, Set<Tool> allMissing) {
        String message = "missing " + describe(missing);
        if (ci) {
            return new IllegalStateException(message + " -- CI is set: these tests must run in CI, where .ci/run installs the packages."
                    + " This machine lacks: " + describe(allMissing));
        }
        return new TestAbortedException(message);
    }

    static RuntimeException decide(Set<Tool> missing, boolean ci) {
        return decide(missing, ci, missing);
    }

    private static String describe(Set<Tool> tools) {
        List<String> parts = new ArrayList<>();
        for (Tool t : tools) parts.add(t.what + " (" + t.install + ")");
        return String.join("; ", parts);
    }

    /**
     * Finds the tools below {@code root} (blank: {@code /}), with the given overrides (blank: none) and
     * {@code path} (used only when no root is given).
     */
    public static Found locate(String root, String ifcDir, String mlx5dv, String path) {
        return locate(root, ifcDir, mlx5dv, null, path);
    }

    /** As above, with an explicit Chromium binary (blank: look for one as for gcc). */
    public static Found locate(String root, String ifcDir, String mlx5dv, String chromium, String path) {
        Path r = Path.of(root == null || root.isBlank() ? "/" : root);
        boolean customRoot = root != null && !root.isBlank() && !r.toAbsolutePath().normalize().equals(Path.of("/"));
        Optional<Path> kernel;
        if (ifcDir != null && !ifcDir.isBlank()) {
            Path d = Path.of(ifcDir);
            kernel = Files.isRegularFile(d.resolve("mlx5_ifc.h")) ? Optional.of(d) : Optional.empty();
        } else {
            kernel = newestKernelHeaders(r.resolve("usr/src"));
        }
        Path dv = mlx5dv != null && !mlx5dv.isBlank() ? Path.of(mlx5dv) : r.resolve("usr/include/infiniband/mlx5dv.h");
        List<String> dirs = customRoot ? List.of(r.resolve("usr/bin").toString(), r.resolve("bin").toString())
                : List.of(path.split(java.io.File.pathSeparator));
        Optional<Path> browser;
        if (chromium != null && !chromium.isBlank()) {
            Path p = Path.of(chromium);
            browser = Files.isExecutable(p) ? Optional.of(p) : Optional.empty();
        } else {
            browser = program(dirs, "chromium", "chromium-browser", "google-chrome");
        }
        return new Found(kernel, Files.isRegularFile(dv) ? Optional.of(dv) : Optional.empty(), program(dirs, "gcc"),
                program(dirs, "tshark"), browser, library(r, "libmlx5.so.1"));
    }

    /** {@code ROOT/usr/lib/<multiarch>/name}, {@code ROOT/usr/lib64/name} or {@code ROOT/usr/lib/name}. */
    private static Optional<Path> library(Path root, String name) {
        Path lib = root.resolve("usr/lib");
        List<Path> candidates = new ArrayList<>();
        if (Files.isDirectory(lib)) {
            try (Stream<Path> dirs = Files.list(lib)) {
                dirs.filter(d -> d.getFileName().toString().endsWith("-linux-gnu")).sorted().forEach(d -> candidates.add(d.resolve(name)));
            } catch (IOException e) {
                return Optional.empty();
            }
        }
        candidates.add(root.resolve("usr/lib64").resolve(name));
        candidates.add(lib.resolve(name));
        return candidates.stream().filter(Files::isRegularFile).findFirst();
    }

    private static Optional<Path> program(List<String> dirs, String... names) {
        for (String d : dirs) {
            if (d.isEmpty()) continue;
            for (String name : names) {
                Path p = Path.of(d, name);
                if (Files.isExecutable(p) && !Files.isDirectory(p)) return Optional.of(p);
            }
        }
        return Optional.empty();
    }

    /** The Debian package a kernel header folder comes from, e.g. linux-headers-6.1.0-57-common, or the folder. */
    public static String kernelPackage(Path mlx5Dir) {
        for (Path p = mlx5Dir; p != null; p = p.getParent()) {
            if (p.getFileName() != null && p.getFileName().toString().matches("linux-headers-.*")) return p.getFileName().toString();
        }
        return mlx5Dir.toString();
    }

    static synchronized void printVersionsOnce(Found f, PrintStream out) {
        if (versionPrinted) return;
        versionPrinted = true;
        f.kernelMlx5Dir().ifPresent(d -> out.println("[prmkit] kernel headers: " + kernelPackage(d) + " (" + d + ")"));
        f.mlx5dvHeader().ifPresent(h -> out.println("[prmkit] rdma-core header: " + h
                + debianVersion(Path.of("/var/lib/dpkg/status"), "libibverbs-dev").map(v -> " (libibverbs-dev " + v + ")").orElse("")));
    }

    /** The installed version of a Debian package, from dpkg's status file; empty when not known. */
    public static Optional<String> debianVersion(Path status, String pkg) {
        if (!Files.isReadable(status)) return Optional.empty();
        try (Stream<String> lines = Files.lines(status)) {
            boolean in = false;
            for (String line : (Iterable<String>) lines::iterator) {
                if (line.startsWith("Package: ")) in = line.equals("Package: " + pkg);
                else if (in && line.startsWith("Version: ")) return Optional.of(line.substring("Version: ".length()));
            }
        } catch (IOException | java.io.UncheckedIOException e) {
            return Optional.empty();
        }
        return Optional.empty();
    }

    private static Optional<Path> newestKernelHeaders(Path usrSrc) {
        if (!Files.isDirectory(usrSrc)) return Optional.empty();
        try (Stream<Path> dirs = Files.list(usrSrc)) {
            return dirs.filter(d -> d.getFileName().toString().matches("linux-headers-.*-common"))
                    .map(d -> d.resolve("include/linux/mlx5"))
                    .filter(d -> Files.isRegularFile(d.resolve("mlx5_ifc.h")))
                    .max(Comparator.comparing(HostTools::versionKey));
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    /** Sorts 6.1.0-9 before 6.1.0-50: numbers compare as numbers. */
    static String versionKey(Path p) {
        Matcher m = Pattern.compile("\\d+").matcher(p.toString());
        StringBuilder sb = new StringBuilder();
        while (m.find()) sb.append(String.format("%010d.", Long.parseLong(m.group().length() > 10 ? "9999999999" : m.group())));
        return sb.toString();
    }

    private static String setting(String property, String env) {
        String v = System.getProperty(property);
        return v != null ? v : System.getenv(env);
    }
}

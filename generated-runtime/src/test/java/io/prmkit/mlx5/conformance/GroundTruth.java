package io.prmkit.mlx5.conformance;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * Where the ground-truth headers live: Debian's linux-headers-*-common (include/linux/mlx5) and
 * libibverbs-dev (infiniband/mlx5dv.h), plus gcc to compute offsets from them. Missing pieces are a
 * test failure with the package names, never a skip: in CI (CI=true) the comparison must run.
 */
record GroundTruth(Path mlx5Dir, Path mlx5dvHeader, String gcc) {

    static final String KERNEL_PACKAGE = "linux-headers-*-common";
    static final String RDMA_PACKAGE = "libibverbs-dev";

    Path header(String name) {
        return mlx5Dir.resolve(name);
    }

    /** Finds the headers or throws an AssertionError naming the Debian packages to install. */
    static GroundTruth locate() {
        Optional<Path> kernel = kernelHeaders();
        Path dv = Path.of(System.getenv().getOrDefault("PRMKIT_MLX5DV_H", "/usr/include/infiniband/mlx5dv.h"));
        Optional<String> gcc = onPath("gcc");
        StringBuilder missing = new StringBuilder();
        if (kernel.isEmpty()) {
            missing.append("\n  - kernel mlx5 headers (include/linux/mlx5/mlx5_ifc.h, device.h, qp.h, cq.h): install Debian package "
                    + KERNEL_PACKAGE + " (e.g. apt-get install linux-headers-6.1.0-50-common), or set PRMKIT_LINUX_HEADERS");
        }
        if (!Files.isRegularFile(dv)) {
            missing.append("\n  - ").append(dv).append(": install Debian package ").append(RDMA_PACKAGE)
                    .append(", or set PRMKIT_MLX5DV_H");
        }
        if (gcc.isEmpty()) {
            missing.append("\n  - gcc: install Debian package gcc");
        }
        if (!missing.isEmpty()) {
            boolean ci = "true".equalsIgnoreCase(System.getenv("CI"));
            throw new AssertionError("mlx5 header conformance cannot run; missing:" + missing
                    + (ci ? "\n(CI=true: this comparison is required in CI)" : ""));
        }
        return new GroundTruth(kernel.get(), dv, gcc.get());
    }

    private static Optional<Path> kernelHeaders() {
        String override = System.getenv("PRMKIT_LINUX_HEADERS");
        if (override != null && !override.isBlank()) {
            Path dir = Path.of(override).resolve("include/linux/mlx5");
            return Files.isRegularFile(dir.resolve("mlx5_ifc.h")) ? Optional.of(dir) : Optional.empty();
        }
        Path src = Path.of("/usr/src");
        if (!Files.isDirectory(src)) return Optional.empty();
        try (Stream<Path> dirs = Files.list(src)) {
            List<Path> candidates = dirs
                    .filter(d -> d.getFileName().toString().matches("linux-headers-.*-common"))
                    .map(d -> d.resolve("include/linux/mlx5"))
                    .filter(d -> Files.isRegularFile(d.resolve("mlx5_ifc.h")))
                    .sorted(Comparator.comparing(GroundTruth::versionKey))
                    .toList();
            return candidates.isEmpty() ? Optional.empty() : Optional.of(candidates.get(candidates.size() - 1));
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    /** Sorts linux-headers-6.1.0-9-common before linux-headers-6.1.0-50-common (numeric parts compared as numbers). */
    private static String versionKey(Path mlx5Dir) {
        String name = mlx5Dir.getParent().getParent().getParent().getFileName().toString();
        StringBuilder key = new StringBuilder();
        for (String part : name.split("[.-]")) {
            key.append(part.matches("\\d+") ? String.format("%010d", Long.parseLong(part)) : part).append('.');
        }
        return key.toString();
    }

    private static Optional<String> onPath(String tool) {
        String path = System.getenv().getOrDefault("PATH", "/usr/bin:/bin");
        for (String dir : path.split(java.io.File.pathSeparator)) {
            Path p = Path.of(dir, tool);
            if (Files.isExecutable(p)) return Optional.of(p.toString());
        }
        return Optional.empty();
    }
}

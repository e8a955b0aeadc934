package io.prmkit.mlx5.conformance;

import io.prmkit.dsl.HostTools;
import java.nio.file.Path;

/**
 * Where the ground-truth headers live: the kernel's include/linux/mlx5 and rdma-core's
 * infiniband/mlx5dv.h, plus gcc to compute offsets from them. Found by {@link HostTools}, like every
 * test that needs them: missing pieces skip the test with one line saying what to install, and fail
 * it under CI=true.
 */
record GroundTruth(Path mlx5Dir, Path mlx5dvHeader, String gcc) {

    Path header(String name) {
        return mlx5Dir.resolve(name);
    }

    /** The same kernel headers package's include/linux (if_vlan.h) and include/uapi (ip.h, tcp.h, ...). */
    Path linuxDir() {
        return mlx5Dir.getParent();
    }

    Path uapiDir() {
        return mlx5Dir.getParent().getParent().resolve("uapi");
    }

    /** The headers and gcc, or the calling test is skipped (failed in CI). */
    static GroundTruth locate() {
        HostTools.require(HostTools.Tool.KERNEL_HEADERS, HostTools.Tool.MLX5DV, HostTools.Tool.GCC);
        return new GroundTruth(HostTools.kernelMlx5Dir(), HostTools.mlx5dvHeader(), HostTools.gcc());
    }

    /** The kernel headers and gcc only, for tests that read no rdma-core header (mlx5dvHeader is null). */
    static GroundTruth locateKernel() {
        HostTools.require(HostTools.Tool.KERNEL_HEADERS, HostTools.Tool.GCC);
        return new GroundTruth(HostTools.kernelMlx5Dir(), null, HostTools.gcc());
    }
}

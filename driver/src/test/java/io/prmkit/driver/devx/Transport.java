package io.prmkit.driver.devx;

/**
 * The two ways the driver's {@code res}, {@code eth} and {@code dp} layers reach a device, which the
 * tests above {@code cmd} run on alike ({@link BothTransports}, {@link TestDevice}).
 */
public enum Transport {
    /** Our bring-up and command queue ({@code Mlx5Device}) on a soft HCA in the test's JVM. */
    COMMAND_QUEUE,
    /**
     * rdma-core's DEVX ({@link DevxDevice}) with rdma-core's own mlx5_vfio provider (the system's
     * libmlx5) bringing up a soft HCA behind the VFIO stand-in, in a JVM of its own with the stand-in
     * preloaded (one per test class: {@link OverBothTransports}).
     */
    DEVX
}

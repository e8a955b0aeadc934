package io.prmkit.driver.core;

import java.util.function.Function;

/**
 * An mlx5 function the driver's objects are built on: brought up by this driver over a {@code
 * PciFunction} ({@link Mlx5Device}), or kept by someone else and reached through rdma-core's DEVX
 * ({@code io.prmkit.driver.devx.DevxDevice}: the kernel's mlx5_core, or rdma-core's mlx5_vfio). An
 * Ethernet port is opened on either ({@code EthPort.open}).
 */
public interface Mlx5Function extends AutoCloseable {

    /**
     * Builds an object on this function with {@code factory}, which gets what such an object needs of
     * it ({@link DeviceAccess}), and owns it: {@link #close()} closes it first.
     */
    <T extends AutoCloseable> T attach(Function<DeviceAccess, T> factory);

    /** The capabilities as the function reports them now. */
    Caps caps();

    /** Closes what was attached (in reverse order), then lets the function go. */
    @Override
    void close();
}

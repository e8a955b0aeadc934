package io.prmkit.driver.core;

import io.prmkit.driver.cmd.CommandTransport;
import io.prmkit.driver.cmd.DeviceFatalException;
import io.prmkit.platform.DmaMemory;
import io.prmkit.platform.Mmio;

/**
 * What a function-level object built on a device (an Ethernet port, {@code EthPort.open}) uses of it:
 * the command transport, the capabilities, DMA memory and BAR 0, the UAR page and the EQ its CQs
 * report to, device events, and leaving the device's care when it closes itself. Handed only to the
 * factory passed to {@link Mlx5Function#attach}: none of it is a public getter of the device.
 *
 * <p>Over DEVX ({@code io.prmkit.driver.devx}) the transport is rdma-core's, the DMA memory is one
 * registered umem ({@link UmemMemory}), the UAR page is one rdma-core mapped, and there are no events
 * (the datapath polls; link state is asked for).
 */
public interface DeviceAccess {
    CommandTransport commands();

    Caps caps();

    DmaMemory dma();

    /** BAR 0 (the UAR pages' doorbells are in it); over DEVX, the UAR page. */
    Mmio bar();

    /** The UAR page the device's CQs and SQs ring. */
    Uar uar();

    /** The number of the EQ the CQs report their events to (the async EQ; over DEVX, mlx5dv_devx_query_eqn's). */
    int asyncEqn();

    void addEventListener(Mlx5Device.AsyncEventListener l);

    void removeEventListener(Mlx5Device.AsyncEventListener l);

    /** The fatal error the device is in, or null. */
    DeviceFatalException fatalError();

    /**
     * The kernel's receive steering, where the kernel keeps the function's NIC receive tables (DEVX on
     * a card bound to mlx5_core); empty where the port steers with the PRM's flow tables itself.
     */
    default java.util.Optional<KernelSteering> kernelSteering() {
        return java.util.Optional.empty();
    }

    /** {@code child} closed itself: the device's close no longer closes it. */
    void detach(AutoCloseable child);
}

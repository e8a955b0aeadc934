package io.prmkit.driver.devx;

import io.prmkit.driver.cmd.CommandTrace;
import io.prmkit.driver.core.DeviceOptions;
import io.prmkit.driver.core.Mlx5Device;
import io.prmkit.driver.core.Mlx5Function;
import io.prmkit.softhca.CapsProfile;
import io.prmkit.softhca.SoftHca;
import io.prmkit.softhca.vfio.VfioStandIn;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Map;
import java.util.stream.Stream;

/**
 * A soft HCA and the driver's function on it, opened over either {@link Transport}: the test above
 * {@code cmd} builds its port on {@link #function()} and looks at the device through {@link #hca()}
 * (faults, live objects, IOMMU), the same on both.
 * <ul>
 *   <li>{@code COMMAND_QUEUE}: {@code SoftHca.create(options)} and {@code Mlx5Device.open} on its function (our bring-up);</li>
 *   <li>{@code DEVX}: the soft HCA served through the VFIO stand-in preloaded into this JVM
 *       ({@code VfioStandIn.attach}, a fresh device each time), brought up by rdma-core's mlx5_vfio, and
 *       {@code DevxDevice.open("vfio:PCI")} on it. The capabilities get DEVX ({@code CapsProfile.withDevx}:
 *       mlx5_vfio needs user contexts and umems of uid 0); only the command trace of the driver's options
 *       applies (command timeouts and health are rdma-core's there).</li>
 * </ul>
 */
public final class TestDevice implements AutoCloseable {
    /** DEVX memory of a test device: rings and packet pools of the tests fit many times over. */
    static final long DEVX_MEMORY = 16L << 20;

    private final Transport transport;
    private final SoftHca hca;
    private final Mlx5Function function;
    private final VfioStandIn standIn;
    private final Path root;

    private TestDevice(Transport transport, SoftHca hca, Mlx5Function function, VfioStandIn standIn, Path root) {
        this.transport = transport;
        this.hca = hca;
        this.function = function;
        this.standIn = standIn;
        this.root = root;
    }

    /** The default device (the ConnectX-4 profile) with the default driver options. */
    public static TestDevice open(Transport t) {
        return open(t, CapsProfile.defaults(), new SoftHca.Options(), DeviceOptions.defaults());
    }

    /** A device with these options (datapath, loopback, ...) and the default capabilities. */
    public static TestDevice open(Transport t, SoftHca.Options options, DeviceOptions driver) {
        return open(t, CapsProfile.defaults(), options, driver);
    }

    /**
     * A device reporting {@code caps} (with DEVX's capabilities added on {@code DEVX}), made with
     * {@code options} (whose caps this sets), opened by the driver with {@code driver}.
     */
    public static TestDevice open(Transport t, CapsProfile caps, SoftHca.Options options, DeviceOptions driver) {
        if (t == Transport.COMMAND_QUEUE) {
            SoftHca hca = SoftHca.create(options.caps(caps));
            try {
                return new TestDevice(t, hca, Mlx5Device.open(hca.function(), driver), null, null);
            } catch (RuntimeException e) {
                hca.close();
                throw e;
            }
        }
        Path library = VfioStandIn.preloaded().orElseThrow(() -> new IllegalStateException(
                "a DEVX test device needs the VFIO stand-in preloaded (the test class runs over DEVX in a JVM OverBothTransports starts)"));
        Path root;
        try {
            root = Files.createTempDirectory("prmkit-devx-");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        VfioStandIn.SysfsFunction fn = VfioStandIn.SysfsFunction.connectX4();
        VfioStandIn standIn = VfioStandIn.attach(library, root, fn, options.caps(caps.withDevx()), null);
        try {
            CommandTrace trace = driver.commands().trace();
            DevxDevice dev = DevxDevice.open("vfio:" + fn.pci(), DevxDevice.Options.defaults().withMemory(DEVX_MEMORY).withTrace(trace));
            return new TestDevice(t, standIn.device(), dev, standIn, root);
        } catch (RuntimeException e) {
            standIn.close();
            delete(root);
            throw e;
        }
    }

    public Transport transport() {
        return transport;
    }

    /** The device model (faults, live objects, IOMMU, wire port). */
    public SoftHca hca() {
        return hca;
    }

    /** The driver's function to build ports on. */
    public Mlx5Function function() {
        return function;
    }

    /**
     * What the device holds for the function itself before any port: our async EQ and UAR page on the
     * command queue; over DEVX, mlx5_vfio's EQ and UAR page and the driver's one umem.
     */
    public Map<String, Integer> functionObjects() {
        return transport == Transport.COMMAND_QUEUE ? Map.of("eq", 1, "uar", 1) : Map.of("eq", 1, "uar", 1, "umem", 1);
    }

    /** Closes the function (if the test has not), then the device. */
    @Override
    public void close() {
        try {
            function.close();
        } finally {
            if (standIn != null) {
                standIn.close();
                delete(root);
            } else {
                hca.close();
            }
        }
    }

    private static void delete(Path dir) {
        try (Stream<Path> s = Files.walk(dir)) {
            s.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            // a temporary directory left behind is not the test's failure
        }
    }
}

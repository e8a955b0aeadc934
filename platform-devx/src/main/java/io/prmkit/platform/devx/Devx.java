package io.prmkit.platform.devx;

import static io.prmkit.platform.devx.RdmaCore.CAPTURE;
import static io.prmkit.platform.devx.RdmaCore.fn;

import io.prmkit.devx.IbvDevice;
import io.prmkit.devx.Mlx5dvContextAttr;
import io.prmkit.devx.Mlx5dvVfioContextAttr;
import io.prmkit.devx.PrmConstants;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * Opens an mlx5 function through rdma-core's DEVX interface: the kernel's {@code mlx5_core} (or
 * rdma-core's own {@code mlx5_vfio} provider) keeps the function up, and the caller sends PRM
 * commands through a DEVX user context ({@link DevxContext}).
 *
 * <pre>{@code
 * try (DevxContext ctx = Devx.open("mlx5_0")) {          // or its PCI address, 0000:03:00.0
 *     int errno = ctx.generalCommand(in, out);            // QUERY_HCA_CAP, ...
 * }
 * }</pre>
 *
 * <p>{@link #open} takes a device of the kernel's {@code mlx5_ib} ({@code ibv_get_device_list},
 * {@code mlx5dv_open_device} with {@code MLX5DV_CONTEXT_FLAGS_DEVX}); {@link #openVfio} takes a function
 * bound to {@code vfio-pci} through rdma-core's {@code mlx5_vfio} provider
 * ({@code mlx5dv_get_vfio_device_list}, {@code ibv_open_device}: that provider brings the function up
 * itself and its context always takes DEVX commands). Every refusal is a {@link DevxException} of one
 * sentence.
 */
public final class Devx {
    private static final Pattern PCI = Pattern.compile("[0-9a-fA-F]{4}:[0-9a-fA-F]{2}:[0-1][0-9a-fA-F]\\.[0-7]");

    /**
     * An RDMA device rdma-core lists.
     *
     * @param name the kernel's name ({@code mlx5_0})
     * @param sysfsPath its sysfs directory ({@code /sys/class/infiniband/mlx5_0})
     * @param mlx5 whether rdma-core's mlx5 provider drives it ({@code mlx5dv_is_supported}): DEVX needs it
     * @param pci its PCI function, when sysfs says
     */
    public record Device(String name, String sysfsPath, boolean mlx5, Optional<String> pci) {}

    private Devx() {}

    /** Whether a string is a PCI address with its domain ({@code 0000:03:00.0}). */
    public static boolean isPciAddress(String s) {
        return PCI.matcher(s).matches();
    }

    /**
     * The RDMA devices of the kernel ({@code ibv_get_device_list}); empty when there are none.
     *
     * @throws DevxException when rdma-core is not installed
     */
    public static List<Device> devices() {
        return withDeviceList(list -> {
            List<Device> out = new ArrayList<>();
            for (MemorySegment d : list) out.add(describe(d));
            return out;
        });
    }

    /**
     * Opens {@code which} (a device name such as {@code mlx5_0}, or the PCI address of its function)
     * with a DEVX context.
     *
     * @throws DevxException naming what is missing: rdma-core, the device, DEVX support, permission
     */
    public static DevxContext open(String which) {
        return withDeviceList(list -> {
            List<String> names = new ArrayList<>();
            for (MemorySegment d : list) {
                Device dev = describe(d);
                names.add(dev.name() + dev.pci().map(p -> " (" + p + ")").orElse(""));
                if (!dev.name().equals(which) && !dev.pci().map(which::equalsIgnoreCase).orElse(false)) continue;
                if (!dev.mlx5())
                    throw new DevxException(dev.name() + " is not driven by rdma-core's mlx5 provider (mlx5dv_is_supported is false): DEVX is for ConnectX (mlx5) devices.");
                return openContext(d, dev);
            }
            throw new DevxException("there is no RDMA device " + which + (names.isEmpty()
                    ? ": rdma-core lists none (load the kernel's mlx5_ib with modprobe mlx5_ib, check with ibv_devices, or give vfio:PCI for a function bound to vfio-pci)."
                    : ": rdma-core lists " + String.join(", ", names) + "."));
        });
    }

    private static DevxContext openContext(MemorySegment device, Device dev) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment st = a.allocate(CAPTURE);
            MemorySegment attr = a.allocate(Mlx5dvContextAttr.SIZE, 8);
            Mlx5dvContextAttr.flag_bits$set(attr, (int) PrmConstants.MLX5DV_CONTEXT_FLAGS_DEVX);
            MemorySegment ctx = (MemorySegment) fn("mlx5dv_open_device").invokeExact(st, device, attr);
            if (ctx.equals(MemorySegment.NULL)) throw refusal(dev.name(), RdmaCore.errno(st));
            return new DevxContext(ctx, dev.name(), false);
        } catch (Throwable t) {
            throw RdmaCore.rethrow(t);
        }
    }

    /** Why mlx5dv_open_device refused a DEVX context, with what to do. */
    static DevxException refusal(String name, int errno) {
        String why = RdmaCore.failure("mlx5dv_open_device(" + name + ", DEVX)", errno);
        return switch (errno) {
            case 1, 13 -> new DevxException("no permission to open " + name + " with DEVX (" + why + "): give your user read and write access to "
                    + "/dev/infiniband/uverbs* (the rdma group, or a udev rule) and, to send raw Ethernet frames, CAP_NET_RAW (or run as root).", errno);
            case 22, 95 -> new DevxException(name + " does not take DEVX (" + why + "): the firmware must support user contexts "
                    + "(cmd_hca_cap.log_max_uctx) and the kernel's mlx5_ib must have DEVX (Linux 4.19 or newer).", errno);
            default -> new DevxException("cannot open " + name + " with DEVX: " + why + ".", errno);
        };
    }

    /**
     * Opens the PCI function {@code pci}, bound to {@code vfio-pci}, through rdma-core's {@code mlx5_vfio}
     * provider, which brings it up (ENABLE_HCA .. INIT_HCA, its own EQ) and keeps it; DEVX commands then
     * go to it through that provider's command queue.
     *
     * @throws DevxException when rdma-core lacks the provider or it cannot open the function
     */
    public static DevxContext openVfio(String pci) {
        if (!isPciAddress(pci)) throw new DevxException(pci + " is not a PCI address with its domain, such as 0000:03:00.0.");
        try (Arena a = Arena.ofConfined()) {
            MemorySegment st = a.allocate(CAPTURE);
            MemorySegment attr = a.allocate(Mlx5dvVfioContextAttr.SIZE, 8);
            attr.set(ValueLayout.ADDRESS, Mlx5dvVfioContextAttr.pci_name$BYTE_OFFSET, a.allocateFrom(pci));
            MemorySegment list = (MemorySegment) fn("mlx5dv_get_vfio_device_list").invokeExact(st, attr);
            if (list.equals(MemorySegment.NULL)) {
                int errno = RdmaCore.errno(st);
                throw new DevxException("rdma-core's mlx5_vfio provider cannot take " + pci + " ("
                        + RdmaCore.failure("mlx5dv_get_vfio_device_list", errno) + "): bind the function to vfio-pci and check it with prmkit devices.", errno);
            }
            try {
                MemorySegment device = list.reinterpret(ValueLayout.ADDRESS.byteSize()).get(ValueLayout.ADDRESS, 0);
                MemorySegment ctx = (MemorySegment) fn("ibv_open_device").invokeExact(st, device);
                if (ctx.equals(MemorySegment.NULL)) {
                    int errno = RdmaCore.errno(st);
                    throw new DevxException("rdma-core's mlx5_vfio provider could not bring " + pci + " up ("
                            + RdmaCore.failure("ibv_open_device", errno) + ").", errno);
                }
                return new DevxContext(ctx, "vfio:" + pci, true);
            } finally {
                fn("ibv_free_device_list").invokeExact(st, list);
            }
        } catch (Throwable t) {
            throw RdmaCore.rethrow(t);
        }
    }

    /** Runs {@code body} over the ibv_device pointers of ibv_get_device_list, then frees the list. */
    private static <T> T withDeviceList(Function<List<MemorySegment>, T> body) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment st = a.allocate(CAPTURE);
            MemorySegment count = a.allocate(ValueLayout.JAVA_INT);
            MemorySegment list = (MemorySegment) fn("ibv_get_device_list").invokeExact(st, count);
            if (list.equals(MemorySegment.NULL)) {
                int errno = RdmaCore.errno(st);
                if (errno == 38) return body.apply(List.of()); // ENOSYS: the kernel has no RDMA user access (no device)
                throw new DevxException(RdmaCore.failure("ibv_get_device_list", errno) + ": check that the kernel's ib_uverbs is loaded.", errno);
            }
            try {
                int n = count.get(ValueLayout.JAVA_INT, 0);
                MemorySegment ptrs = list.reinterpret(ValueLayout.ADDRESS.byteSize() * (n + 1L));
                List<MemorySegment> devices = new ArrayList<>();
                for (int i = 0; i < n; i++) devices.add(ptrs.getAtIndex(ValueLayout.ADDRESS, i).reinterpret(IbvDevice.SIZE));
                return body.apply(devices);
            } finally {
                fn("ibv_free_device_list").invokeExact(st, list);
            }
        } catch (Throwable t) {
            throw RdmaCore.rethrow(t);
        }
    }

    private static Device describe(MemorySegment d) {
        String name = d.getString(IbvDevice.name$BYTE_OFFSET);
        String path = d.getString(IbvDevice.ibdev_path$BYTE_OFFSET);
        try (Arena a = Arena.ofConfined()) {
            boolean mlx5 = (boolean) fn("mlx5dv_is_supported").invokeExact(a.allocate(CAPTURE), d);
            return new Device(name, path, mlx5, pciOf(path));
        } catch (Throwable t) {
            throw RdmaCore.rethrow(t);
        }
    }

    /** The PCI function behind an RDMA device's sysfs directory (its {@code device} link), if any. */
    static Optional<String> pciOf(String sysfsPath) {
        if (sysfsPath.isEmpty()) return Optional.empty();
        try {
            Path real = Path.of(sysfsPath, "device").toRealPath();
            String last = real.getFileName().toString();
            return isPciAddress(last) ? Optional.of(last) : Optional.empty();
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }
}

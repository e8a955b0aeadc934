package io.prmkit.platform.vfio;

import io.prmkit.vfio.PrmConstants;
import io.prmkit.vfio.VfioDeviceInfo;
import io.prmkit.vfio.VfioGroupStatus;
import io.prmkit.vfio.VfioIrqInfo;
import io.prmkit.vfio.VfioPciIrq;
import io.prmkit.vfio.VfioPciRegion;
import io.prmkit.vfio.VfioRegionInfo;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Opens a PCI function through Linux VFIO, the way ixy, Snabb and rdma-core's {@code mlx5_vfio} do:
 * the function must be bound to {@code vfio-pci}; its IOMMU group's {@code /dev/vfio/N} joins a new
 * container ({@code /dev/vfio/vfio}) with the type 1 IOMMU; the group hands out the device fd; BAR 0
 * is mapped from it; PCI memory space and bus mastering are switched on in the command register;
 * MSI-X vectors signal eventfds. Every refusal is a {@link VfioException} of one sentence that says
 * what to do.
 *
 * <pre>{@code
 * try (VfioFunction f = Vfio.open("0000:03:00.0")) {
 *     Mlx5Device dev = Mlx5Device.bringUp(f, options);   // the driver, unchanged
 *     ...
 * }
 * }</pre>
 *
 * <p>Where it looks: {@code /sys/bus/pci/devices/<pci>/} (its {@code vendor}, {@code device},
 * {@code driver} and {@code iommu_group}) and {@code /dev/vfio}; the system calls are those of
 * {@link Posix} (a preloaded library such as the VFIO stand-in takes their place).
 */
public final class Vfio {
    /** A PCI address with its domain: {@code 0000:03:00.0}. */
    private static final Pattern PCI = Pattern.compile("[0-9a-fA-F]{4}:[0-9a-fA-F]{2}:[0-1][0-9a-fA-F]\\.[0-7]");
    /** MSI-X vectors the back end arms at most (eventfds and a poll set of this size). */
    static final int MAX_VECTORS = 128;

    /** Where the sysfs and /dev trees are, and whose calls to use (tests point them elsewhere). */
    record Host(Path sys, Path dev, Posix posix) {
        Host {
            Objects.requireNonNull(sys);
            Objects.requireNonNull(dev);
            Objects.requireNonNull(posix);
        }

        static Host system() {
            return new Host(Path.of("/sys"), Path.of("/dev"), Posix.system());
        }
    }

    private Vfio() {}

    /** Opens {@code pci} ({@code 0000:03:00.0}) through VFIO with the process's own system calls. */
    public static VfioFunction open(String pci) {
        return open(pci, Host.system());
    }

    /**
     * Opens {@code pci} with the system calls of {@code library} (a library that exports open, ioctl,
     * mmap, ... and forwards what it does not serve to the C library, such as the VFIO stand-in)
     * instead of the process's.
     */
    public static VfioFunction open(String pci, Path library) {
        return open(pci, new Host(Path.of("/sys"), Path.of("/dev"), Posix.library(library)));
    }

    /** What {@code pci} looks like in sysfs, without opening anything: for {@code prmkit devices}. */
    public static Probe probe(String pci) {
        return probe(pci, Host.system());
    }

    /**
     * A PCI function as sysfs shows it: vendor and device id (-1 when unreadable), the bound driver
     * (empty: none), the IOMMU group (-1: none), and why VFIO cannot open it (empty: it can try).
     */
    public record Probe(String pci, int vendor, int device, Optional<String> driver, int iommuGroup, Optional<String> refusal) {}

    static Probe probe(String pci, Host host) {
        Posix p = host.posix();
        Path dir = host.sys().resolve("bus/pci/devices").resolve(pci);
        int vendor = readHex(p, dir.resolve("vendor"));
        int device = readHex(p, dir.resolve("device"));
        int[] err = new int[1];
        Optional<String> driver = p.readlink(dir.resolve("driver").toString(), err).map(Vfio::basename);
        int group = p.readlink(dir.resolve("iommu_group").toString(), err).map(Vfio::basename).map(Vfio::parseGroup).orElse(-1);
        Optional<String> refusal;
        try {
            checkBinding(pci, host);
            refusal = Optional.empty();
        } catch (VfioException e) {
            refusal = Optional.of(e.getMessage());
        }
        return new Probe(pci, vendor, device, driver, group, refusal);
    }

    /** The functions of vendor {@code vendor} under /sys/bus/pci/devices, sorted by address. */
    public static List<Probe> list(int vendor) {
        return list(vendor, Host.system());
    }

    /** Like {@link #list(int)} and {@link #probe(String)} with sysfs mounted at {@code sys} (a copy, for tests). */
    public static List<Probe> list(int vendor, Path sys) {
        return list(vendor, new Host(sys, Path.of("/dev"), Posix.system()));
    }

    public static Probe probe(String pci, Path sys) {
        return probe(pci, new Host(sys, Path.of("/dev"), Posix.system()));
    }

    /** The RDMA devices (e.g. mlx5_0) sysfs lists for {@code pci}: what rdma-core's DEVX would open. */
    public static List<String> rdmaDevices(String pci, Path sys) {
        java.io.File[] names = sys.resolve("bus/pci/devices").resolve(pci).resolve("infiniband").toFile().listFiles();
        if (names == null) return List.of();
        return java.util.Arrays.stream(names).map(java.io.File::getName).sorted().toList();
    }

    static List<Probe> list(int vendor, Host host) {
        List<Probe> out = new ArrayList<>();
        java.io.File[] entries = host.sys().resolve("bus/pci/devices").toFile().listFiles();
        if (entries == null) return out;
        java.util.Arrays.sort(entries);
        for (java.io.File e : entries) {
            Probe pr = probe(e.getName(), host);
            if (pr.vendor() == vendor) out.add(pr);
        }
        return out;
    }

    static VfioFunction open(String pci, Host host) {
        int group = checkBinding(pci, host);
        Posix p = host.posix();
        String containerPath = host.dev().resolve("vfio/vfio").toString();
        String groupPath = host.dev().resolve("vfio/" + group).toString();
        int container = -1;
        int groupFd = -1;
        int device = -1;
        try (Arena a = Arena.ofConfined()) {
            Posix.Result r = p.open(containerPath, Posix.O_RDWR | Posix.O_CLOEXEC);
            if (r.failed()) throw openFailed(pci, containerPath, r.errno(), p, true);
            container = (int) r.value();
            long version = p.ioctl(container, PrmConstants.VFIO_GET_API_VERSION, 0L).value();
            if (version != PrmConstants.VFIO_API_VERSION) {
                throw new VfioException(containerPath + " speaks VFIO API version " + version + ", not " + PrmConstants.VFIO_API_VERSION
                        + ": this kernel's VFIO is not the one prmkit knows; use a Linux kernel from 3.6 on with vfio-pci.");
            }
            long iommuType = PrmConstants.VFIO_TYPE1v2_IOMMU;
            if (p.ioctl(container, PrmConstants.VFIO_CHECK_EXTENSION, iommuType).value() <= 0) {
                iommuType = PrmConstants.VFIO_TYPE1_IOMMU;
                if (p.ioctl(container, PrmConstants.VFIO_CHECK_EXTENSION, iommuType).value() <= 0) {
                    throw new VfioException("VFIO on this machine offers no type 1 IOMMU: enable the IOMMU (intel_iommu=on or amd_iommu=on on the kernel command line, or VT-d/AMD-Vi in the firmware) and reload vfio-pci.");
                }
            }
            r = p.open(groupPath, Posix.O_RDWR | Posix.O_CLOEXEC);
            if (r.failed()) throw openFailed(pci, groupPath, r.errno(), p, false);
            groupFd = (int) r.value();
            MemorySegment status = a.allocate(VfioGroupStatus.SIZE, 8);
            VfioGroupStatus.argsz$set(status, (int) VfioGroupStatus.SIZE);
            check(p, p.ioctl(groupFd, PrmConstants.VFIO_GROUP_GET_STATUS, status), "VFIO_GROUP_GET_STATUS on " + groupPath);
            if ((VfioGroupStatus.flag_bits(status) & PrmConstants.VFIO_GROUP_FLAGS_VIABLE) == 0) {
                throw new VfioException("IOMMU group " + group + " of " + pci + " is not viable: bind every device of the group (ls "
                        + host.sys().resolve("kernel/iommu_groups/" + group + "/devices") + ") to vfio-pci, or unbind it from its driver.");
            }
            MemorySegment fdArg = a.allocateFrom(ValueLayout.JAVA_INT, container);
            check(p, p.ioctl(groupFd, PrmConstants.VFIO_GROUP_SET_CONTAINER, fdArg), "VFIO_GROUP_SET_CONTAINER on " + groupPath);
            check(p, p.ioctl(container, PrmConstants.VFIO_SET_IOMMU, iommuType), "VFIO_SET_IOMMU (type 1) on " + containerPath);
            r = p.ioctl(groupFd, PrmConstants.VFIO_GROUP_GET_DEVICE_FD, a.allocateFrom(pci));
            if (r.failed()) {
                throw new VfioException("IOMMU group " + group + " does not give out " + pci + " (" + p.strerror(r.errno())
                        + "): check that the function is bound to vfio-pci and not opened by another process.");
            }
            device = (int) r.value();
            MemorySegment info = a.allocate(VfioDeviceInfo.SIZE, 8);
            VfioDeviceInfo.argsz$set(info, (int) VfioDeviceInfo.SIZE);
            check(p, p.ioctl(device, PrmConstants.VFIO_DEVICE_GET_INFO, info), "VFIO_DEVICE_GET_INFO of " + pci);
            if ((VfioDeviceInfo.flag_bits(info) & PrmConstants.VFIO_DEVICE_FLAGS_PCI) == 0) {
                throw new VfioException(pci + " is not a vfio-pci device: bind it to vfio-pci.");
            }
            Region bar0 = region(p, a, device, VfioPciRegion.VFIO_PCI_BAR0_REGION_INDEX$VALUE, pci);
            if ((bar0.flags & PrmConstants.VFIO_REGION_INFO_FLAG_MMAP) == 0 || bar0.size == 0) {
                throw new VfioException("BAR 0 of " + pci + " cannot be mapped (region flags 0x" + Integer.toHexString(bar0.flags)
                        + ", " + bar0.size + " bytes): this is not an mlx5 function's memory BAR.");
            }
            enableBusMaster(p, a, device, pci);
            int vectors = msixVectors(p, a, device);
            VfioFunction f = new VfioFunction(pci, p, container, groupFd, device, bar0.size, bar0.offset, vectors);
            container = groupFd = device = -1; // the function owns them now
            return f;
        } finally {
            if (device >= 0) p.close(device);
            if (groupFd >= 0) p.close(groupFd);
            if (container >= 0) p.close(container);
        }
    }

    /**
     * The sysfs checks: the address is a PCI address of a function that exists, bound to vfio-pci,
     * in an IOMMU group; returns the group.
     */
    static int checkBinding(String pci, Host host) {
        if (pci == null || !PCI.matcher(pci).matches()) {
            throw new VfioException("'" + pci + "' is not a PCI address: give domain:bus:device.function, e.g. 0000:03:00.0 (lspci -D -d 15b3: lists ConnectX functions).");
        }
        Posix p = host.posix();
        Path dir = host.sys().resolve("bus/pci/devices").resolve(pci);
        Posix.Result d = p.open(dir.toString(), Posix.O_RDONLY | Posix.O_DIRECTORY | Posix.O_CLOEXEC);
        if (d.failed()) {
            throw new VfioException("there is no PCI function " + pci + " (" + dir + ": " + p.strerror(d.errno())
                    + "): check the address with lspci -D -d 15b3:.");
        }
        p.close((int) d.value());
        int[] err = new int[1];
        Optional<String> driver = p.readlink(dir.resolve("driver").toString(), err).map(Vfio::basename);
        if (driver.isEmpty()) {
            throw new VfioException(pci + " is bound to no driver: bind it to vfio-pci (modprobe vfio-pci; echo vfio-pci > "
                    + dir.resolve("driver_override") + "; echo " + pci + " > " + host.sys().resolve("bus/pci/drivers_probe") + "), see docs/hardware.md.");
        }
        if (!driver.get().equals("vfio-pci")) {
            throw new VfioException(pci + " is bound to " + driver.get() + ", not vfio-pci: unbind it and bind it to vfio-pci (echo " + pci + " > "
                    + dir.resolve("driver/unbind") + "; echo vfio-pci > " + dir.resolve("driver_override") + "; echo " + pci + " > "
                    + host.sys().resolve("bus/pci/drivers_probe") + "), see docs/hardware.md.");
        }
        Optional<String> group = p.readlink(dir.resolve("iommu_group").toString(), err).map(Vfio::basename);
        if (group.isEmpty() || parseGroup(group.get()) < 0) {
            throw new VfioException(pci + " is in no IOMMU group: enable the IOMMU (intel_iommu=on or amd_iommu=on on the kernel command line, VT-d/AMD-Vi in the firmware) and reboot.");
        }
        return parseGroup(group.get());
    }

    private static VfioException openFailed(String pci, String path, int errno, Posix p, boolean container) {
        if (errno == Posix.EACCES || errno == Posix.EPERM) {
            return new VfioException("no permission to open " + path + " for " + pci + ": run as root, or give your user the device (chown "
                    + System.getProperty("user.name") + " " + path + (container ? "" : "; ulimit -l unlimited for DMA memory") + "), see docs/hardware.md.");
        }
        if (errno == Posix.ENOENT) {
            return new VfioException(path + " does not exist: load the VFIO driver (modprobe vfio-pci) and bind " + pci + " to it, see docs/hardware.md.");
        }
        if (errno == Posix.EBUSY) {
            return new VfioException(path + " is busy: another process holds the IOMMU group of " + pci + "; close it first.");
        }
        return new VfioException("cannot open " + path + " for " + pci + ": " + p.strerror(errno) + ".");
    }

    private static void check(Posix p, Posix.Result r, String what) {
        if (r.failed()) throw new VfioException(what + " failed: " + p.strerror(r.errno()) + ".");
    }

    record Region(int flags, long size, long offset) {}

    static Region region(Posix p, Arena a, int device, int index, String pci) {
        MemorySegment ri = a.allocate(VfioRegionInfo.SIZE, 8);
        VfioRegionInfo.argsz$set(ri, (int) VfioRegionInfo.SIZE);
        VfioRegionInfo.index$set(ri, index);
        check(p, p.ioctl(device, PrmConstants.VFIO_DEVICE_GET_REGION_INFO, ri), "VFIO_DEVICE_GET_REGION_INFO " + index + " of " + pci);
        return new Region(VfioRegionInfo.flag_bits(ri), Le.get(ri, VfioRegionInfo.size$BYTE_OFFSET), Le.get(ri, VfioRegionInfo.offset$BYTE_OFFSET));
    }

    /** PCI command register (config space offset 4, PCI 3.0 6.2.2): memory space (bit 1) and bus master (bit 2). */
    private static final long PCI_COMMAND = 4;
    private static final short PCI_COMMAND_MEMORY_MASTER = 0x6;

    private static void enableBusMaster(Posix p, Arena a, int device, String pci) {
        Region cfg = region(p, a, device, VfioPciRegion.VFIO_PCI_CONFIG_REGION_INDEX$VALUE, pci);
        MemorySegment cmd = a.allocate(2, 2);
        if (p.pread(device, cmd, cfg.offset + PCI_COMMAND).value() != 2) {
            throw new VfioException("cannot read the PCI command register of " + pci + " through VFIO.");
        }
        short v = (short) (cmd.get(ValueLayout.JAVA_SHORT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN), 0) | PCI_COMMAND_MEMORY_MASTER);
        cmd.set(ValueLayout.JAVA_SHORT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN), 0, v);
        if (p.pwrite(device, cmd, cfg.offset + PCI_COMMAND).value() != 2) {
            throw new VfioException("cannot enable bus mastering of " + pci + " through VFIO (PCI command register).");
        }
    }

    private static int msixVectors(Posix p, Arena a, int device) {
        MemorySegment irq = a.allocate(VfioIrqInfo.SIZE, 8);
        VfioIrqInfo.argsz$set(irq, (int) VfioIrqInfo.SIZE);
        VfioIrqInfo.index$set(irq, VfioPciIrq.VFIO_PCI_MSIX_IRQ_INDEX$VALUE);
        if (p.ioctl(device, PrmConstants.VFIO_DEVICE_GET_IRQ_INFO, irq).failed()) return 0;
        if ((VfioIrqInfo.flag_bits(irq) & PrmConstants.VFIO_IRQ_INFO_EVENTFD) == 0) return 0;
        return Math.min(VfioIrqInfo.count(irq), MAX_VECTORS);
    }

    private static int readHex(Posix p, Path file) {
        Posix.Result r = p.open(file.toString(), Posix.O_RDONLY | Posix.O_CLOEXEC);
        if (r.failed()) return -1;
        int fd = (int) r.value();
        try (Arena a = Arena.ofConfined()) {
            MemorySegment buf = a.allocate(64);
            long n = p.read(fd, buf).value();
            if (n <= 0) return -1;
            String s = new String(buf.asSlice(0, n).toArray(ValueLayout.JAVA_BYTE), StandardCharsets.US_ASCII).strip();
            return Integer.decode(s);
        } catch (NumberFormatException e) {
            return -1;
        } finally {
            p.close(fd);
        }
    }

    private static String basename(String link) {
        int slash = link.lastIndexOf('/');
        return slash < 0 ? link : link.substring(slash + 1);
    }

    private static int parseGroup(String name) {
        try {
            return Integer.parseInt(name);
        } catch (NumberFormatException e) {
            return -1;
        }
    }
}

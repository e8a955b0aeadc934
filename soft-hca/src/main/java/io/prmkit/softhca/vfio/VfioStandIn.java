package io.prmkit.softhca.vfio;

import io.prmkit.softhca.SoftHca;
import java.io.IOException;
import java.io.InputStream;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * A soft HCA served to a VFIO user through the VFIO stand-in ({@code prmkit_vfio_standin.c}, a
 * small C library in this jar): the stand-in answers the files, ioctls and mmaps of the kernel's
 * VFIO and sysfs for one fake PCI function, and this class plugs a soft HCA in behind it. BAR 0 is
 * the stand-in's shared memory, which the device polls ({@link SoftHca.Options#bus}); DMA maps go
 * into the device's IOMMU; the device's MSI-X messages write the eventfds the user gave to
 * VFIO_DEVICE_SET_IRQS. Every VFIO call the user makes is traced ({@link #trace()}).
 *
 * <p>The library must be loaded into the process the way the user will find it: preloaded
 * ({@code LD_PRELOAD}: every open/ioctl/mmap of the process passes through it, which is what a C
 * driver such as rdma-core's {@code mlx5_vfio} needs), or only given to the user (prmkit's VFIO
 * back end can take its calls from a library: {@code Vfio.open(pci, library)}). {@link #attach}
 * opens the same file either way ({@code dlopen} of a loaded library returns it). One function per
 * process: attaching again replaces the previous one.
 */
public final class VfioStandIn implements AutoCloseable {
    /** The C source's resource name. */
    public static final String SOURCE = "prmkit_vfio_standin.c";

    /**
     * The fake function as sysfs and /dev/vfio show it: its PCI address, IOMMU group (-1: none), bound
     * driver ("" none), ids, and whether opening its group is refused with EACCES (a user without
     * permission). Not the platform's {@code PciFunction}, which is the device seen from a driver.
     */
    public record SysfsFunction(String pci, int group, String driver, int vendor, int device, boolean denyGroup) {
        public SysfsFunction {
            Objects.requireNonNull(pci);
            Objects.requireNonNull(driver);
        }

        /** 0000:5e:00.0, group 42, bound to vfio-pci, a ConnectX-4 (15b3:1013). */
        public static SysfsFunction connectX4() {
            return new SysfsFunction("0000:5e:00.0", 42, "vfio-pci", 0x15b3, 0x1013, false);
        }

        public SysfsFunction withPci(String address) {
            return new SysfsFunction(address, group, driver, vendor, device, denyGroup);
        }

        public SysfsFunction withDriver(String d) {
            return new SysfsFunction(pci, group, d, vendor, device, denyGroup);
        }

        public SysfsFunction withGroup(int g) {
            return new SysfsFunction(pci, g, driver, vendor, device, denyGroup);
        }

        public SysfsFunction withDenyGroup(boolean deny) {
            return new SysfsFunction(pci, group, driver, vendor, device, deny);
        }
    }

    private static final Linker LINKER = Linker.nativeLinker();
    private static final Object LOCK = new Object();
    private static VfioStandIn current;

    private final SysfsFunction function;
    private final SoftHca device;
    private final Arena arena = Arena.ofShared();
    private final MethodHandle hooks;
    private final List<String> trace = new ArrayList<>();
    private final Consumer<String> traceSink;
    private long raisedUndelivered;

    /**
     * The stand-in library named in {@code LD_PRELOAD} (a file called {@code libprmkit_vfio_standin*.so}),
     * if the process was started with it.
     */
    public static java.util.Optional<Path> preloaded() {
        String env = System.getenv("LD_PRELOAD");
        if (env == null) return java.util.Optional.empty();
        for (String entry : env.split("[: ]")) {
            if (entry.isEmpty()) continue;
            Path p = Path.of(entry);
            if (p.getFileName() != null && p.getFileName().toString().startsWith("libprmkit_vfio_standin")) return java.util.Optional.of(p);
        }
        return java.util.Optional.empty();
    }

    /**
     * The stand-in's C source (build it with {@code gcc -shared -fPIC -O2 -o libprmkit_vfio_standin.so
     * prmkit_vfio_standin.c -ldl}; its header comment says what it serves).
     */
    public static String source() {
        try (InputStream in = VfioStandIn.class.getResourceAsStream(SOURCE)) {
            if (in == null) throw new IllegalStateException("resource " + SOURCE + " missing from soft-hca's jar");
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /**
     * Serves {@code function} from a new soft HCA made with {@code options} (its bus, i.e. BAR
     * memory and MSI-X, are the stand-in's), with the fake sysfs and /dev tree under {@code root}.
     * {@code traceSink} (nullable) also gets every traced VFIO call as it happens.
     */
    public static VfioStandIn attach(Path library, Path root, SysfsFunction function, SoftHca.Options options, Consumer<String> traceSink) {
        synchronized (LOCK) {
            if (current != null) current.close();
            current = new VfioStandIn(library, root, function, options, traceSink);
            return current;
        }
    }

    private VfioStandIn(Path library, Path root, SysfsFunction function, SoftHca.Options options, Consumer<String> traceSink) {
        this.function = function;
        this.traceSink = traceSink;
        SymbolLookup lib = SymbolLookup.libraryLookup(library, Arena.global());
        MethodHandle configure = LINKER.downcallHandle(find(lib, "prmkit_standin_configure"), FunctionDescriptor.of(ValueLayout.JAVA_INT,
                ValueLayout.ADDRESS, ValueLayout.ADDRESS, ValueLayout.JAVA_INT, ValueLayout.ADDRESS, ValueLayout.JAVA_INT, ValueLayout.JAVA_INT,
                ValueLayout.JAVA_LONG, ValueLayout.JAVA_INT, ValueLayout.JAVA_INT));
        MethodHandle bar = LINKER.downcallHandle(find(lib, "prmkit_standin_bar"), FunctionDescriptor.of(ValueLayout.ADDRESS));
        MethodHandle raise = LINKER.downcallHandle(find(lib, "prmkit_standin_raise"), FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_INT));
        hooks = LINKER.downcallHandle(find(lib, "prmkit_standin_hooks"), FunctionDescriptor.ofVoid(ValueLayout.ADDRESS, ValueLayout.ADDRESS, ValueLayout.ADDRESS));
        long barSize = SoftHca.barSize(options);
        int vectors = options.vectorCount();
        try (Arena a = Arena.ofConfined()) {
            int r = (int) configure.invokeExact(a.allocateFrom(root.toAbsolutePath().toString()), a.allocateFrom(function.pci()), function.group(),
                    a.allocateFrom(function.driver()), function.vendor(), function.device(), barSize, vectors, function.denyGroup() ? 1 : 0);
            if (r != 0) throw new IllegalStateException("the VFIO stand-in could not build its sysfs tree under " + root);
            MemorySegment memory = ((MemorySegment) bar.invokeExact()).reinterpret(barSize);
            device = SoftHca.create(options.bus(memory, v -> {
                try {
                    if ((int) raise.invokeExact(v) == 0) raisedUndelivered++;
                } catch (Throwable t) {
                    throw new IllegalStateException(t);
                }
            }));
            MethodHandles.Lookup l = MethodHandles.lookup();
            MemorySegment map = LINKER.upcallStub(l.findVirtual(VfioStandIn.class, "map", MethodType.methodType(int.class, long.class, long.class, long.class)).bindTo(this),
                    FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG), arena);
            MemorySegment unmap = LINKER.upcallStub(l.findVirtual(VfioStandIn.class, "unmap", MethodType.methodType(int.class, long.class, long.class)).bindTo(this),
                    FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG), arena);
            MemorySegment tr = LINKER.upcallStub(l.findVirtual(VfioStandIn.class, "traced", MethodType.methodType(void.class, MemorySegment.class)).bindTo(this),
                    FunctionDescriptor.ofVoid(ValueLayout.ADDRESS), arena);
            hooks.invokeExact(map, unmap, tr);
        } catch (RuntimeException e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    private static MemorySegment find(SymbolLookup lib, String name) {
        return lib.find(name).orElseThrow(() -> new IllegalStateException("the VFIO stand-in library has no " + name));
    }

    /** VFIO_IOMMU_MAP_DMA: the user's memory at {@code vaddr} becomes bus address {@code iova} in the device's IOMMU. */
    private int map(long iova, long vaddr, long size) {
        try {
            device.iommu().map(iova, MemorySegment.ofAddress(vaddr).reinterpret(size));
            return 0;
        } catch (IllegalArgumentException e) {
            return 17; // EEXIST: overlaps a mapping, as the kernel's type 1 IOMMU answers
        }
    }

    private int unmap(long iova, long size) {
        device.iommu().unmap(iova);
        return 0;
    }

    private void traced(MemorySegment line) {
        String s = line.reinterpret(1024).getString(0);
        synchronized (trace) {
            if (trace.size() < 1_000_000) trace.add(s);
        }
        if (traceSink != null) traceSink.accept(s);
    }

    public SysfsFunction function() {
        return function;
    }

    /** The soft HCA behind the fake function. */
    public SoftHca device() {
        return device;
    }

    /** The VFIO calls traced so far, in order. */
    public List<String> trace() {
        synchronized (trace) {
            return List.copyOf(trace);
        }
    }

    /** MSI-X messages the device sent to a vector with no eventfd. */
    public long raisedUndelivered() {
        return raisedUndelivered;
    }

    /** Stops the device and unhooks it from the stand-in (the fake function stays in sysfs, with nothing behind it). */
    @Override
    public void close() {
        synchronized (LOCK) {
            try {
                hooks.invokeExact(MemorySegment.NULL, MemorySegment.NULL, MemorySegment.NULL);
            } catch (Throwable t) {
                throw new IllegalStateException(t);
            }
            device.close();
            if (current == this) current = null;
        }
        // The upcall stubs' arena stays open: a thread of the user may still be inside a VFIO call.
    }
}

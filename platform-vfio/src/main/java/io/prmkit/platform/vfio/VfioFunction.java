package io.prmkit.platform.vfio;

import io.prmkit.platform.DmaException;
import io.prmkit.platform.DmaMemory;
import io.prmkit.platform.DmaRegion;
import io.prmkit.platform.Interrupts;
import io.prmkit.platform.MappedMmio;
import io.prmkit.platform.Mmio;
import io.prmkit.platform.PciFunction;
import io.prmkit.vfio.PrmConstants;
import io.prmkit.vfio.VfioIommuType1DmaMap;
import io.prmkit.vfio.VfioIommuType1DmaUnmap;
import io.prmkit.vfio.VfioIrqSet;
import io.prmkit.vfio.VfioPciIrq;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * A PCI function opened through VFIO ({@link Vfio#open}): BAR 0 mapped from the device fd, DMA
 * memory mapped into the container's IOMMU with {@code VFIO_IOMMU_MAP_DMA}, MSI-X vectors
 * signalling eventfds that a thread of its own polls. {@link #close()} switches the vectors off,
 * unmaps what the driver left mapped, unmaps BAR 0 and closes the device, group and container.
 */
public final class VfioFunction implements PciFunction {
    static final long PAGE = 4096;
    static final long HUGE_PAGE = 2L << 20;
    /** First IOVA handed out: above the legacy low ranges (rdma-core's mlx5_vfio keeps below 0x10000 free too). */
    static final long IOVA_BASE = 1L << 32;

    private final String pci;
    private final Posix posix;
    private final int container;
    private final int group;
    private final int device;
    private final long barAddress;
    private final long barSize;
    private final MappedMmio bar0;
    private final Dma dma = new Dma();
    private final Msix interrupts;
    private final AtomicBoolean closed = new AtomicBoolean();

    VfioFunction(String pci, Posix posix, int container, int group, int device, long barSize, long barOffset, int vectors) {
        this.pci = pci;
        this.posix = posix;
        this.container = container;
        this.group = group;
        this.device = device;
        Posix.Result m = posix.mmap(barSize, Posix.PROT_READ | Posix.PROT_WRITE, Posix.MAP_SHARED, device, barOffset);
        if (m.failed()) {
            throw new VfioException("cannot map BAR 0 of " + pci + " (" + barSize + " bytes): " + posix.strerror(m.errno()) + ".");
        }
        this.barAddress = m.value();
        this.barSize = barSize;
        this.bar0 = new MappedMmio(MemorySegment.ofAddress(barAddress).reinterpret(barSize), "BAR 0");
        this.interrupts = new Msix(vectors);
    }

    @Override
    public String name() {
        return pci;
    }

    @Override
    public Mmio bar0() {
        return bar0;
    }

    @Override
    public DmaMemory dma() {
        return dma;
    }

    @Override
    public Interrupts interrupts() {
        return interrupts;
    }

    /** Interrupts that arrived on a vector with no handler (dropped). */
    public long interruptsDropped() {
        return interrupts.dropped.get();
    }

    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) return;
        interrupts.stop();
        for (Dma.Region r : dma.live.toArray(new Dma.Region[0])) r.close();
        posix.munmap(barAddress, barSize);
        posix.close(device);
        posix.close(group);
        posix.close(container);
    }

    /** DMA memory: anonymous mappings (2 MiB huge pages for large regions when the system has them) mapped into the IOMMU. */
    private final class Dma implements DmaMemory {
        private final AtomicLong nextIova = new AtomicLong(IOVA_BASE);
        private final AtomicLong allocated = new AtomicLong();
        private final Set<Region> live = ConcurrentHashMap.newKeySet();
        private volatile boolean hugePagesFailed;

        @Override
        public DmaRegion allocate(long size, long alignment) {
            if (size <= 0) throw new IllegalArgumentException("DMA size must be positive: " + size);
            if (alignment < 8 || Long.bitCount(alignment) != 1) {
                throw new IllegalArgumentException("DMA alignment must be a power of two >= 8: " + alignment);
            }
            if (closed.get()) throw new DmaException("DMA allocation on closed VFIO function " + pci);
            long page = PAGE;
            long mapped = -1;
            long length = 0;
            if (size >= HUGE_PAGE && !hugePagesFailed) {
                length = (size + HUGE_PAGE - 1) & -HUGE_PAGE;
                Posix.Result r = posix.mmap(length, Posix.PROT_READ | Posix.PROT_WRITE, Posix.MAP_PRIVATE | Posix.MAP_ANONYMOUS | Posix.MAP_HUGETLB, -1, 0);
                if (r.failed()) {
                    hugePagesFailed = true; // none reserved (vm.nr_hugepages = 0): plain pages from now on
                } else {
                    mapped = r.value();
                    page = HUGE_PAGE;
                }
            }
            if (mapped < 0) {
                // Plain pages; over-allocate for an alignment beyond a page.
                long extra = alignment > PAGE ? alignment : 0;
                length = ((size + PAGE - 1) & -PAGE) + extra;
                Posix.Result r = posix.mmap(length, Posix.PROT_READ | Posix.PROT_WRITE, Posix.MAP_PRIVATE | Posix.MAP_ANONYMOUS, -1, 0);
                if (r.failed()) throw new DmaException("cannot allocate " + size + " bytes of DMA memory: " + posix.strerror(r.errno()));
                mapped = r.value();
            }
            long start = (mapped + alignment - 1) & -alignment;
            long span = (size + page - 1) & -page;
            long iovaAlign = Math.max(alignment, page);
            long iova;
            long prev;
            do {
                prev = nextIova.get();
                iova = (prev + iovaAlign - 1) & -iovaAlign;
            } while (!nextIova.compareAndSet(prev, iova + span));
            try (Arena a = Arena.ofConfined()) {
                MemorySegment map = a.allocate(VfioIommuType1DmaMap.SIZE, 8);
                VfioIommuType1DmaMap.argsz$set(map, (int) VfioIommuType1DmaMap.SIZE);
                VfioIommuType1DmaMap.flag_bits$set(map, (int) (PrmConstants.VFIO_DMA_MAP_FLAG_READ | PrmConstants.VFIO_DMA_MAP_FLAG_WRITE));
                Le.set(map, VfioIommuType1DmaMap.vaddr$BYTE_OFFSET, start);
                Le.set(map, VfioIommuType1DmaMap.iova$BYTE_OFFSET, iova);
                Le.set(map, VfioIommuType1DmaMap.size$BYTE_OFFSET, span);
                Posix.Result r = posix.ioctl(container, PrmConstants.VFIO_IOMMU_MAP_DMA, map);
                if (r.failed()) {
                    posix.munmap(mapped, length);
                    throw new DmaException("VFIO_IOMMU_MAP_DMA of " + span + " bytes at IOVA 0x" + Long.toHexString(iova) + " for " + pci
                            + " failed: " + posix.strerror(r.errno()) + (r.errno() == Posix.EPERM || r.errno() == 12
                                    ? " (raise the locked-memory limit: ulimit -l unlimited)" : ""));
                }
            }
            allocated.addAndGet(size);
            Arena arena = Arena.ofShared();
            MemorySegment seg = MemorySegment.ofAddress(start).reinterpret(size, arena, null);
            Region region = new Region(arena, seg, iova, span, mapped, length);
            live.add(region);
            return region;
        }

        @Override
        public long allocatedBytes() {
            return allocated.get();
        }

        private final class Region implements DmaRegion {
            private final Arena arena;
            private final MemorySegment segment;
            private final long iova;
            private final long span;
            private final long mapped;
            private final long length;
            private final AtomicBoolean freed = new AtomicBoolean();

            Region(Arena arena, MemorySegment segment, long iova, long span, long mapped, long length) {
                this.arena = arena;
                this.segment = segment;
                this.iova = iova;
                this.span = span;
                this.mapped = mapped;
                this.length = length;
            }

            @Override
            public MemorySegment segment() {
                return segment;
            }

            @Override
            public long busAddress() {
                return iova;
            }

            @Override
            public void close() {
                if (!freed.compareAndSet(false, true)) return;
                live.remove(this);
                try (Arena a = Arena.ofConfined()) {
                    MemorySegment unmap = a.allocate(VfioIommuType1DmaUnmap.SIZE, 8);
                    VfioIommuType1DmaUnmap.argsz$set(unmap, (int) VfioIommuType1DmaUnmap.SIZE);
                    Le.set(unmap, VfioIommuType1DmaUnmap.iova$BYTE_OFFSET, iova);
                    Le.set(unmap, VfioIommuType1DmaUnmap.size$BYTE_OFFSET, span);
                    posix.ioctl(container, PrmConstants.VFIO_IOMMU_UNMAP_DMA, unmap);
                }
                allocated.addAndGet(-segment.byteSize());
                arena.close();
                posix.munmap(mapped, length);
            }

            @Override
            public String toString() {
                return "DmaRegion[" + segment.byteSize() + " bytes at IOVA 0x" + Long.toHexString(iova) + "]";
            }
        }
    }

    /**
     * MSI-X: one eventfd per vector, all given to VFIO in one VFIO_DEVICE_SET_IRQS when the function
     * opens (vfio-pci sizes the MSI-X table at the first call), and a thread that polls them and
     * calls the bound handler: never inside a driver's store, never twice at once for one vector.
     */
    private final class Msix implements Interrupts {
        private static final long POLLFD = 8; // struct pollfd: int fd, short events, short revents
        private final int count;
        private final int[] fds;
        private final AtomicReferenceArray<InterruptHandler> handlers;
        private final AtomicLong dropped = new AtomicLong();
        private final Thread thread;
        private volatile boolean running = true;

        Msix(int count) {
            this.count = count;
            this.fds = new int[count];
            this.handlers = new AtomicReferenceArray<>(Math.max(count, 1));
            for (int v = 0; v < count; v++) {
                Posix.Result r = posix.eventfd(0, Posix.EFD_CLOEXEC | Posix.EFD_NONBLOCK);
                if (r.failed()) {
                    for (int k = 0; k < v; k++) posix.close(fds[k]);
                    throw new VfioException("cannot create an eventfd for MSI-X vector " + v + " of " + pci + ": " + posix.strerror(r.errno()) + ".");
                }
                fds[v] = (int) r.value();
            }
            if (count > 0) {
                try (Arena a = Arena.ofConfined()) {
                    long argsz = VfioIrqSet.SIZE + 4L * count;
                    MemorySegment set = a.allocate(argsz, 8);
                    VfioIrqSet.argsz$set(set, (int) argsz);
                    VfioIrqSet.flag_bits$set(set, (int) (PrmConstants.VFIO_IRQ_SET_DATA_EVENTFD | PrmConstants.VFIO_IRQ_SET_ACTION_TRIGGER));
                    VfioIrqSet.index$set(set, VfioPciIrq.VFIO_PCI_MSIX_IRQ_INDEX$VALUE);
                    VfioIrqSet.start$set(set, 0);
                    VfioIrqSet.count$set(set, count);
                    for (int v = 0; v < count; v++) set.set(ValueLayout.JAVA_INT_UNALIGNED, VfioIrqSet.SIZE + 4L * v, fds[v]);
                    Posix.Result r = posix.ioctl(device, PrmConstants.VFIO_DEVICE_SET_IRQS, set);
                    if (r.failed()) {
                        for (int fd : fds) posix.close(fd);
                        throw new VfioException("cannot route the " + count + " MSI-X vectors of " + pci + " to eventfds (VFIO_DEVICE_SET_IRQS: "
                                + posix.strerror(r.errno()) + ").");
                    }
                }
                thread = new Thread(this::loop, "vfio-msix-" + pci);
                thread.setDaemon(true);
                thread.start();
            } else {
                thread = null;
            }
        }

        @Override
        public int count() {
            return count;
        }

        @Override
        public void bind(int vector, InterruptHandler handler) {
            if (vector < 0 || vector >= count) throw new IllegalArgumentException("vector " + vector + " outside 0.." + (count - 1));
            handlers.set(vector, handler);
        }

        private void loop() {
            try (Arena a = Arena.ofConfined()) {
                MemorySegment pfds = a.allocate(POLLFD * count, 8);
                for (int v = 0; v < count; v++) {
                    pfds.set(ValueLayout.JAVA_INT, POLLFD * v, fds[v]);
                    pfds.set(ValueLayout.JAVA_SHORT, POLLFD * v + 4, Posix.POLLIN);
                }
                MemorySegment counter = a.allocate(8, 8);
                while (running) {
                    Posix.Result r = posix.poll(pfds, count, 100);
                    if (r.value() <= 0) continue;
                    for (int v = 0; v < count; v++) {
                        short revents = pfds.get(ValueLayout.JAVA_SHORT, POLLFD * v + 6);
                        if ((revents & Posix.POLLIN) == 0) continue;
                        posix.read(fds[v], counter); // resets the eventfd's count
                        InterruptHandler h = handlers.get(v);
                        if (h == null) {
                            dropped.incrementAndGet();
                            continue;
                        }
                        try {
                            h.interrupt(v);
                        } catch (RuntimeException e) {
                            dropped.incrementAndGet(); // a failing handler is the driver's bug; the function carries on
                        }
                    }
                }
            }
        }

        void stop() {
            running = false;
            if (thread != null) {
                try {
                    thread.join(TimeUnit.SECONDS.toMillis(2));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            if (count > 0) {
                try (Arena a = Arena.ofConfined()) {
                    MemorySegment set = a.allocate(VfioIrqSet.SIZE, 8);
                    VfioIrqSet.argsz$set(set, (int) VfioIrqSet.SIZE);
                    VfioIrqSet.flag_bits$set(set, (int) (PrmConstants.VFIO_IRQ_SET_DATA_NONE | PrmConstants.VFIO_IRQ_SET_ACTION_TRIGGER));
                    VfioIrqSet.index$set(set, VfioPciIrq.VFIO_PCI_MSIX_IRQ_INDEX$VALUE);
                    posix.ioctl(device, PrmConstants.VFIO_DEVICE_SET_IRQS, set); // count 0: all vectors off
                }
            }
            for (int fd : fds) posix.close(fd);
        }
    }
}

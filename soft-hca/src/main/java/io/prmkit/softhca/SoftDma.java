package io.prmkit.softhca;

import io.prmkit.platform.DmaException;
import io.prmkit.platform.DmaMemory;
import io.prmkit.platform.DmaRegion;
import io.prmkit.softhca.device.Iommu;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * DMA memory of the soft function: each region is a shared-arena segment mapped into the
 * {@link Iommu} at a fresh bus address (never its native address), with an unmapped guard page
 * after it so an overrun faults.
 */
final class SoftDma implements DmaMemory {
    /** Two cache lines of padding (16 longs = 128 bytes). */
    private static final int PAD_LONGS = 16;
    /** Where the padding goes (written so the allocations are not optimised away; never read). */
    @SuppressWarnings("unused")
    private static volatile Object padding;
    private final Iommu iommu;
    private final long limit;
    private final AtomicLong nextBus = new AtomicLong(Iommu.BASE);
    private final AtomicLong allocated = new AtomicLong();

    SoftDma(Iommu iommu, long limit) {
        this.iommu = iommu;
        this.limit = limit;
    }

    @Override
    public DmaRegion allocate(long size, long alignment) {
        if (size <= 0) throw new IllegalArgumentException("DMA size must be positive: " + size);
        if (alignment < 8 || Long.bitCount(alignment) != 1) {
            throw new IllegalArgumentException("DMA alignment must be a power of two >= 8: " + alignment);
        }
        if (allocated.addAndGet(size) > limit) {
            allocated.addAndGet(-size);
            throw new DmaException("soft-hca DMA limit reached: " + size + " more bytes would exceed " + limit);
        }
        long busAlign = Math.max(alignment, 4096);
        long span = (size + 4095 & ~4095L) + 4096; // region + guard page
        long bus;
        long prev;
        do {
            prev = nextBus.get();
            bus = (prev + busAlign - 1) & -busAlign;
        } while (!nextBus.compareAndSet(prev, bus + span));
        // The arena's session and the segment object are read on every access the device makes to the
        // region (liveness, bounds), on the device's thread; the driver allocates them on its own thread
        // right between objects it writes all the time (a packet pool's free-stack top, its arrays), so
        // each device access missed on the driver's stores (JFR: the loopback's device thread spent a
        // fifth of its samples in MemorySegment.copy's first read of the segment). Padding allocated
        // around them gives them cache lines of their own (until a collection moves them: the datapath
        // allocates nothing, so in a run none does).
        padding = new long[PAD_LONGS];
        Arena arena = Arena.ofShared();
        MemorySegment seg;
        try {
            seg = arena.allocate(size, alignment);
        } catch (OutOfMemoryError e) {
            arena.close();
            allocated.addAndGet(-size);
            throw new DmaException("cannot allocate " + size + " bytes of DMA memory: " + e.getMessage());
        }
        MemorySegment deviceView = seg.asSlice(0); // the object the device reads through, not the driver's
        padding = new long[PAD_LONGS];
        iommu.map(bus, deviceView);
        return new Mapping(arena, seg, bus);
    }

    @Override
    public long allocatedBytes() {
        return allocated.get();
    }

    private final class Mapping implements DmaRegion {
        private final Arena arena;
        private final MemorySegment segment;
        private final long bus;
        private final AtomicBoolean closed = new AtomicBoolean();

        Mapping(Arena arena, MemorySegment segment, long bus) {
            this.arena = arena;
            this.segment = segment;
            this.bus = bus;
        }

        @Override
        public MemorySegment segment() {
            return segment;
        }

        @Override
        public long busAddress() {
            return bus;
        }

        @Override
        public void close() {
            if (!closed.compareAndSet(false, true)) return;
            iommu.unmap(bus);
            allocated.addAndGet(-segment.byteSize());
            arena.close();
        }

        @Override
        public String toString() {
            return "DmaRegion[" + segment.byteSize() + " bytes at bus 0x" + Long.toHexString(bus) + "]";
        }
    }
}

package io.prmkit.driver.devx;

import io.prmkit.driver.core.UmemMemory;
import io.prmkit.platform.DmaException;
import io.prmkit.platform.DmaRegion;
import io.prmkit.platform.devx.DevxContext;
import io.prmkit.platform.devx.DevxUmem;
import io.prmkit.devx.PrmConstants;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Map;
import java.util.TreeMap;

/**
 * The DMA memory of a DEVX function: one block of native memory registered once as a umem ({@code
 * mlx5dv_devx_umem_reg}, local write), cut into regions first-fit. A region's bus address is its
 * virtual address: rings and doorbell records are named to the device by the umem's id and their
 * offset in it, packet buffers through one MTT mkey over the whole umem that starts at its first
 * byte's address (as DPDK registers a mempool). One registration keeps the pinned-page accounting
 * (the locked-memory limit, {@code ulimit -l}) at one number the user chooses.
 */
final class UmemArena implements UmemMemory, AutoCloseable {
    private final Arena arena = Arena.ofShared();
    private final MemorySegment memory;
    private final DevxUmem umem;
    /** Free blocks: offset to length, coalesced. */
    private final TreeMap<Long, Long> free = new TreeMap<>();
    private long allocated;
    private boolean closed;

    UmemArena(DevxContext ctx, long bytes) {
        if (bytes < 4096 || bytes % 4096 != 0) throw new IllegalArgumentException("DEVX memory must be whole 4 KiB pages, not " + bytes + " bytes");
        memory = arena.allocate(bytes, 4096);
        try {
            umem = ctx.registerUmem(memory, (int) PrmConstants.IBV_ACCESS_LOCAL_WRITE);
        } catch (RuntimeException e) {
            arena.close();
            throw e;
        }
        free.put(0L, bytes);
    }

    @Override
    public int umemId() {
        return umem.id();
    }

    @Override
    public long base() {
        return memory.address();
    }

    @Override
    public long size() {
        return memory.byteSize();
    }

    @Override
    public synchronized DmaRegion allocate(long size, long alignment) {
        if (closed) throw new IllegalStateException("the DEVX memory is closed");
        if (size <= 0 || Long.bitCount(alignment) != 1 || alignment < 8)
            throw new IllegalArgumentException("allocate(" + size + ", " + alignment + "): positive size, power-of-two alignment of at least 8");
        for (Map.Entry<Long, Long> f : free.entrySet()) {
            long start = f.getKey(), end = start + f.getValue();
            long at = (base() + start + alignment - 1 & -alignment) - base();
            if (at + size > end) continue;
            free.remove(start);
            if (at > start) free.put(start, at - start);
            if (at + size < end) free.put(at + size, end - at - size);
            allocated += size;
            MemorySegment s = memory.asSlice(at, size).fill((byte) 0);
            return new Slice(s, at);
        }
        throw new DmaException("DEVX memory exhausted: " + size + " bytes asked, " + (memory.byteSize() - allocated) + " of "
                + memory.byteSize() + " free in pieces too small (give the DEVX device more memory)");
    }

    private synchronized void release(long at, long size) {
        allocated -= size;
        long start = at, len = size;
        Map.Entry<Long, Long> before = free.floorEntry(at);
        if (before != null && before.getKey() + before.getValue() == at) {
            start = before.getKey();
            len += before.getValue();
            free.remove(before.getKey());
        }
        Long after = free.containsKey(at + size) ? at + size : null;
        if (after != null) len += free.remove(after);
        free.put(start, len);
    }

    @Override
    public synchronized long allocatedBytes() {
        return allocated;
    }

    /** Deregisters the umem (refused while an object still uses it) and frees the memory. */
    @Override
    public synchronized void close() {
        if (closed) return;
        umem.close();
        closed = true;
        arena.close();
    }

    private final class Slice implements DmaRegion {
        private final MemorySegment segment;
        private final long at;
        private boolean closed;

        Slice(MemorySegment segment, long at) {
            this.segment = segment;
            this.at = at;
        }

        @Override
        public MemorySegment segment() {
            return segment;
        }

        @Override
        public long busAddress() {
            return segment.address();
        }

        @Override
        public void close() {
            synchronized (UmemArena.this) {
                if (closed || UmemArena.this.closed) return;
                closed = true;
                release(at, segment.byteSize());
            }
        }
    }
}

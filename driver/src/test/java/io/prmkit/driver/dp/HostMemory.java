package io.prmkit.driver.dp;

import io.prmkit.platform.DmaException;
import io.prmkit.platform.DmaMemory;
import io.prmkit.platform.DmaRegion;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Map;
import java.util.TreeMap;

/** DMA memory for tests that play the device: shared-arena memory at made-up bus addresses, resolvable back. */
final class HostMemory implements DmaMemory, AutoCloseable {
    private final Arena arena = Arena.ofShared();
    private final TreeMap<Long, MemorySegment> byBus = new TreeMap<>();
    private long next = 0x7_0000_0000L;
    private long allocated;

    @Override
    public synchronized DmaRegion allocate(long size, long alignment) {
        if (size <= 0) throw new DmaException("size " + size);
        MemorySegment s = arena.allocate(size, Math.max(alignment, 64));
        next = (next + alignment - 1) & -alignment;
        long bus = next;
        next += size + 4096; // a gap, so an address one past a region resolves to nothing
        byBus.put(bus, s);
        allocated += size;
        return new DmaRegion() {
            @Override
            public MemorySegment segment() {
                return s;
            }

            @Override
            public long busAddress() {
                return bus;
            }

            @Override
            public void close() {
                synchronized (HostMemory.this) {
                    if (byBus.remove(bus) != null) allocated -= size;
                }
            }
        };
    }

    @Override
    public synchronized long allocatedBytes() {
        return allocated;
    }

    /** The host memory behind bus range [bus, bus + len), or null when no region covers all of it. */
    synchronized MemorySegment resolve(long bus, long len) {
        Map.Entry<Long, MemorySegment> e = byBus.floorEntry(bus);
        if (e == null) return null;
        long off = bus - e.getKey();
        if (off + len > e.getValue().byteSize()) return null;
        return e.getValue().asSlice(off, len);
    }

    @Override
    public void close() {
        arena.close();
    }
}

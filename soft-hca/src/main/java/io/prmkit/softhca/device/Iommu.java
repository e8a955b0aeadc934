package io.prmkit.softhca.device;

import java.lang.foreign.MemorySegment;
import java.util.Map;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The device's only way into host memory: a table of mapped ranges, bus address to host segment.
 * A bus address is never a native address (mappings start at {@link #BASE}), so a driver that puts
 * a native address into a PRM field faults instead of reaching random memory. Every access outside
 * a mapping is a DMA fault: counted, and answered by the caller the way the PRM answers it (a
 * delivery status, an error CQE, a CQ or EQ error event).
 *
 * <p>Memory ordering is that of real DMA and is the caller's: load an ownership or owner bit, then
 * {@code VarHandle.acquireFence()} before reading the rest; {@code VarHandle.releaseFence()} before
 * the store that hands an entry back (ownership flip, CQE/EQE owner bit).
 */
public final class Iommu {

    /** First bus address handed out; far above anything a 4 KiB-page native address table would hold. */
    public static final long BASE = 0x10_0000_0000L;

    /** One mapped range: host {@code segment} at bus address {@code bus}. */
    public record Mapping(long bus, MemorySegment segment) {
        public long end() {
            return bus + segment.byteSize();
        }
    }

    private final ConcurrentSkipListMap<Long, Mapping> mappings = new ConcurrentSkipListMap<>();
    private final AtomicLong faults = new AtomicLong();
    private volatile long lastFault = -1;

    /** Maps {@code segment} at bus address {@code bus}; ranges must not overlap. */
    public void map(long bus, MemorySegment segment) {
        Map.Entry<Long, Mapping> below = mappings.floorEntry(bus + segment.byteSize() - 1);
        if (below != null && below.getValue().end() > bus) {
            throw new IllegalArgumentException("bus range 0x" + Long.toHexString(bus) + " overlaps a mapping");
        }
        mappings.put(bus, new Mapping(bus, segment));
    }

    /** Removes the mapping that starts at {@code bus}; later accesses to it fault. */
    public void unmap(long bus) {
        mappings.remove(bus);
    }

    /**
     * The {@code length} bytes at bus address {@code bus} as a host segment, or {@code null} (a
     * counted DMA fault) when they are not all inside one mapping.
     */
    public MemorySegment slice(long bus, long length) {
        Map.Entry<Long, Mapping> e = length < 0 ? null : mappings.floorEntry(bus);
        if (e != null) {
            Mapping m = e.getValue();
            long off = bus - m.bus;
            if (off >= 0 && length <= m.segment.byteSize() - off) {
                return m.segment.asSlice(off, length);
            }
        }
        fault(bus);
        return null;
    }

    /**
     * The whole mapping that contains bus address {@code bus}, or null (not counted as a fault: the
     * caller goes on to {@link #slice}, which counts it). For the datapath, which keeps the last few
     * mappings it used so that most accesses skip the table; bus addresses are never reused, and a
     * freed region's segment refuses access, so a kept mapping can go stale but never alias.
     */
    public Mapping mapping(long bus) {
        Map.Entry<Long, Mapping> e = mappings.floorEntry(bus);
        if (e == null || bus >= e.getValue().end()) return null;
        return e.getValue();
    }

    /** Like {@link #slice} but throws {@link DmaFault} (for the control path). */
    public MemorySegment require(long bus, long length) {
        MemorySegment s = slice(bus, length);
        if (s == null) throw new DmaFault(bus, length);
        return s;
    }

    /** Whether {@code length} bytes at {@code bus} are mapped; does not count a fault. */
    public boolean isMapped(long bus, long length) {
        Map.Entry<Long, Mapping> e = mappings.floorEntry(bus);
        if (e == null || length < 0) return false;
        long off = bus - e.getValue().bus;
        return off >= 0 && length <= e.getValue().segment.byteSize() - off;
    }

    private void fault(long bus) {
        lastFault = bus;
        faults.incrementAndGet();
    }

    /** DMA faults so far (accesses to unmapped bus addresses). */
    public long faults() {
        return faults.get();
    }

    /** Bus address of the last fault, or -1. */
    public long lastFaultAddress() {
        return lastFault;
    }

    /** Number of live mappings. */
    public int mappings() {
        return mappings.size();
    }
}

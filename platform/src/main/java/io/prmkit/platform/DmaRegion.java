package io.prmkit.platform;

import java.lang.foreign.MemorySegment;

/**
 * One allocation of {@link DmaMemory}: the host's view ({@link #segment()}) and the device's
 * ({@link #busAddress()}, what goes into PRM address fields). Byte {@code i} of the segment is bus
 * address {@code busAddress() + i}. The segment belongs to a shared arena, so any thread may use
 * it; {@link #close()} unmaps it from the device first, then frees it.
 */
public interface DmaRegion extends AutoCloseable {

    MemorySegment segment();

    long busAddress();

    default long size() {
        return segment().byteSize();
    }

    /** The bus address of byte {@code offset} of this region. */
    default long busAddress(long offset) {
        if (offset < 0 || offset > size()) throw new IndexOutOfBoundsException("offset " + offset + " outside a region of " + size() + " bytes");
        return busAddress() + offset;
    }

    @Override
    void close();
}

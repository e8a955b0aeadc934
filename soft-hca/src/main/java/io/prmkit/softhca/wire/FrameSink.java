package io.prmkit.softhca.wire;

import java.lang.foreign.MemorySegment;

/** Where a port hands the frames that arrive from its wire (the device's receive path). */
@FunctionalInterface
public interface FrameSink {
    /** Receives {@code len} bytes at {@code off}; the bytes are valid only during the call. */
    void receive(Port port, MemorySegment frame, long off, int len);

    /** As {@link #receive(Port, MemorySegment, long, int)}, with the destination MAC the port's MAC already read. */
    default void receive(Port port, MemorySegment frame, long off, int len, long dmac) {
        receive(port, frame, off, len);
    }
}

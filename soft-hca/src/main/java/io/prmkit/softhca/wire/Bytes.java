package io.prmkit.softhca.wire;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * Copies of short byte strings (inline headers, 64-byte frames) between segments that do not
 * overlap. {@code MemorySegment.copy} checks and dispatches more than such a copy costs: a copy of
 * 8 bytes or more here is a run of 8-byte moves, the last one overlapping the one before it, so an
 * 18-byte header is three loads and three stores. Longer strings go to {@code MemorySegment.copy}.
 * Bounds and liveness fail as they do there (IndexOutOfBoundsException, IllegalStateException), but
 * possibly after part of the bytes moved: callers check their ranges first, as the datapath does.
 */
public final class Bytes {
    /** Longest copy done with explicit moves. */
    static final int SHORT = 32;
    private static final ValueLayout.OfLong U64 = ValueLayout.JAVA_LONG_UNALIGNED;
    private static final ValueLayout.OfInt U32 = ValueLayout.JAVA_INT_UNALIGNED;
    private static final ValueLayout.OfShort U16 = ValueLayout.JAVA_SHORT_UNALIGNED;

    private Bytes() {}

    /** Copies {@code n} bytes from {@code src} at {@code so} to {@code dst} at {@code d}; the ranges must not overlap. */
    public static void copy(MemorySegment src, long so, MemorySegment dst, long d, int n) {
        if (n >= Long.BYTES) {
            if (n > SHORT) {
                MemorySegment.copy(src, so, dst, d, n);
                return;
            }
            int last = n - Long.BYTES;
            for (int i = 0; i < last; i += Long.BYTES) dst.set(U64, d + i, src.get(U64, so + i));
            dst.set(U64, d + last, src.get(U64, so + last));
        } else if (n >= Integer.BYTES) {
            int last = n - Integer.BYTES;
            dst.set(U32, d, src.get(U32, so));
            dst.set(U32, d + last, src.get(U32, so + last));
        } else if (n >= Short.BYTES) {
            int last = n - Short.BYTES;
            dst.set(U16, d, src.get(U16, so));
            dst.set(U16, d + last, src.get(U16, so + last));
        } else if (n == 1) {
            dst.set(ValueLayout.JAVA_BYTE, d, src.get(ValueLayout.JAVA_BYTE, so));
        } else if (n < 0) {
            throw new IndexOutOfBoundsException("negative length " + n);
        }
    }
}

package io.prmkit.softhca.wire;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;

/**
 * The Internet checksum (RFC 1071): a ones-complement sum of 16-bit big-endian words. Frame bytes are
 * plain network-order bytes, not PRM structures, so this reads them directly.
 */
public final class Checksum {

    static final ValueLayout.OfShort BE16 = ValueLayout.JAVA_SHORT_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN);
    static final ValueLayout.OfInt BE32 = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN);
    static final ValueLayout.OfLong BE64 = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN);

    private Checksum() {}

    /** Adds {@code len} bytes at {@code off} to a running (unfolded) sum; an odd last byte is padded with zero. */
    public static long add(MemorySegment s, long off, int len, long sum) {
        int i = 0;
        for (; i + 8 <= len; i += 8) {
            long w = s.get(BE64, off + i);
            sum += (w >>> 32) + (w & 0xffffffffL);
        }
        for (; i + 2 <= len; i += 2) sum += s.get(BE16, off + i) & 0xffff;
        if (i < len) sum += (s.get(ValueLayout.JAVA_BYTE, off + i) & 0xff) << 8;
        return sum;
    }

    /** Folds a running sum to 16 bits (not complemented). */
    public static int fold(long sum) {
        while ((sum >>> 16) != 0) sum = (sum & 0xffff) + (sum >>> 16);
        return (int) sum;
    }

    /** The checksum to store: the complement of the folded sum. */
    public static int finish(long sum) {
        return ~fold(sum) & 0xffff;
    }

    /** Checksum of {@code len} bytes (store it, or check that a block containing it sums to 0xffff). */
    public static int of(MemorySegment s, long off, int len) {
        return finish(add(s, off, len, 0));
    }

    /**
     * The pseudo-header sum for TCP/UDP over the IP header at {@code l3}: addresses, protocol and the
     * L4 length ({@code l4Len}).
     */
    public static long pseudoHeader(MemorySegment s, long l3, boolean ipv6, int protocol, int l4Len) {
        long sum;
        if (ipv6) {
            sum = add(s, l3 + 8, 32, 0);
        } else {
            sum = add(s, l3 + 12, 8, 0);
        }
        return sum + protocol + (l4Len & 0xffff) + (l4Len >>> 16);
    }
}

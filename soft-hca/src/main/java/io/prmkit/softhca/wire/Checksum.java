package io.prmkit.softhca.wire;

import io.prmkit.net.Iphdr;
import io.prmkit.net.Ipv6hdr;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;

/**
 * The Internet checksum (RFC 1071): a ones-complement sum of 16-bit big-endian words. The sum runs
 * over a byte range whatever fields it holds, so {@link #add} reads the range as a stream of words;
 * where a range starts (the addresses of the pseudo-header) comes from the net spec's accessors.
 */
public final class Checksum {

    static final ValueLayout.OfShort BE16 = ValueLayout.JAVA_SHORT_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN);
    static final ValueLayout.OfInt BE32 = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN);
    static final ValueLayout.OfLong BE64 = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN);

    private Checksum() {}

    /** iphdr's saddr and daddr, and ipv6hdr's, as one byte range each (the pseudo-header's addresses). */
    private static final long V4_ADDRS_AT = Iphdr.saddr$BIT_OFFSET / 8;
    private static final int V4_ADDRS_LEN = (int) ((Iphdr.daddr$BIT_OFFSET + Iphdr.daddr$BIT_WIDTH - Iphdr.saddr$BIT_OFFSET) / 8);
    private static final long V6_ADDRS_AT = Ipv6hdr.saddr$BYTE_OFFSET;
    private static final int V6_ADDRS_LEN = (int) (Ipv6hdr.daddr$BYTE_OFFSET + Ipv6hdr.daddr$LENGTH - Ipv6hdr.saddr$BYTE_OFFSET);

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
        long sum = ipv6 ? add(s, l3 + V6_ADDRS_AT, V6_ADDRS_LEN, 0) : add(s, l3 + V4_ADDRS_AT, V4_ADDRS_LEN, 0);
        return sum + protocol + (l4Len & 0xffff) + (l4Len >>> 16);
    }
}

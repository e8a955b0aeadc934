package io.prmkit.softhca.wire;

import io.prmkit.net.Iphdr;
import io.prmkit.net.Ipv6hdr;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * The Internet checksum (RFC 1071): a ones-complement sum of 16-bit big-endian words. The sum runs
 * over a byte range whatever fields it holds, so {@link #add} reads the range as a stream of words;
 * where a range starts (the addresses of the pseudo-header) comes from the net spec's accessors.
 */
public final class InternetChecksum {

    static final ValueLayout.OfShort BE16 = io.prmkit.layout.PrmLayout.BE_SHORT;
    static final ValueLayout.OfInt BE32 = io.prmkit.layout.PrmLayout.BE_INT;
    static final ValueLayout.OfLong BE64 = io.prmkit.layout.PrmLayout.BE_LONG;

    private InternetChecksum() {}

    /** iphdr's saddr and daddr, and ipv6hdr's, as one byte range each (the pseudo-header's addresses). */
    private static final long V4_ADDRS_AT = Iphdr.saddr$BIT_OFFSET / 8;
    private static final int V4_ADDRS_LEN = (int) ((Iphdr.daddr$BIT_OFFSET + Iphdr.daddr$BIT_WIDTH - Iphdr.saddr$BIT_OFFSET) / 8);
    private static final long V6_ADDRS_AT = Ipv6hdr.saddr$BYTE_OFFSET;
    private static final int V6_ADDRS_LEN = (int) (Ipv6hdr.daddr$BYTE_OFFSET + Ipv6hdr.daddr$LENGTH - Ipv6hdr.saddr$BYTE_OFFSET);

    /**
     * Adds {@code len} bytes at {@code off} to a running (unfolded) sum; an odd last byte is padded with zero.
     * Whole 8-byte words in a counted loop, then at most one 4-, one 2- and one 1-byte read: the tail of
     * an IPv4 header or a 64-byte frame's UDP datagram is one or two reads, not a loop of 16-bit ones.
     */
    public static long add(MemorySegment s, long off, int len, long sum) {
        if (len <= 0) return sum;
        int words = len >>> 3;
        for (int k = 0; k < words; k++) {
            long w = s.get(BE64, off + ((long) k << 3));
            sum += (w >>> 32) + (w & 0xffffffffL);
        }
        long at = off + (len & ~7);
        if ((len & 4) != 0) {
            sum += s.get(BE32, at) & 0xffffffffL;
            at += 4;
        }
        if ((len & 2) != 0) {
            sum += s.get(BE16, at) & 0xffff;
            at += 2;
        }
        if ((len & 1) != 0) sum += (s.get(ValueLayout.JAVA_BYTE, at) & 0xff) << 8;
        return sum;
    }

    /**
     * Folds a running sum to 16 bits (not complemented): the end-around carries in four fixed steps
     * (64 to 33 bits, to 18, to 17, to 16), so no loop whose trip count changes with every frame's sum.
     */
    public static int fold(long sum) {
        sum = (sum & 0xffffffffL) + (sum >>> 32);
        sum = (sum & 0xffff) + (sum >>> 16);
        sum = (sum & 0xffff) + (sum >>> 16);
        sum = (sum & 0xffff) + (sum >>> 16);
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

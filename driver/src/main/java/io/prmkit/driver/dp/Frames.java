package io.prmkit.driver.dp;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;

/**
 * Builds test traffic (Ethernet + IPv4/IPv6 + UDP/TCP, payload a pattern of the frame's sequence
 * number) straight into packet buffers, and computes Internet checksums. No allocation.
 * Ethernet, IP, UDP and TCP layouts are RFC 894/791/8200/768/793, not PRM structures.
 */
public final class Frames {
    private Frames() {}

    static final ValueLayout.OfShort BE16 = ValueLayout.JAVA_SHORT_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN);
    static final ValueLayout.OfInt BE32 = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN);

    public static final long DST_MAC = 0x02_00_00_00_00_02L;
    public static final long SRC_MAC = 0x02_00_00_00_00_01L;
    public static final int TCP_HLEN = 20;
    public static final int UDP_HLEN = 8;
    public static final int IPV4_HLEN = 20;
    public static final int IPV6_HLEN = 40;

    /** Smallest frame (no FCS) {@code kind} can be built as. */
    public static int minLength(boolean ipv6, boolean tcp) {
        return FrameHeaders.ETH_HLEN + (ipv6 ? IPV6_HLEN : IPV4_HLEN) + (tcp ? TCP_HLEN : UDP_HLEN);
    }

    /**
     * Writes a {@code len}-byte frame at {@code off}: Ethernet II, IPv4 or IPv6, UDP or TCP (ACK|PSH,
     * sequence number {@code seq * 1000}), payload bytes {@code (seq + i) & 0xff}. Source port
     * {@code 1024 + (flow & 0x3fff)} spreads flows over RSS queues. Checksums are left 0 when
     * {@code offload} (the device computes them) and computed otherwise.
     */
    public static void build(MemorySegment s, long off, int len, boolean ipv6, boolean tcp, int seq, int flow, boolean offload) {
        if (len < minLength(ipv6, tcp)) throw new IllegalArgumentException("frame of " + len + " bytes is too short for its headers");
        putMac(s, off, DST_MAC);
        putMac(s, off + 6, SRC_MAC);
        s.set(BE16, off + 12, (short) (ipv6 ? FrameHeaders.ETHERTYPE_IPV6 : FrameHeaders.ETHERTYPE_IPV4));
        long l3 = off + FrameHeaders.ETH_HLEN;
        int proto = tcp ? FrameHeaders.IPPROTO_TCP : FrameHeaders.IPPROTO_UDP;
        long l4;
        int l4len;
        if (ipv6) {
            l4 = l3 + IPV6_HLEN;
            l4len = len - FrameHeaders.ETH_HLEN - IPV6_HLEN;
            s.set(BE32, l3, 0x6000_0000);
            s.set(BE16, l3 + 4, (short) l4len);
            s.set(ValueLayout.JAVA_BYTE, l3 + 6, (byte) proto);
            s.set(ValueLayout.JAVA_BYTE, l3 + 7, (byte) 64);
            for (int i = 0; i < 16; i++) {
                s.set(ValueLayout.JAVA_BYTE, l3 + 8 + i, (byte) (i == 0 ? 0xfd : i == 15 ? 1 : 0));
                s.set(ValueLayout.JAVA_BYTE, l3 + 24 + i, (byte) (i == 0 ? 0xfd : i == 15 ? 2 : 0));
            }
        } else {
            l4 = l3 + IPV4_HLEN;
            l4len = len - FrameHeaders.ETH_HLEN - IPV4_HLEN;
            s.set(ValueLayout.JAVA_BYTE, l3, (byte) 0x45);
            s.set(ValueLayout.JAVA_BYTE, l3 + 1, (byte) 0);
            s.set(BE16, l3 + 2, (short) (IPV4_HLEN + l4len));
            s.set(BE16, l3 + 4, (short) seq);
            s.set(BE16, l3 + 6, (short) 0x4000); // DF
            s.set(ValueLayout.JAVA_BYTE, l3 + 8, (byte) 64);
            s.set(ValueLayout.JAVA_BYTE, l3 + 9, (byte) proto);
            s.set(BE16, l3 + 10, (short) 0);
            s.set(BE32, l3 + 12, 0x0a00_0001);
            s.set(BE32, l3 + 16, 0x0a00_0002);
            if (!offload) s.set(BE16, l3 + 10, (short) ipv4HeaderChecksum(s, l3));
        }
        int sport = 1024 + (flow & 0x3fff);
        s.set(BE16, l4, (short) sport);
        s.set(BE16, l4 + 2, (short) 9000);
        long payload;
        if (tcp) {
            s.set(BE32, l4 + 4, seq * 1000);
            s.set(BE32, l4 + 8, 1);
            s.set(ValueLayout.JAVA_BYTE, l4 + 12, (byte) (5 << 4));
            s.set(ValueLayout.JAVA_BYTE, l4 + 13, (byte) 0x18); // ACK|PSH
            s.set(BE16, l4 + 14, (short) 0xffff);
            s.set(BE16, l4 + 16, (short) 0);
            s.set(BE16, l4 + 18, (short) 0);
            payload = l4 + TCP_HLEN;
        } else {
            s.set(BE16, l4 + 4, (short) l4len);
            s.set(BE16, l4 + 6, (short) 0);
            payload = l4 + UDP_HLEN;
        }
        long end = off + len;
        for (long p = payload; p < end; p++) s.set(ValueLayout.JAVA_BYTE, p, (byte) (seq + (p - payload)));
        if (!offload) setL4Checksum(s, off, len);
    }

    private static void putMac(MemorySegment s, long off, long mac) {
        s.set(BE16, off, (short) (mac >>> 32));
        s.set(BE32, off + 2, (int) mac);
    }

    /** Ones' complement sum of {@code len} bytes (not folded, not inverted). */
    static long sum(MemorySegment s, long off, int len) {
        long acc = 0;
        int i = 0;
        for (; i + 1 < len; i += 2) acc += s.get(BE16, off + i) & 0xffff;
        if (i < len) acc += (s.get(ValueLayout.JAVA_BYTE, off + i) & 0xff) << 8;
        return acc;
    }

    static int fold(long acc) {
        while ((acc >>> 16) != 0) acc = (acc & 0xffff) + (acc >>> 16);
        return (int) acc;
    }

    /** The IPv4 header checksum of the header at {@code l3} (its checksum field taken as 0). */
    public static int ipv4HeaderChecksum(MemorySegment s, long l3) {
        int ihl = (s.get(ValueLayout.JAVA_BYTE, l3) & 0x0f) * 4;
        long acc = sum(s, l3, ihl) - (s.get(BE16, l3 + 10) & 0xffff);
        return ~fold(acc) & 0xffff;
    }

    /** Computes and stores the TCP/UDP checksum (with the IPv4/IPv6 pseudo-header) of the frame at {@code off}. */
    public static void setL4Checksum(MemorySegment s, long off, int len) {
        int l3 = FrameHeaders.l3Offset(s, off, len);
        int l4 = FrameHeaders.l4Offset(s, off, len);
        int proto = FrameHeaders.ipProtocol(s, off, len);
        if (l4 < 0 || (proto != FrameHeaders.IPPROTO_TCP && proto != FrameHeaders.IPPROTO_UDP)) return;
        long csumAt = off + l4 + (proto == FrameHeaders.IPPROTO_TCP ? 16 : 6);
        s.set(BE16, csumAt, (short) 0);
        boolean v4 = FrameHeaders.etherType(s, off, len) == FrameHeaders.ETHERTYPE_IPV4;
        int l4len = v4 ? (s.get(BE16, off + l3 + 2) & 0xffff) - (l4 - l3) : s.get(BE16, off + l3 + 4) & 0xffff;
        long acc = v4 ? sum(s, off + l3 + 12, 8) : sum(s, off + l3 + 8, 32);
        acc += proto + l4len;
        acc += sum(s, off + l4, l4len);
        int c = ~fold(acc) & 0xffff;
        if (c == 0 && proto == FrameHeaders.IPPROTO_UDP) c = 0xffff;
        s.set(BE16, csumAt, (short) c);
    }

    /** Computes and stores the IPv4 header checksum (nothing for IPv6). */
    public static void setIpv4Checksum(MemorySegment s, long off, int len) {
        if (FrameHeaders.etherType(s, off, len) != FrameHeaders.ETHERTYPE_IPV4) return;
        long l3 = off + FrameHeaders.l3Offset(s, off, len);
        s.set(BE16, l3 + 10, (short) 0);
        s.set(BE16, l3 + 10, (short) ipv4HeaderChecksum(s, l3));
    }
}

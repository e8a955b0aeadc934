package io.prmkit.demo;

import io.prmkit.driver.dp.FrameHeaders;
import io.prmkit.net.Ethhdr;
import io.prmkit.net.Iphdr;
import io.prmkit.net.Ipv6hdr;
import io.prmkit.net.Tcphdr;
import io.prmkit.net.Udphdr;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * Builds test traffic (Ethernet + IPv4/IPv6 + UDP/TCP, payload a pattern of the frame's sequence
 * number) straight into packet buffers, and computes Internet checksums. No allocation.
 * Every header field goes through the net spec's generated accessors ({@code io.prmkit.net}:
 * ethhdr, iphdr, ipv6hdr, tcphdr, udphdr, kernel names); only payload and checksum sums are byte streams.
 */
public final class Frames {
    private Frames() {}

    /** Payload and checksum words: byte streams in network order, not header fields. */
    static final ValueLayout.OfShort BE16 = io.prmkit.layout.PrmLayout.BE_SHORT;
    static final ValueLayout.OfInt BE32 = io.prmkit.layout.PrmLayout.BE_INT;
    static final ValueLayout.OfLong BE64 = io.prmkit.layout.PrmLayout.BE_LONG;

    public static final long DST_MAC = 0x02_00_00_00_00_02L;
    public static final long SRC_MAC = 0x02_00_00_00_00_01L;
    /**
     * Source ports are {@code SOURCE_PORTS + (flow & SOURCE_PORT_MASK)}: 61440-65535, the top of the
     * dynamic range (RFC 6335), where Wireshark 4.0 registers no UDP or TCP dissector (it does at
     * 49999, 54328, 56000-59533 and 60001). With the registered ports 1024-17407 used before, tshark
     * decoded a few frames of every demo pcap as sebek, cnip, bfd, ... packets, some "malformed".
     */
    public static final int SOURCE_PORTS = 0xf000;
    public static final int SOURCE_PORT_MASK = 0x0fff;

    /** The source port {@link #build} gives flow {@code flow}. */
    public static int sourcePort(int flow) {
        return SOURCE_PORTS + (flow & SOURCE_PORT_MASK);
    }
    public static final int TCP_HLEN = (int) Tcphdr.SIZE;
    public static final int UDP_HLEN = (int) Udphdr.SIZE;
    public static final int IPV4_HLEN = (int) Iphdr.SIZE;
    public static final int IPV6_HLEN = (int) Ipv6hdr.SIZE;

    /** The IPv6 test addresses fd00::1 and fd00::2. */
    private static final byte[] V6_SRC = {(byte) 0xfd, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1};
    private static final byte[] V6_DST = {(byte) 0xfd, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2};
    /** iphdr's saddr and daddr, and ipv6hdr's, as one byte range each (the pseudo-header's addresses). */
    private static final long V4_ADDRS_AT = Iphdr.saddr$BIT_OFFSET / 8;
    private static final int V4_ADDRS_LEN = (int) ((Iphdr.daddr$BIT_OFFSET + Iphdr.daddr$BIT_WIDTH - Iphdr.saddr$BIT_OFFSET) / 8);
    private static final long V6_ADDRS_AT = Ipv6hdr.saddr$BYTE_OFFSET;
    private static final int V6_ADDRS_LEN = (int) (Ipv6hdr.daddr$BYTE_OFFSET + Ipv6hdr.daddr$LENGTH - Ipv6hdr.saddr$BYTE_OFFSET);

    /** Smallest frame (no FCS) {@code kind} can be built as. */
    public static int minLength(boolean ipv6, boolean tcp) {
        return FrameHeaders.ETH_HLEN + (ipv6 ? IPV6_HLEN : IPV4_HLEN) + (tcp ? TCP_HLEN : UDP_HLEN);
    }

    /**
     * Writes a {@code len}-byte frame at {@code off}: Ethernet II, IPv4 or IPv6, UDP or TCP (ACK|PSH,
     * sequence number {@code seq * 1000}), payload bytes {@code (seq + i) & 0xff}. The source
     * port ({@link #SOURCE_PORTS}) spreads flows over RSS queues. Checksums are left 0 when
     * {@code offload} (the device computes them) and computed otherwise.
     */
    public static void build(MemorySegment s, long off, int len, boolean ipv6, boolean tcp, int seq, int flow, boolean offload) {
        if (len < minLength(ipv6, tcp)) throw new IllegalArgumentException("frame of " + len + " bytes is too short for its headers");
        // One small method per header: with all the setters in one method C2 stopped inlining part way
        // (-XX:+PrintInlining: NodeCountInliningCutoff) and called the rest. With this, the payload's bulk
        // copy and TrafficMix's checksums computed once, `demo --packets 4000000` went from 0.81-0.98 to
        // 1.02-1.30 Mpps (second half 1.17-1.44 to 1.78-2.23; three alternating runs each, 3 December).
        // Setters that together cover every byte of each header (clear() and Writer.write() take a slice per call).
        putMacs(s, off, DST_MAC, SRC_MAC);
        Ethhdr.h_proto$setUnchecked(s, off, ipv6 ? FrameHeaders.ETHERTYPE_IPV6 : FrameHeaders.ETHERTYPE_IPV4);
        long l3 = off + FrameHeaders.ETH_HLEN;
        int proto = tcp ? FrameHeaders.IPPROTO_TCP : FrameHeaders.IPPROTO_UDP;
        long l4 = l3 + (ipv6 ? IPV6_HLEN : IPV4_HLEN);
        int l4len = (int) (off + len - l4);
        if (ipv6) ipv6Header(s, l3, l4len, proto);
        else ipv4Header(s, l3, l4len, proto, seq, offload);
        int sport = sourcePort(flow);
        long payload = tcp ? tcpHeader(s, l4, sport, seq) : udpHeader(s, l4, sport, l4len);
        fillPayload(s, payload, off + len - payload, seq);
        if (!offload) l4Checksum(s, l3, l4, !ipv6, tcp, l4len);
    }

    private static void ipv6Header(MemorySegment s, long l3, int l4len, int proto) {
        Ipv6hdr.version$setUnchecked(s, l3, 6);
        Ipv6hdr.traffic_class$setUnchecked(s, l3, 0);
        Ipv6hdr.flow_label$setUnchecked(s, l3, 0);
        Ipv6hdr.payload_len$setUnchecked(s, l3, l4len);
        Ipv6hdr.nexthdr$setUnchecked(s, l3, proto);
        Ipv6hdr.hop_limit$setUnchecked(s, l3, 64);
        Ipv6hdr.saddr$copyFrom(s, l3, V6_SRC);
        Ipv6hdr.daddr$copyFrom(s, l3, V6_DST);
    }

    private static void ipv4Header(MemorySegment s, long l3, int l4len, int proto, int id, boolean offload) {
        Iphdr.version$setUnchecked(s, l3, 4);
        Iphdr.ihl$setUnchecked(s, l3, IPV4_HLEN / 4);
        Iphdr.tos$setUnchecked(s, l3, 0);
        Iphdr.tot_len$setUnchecked(s, l3, IPV4_HLEN + l4len);
        Iphdr.id$setUnchecked(s, l3, id);
        Iphdr.frag_off$setUnchecked(s, l3, 0);
        Iphdr.frag_df$set(s, l3, true);
        Iphdr.ttl$setUnchecked(s, l3, 64);
        Iphdr.protocol$setUnchecked(s, l3, proto);
        Iphdr.saddr$set(s, l3, 0x0a00_0001);
        Iphdr.daddr$set(s, l3, 0x0a00_0002);
        Iphdr.check$setUnchecked(s, l3, 0);
        if (!offload) Iphdr.check$setUnchecked(s, l3, ipv4HeaderChecksum(s, l3));
    }

    /** The TCP header (ACK|PSH, sequence number {@code seq * 1000}); returns where its payload starts. */
    private static long tcpHeader(MemorySegment s, long l4, int sport, int seq) {
        Tcphdr.source$setUnchecked(s, l4, sport);
        Tcphdr.dest$setUnchecked(s, l4, 9000);
        Tcphdr.seq$set(s, l4, seq * 1000);
        Tcphdr.ack_seq$set(s, l4, 1);
        Tcphdr.doff$setUnchecked(s, l4, TCP_HLEN / 4);
        Tcphdr.res1$setUnchecked(s, l4, 0);
        Tcphdr.flag_byte$setUnchecked(s, l4, 0);
        Tcphdr.ack$set(s, l4, true);
        Tcphdr.psh$set(s, l4, true);
        Tcphdr.window$setUnchecked(s, l4, 0xffff);
        Tcphdr.check$setUnchecked(s, l4, 0);
        Tcphdr.urg_ptr$setUnchecked(s, l4, 0);
        return l4 + TCP_HLEN;
    }

    /** The UDP header; returns where its payload starts. */
    private static long udpHeader(MemorySegment s, long l4, int sport, int l4len) {
        Udphdr.source$setUnchecked(s, l4, sport);
        Udphdr.dest$setUnchecked(s, l4, 9000);
        Udphdr.len$setUnchecked(s, l4, l4len);
        Udphdr.check$setUnchecked(s, l4, 0);
        return l4 + UDP_HLEN;
    }

    /** 0, 1, ..., 255, 0, 1, ...: payload byte i of a frame with seq is PAYLOAD_BYTES[(seq & 0xff) + i]. */
    private static final int PAYLOAD_CHUNK = 4096;
    private static final MemorySegment PAYLOAD_BYTES;
    static {
        byte[] b = new byte[256 + PAYLOAD_CHUNK];
        for (int i = 0; i < b.length; i++) b[i] = (byte) i;
        PAYLOAD_BYTES = MemorySegment.ofArray(b);
    }

    /** Payload bytes {@code (seq + i) & 0xff}, copied in chunks (a multiple of 256, so the pattern goes on). */
    private static void fillPayload(MemorySegment s, long at, long bytes, int seq) {
        long from = seq & 0xff;
        for (long done = 0; done < bytes; done += PAYLOAD_CHUNK) {
            MemorySegment.copy(PAYLOAD_BYTES, from, s, at + done, Math.min(PAYLOAD_CHUNK, bytes - done));
        }
    }

    /** Destination and source MAC (48-bit numbers) into the ethhdr at {@code off}. */
    static void putMacs(MemorySegment s, long off, long dst, long src) {
        Ethhdr.dest_mac$set(s, off, dst);
        Ethhdr.source_mac$set(s, off, src);
    }

    /** Ones' complement sum of {@code len} bytes (not folded, not inverted): a byte stream, whatever fields it covers. */
    static long sum(MemorySegment s, long off, int len) {
        long acc = 0;
        int i = 0;
        // 8 bytes a load: 2^32 and 2^16 are both 1 modulo 0xffff, so the two 32-bit halves of a big-endian
        // word add up to what its four 16-bit words do once folded (the soft HCA's InternetChecksum.add does the
        // same on its side). In a 4-million-frame demo this took the queue thread's JFR samples here from
        // 48 to 31 (of 162 and 120); the demo's rate did not move beyond its run-to-run spread.
        for (; i + 7 < len; i += 8) {
            long w = s.get(BE64, off + i);
            acc += (w >>> 32) + (w & 0xffff_ffffL);
        }
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
        long acc = sum(s, l3, Iphdr.ihl(s, l3) * 4) - Iphdr.check(s, l3);
        return ~fold(acc) & 0xffff;
    }

    /** Computes and stores the TCP/UDP checksum (with the IPv4/IPv6 pseudo-header) of the frame at {@code off}. */
    public static void setL4Checksum(MemorySegment s, long off, int len) {
        int l3 = FrameHeaders.l3Offset(s, off, len);
        int l4 = FrameHeaders.l4Offset(s, off, len);
        int proto = FrameHeaders.ipProtocol(s, off, len);
        if (l4 < 0 || (proto != FrameHeaders.IPPROTO_TCP && proto != FrameHeaders.IPPROTO_UDP)) return;
        boolean v4 = FrameHeaders.etherType(s, off, len) == FrameHeaders.ETHERTYPE_IPV4;
        int l4len = v4 ? Iphdr.tot_len(s, off + l3) - (l4 - l3) : Ipv6hdr.payload_len(s, off + l3);
        l4Checksum(s, off + l3, off + l4, v4, proto == FrameHeaders.IPPROTO_TCP, l4len);
    }

    /**
     * The IPv4 header checksum (IPv4) and the TCP or UDP checksum of a {@code len}-byte frame as
     * {@link #build} lays it out (no VLAN tag, no IP options): setIpv4Checksum and setL4Checksum
     * without parsing the headers again.
     */
    static void setChecksums(MemorySegment s, long off, int len, boolean ipv6, boolean tcp) {
        long l3 = off + FrameHeaders.ETH_HLEN;
        long l4 = l3 + (ipv6 ? IPV6_HLEN : IPV4_HLEN);
        if (!ipv6) {
            Iphdr.check$setUnchecked(s, l3, 0);
            Iphdr.check$setUnchecked(s, l3, ipv4HeaderChecksum(s, l3));
        }
        l4Checksum(s, l3, l4, !ipv6, tcp, (int) (off + len - l4));
    }

    /** The TCP or UDP checksum of the {@code l4len} bytes at {@code l4} under the IP header at {@code l3}. */
    private static void l4Checksum(MemorySegment s, long l3, long l4, boolean v4, boolean tcp, int l4len) {
        if (tcp) Tcphdr.check$setUnchecked(s, l4, 0);
        else Udphdr.check$setUnchecked(s, l4, 0);
        long acc = v4 ? sum(s, l3 + V4_ADDRS_AT, V4_ADDRS_LEN) : sum(s, l3 + V6_ADDRS_AT, V6_ADDRS_LEN);
        acc += (tcp ? FrameHeaders.IPPROTO_TCP : FrameHeaders.IPPROTO_UDP) + l4len;
        acc += sum(s, l4, l4len);
        int c = ~fold(acc) & 0xffff;
        if (tcp) {
            Tcphdr.check$setUnchecked(s, l4, c);
        } else {
            Udphdr.check$setUnchecked(s, l4, c == 0 ? 0xffff : c);
        }
    }

    /** Computes and stores the IPv4 header checksum (nothing for IPv6). */
    public static void setIpv4Checksum(MemorySegment s, long off, int len) {
        if (FrameHeaders.etherType(s, off, len) != FrameHeaders.ETHERTYPE_IPV4) return;
        long l3 = off + FrameHeaders.l3Offset(s, off, len);
        Iphdr.check$setUnchecked(s, l3, 0);
        Iphdr.check$setUnchecked(s, l3, ipv4HeaderChecksum(s, l3));
    }
}

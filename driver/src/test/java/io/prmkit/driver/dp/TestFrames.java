package io.prmkit.driver.dp;

import io.prmkit.net.Ethhdr;
import io.prmkit.net.Iphdr;
import io.prmkit.net.Ipv6hdr;
import io.prmkit.net.Tcphdr;
import io.prmkit.net.Udphdr;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * Frames for the driver's own tests (the demo's traffic, with checksums and flows, lives in the demo
 * module): Ethernet II to 02:00:00:00:00:02, IPv4 or IPv6, UDP or TCP, payload bytes {@code seq + i};
 * checksums 0 (the tests compare bytes, not sums). Header fields through the net spec's accessors.
 */
public final class TestFrames {
    private TestFrames() {}

    /** Writes a {@code len}-byte frame at {@code off} of {@code s}. */
    public static void build(MemorySegment s, long off, int len, boolean ipv6, boolean tcp, int seq) {
        int l3len = (int) (ipv6 ? Ipv6hdr.SIZE : Iphdr.SIZE);
        int l4hlen = (int) (tcp ? Tcphdr.SIZE : Udphdr.SIZE);
        if (len < FrameHeaders.ETH_HLEN + l3len + l4hlen) throw new IllegalArgumentException("frame of " + len + " bytes is too short for its headers");
        s.asSlice(off, len).fill((byte) 0);
        Ethhdr.h_dest$copyFrom(s, off, new byte[] {2, 0, 0, 0, 0, 2});
        Ethhdr.h_source$copyFrom(s, off, new byte[] {2, 0, 0, 0, 0, 1});
        Ethhdr.h_proto$set(s, off, ipv6 ? FrameHeaders.ETHERTYPE_IPV6 : FrameHeaders.ETHERTYPE_IPV4);
        long l3 = off + FrameHeaders.ETH_HLEN;
        long l4 = l3 + l3len;
        int l4len = (int) (off + len - l4);
        int proto = tcp ? FrameHeaders.IPPROTO_TCP : FrameHeaders.IPPROTO_UDP;
        if (ipv6) {
            Ipv6hdr.version$set(s, l3, 6);
            Ipv6hdr.payload_len$set(s, l3, l4len);
            Ipv6hdr.nexthdr$set(s, l3, proto);
            Ipv6hdr.hop_limit$set(s, l3, 64);
        } else {
            Iphdr.version$set(s, l3, 4);
            Iphdr.ihl$set(s, l3, l3len / 4);
            Iphdr.tot_len$set(s, l3, l3len + l4len);
            Iphdr.id$set(s, l3, seq & 0xffff);
            Iphdr.ttl$set(s, l3, 64);
            Iphdr.protocol$set(s, l3, proto);
            Iphdr.saddr$set(s, l3, 0x0a00_0001);
            Iphdr.daddr$set(s, l3, 0x0a00_0002);
        }
        if (tcp) {
            Tcphdr.source$set(s, l4, 0xf000 + (seq & 0xfff));
            Tcphdr.dest$set(s, l4, 9000);
            Tcphdr.doff$set(s, l4, l4hlen / 4);
            Tcphdr.ack$set(s, l4, true);
        } else {
            Udphdr.source$set(s, l4, 0xf000 + (seq & 0xfff));
            Udphdr.dest$set(s, l4, 9000);
            Udphdr.len$set(s, l4, l4len);
        }
        for (long p = l4 + l4hlen, i = 0; p < off + len; p++, i++) s.set(ValueLayout.JAVA_BYTE, p, (byte) (seq + i));
    }
}

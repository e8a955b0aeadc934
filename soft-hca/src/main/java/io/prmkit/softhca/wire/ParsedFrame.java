package io.prmkit.softhca.wire;

import static io.prmkit.softhca.wire.Ethernet.*;

import io.prmkit.net.Ethhdr;
import io.prmkit.net.Iphdr;
import io.prmkit.net.Ipv6hdr;
import io.prmkit.net.Tcphdr;
import io.prmkit.net.Udphdr;
import io.prmkit.net.VlanHdr;
import java.lang.foreign.MemorySegment;

/**
 * What the device's parser finds in an Ethernet frame: VLAN tags, L3 and L4 headers and where they
 * start, and whether their checksums hold. One instance is reused for every frame (no allocation per
 * packet); {@link #parse} overwrites every field. Every header field is read through the net spec's
 * generated accessors ({@code io.prmkit.net}: ethhdr, vlan_hdr, iphdr, ipv6hdr, tcphdr, udphdr).
 */
public final class ParsedFrame {
    public enum L3 { NONE, IPV4, IPV6 }
    public enum L4 { NONE, TCP, UDP, OTHER }

    public int length;
    /** Number of VLAN tags (0, 1 or 2) and the first (outer) one. */
    public int vlanCount;
    public int outerTpid;
    public int outerTci;
    /** Ethertype after the VLAN tags. */
    public int ethertype;
    public L3 l3 = L3.NONE;
    public int l3Offset;
    public int l3HeaderLength;
    /** IPv4 total length or IPv6 payload length + 40, as the header says. */
    public int ipTotalLength;
    public int ipProtocol;
    public boolean ipOptions;
    public boolean ipFragment;
    public int ipDscp;
    public int ttl;
    public L4 l4 = L4.NONE;
    public int l4Offset;
    public int l4HeaderLength;
    public int srcPort;
    public int dstPort;
    public int tcpFlags;
    /** Bytes after the L4 (or L3, or L2) headers. */
    public int payloadLength;
    /** The IPv4 header checksum verifies (false for IPv6, which has none). */
    public boolean l3ChecksumOk;
    /** The TCP/UDP checksum verifies (a UDP checksum of 0 over IPv4 counts as good). */
    public boolean l4ChecksumOk;
    /** The headers are consistent with the frame length (a truncated header makes this false). */
    public boolean wellFormed;

    // What a verifying parse summed from l3Offset on: [l3Offset, summedTo) adds up to partialSum (-1: nothing).
    private int summedTo;
    private long partialSum;

    /**
     * The ones-complement sum (folded, not complemented) of the frame's bytes from the L3 header to its
     * end, as an RX CQE's {@code check_sum} carries it; 0 when there is no L3 header. After a verifying
     * {@link #parse} of the same bytes it adds only what the checksum checks did not already sum.
     */
    public int l3OnwardSum(MemorySegment s, long off) {
        if (l3 == L3.NONE) return 0;
        if (summedTo < 0 || ((summedTo - l3Offset) & 1) != 0) {
            return InternetChecksum.fold(InternetChecksum.add(s, off + l3Offset, length - l3Offset, 0)); // an odd split would pair bytes wrongly
        }
        return InternetChecksum.fold(InternetChecksum.add(s, off + summedTo, length - summedTo, partialSum));
    }

    /**
     * Parses {@code len} bytes of {@code s} at {@code off}, computing checksum checks when {@code verify}.
     * Every field is worked out in a local and stored once at the end: the device parses every frame it
     * receives, and storing each field twice (cleared, then found) cost it about as much as the reading.
     */
    public ParsedFrame parse(MemorySegment s, long off, int len, boolean verify) {
        int vlans = 0, tpid = 0, tci = 0, type = 0, l3At = 0, l3Len = 0, ipLen = 0, proto = 0, dscp = 0, hops = 0;
        int l4At = 0, l4Len = 0, sport = 0, dport = 0, flags = 0, payload = 0, summed = -1;
        boolean options = false, fragment = false, l3Ok = false, l4Ok = false, ok = false;
        long sum = 0;
        L3 l3v = L3.NONE;
        L4 l4v = L4.NONE;
        if (len >= ETH_HLEN) {
            type = Ethhdr.h_proto(s, off);
            int p = ETH_HLEN; // where the next tag or the L3 header starts
            while ((type == TYPE_VLAN || type == TYPE_QINQ) && vlans < 2 && p + VLAN_HLEN <= len) {
                if (vlans == 0) {
                    tpid = type;
                    tci = VlanHdr.h_vlan_TCI(s, off + p);
                }
                vlans++;
                type = VlanHdr.h_vlan_encapsulated_proto(s, off + p);
                p += VLAN_HLEN;
            }
            l3At = p;
            payload = len - p;
            ok = true;
            boolean ipv6 = false;
            boolean toL4 = false;
            int end = 0;
            int q = 0; // where the L4 header starts
            long h = off + p;
            if (type == TYPE_IPV4) {
                int ihl = p + IPV4_HLEN > len ? 0 : Iphdr.ihl(s, h) * 4;
                if (ihl == 0 || Iphdr.version(s, h) != 4 || ihl < IPV4_HLEN || p + ihl > len) {
                    ok = false;
                } else {
                    l3v = L3.IPV4;
                    l3Len = ihl;
                    options = ihl > IPV4_HLEN;
                    dscp = Iphdr.dscp(s, h);
                    ipLen = Iphdr.tot_len(s, h);
                    int fragOffset = Iphdr.frag_offset(s, h);
                    fragment = Iphdr.frag_mf(s, h) || fragOffset != 0;
                    hops = Iphdr.ttl(s, h);
                    proto = Iphdr.protocol(s, h);
                    if (verify) {
                        // a header without options as a constant length: C2 unrolls it to two 8-byte and one 4-byte read
                        sum = ihl == IPV4_HLEN ? InternetChecksum.add(s, h, IPV4_HLEN, 0) : InternetChecksum.add(s, h, ihl, 0);
                        summed = p + ihl;
                        l3Ok = InternetChecksum.fold(sum) == 0xffff;
                    }
                    end = Math.min(len, p + Math.max(ipLen, ihl));
                    if (ipLen < ihl || p + ipLen > len) ok = false;
                    payload = end - p - ihl;
                    toL4 = !fragment || fragOffset == 0;
                    q = p + ihl;
                }
            } else if (type == TYPE_IPV6) {
                if (p + IPV6_HLEN > len || Ipv6hdr.version(s, h) != 6) {
                    ok = false;
                } else {
                    l3v = L3.IPV6;
                    l3Len = IPV6_HLEN;
                    dscp = Ipv6hdr.traffic_class(s, h) >>> 2; // the traffic class's high 6 bits, as in IPv4's TOS
                    ipLen = Ipv6hdr.payload_len(s, h) + IPV6_HLEN;
                    proto = Ipv6hdr.nexthdr(s, h);
                    hops = Ipv6hdr.hop_limit(s, h);
                    if (p + ipLen > len) ok = false;
                    end = Math.min(len, p + ipLen);
                    payload = end - p - IPV6_HLEN;
                    if (verify) { // no header checksum, but the sum from L3 on (l3OnwardSum) starts here
                        sum = InternetChecksum.add(s, h, IPV6_HLEN, 0);
                        summed = p + IPV6_HLEN;
                    }
                    ipv6 = true;
                    toL4 = true;
                    q = p + IPV6_HLEN;
                }
            }
            if (toL4) {
                long h4 = off + q;
                boolean found = false;
                if (proto == PROTO_TCP) {
                    int doff = q + TCP_HLEN > end ? 0 : Tcphdr.doff(s, h4) * 4;
                    if (doff < TCP_HLEN || q + doff > end) {
                        ok = false;
                    } else {
                        l4v = L4.TCP;
                        l4Len = doff;
                        // the eight flags plus the old NS bit (RFC 3540), the low bit of res1, as bit 8
                        flags = (Tcphdr.res1(s, h4) & 1) << 8 | Tcphdr.flag_byte(s, h4);
                        sport = Tcphdr.source(s, h4);
                        dport = Tcphdr.dest(s, h4);
                        found = true;
                    }
                } else if (proto == PROTO_UDP) {
                    if (q + UDP_HLEN > end) {
                        ok = false;
                    } else {
                        l4v = L4.UDP;
                        l4Len = UDP_HLEN;
                        sport = Udphdr.source(s, h4);
                        dport = Udphdr.dest(s, h4);
                        found = true;
                    }
                } else {
                    l4v = L4.OTHER;
                    l4At = q;
                }
                if (found) {
                    l4At = q;
                    payload = end - q - l4Len;
                    if (verify) {
                        int bytes = end - q;
                        if (l4v == L4.UDP && !ipv6 && Udphdr.check(s, h4) == 0) {
                            l4Ok = true; // no checksum over IPv4
                        } else {
                            long data = InternetChecksum.add(s, h4, bytes, 0);
                            l4Ok = InternetChecksum.fold(InternetChecksum.pseudoHeader(s, h, ipv6, proto, bytes) + data) == 0xffff;
                            if (summed == q) { // the L3 header's sum is there: extend it over the L4 bytes
                                sum += data;
                                summed = q + bytes;
                            }
                        }
                    }
                }
            }
            if (fragment) l4Ok = false;
        }
        length = len;
        vlanCount = vlans;
        outerTpid = tpid;
        outerTci = tci;
        ethertype = type;
        l3 = l3v;
        l3Offset = l3At;
        l3HeaderLength = l3Len;
        ipTotalLength = ipLen;
        ipProtocol = proto;
        ipOptions = options;
        ipFragment = fragment;
        ipDscp = dscp;
        ttl = hops;
        l4 = l4v;
        l4Offset = l4At;
        l4HeaderLength = l4Len;
        srcPort = sport;
        dstPort = dport;
        tcpFlags = flags;
        payloadLength = payload;
        l3ChecksumOk = l3Ok;
        l4ChecksumOk = l4Ok;
        wellFormed = ok;
        summedTo = summed;
        partialSum = sum;
        return this;
    }

    /**
     * Where the L3 header of the {@code len}-byte frame at {@code off} starts: after the Ethernet header
     * and up to two VLAN tags, as {@link #parse} sets {@link #l3Offset} (0 for a runt), without
     * touching a parser's fields. For a sender that needs only that (inline headers checked at L2).
     */
    public static int l2Length(MemorySegment s, long off, int len) {
        if (len < ETH_HLEN) return 0;
        int type = Ethhdr.h_proto(s, off);
        int p = ETH_HLEN;
        for (int tags = 0; (type == TYPE_VLAN || type == TYPE_QINQ) && tags < 2 && p + VLAN_HLEN <= len; tags++) {
            type = VlanHdr.h_vlan_encapsulated_proto(s, off + p);
            p += VLAN_HLEN;
        }
        return p;
    }

    /** Destination MAC as a 48-bit number. */
    public static long dmac(MemorySegment s, long off) {
        return Ethhdr.dest_mac(s, off);
    }

    /** Source MAC as a 48-bit number. */
    public static long smac(MemorySegment s, long off) {
        return Ethhdr.source_mac(s, off);
    }

    public static boolean isMulticast(long mac) {
        return (mac & 0x0100_0000_0000L) != 0;
    }

    public static boolean isBroadcast(long mac) {
        return mac == 0xffff_ffff_ffffL;
    }
}

package io.prmkit.softhca.wire;

import static io.prmkit.softhca.wire.Ethernet.*;

import io.prmkit.net.Ethhdr;
import io.prmkit.net.Iphdr;
import io.prmkit.net.Ipv6hdr;
import io.prmkit.net.Tcphdr;
import io.prmkit.net.Udphdr;
import io.prmkit.net.VlanHdr;
import java.lang.foreign.MemorySegment;

/** The parser as it was before it stored each field once (30 November 2026): the reference FrameWorkTest compares ParsedFrame.parse with. */
final class ParsedFrameReference {
    
    public int length;
    /** Number of VLAN tags (0, 1 or 2) and the first (outer) one. */
    public int vlanCount;
    public int outerTpid;
    public int outerTci;
    /** Ethertype after the VLAN tags. */
    public int ethertype;
    public ParsedFrame.L3 l3 = ParsedFrame.L3.NONE;
    public int l3Offset;
    public int l3HeaderLength;
    /** IPv4 total length or IPv6 payload length + 40, as the header says. */
    public int ipTotalLength;
    public int ipProtocol;
    public boolean ipOptions;
    public boolean ipFragment;
    public int ipDscp;
    public int ttl;
    public ParsedFrame.L4 l4 = ParsedFrame.L4.NONE;
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
        if (l3 == ParsedFrame.L3.NONE) return 0;
        if (summedTo < 0 || ((summedTo - l3Offset) & 1) != 0) {
            return InternetChecksum.fold(InternetChecksum.add(s, off + l3Offset, length - l3Offset, 0)); // an odd split would pair bytes wrongly
        }
        return InternetChecksum.fold(InternetChecksum.add(s, off + summedTo, length - summedTo, partialSum));
    }

    /** Parses {@code len} bytes of {@code s} at {@code off}, computing checksum checks when {@code verify}. */
    ParsedFrameReference parse(MemorySegment s, long off, int len, boolean verify) {
        int p = l2(s, off, len);
        if (p < 0) return this;
        if (ethertype == TYPE_IPV4) parseIpv4(s, off, len, p, verify);
        else if (ethertype == TYPE_IPV6) parseIpv6(s, off, len, p, verify);
        return this;
    }

    /**
     * Parses only the Ethernet header and VLAN tags (up to {@link #ethertype} and {@link #l3Offset});
     * the L3 and L4 fields read as absent. For a sender that needs no more (no checksum offload, no
     * LSO, inline headers checked at L2 at most).
     */
    ParsedFrameReference parseL2(MemorySegment s, long off, int len) {
        l2(s, off, len);
        return this;
    }

    /** Resets every field and walks the Ethernet header and VLAN tags; where L3 starts, or -1 for a runt. */
    private int l2(MemorySegment s, long off, int len) {
        length = len;
        vlanCount = 0;
        outerTpid = 0;
        outerTci = 0;
        ethertype = 0;
        l3 = ParsedFrame.L3.NONE;
        l3Offset = 0;
        l3HeaderLength = 0;
        ipTotalLength = 0;
        ipProtocol = 0;
        ipOptions = false;
        ipFragment = false;
        ipDscp = 0;
        ttl = 0;
        l4 = ParsedFrame.L4.NONE;
        l4Offset = 0;
        l4HeaderLength = 0;
        srcPort = 0;
        dstPort = 0;
        tcpFlags = 0;
        payloadLength = 0;
        l3ChecksumOk = false;
        l4ChecksumOk = false;
        wellFormed = false;
        summedTo = -1;
        partialSum = 0;
        if (len < ETH_HLEN) return -1;
        int type = Ethhdr.h_proto(s, off);
        int p = ETH_HLEN; // where the next tag or the L3 header starts
        while ((type == TYPE_VLAN || type == TYPE_QINQ) && vlanCount < 2 && p + VLAN_HLEN <= len) {
            if (vlanCount == 0) {
                outerTpid = type;
                outerTci = VlanHdr.h_vlan_TCI(s, off + p);
            }
            vlanCount++;
            type = VlanHdr.h_vlan_encapsulated_proto(s, off + p);
            p += VLAN_HLEN;
        }
        ethertype = type;
        l3Offset = p;
        payloadLength = len - p;
        wellFormed = true;
        return p;
    }

    private void parseIpv4(MemorySegment s, long off, int len, int p, boolean verify) {
        if (p + IPV4_HLEN > len) { wellFormed = false; return; }
        long h = off + p;
        int ihl = Iphdr.ihl(s, h) * 4;
        if (Iphdr.version(s, h) != 4 || ihl < IPV4_HLEN || p + ihl > len) { wellFormed = false; return; }
        l3 = ParsedFrame.L3.IPV4;
        l3HeaderLength = ihl;
        ipOptions = ihl > IPV4_HLEN;
        ipDscp = Iphdr.dscp(s, h);
        ipTotalLength = Iphdr.tot_len(s, h);
        int fragOffset = Iphdr.frag_offset(s, h);
        ipFragment = Iphdr.frag_mf(s, h) || fragOffset != 0;
        ttl = Iphdr.ttl(s, h);
        ipProtocol = Iphdr.protocol(s, h);
        if (verify) {
            partialSum = InternetChecksum.add(s, h, ihl, 0);
            summedTo = p + ihl;
            l3ChecksumOk = InternetChecksum.fold(partialSum) == 0xffff;
        }
        int end = Math.min(len, p + Math.max(ipTotalLength, ihl));
        if (ipTotalLength < ihl || p + ipTotalLength > len) wellFormed = false;
        payloadLength = end - p - ihl;
        if (!ipFragment || fragOffset == 0) parseL4(s, off, p, p + ihl, end, false, verify);
        if (ipFragment) l4ChecksumOk = false;
    }

    private void parseIpv6(MemorySegment s, long off, int len, int p, boolean verify) {
        long h = off + p;
        if (p + IPV6_HLEN > len || Ipv6hdr.version(s, h) != 6) { wellFormed = false; return; }
        l3 = ParsedFrame.L3.IPV6;
        l3HeaderLength = IPV6_HLEN;
        l3ChecksumOk = false;
        ipDscp = Ipv6hdr.traffic_class(s, h) >>> 2; // the traffic class's high 6 bits, as in IPv4's TOS
        ipTotalLength = Ipv6hdr.payload_len(s, h) + IPV6_HLEN;
        ipProtocol = Ipv6hdr.nexthdr(s, h);
        ttl = Ipv6hdr.hop_limit(s, h);
        if (p + ipTotalLength > len) wellFormed = false;
        int end = Math.min(len, p + ipTotalLength);
        payloadLength = end - p - IPV6_HLEN;
        if (verify) { // no header checksum, but the sum from L3 on (l3OnwardSum) starts here
            partialSum = InternetChecksum.add(s, h, IPV6_HLEN, 0);
            summedTo = p + IPV6_HLEN;
        }
        parseL4(s, off, p, p + IPV6_HLEN, end, true, verify);
    }

    private void parseL4(MemorySegment s, long off, int l3p, int p, int end, boolean ipv6, boolean verify) {
        long h = off + p;
        if (ipProtocol == PROTO_TCP) {
            if (p + TCP_HLEN > end) { wellFormed = false; return; }
            int doff = Tcphdr.doff(s, h) * 4;
            if (doff < TCP_HLEN || p + doff > end) { wellFormed = false; return; }
            l4 = ParsedFrame.L4.TCP;
            l4HeaderLength = doff;
            // the eight flags plus the old NS bit (RFC 3540), the low bit of res1, as bit 8
            tcpFlags = (Tcphdr.res1(s, h) & 1) << 8 | Tcphdr.flag_byte(s, h);
            srcPort = Tcphdr.source(s, h);
            dstPort = Tcphdr.dest(s, h);
        } else if (ipProtocol == PROTO_UDP) {
            if (p + UDP_HLEN > end) { wellFormed = false; return; }
            l4 = ParsedFrame.L4.UDP;
            l4HeaderLength = UDP_HLEN;
            srcPort = Udphdr.source(s, h);
            dstPort = Udphdr.dest(s, h);
        } else {
            l4 = ParsedFrame.L4.OTHER;
            l4Offset = p;
            return;
        }
        l4Offset = p;
        payloadLength = end - p - l4HeaderLength;
        if (verify) {
            int l4Len = end - p;
            if (l4 == ParsedFrame.L4.UDP && !ipv6 && Udphdr.check(s, h) == 0) {
                l4ChecksumOk = true; // no checksum over IPv4
            } else {
                long data = InternetChecksum.add(s, h, l4Len, 0);
                l4ChecksumOk = InternetChecksum.fold(InternetChecksum.pseudoHeader(s, off + l3p, ipv6, ipProtocol, l4Len) + data) == 0xffff;
                if (summedTo == p) { // the L3 header's sum is there: extend it over the L4 bytes
                    partialSum += data;
                    summedTo = p + l4Len;
                }
            }
        }
    }

}

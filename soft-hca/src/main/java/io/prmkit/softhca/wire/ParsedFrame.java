package io.prmkit.softhca.wire;

import static io.prmkit.softhca.wire.Checksum.BE16;
import static io.prmkit.softhca.wire.Checksum.BE32;
import static io.prmkit.softhca.wire.Ethernet.*;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * What the device's parser finds in an Ethernet frame: VLAN tags, L3 and L4 headers and where they
 * start, and whether their checksums hold. One instance is reused for every frame (no allocation per
 * packet); {@link #parse} overwrites every field.
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

    /** Parses {@code len} bytes of {@code s} at {@code off}, computing checksum checks when {@code verify}. */
    public ParsedFrame parse(MemorySegment s, long off, int len, boolean verify) {
        length = len;
        vlanCount = 0;
        outerTpid = 0;
        outerTci = 0;
        ethertype = 0;
        l3 = L3.NONE;
        l3Offset = 0;
        l3HeaderLength = 0;
        ipTotalLength = 0;
        ipProtocol = 0;
        ipOptions = false;
        ipFragment = false;
        ipDscp = 0;
        ttl = 0;
        l4 = L4.NONE;
        l4Offset = 0;
        l4HeaderLength = 0;
        srcPort = 0;
        dstPort = 0;
        tcpFlags = 0;
        payloadLength = 0;
        l3ChecksumOk = false;
        l4ChecksumOk = false;
        wellFormed = false;
        if (len < ETH_HLEN) return this;
        int p = 12;
        int type = s.get(BE16, off + p) & 0xffff;
        while ((type == TYPE_VLAN || type == TYPE_QINQ) && vlanCount < 2 && p + 8 <= len) {
            if (vlanCount == 0) {
                outerTpid = type;
                outerTci = s.get(BE16, off + p + 2) & 0xffff;
            }
            vlanCount++;
            p += 4;
            type = s.get(BE16, off + p) & 0xffff;
        }
        ethertype = type;
        p += 2;
        l3Offset = p;
        payloadLength = len - p;
        wellFormed = true;
        if (type == TYPE_IPV4) parseIpv4(s, off, len, p, verify);
        else if (type == TYPE_IPV6) parseIpv6(s, off, len, p, verify);
        return this;
    }

    private void parseIpv4(MemorySegment s, long off, int len, int p, boolean verify) {
        if (p + 20 > len) { wellFormed = false; return; }
        int vihl = s.get(ValueLayout.JAVA_BYTE, off + p) & 0xff;
        int ihl = (vihl & 0xf) * 4;
        if ((vihl >>> 4) != 4 || ihl < 20 || p + ihl > len) { wellFormed = false; return; }
        l3 = L3.IPV4;
        l3HeaderLength = ihl;
        ipOptions = ihl > 20;
        ipDscp = (s.get(ValueLayout.JAVA_BYTE, off + p + 1) & 0xff) >>> 2;
        ipTotalLength = s.get(BE16, off + p + 2) & 0xffff;
        int frag = s.get(BE16, off + p + 6) & 0xffff;
        ipFragment = (frag & 0x3fff) != 0; // MF or an offset
        ttl = s.get(ValueLayout.JAVA_BYTE, off + p + 8) & 0xff;
        ipProtocol = s.get(ValueLayout.JAVA_BYTE, off + p + 9) & 0xff;
        if (verify) l3ChecksumOk = Checksum.fold(Checksum.add(s, off + p, ihl, 0)) == 0xffff;
        int end = Math.min(len, p + Math.max(ipTotalLength, ihl));
        if (ipTotalLength < ihl || p + ipTotalLength > len) wellFormed = false;
        payloadLength = end - p - ihl;
        if (!ipFragment || (frag & 0x1fff) == 0) parseL4(s, off, p, p + ihl, end, false, verify);
        if (ipFragment) l4ChecksumOk = false;
    }

    private void parseIpv6(MemorySegment s, long off, int len, int p, boolean verify) {
        if (p + 40 > len || ((s.get(ValueLayout.JAVA_BYTE, off + p) & 0xff) >>> 4) != 6) { wellFormed = false; return; }
        l3 = L3.IPV6;
        l3HeaderLength = 40;
        l3ChecksumOk = false;
        ipDscp = (s.get(BE32, off + p) >>> 22) & 0x3f;
        int plen = s.get(BE16, off + p + 4) & 0xffff;
        ipTotalLength = plen + 40;
        ipProtocol = s.get(ValueLayout.JAVA_BYTE, off + p + 6) & 0xff;
        ttl = s.get(ValueLayout.JAVA_BYTE, off + p + 7) & 0xff;
        if (p + ipTotalLength > len) wellFormed = false;
        int end = Math.min(len, p + ipTotalLength);
        payloadLength = end - p - 40;
        parseL4(s, off, p, p + 40, end, true, verify);
    }

    private void parseL4(MemorySegment s, long off, int l3p, int p, int end, boolean ipv6, boolean verify) {
        if (ipProtocol == PROTO_TCP) {
            if (p + 20 > end) { wellFormed = false; return; }
            int doff = ((s.get(ValueLayout.JAVA_BYTE, off + p + 12) & 0xff) >>> 4) * 4;
            if (doff < 20 || p + doff > end) { wellFormed = false; return; }
            l4 = L4.TCP;
            l4HeaderLength = doff;
            tcpFlags = s.get(BE16, off + p + 12) & 0x1ff;
        } else if (ipProtocol == PROTO_UDP) {
            if (p + 8 > end) { wellFormed = false; return; }
            l4 = L4.UDP;
            l4HeaderLength = 8;
        } else {
            l4 = L4.OTHER;
            l4Offset = p;
            return;
        }
        l4Offset = p;
        srcPort = s.get(BE16, off + p) & 0xffff;
        dstPort = s.get(BE16, off + p + 2) & 0xffff;
        payloadLength = end - p - l4HeaderLength;
        if (verify) {
            int l4Len = end - p;
            if (l4 == L4.UDP && !ipv6 && (s.get(BE16, off + p + 6) & 0xffff) == 0) {
                l4ChecksumOk = true; // no checksum over IPv4
            } else {
                long sum = Checksum.pseudoHeader(s, off + l3p, ipv6, ipProtocol, l4Len);
                l4ChecksumOk = Checksum.fold(Checksum.add(s, off + p, l4Len, sum)) == 0xffff;
            }
        }
    }

    /** Destination MAC as a 48-bit number. */
    public static long dmac(MemorySegment s, long off) {
        return ((long) (s.get(BE32, off) ) & 0xffffffffL) << 16 | (s.get(BE16, off + 4) & 0xffff);
    }

    public static long smac(MemorySegment s, long off) {
        return ((long) (s.get(BE16, off + 6) & 0xffff)) << 32 | (s.get(BE32, off + 8) & 0xffffffffL);
    }

    public static boolean isMulticast(long mac) {
        return (mac & 0x0100_0000_0000L) != 0;
    }

    public static boolean isBroadcast(long mac) {
        return mac == 0xffff_ffff_ffffL;
    }
}

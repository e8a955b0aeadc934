package io.prmkit.driver.dp;

import io.prmkit.mlx5.InlineMode;
import io.prmkit.net.Ethhdr;
import io.prmkit.net.Iphdr;
import io.prmkit.net.Ipv6hdr;
import io.prmkit.net.Tcphdr;
import io.prmkit.net.Udphdr;
import io.prmkit.net.VlanHdr;
import java.lang.foreign.MemorySegment;

/**
 * Where the L2, L3 and L4 headers of an Ethernet frame end, read from the frame itself: what the
 * send path needs to honour {@code min_wqe_inline_mode} and to inline the headers of an LSO send.
 * Ethernet, IPv4 and IPv6 (no extension headers), TCP and UDP; no allocation. Header fields are read
 * with the net spec's generated accessors ({@code io.prmkit.net}), sizes are their {@code SIZE}s.
 */
public final class FrameHeaders {
    private FrameHeaders() {}

    public static final int ETH_HLEN = (int) Ethhdr.SIZE;
    /** The two MAC addresses: where h_proto (or an inserted tag's TPID) starts. */
    public static final int ETH_ADDRS_LEN = (int) (Ethhdr.h_proto$BIT_OFFSET / 8);
    public static final int VLAN_HLEN = (int) VlanHdr.SIZE;
    /** Linux's L2 inline minimum (MLX5E_MIN_INLINE): a MAC header with room for one VLAN tag. */
    public static final int MIN_L2_INLINE = ETH_HLEN + VLAN_HLEN;
    public static final int ETHERTYPE_IPV4 = 0x0800;
    public static final int ETHERTYPE_IPV6 = 0x86dd;
    public static final int ETHERTYPE_VLAN = 0x8100;
    public static final int ETHERTYPE_QINQ = 0x88a8;
    public static final int IPPROTO_TCP = 6;
    public static final int IPPROTO_UDP = 17;

    /** Offset of the L3 header in the frame at {@code off} (14, or 18 behind one VLAN tag). */
    public static int l3Offset(MemorySegment s, long off, int len) {
        if (len < ETH_HLEN) return -1;
        int type = Ethhdr.h_proto(s, off);
        if (type == ETHERTYPE_VLAN || type == ETHERTYPE_QINQ) return len < ETH_HLEN + VLAN_HLEN ? -1 : ETH_HLEN + VLAN_HLEN;
        return ETH_HLEN;
    }

    /** The frame's L3 ethertype (behind one VLAN tag if there is one), or -1. */
    public static int etherType(MemorySegment s, long off, int len) {
        int l3 = l3Offset(s, off, len);
        if (l3 < 0) return -1;
        return l3 == ETH_HLEN ? Ethhdr.h_proto(s, off) : VlanHdr.h_vlan_encapsulated_proto(s, off + ETH_HLEN);
    }

    /** Offset of the L4 header (end of the IPv4 or IPv6 header), or -1 when the frame is not IP or too short. */
    public static int l4Offset(MemorySegment s, long off, int len) {
        int l3 = l3Offset(s, off, len);
        if (l3 < 0 || len < l3 + 1) return -1;
        int type = etherType(s, off, len);
        if (type == ETHERTYPE_IPV4) {
            int ihl = Iphdr.ihl(s, off + l3) * 4;
            return ihl < Iphdr.SIZE || len < l3 + ihl ? -1 : l3 + ihl;
        }
        if (type == ETHERTYPE_IPV6) return len < l3 + Ipv6hdr.SIZE ? -1 : l3 + (int) Ipv6hdr.SIZE;
        return -1;
    }

    /** The IP protocol (IPv4 protocol or IPv6 next header), or -1. */
    public static int ipProtocol(MemorySegment s, long off, int len) {
        int l3 = l3Offset(s, off, len);
        if (l3 < 0 || l4Offset(s, off, len) < 0) return -1;
        return etherType(s, off, len) == ETHERTYPE_IPV4 ? Iphdr.protocol(s, off + l3) : Ipv6hdr.nexthdr(s, off + l3);
    }

    /** End of the TCP or UDP header (all headers), or -1 when there is none. */
    public static int headersEnd(MemorySegment s, long off, int len) {
        int l4 = l4Offset(s, off, len);
        if (l4 < 0) return -1;
        int proto = ipProtocol(s, off, len);
        if (proto == IPPROTO_UDP) return len < l4 + Udphdr.SIZE ? -1 : l4 + (int) Udphdr.SIZE;
        if (proto == IPPROTO_TCP) {
            if (len < l4 + Tcphdr.SIZE) return -1;
            int thl = Tcphdr.doff(s, off + l4) * 4;
            return thl < Tcphdr.SIZE || len < l4 + thl ? -1 : l4 + thl;
        }
        return -1;
    }

    /**
     * Bytes of the frame a WQE must inline under {@code mode}: L2 = {@link #MIN_L2_INLINE} (Linux's
     * choice), IP = up to the end of the IP header, TCP_UDP = up to the end of the L4 header; a mode
     * the frame cannot satisfy falls back to the next smaller one. Never more than {@code len}.
     */
    public static int inlineLength(InlineMode mode, MemorySegment s, long off, int len) {
        int n;
        switch (mode) {
            case NONE -> n = 0;
            case L2 -> n = MIN_L2_INLINE;
            case IP -> {
                int l4 = l4Offset(s, off, len);
                n = l4 < 0 ? MIN_L2_INLINE : l4;
            }
            case TCP_UDP -> {
                int end = headersEnd(s, off, len);
                if (end < 0) end = l4Offset(s, off, len);
                n = end < 0 ? MIN_L2_INLINE : end;
            }
            default -> n = MIN_L2_INLINE;
        }
        return Math.min(n, len);
    }
}

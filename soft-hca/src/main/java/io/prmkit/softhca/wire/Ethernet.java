package io.prmkit.softhca.wire;

import io.prmkit.net.Ethhdr;
import io.prmkit.net.Iphdr;
import io.prmkit.net.Ipv6hdr;
import io.prmkit.net.Tcphdr;
import io.prmkit.net.Udphdr;
import io.prmkit.net.VlanHdr;

/**
 * Ethernet, IP, TCP and UDP constants the wire and the datapath need (network byte order values).
 * Header sizes come from the net spec's generated classes; the values (ethertypes, protocols, flag
 * bits) are protocol numbers, not layout.
 */
public final class Ethernet {
    private Ethernet() {}

    public static final int ETH_HLEN = (int) Ethhdr.SIZE;
    /** The two MAC addresses: where h_proto (or an inserted tag's TPID) starts. */
    public static final int ETH_ADDRS_LEN = (int) (Ethhdr.h_proto$BIT_OFFSET / 8);
    public static final int VLAN_HLEN = (int) VlanHdr.SIZE;
    public static final int IPV4_HLEN = (int) Iphdr.SIZE;
    public static final int IPV6_HLEN = (int) Ipv6hdr.SIZE;
    public static final int TCP_HLEN = (int) Tcphdr.SIZE;
    public static final int UDP_HLEN = (int) Udphdr.SIZE;
    /** Smallest frame on a cable without its 4-byte FCS. */
    public static final int MIN_FRAME = 60;
    public static final int TYPE_IPV4 = 0x0800;
    public static final int TYPE_IPV6 = 0x86dd;
    public static final int TYPE_ARP = 0x0806;
    public static final int TYPE_VLAN = 0x8100;
    public static final int TYPE_QINQ = 0x88a8;
    public static final int PROTO_TCP = 6;
    public static final int PROTO_UDP = 17;
    public static final int TCP_FIN = 0x01;
    public static final int TCP_SYN = 0x02;
    public static final int TCP_RST = 0x04;
    public static final int TCP_PSH = 0x08;
    public static final int TCP_ACK = 0x10;
    public static final int TCP_URG = 0x20;
    public static final int TCP_ECE = 0x40;
    public static final int TCP_CWR = 0x80;
}

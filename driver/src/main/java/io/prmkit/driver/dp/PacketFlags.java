package io.prmkit.driver.dp;

/** Bits of {@link PacketPool#flags}: offload requests on TX, device results on RX. */
public final class PacketFlags {
    private PacketFlags() {}

    /** TX: insert {@link PacketPool#vlanTci} as an 802.1Q tag after the MAC addresses. */
    public static final int TX_VLAN = 1;
    /** TX: the device computes the IPv4 header checksum. */
    public static final int TX_IP_CSUM = 1 << 1;
    /** TX: the device computes the TCP/UDP checksum (IPv4 or IPv6). */
    public static final int TX_L4_CSUM = 1 << 2;
    /** TX: large send: the device cuts the TCP payload into {@link PacketPool#mss}-byte segments. */
    public static final int TX_LSO = 1 << 3;

    /** RX: a VLAN tag was stripped; its TCI is in {@link PacketPool#vlanTci}. */
    public static final int RX_VLAN_STRIPPED = 1 << 8;
    /** RX: the device found the L2 header good. */
    public static final int RX_L2_OK = 1 << 9;
    /** RX: the IPv4 header checksum is good. */
    public static final int RX_L3_OK = 1 << 10;
    /** RX: the TCP/UDP checksum is good. */
    public static final int RX_L4_OK = 1 << 11;
    /** RX: the packet is IPv4. */
    public static final int RX_IPV4 = 1 << 12;
    /** RX: the packet is IPv6. */
    public static final int RX_IPV6 = 1 << 13;
    /** RX: the packet is TCP. */
    public static final int RX_TCP = 1 << 14;
    /** RX: the packet is UDP. */
    public static final int RX_UDP = 1 << 15;
}

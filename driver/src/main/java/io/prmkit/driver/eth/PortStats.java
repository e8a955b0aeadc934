package io.prmkit.driver.eth;

/**
 * Counters of a port at one moment: the vport's traffic (QUERY_VPORT_COUNTER), the RQs' drops
 * for lack of a receive WQE (Q counter out_of_buffer) and the physical port's IEEE 802.3 and
 * RFC 2863 groups (PPCNT). Names follow ethtool's for mlx5 where there is one: {@code rxDiscardsPhy}
 * is {@code rx_discards_phy} ({@code if_in_discards}: good frames the port dropped, e.g. to a MAC
 * the vport does not take without promiscuous mode).
 */
public record PortStats(
        long rxVportUnicastPackets, long rxVportUnicastBytes, long txVportUnicastPackets, long txVportUnicastBytes,
        long rxVportMulticastPackets, long txVportMulticastPackets, long rxVportBroadcastPackets, long txVportBroadcastPackets,
        long rxErrors, long txErrors,
        long rxOutOfBuffer,
        long txPacketsPhy, long rxPacketsPhy, long txBytesPhy, long rxBytesPhy, long rxCrcErrorsPhy, long rxDiscardsPhy) {
}

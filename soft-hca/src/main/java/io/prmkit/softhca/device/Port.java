package io.prmkit.softhca.device;

/**
 * The function's one Ethernet port (PRM "Port"): link state, MTU, the NIC vport context values the
 * driver sets (MAC, MTU, promiscuous modes). Written by commands and by link faults; the datapath
 * reads it on the device thread.
 */
public final class Port {
    /** Largest MTU the port supports (PMTU max_mtu), bytes. */
    public int maxMtu = 9600;
    /** MTU set by PMTU admin_mtu (the port's operational MTU), bytes. */
    public int adminMtu = 1500;
    /** PAOS admin status: 1 up, 2 down. */
    public int adminStatus = 1;
    /** Link state as the wire sees it. */
    public boolean linkUp = true;
    /** NIC vport context: MTU (bytes, including the Ethernet header as Linux sets it). */
    public int vportMtu = 1500;
    /** NIC vport context: permanent MAC address (48 bits). */
    public long permanentAddress = 0x02_00_00_00_00_01L;
    public boolean promiscUc, promiscMc, promiscAll;
    /**
     * The wire port's frame counters, set by the datapath when it owns a wire port; PPCNT reads them
     * (all zero while null).
     */
    public volatile io.prmkit.softhca.wire.PortCounters counters;
    /** NIC vport context: local loopback blocks and minimum inline mode. */
    public boolean disableUcLocalLb, disableMcLocalLb;
    public int minWqeInlineMode = 1;
    /** VPORT_STATE admin state (VportAdminState). */
    public int vportAdminState = 0;

    /** Operational state: up when the link is up and the port is administratively up. */
    public boolean operUp() {
        return linkUp && adminStatus == 1;
    }
}

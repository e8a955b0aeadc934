package io.prmkit.softhca.device;

/**
 * The function's one Ethernet port (PRM "Port"): link state, MTU, the NIC vport context values the
 * driver sets (MAC, MTU, promiscuous modes). Written by commands and by link faults; the datapath
 * reads it on the device thread.
 */
public final class PortState {
    /** Largest hardware MTU the port supports (PMTU max_mtu), bytes. */
    public int maxMtu = io.prmkit.softhca.wire.Port.MAX_MTU;
    /**
     * PMTU admin_mtu (also reported as oper_mtu): the hardware MTU, the largest frame counting the
     * Ethernet header, VLAN tags and FCS. Linux writes its IP MTU plus 22 (MLX5E_SW2HW_MTU).
     */
    public int adminMtu = io.prmkit.softhca.wire.Port.DEFAULT_MTU;
    /** PAOS admin status: 1 up, 2 down. */
    public int adminStatus = 1;
    /** Link state as the wire sees it. */
    public boolean linkUp = true;
    /** NIC vport context: MTU, a hardware MTU as in PMTU. */
    public int vportMtu = io.prmkit.softhca.wire.Port.DEFAULT_MTU;
    /** NIC vport context: permanent MAC address (48 bits). */
    public long permanentAddress = 0x02_00_00_00_00_01L;
    public boolean promiscUc, promiscMc, promiscAll;
    /** NIC vport context address lists (allowed_list_type UC and MC): MAC addresses as 48-bit numbers. */
    public long[] ucAddresses = new long[0];
    public long[] mcAddresses = new long[0];
    /**
     * The wire port's frame counters, set by the datapath when it owns a wire port; PPCNT reads them
     * (all zero while null).
     */
    public volatile io.prmkit.softhca.wire.PortCounters counters;
    /** NIC vport context: local loopback blocks and minimum inline mode. */
    public boolean disableUcLocalLb, disableMcLocalLb;
    /**
     * RoCE enabled on the NIC vport (MODIFY_NIC_VPORT_CONTEXT roce_en, which Linux's mlx5_ib and
     * rdma-core's mlx5_vfio set on a port with the roce capability). Recorded and reported; the soft
     * datapath carries no RoCE traffic.
     */
    public boolean roceEn;
    public int minWqeInlineMode = 1;
    /** PTYS eth_proto_admin: the Ethernet link modes the driver allows (EthProto bits); all the port supports until written. */
    public int ethProtoAdmin = -1;
    /** VPORT_STATE admin state (VportAdminState). */
    public int vportAdminState = 0;

    /** The IP MTU the hardware MTU leaves room for (admin_mtu less Ethernet header, one VLAN tag, FCS). */
    public int ipMtu() {
        return adminMtu - io.prmkit.softhca.wire.Port.HW_MTU_OVERHEAD;
    }

    /**
     * Whether the vport takes a frame to {@code dmac} (the NIC vport context as the soft HCA reads it;
     * the PRM names the modes, the order of the checks is ours): {@code promisc_all} takes every
     * frame; broadcast is always taken; a unicast frame when it is to the permanent address or an
     * address of the UC list, or with {@code promisc_uc}; a multicast frame when its address is in
     * the MC list, or with {@code promisc_mc}. A frame the vport does not take is dropped before
     * steering and counted as an inbound discard.
     */
    public boolean accepts(long dmac) {
        if (promiscAll || io.prmkit.softhca.wire.ParsedFrame.isBroadcast(dmac)) return true;
        if (io.prmkit.softhca.wire.ParsedFrame.isMulticast(dmac)) return promiscMc || contains(mcAddresses, dmac);
        return promiscUc || dmac == permanentAddress || contains(ucAddresses, dmac);
    }

    private static boolean contains(long[] list, long mac) {
        for (long a : list) if (a == mac) return true;
        return false;
    }

    /** Operational state: up when the link is up and the port is administratively up. */
    public boolean operUp() {
        return linkUp && adminStatus == 1;
    }
}

package io.prmkit.softhca.device;

/**
 * The function's one Ethernet port (PRM "Port"): link state, MTU, the NIC vport context values the
 * driver sets (MAC, MTU, promiscuous modes). Written by commands and by link faults; the datapath
 * reads it on the device thread.
 */
public final class PortState {
    /** Largest hardware MTU the port supports (PMTU max_mtu), bytes. */
    private int maxMtu = io.prmkit.softhca.wire.Port.MAX_MTU;
    /**
     * PMTU admin_mtu (also reported as oper_mtu): the hardware MTU, the largest frame counting the
     * Ethernet header, VLAN tags and FCS. Linux writes its IP MTU plus 22 (MLX5E_SW2HW_MTU).
     */
    private int adminMtu = io.prmkit.softhca.wire.Port.DEFAULT_MTU;
    /** PAOS admin status: 1 up, 2 down. */
    private int adminStatus = 1;
    /** Link state as the wire sees it. */
    private boolean linkUp = true;
    /** NIC vport context: MTU, a hardware MTU as in PMTU. */
    private int vportMtu = io.prmkit.softhca.wire.Port.DEFAULT_MTU;
    /** NIC vport context: permanent MAC address (48 bits). */
    private long permanentAddress = 0x02_00_00_00_00_01L;
    private boolean promiscUc, promiscMc, promiscAll;
    /** NIC vport context address lists (allowed_list_type UC and MC): MAC addresses as 48-bit numbers. */
    private long[] ucAddresses = new long[0];
    private long[] mcAddresses = new long[0];
    /**
     * The wire port's frame counters, set by the datapath when it owns a wire port; PPCNT reads them
     * (all zero while null).
     */
    private volatile io.prmkit.softhca.wire.PortCounters counters;
    /** NIC vport context: local loopback blocks and minimum inline mode. */
    private boolean disableUcLocalLb, disableMcLocalLb;
    /**
     * RoCE enabled on the NIC vport (MODIFY_NIC_VPORT_CONTEXT roce_en, which Linux's mlx5_ib and
     * rdma-core's mlx5_vfio set on a port with the roce capability). Recorded and reported; the soft
     * datapath carries no RoCE traffic.
     */
    private boolean roceEn;
    private int minWqeInlineMode = 1;
    /** PTYS eth_proto_admin: the Ethernet link modes the driver allows (EthProto bits); all the port supports until written. */
    private int ethProtoAdmin = -1;
    /** VPORT_STATE admin state (VportAdminState). */
    private int vportAdminState = 0;

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

    // Read by commands and the datapath; written by the command that owns each value (PMTU, PAOS, PTYS,
    // MODIFY_VPORT_STATE, MODIFY_NIC_VPORT_CONTEXT), the link and the datapath that plugs the port in.

    public int maxMtu() {
        return maxMtu;
    }

    public void setMaxMtu(int v) {
        this.maxMtu = v;
    }

    public int adminMtu() {
        return adminMtu;
    }

    public void setAdminMtu(int v) {
        this.adminMtu = v;
    }

    public int adminStatus() {
        return adminStatus;
    }

    public void setAdminStatus(int v) {
        this.adminStatus = v;
    }

    public boolean linkUp() {
        return linkUp;
    }

    public void setLinkUp(boolean v) {
        this.linkUp = v;
    }

    public int vportMtu() {
        return vportMtu;
    }

    public void setVportMtu(int v) {
        this.vportMtu = v;
    }

    public long permanentAddress() {
        return permanentAddress;
    }

    public void setPermanentAddress(long v) {
        this.permanentAddress = v;
    }

    public boolean promiscUc() {
        return promiscUc;
    }


    public boolean promiscMc() {
        return promiscMc;
    }


    public boolean promiscAll() {
        return promiscAll;
    }


    public io.prmkit.softhca.wire.PortCounters counters() {
        return counters;
    }

    public void setCounters(io.prmkit.softhca.wire.PortCounters v) {
        this.counters = v;
    }

    public boolean disableUcLocalLb() {
        return disableUcLocalLb;
    }

    public void setDisableUcLocalLb(boolean v) {
        this.disableUcLocalLb = v;
    }

    public boolean disableMcLocalLb() {
        return disableMcLocalLb;
    }

    public void setDisableMcLocalLb(boolean v) {
        this.disableMcLocalLb = v;
    }

    public boolean roceEn() {
        return roceEn;
    }

    public void setRoceEn(boolean v) {
        this.roceEn = v;
    }

    public int minWqeInlineMode() {
        return minWqeInlineMode;
    }

    public void setMinWqeInlineMode(int v) {
        this.minWqeInlineMode = v;
    }

    public int ethProtoAdmin() {
        return ethProtoAdmin;
    }

    public void setEthProtoAdmin(int v) {
        this.ethProtoAdmin = v;
    }

    public int vportAdminState() {
        return vportAdminState;
    }

    public void setVportAdminState(int v) {
        this.vportAdminState = v;
    }

    /** The unicast address list (a copy). */
    public long[] ucAddresses() {
        return ucAddresses.clone();
    }

    /** The multicast address list (a copy). */
    public long[] mcAddresses() {
        return mcAddresses.clone();
    }

    /** MODIFY_NIC_VPORT_CONTEXT addresses_list: replaces the unicast ({@code multicast} false) or multicast list. */
    public void setAddresses(boolean multicast, long[] list) {
        if (multicast) mcAddresses = list.clone();
        else ucAddresses = list.clone();
    }

    /** MODIFY_NIC_VPORT_CONTEXT promisc: the three modes at once, as the field select changes them. */
    public void setPromiscuous(boolean uc, boolean mc, boolean all) {
        promiscUc = uc;
        promiscMc = mc;
        promiscAll = all;
    }
}

package io.prmkit.softhca.cmd;

import io.prmkit.mlx5.Eth2819CntrsGrpDataLayout;
import io.prmkit.mlx5.Eth2863CntrsGrpDataLayout;
import io.prmkit.mlx5.Eth8023CntrsGrpDataLayout;
import io.prmkit.mlx5.EthPerPrioGrpDataLayout;
import io.prmkit.mlx5.PaosReg;
import io.prmkit.mlx5.PmtuReg;
import io.prmkit.mlx5.PpcntGrp;
import io.prmkit.mlx5.PpcntReg;
import io.prmkit.mlx5.PtysReg;
import io.prmkit.mlx5.EthProto;
import io.prmkit.layout.PrmLayout;
import io.prmkit.mlx5.RegisterId;
import io.prmkit.softhca.device.PortState;
import io.prmkit.softhca.wire.PortCounters;
import java.lang.foreign.MemorySegment;

/**
 * Port registers (PRM chapter "Ports"): PMTU (MTU), PAOS (administrative and operational status),
 * PTYS (link modes: capability, admin, oper)
 * and PPCNT (counter groups IEEE 802.3, RFC 2863, RFC 2819 and per priority from the wire port's
 * counters; physical layer all zero: the groups Linux's statistics read). The
 * device has one port, local_port 1.
 */
final class PortRegisters {
    /** PAOS status values: 1 up, 2 down. */
    private static final int UP = 1;
    private static final int DOWN = 2;

    /** PTYS proto_mask bit of Ethernet (kernel MLX5_PTYS_EN). */
    private static final int PROTO_ETH = 1 << 2;
    /**
     * The Ethernet link modes the port reports (ours: the soft wire has no speed, so it reports a
     * 100 GbE ConnectX-4's set, 1 to 100 GbE over backplane, copper and fibre).
     */
    static final int ETH_PROTO_CAPABILITY = (int) (EthProto.ETH_1000BASE_KX$MASK | EthProto.ETH_10GBASE_KR$MASK | EthProto.ETH_10GBASE_CR$MASK
            | EthProto.ETH_10GBASE_SR$MASK | EthProto.ETH_40GBASE_CR4$MASK | EthProto.ETH_40GBASE_KR4$MASK | EthProto.ETH_40GBASE_SR4$MASK
            | EthProto.ETH_40GBASE_LR4$MASK | EthProto.ETH_25GBASE_CR$MASK | EthProto.ETH_25GBASE_KR$MASK | EthProto.ETH_25GBASE_SR$MASK
            | EthProto.ETH_50GBASE_CR2$MASK | EthProto.ETH_50GBASE_KR2$MASK | EthProto.ETH_100GBASE_CR4$MASK | EthProto.ETH_100GBASE_SR4$MASK
            | EthProto.ETH_100GBASE_KR4$MASK | EthProto.ETH_100GBASE_LR4$MASK);
    /** The 100 GbE modes: the operational mode while any of them is allowed. */
    private static final int FASTEST_FIRST = (int) (EthProto.ETH_100GBASE_CR4$MASK | EthProto.ETH_100GBASE_SR4$MASK | EthProto.ETH_100GBASE_KR4$MASK
            | EthProto.ETH_100GBASE_LR4$MASK);

    private final HcaState hca;

    PortRegisters(HcaState hca) {
        this.hca = hca;
    }

    /** Whether the device models this port register (its layout comes from the spec's declaration). */
    boolean models(RegisterId id) {
        return id == RegisterId.PMTU || id == RegisterId.PAOS || id == RegisterId.PPCNT
                || id == RegisterId.PTYS;
    }

    void access(Command c, RegisterId id, boolean write, MemorySegment in, MemorySegment out) {
        PortState port = hca.objects.port;
        MemorySegment.copy(in, 0, out, 0, in.byteSize());
        switch (id) {
            case PMTU -> {
                checkPort(c, PmtuReg.local_port(in));
                if (write) {
                    int mtu = PmtuReg.admin_mtu(in);
                    int min = io.prmkit.softhca.wire.Port.MIN_MTU;
                    if (mtu > port.maxMtu() || mtu < min) throw c.fail(Syndrome.MTU_ABOVE_PORT, "admin_mtu " + mtu + " outside " + min + ".." + port.maxMtu());
                    port.setAdminMtu(mtu);
                }
                PmtuReg.max_mtu$set(out, port.maxMtu());
                PmtuReg.admin_mtu$set(out, port.adminMtu());
                PmtuReg.oper_mtu$set(out, port.adminMtu());
            }
            case PAOS -> {
                checkPort(c, PaosReg.local_port(in));
                if (write && PaosReg.ase(in)) {
                    int s = PaosReg.admin_status(in);
                    if (s != UP && s != DOWN) throw c.fail(Syndrome.BAD_REGISTER_FIELD, "admin_status " + s);
                    port.setAdminStatus(s);
                }
                PaosReg.admin_status$set(out, port.adminStatus());
                PaosReg.oper_status$set(out, port.operUp() ? UP : DOWN);
            }
            case PTYS -> {
                checkPort(c, PtysReg.local_port(in));
                if ((PtysReg.proto_mask(in) & PROTO_ETH) == 0) throw c.fail(Syndrome.BAD_REGISTER_FIELD, "proto_mask " + PtysReg.proto_mask(in) + " (an Ethernet port)");
                if (write) {
                    int admin = PtysReg.eth_proto_admin(in);
                    if (admin == 0 || (admin & ~ETH_PROTO_CAPABILITY) != 0) {
                        throw c.fail(Syndrome.BAD_REGISTER_FIELD, "eth_proto_admin 0x" + Integer.toHexString(admin) + " outside the capability 0x"
                                + Integer.toHexString(ETH_PROTO_CAPABILITY));
                    }
                    port.setEthProtoAdmin(admin);
                }
                int admin = port.ethProtoAdmin() & ETH_PROTO_CAPABILITY;
                PtysReg.eth_proto_capability$set(out, ETH_PROTO_CAPABILITY);
                PtysReg.eth_proto_admin$set(out, admin);
                // the link runs one allowed mode, a 100 GbE one when allowed; none while it is down
                int fastest = admin & FASTEST_FIRST;
                int oper = Integer.lowestOneBit(fastest != 0 ? fastest : admin);
                PtysReg.eth_proto_oper$set(out, port.operUp() ? oper : 0);
            }
            case PPCNT -> {
                checkPort(c, PpcntReg.local_port(in));
                if (write) throw c.fail(Syndrome.BAD_REGISTER_FIELD, "PPCNT is read-only");
                PpcntGrp grp = PpcntReg.grp$enum(in);
                PortCounters k = port.counters() != null ? port.counters() : new PortCounters();
                long at = PpcntReg.counter_set$BYTE_OFFSET;
                out.asSlice(at, out.byteSize() - at).fill((byte) 0);
                if (grp == PpcntGrp.IEEE_802_3) {
                    PrmLayout.Struct l = Eth8023CntrsGrpDataLayout.layout();
                    put(l, out, at, "a_frames_transmitted_ok", k.txFrames());
                    put(l, out, at, "a_frames_received_ok", k.rxFrames());
                    put(l, out, at, "a_frame_check_sequence_errors", k.rxFcsErrors());
                    put(l, out, at, "a_octets_transmitted_ok", k.txOctets());
                    put(l, out, at, "a_octets_received_ok", k.rxOctets());
                    put(l, out, at, "a_multicast_frames_xmitted_ok", k.txMulticast());
                    put(l, out, at, "a_broadcast_frames_xmitted_ok", k.txBroadcast());
                    put(l, out, at, "a_multicast_frames_received_ok", k.rxMulticast());
                    put(l, out, at, "a_broadcast_frames_received_ok", k.rxBroadcast());
                    put(l, out, at, "a_frame_too_long_errors", k.rxTooLong());
                } else if (grp == PpcntGrp.RFC_2863) {
                    PrmLayout.Struct l = Eth2863CntrsGrpDataLayout.layout();
                    put(l, out, at, "if_in_octets", k.rxOctets());
                    put(l, out, at, "if_in_ucast_pkts", k.rxUnicast());
                    put(l, out, at, "if_in_discards", k.rxDiscards());
                    put(l, out, at, "if_in_errors", k.rxFcsErrors() + k.rxTooLong());
                    put(l, out, at, "if_out_octets", k.txOctets());
                    put(l, out, at, "if_out_ucast_pkts", k.txUnicast());
                    put(l, out, at, "if_out_discards", k.txDiscards());
                    put(l, out, at, "if_in_multicast_pkts", k.rxMulticast());
                    put(l, out, at, "if_in_broadcast_pkts", k.rxBroadcast());
                    put(l, out, at, "if_out_multicast_pkts", k.txMulticast());
                    put(l, out, at, "if_out_broadcast_pkts", k.txBroadcast());
                } else if (grp == PpcntGrp.RFC_2819) {
                    PrmLayout.Struct l = Eth2819CntrsGrpDataLayout.layout();
                    put(l, out, at, "ether_stats_drop_events", k.rxDiscards());
                    put(l, out, at, "ether_stats_octets", k.rxAllOctets());
                    put(l, out, at, "ether_stats_pkts", k.rxAllFrames());
                    put(l, out, at, "ether_stats_broadcast_pkts", k.rxBroadcast());
                    put(l, out, at, "ether_stats_multicast_pkts", k.rxMulticast());
                    put(l, out, at, "ether_stats_crc_align_errors", k.rxFcsErrors());
                    put(l, out, at, "ether_stats_undersize_pkts", k.rxUndersize());
                    put(l, out, at, "ether_stats_oversize_pkts", k.rxTooLong());
                    String[] buckets = {"pkts64octets", "pkts65to127octets", "pkts128to255octets", "pkts256to511octets", "pkts512to1023octets",
                        "pkts1024to1518octets", "pkts1519to2047octets", "pkts2048to4095octets", "pkts4096to8191octets", "pkts8192to10239octets"};
                    for (int i = 0; i < buckets.length; i++) put(l, out, at, "ether_stats_" + buckets[i], k.rxSizeHistogram(i));
                } else if (grp == PpcntGrp.PER_PRIORITY) {
                    // The soft wire has no priorities (no PFC, no DSCP mapping): all traffic is priority 0's.
                    if (PpcntReg.prio_tc(in) == 0) {
                        PrmLayout.Struct l = EthPerPrioGrpDataLayout.layout();
                        put(l, out, at, "rx_octets", k.rxOctets());
                        put(l, out, at, "rx_frames", k.rxFrames());
                        put(l, out, at, "tx_octets", k.txOctets());
                        put(l, out, at, "tx_frames", k.txFrames());
                    }
                } else if (grp != PpcntGrp.PHYSICAL_LAYER) {
                    // PHYSICAL_LAYER reads all zero: the soft wire has no symbol errors, FEC or link flaps to count.
                    throw c.fail(Syndrome.BAD_REGISTER_FIELD, "PPCNT group " + PpcntReg.grp(in) + " (802.3, 2863, 2819, per priority and physical layer are modelled)");
                }
                if (PpcntReg.clr(in) && port.counters() != null) port.counters().clear();
            }
            default -> throw c.fail(Syndrome.BAD_REGISTER, id.name());
        }
    }

    private static void checkPort(Command c, int localPort) {
        if (localPort != 1) throw c.fail(Syndrome.BAD_REGISTER_FIELD, "local_port " + localPort + " (the device has port 1)");
    }

    /** A 64-bit PPCNT counter, which the spec joins from its two dwords. */
    private static void put(PrmLayout.Struct l, MemorySegment s, long at, String name, long v) {
        l.set(s, at, l.join(name).orElseThrow(() -> new IllegalArgumentException(l.name() + " joins no counter " + name)), v);
    }
}

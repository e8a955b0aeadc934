package io.prmkit.softhca.cmd;

import io.prmkit.mlx5.CmdHcaCap;
import io.prmkit.mlx5.InlineMode;
import io.prmkit.mlx5.MacAddressLayout;
import io.prmkit.mlx5.ModifyNicVportContextIn;
import io.prmkit.mlx5.ModifyNicVportFieldSelect;
import io.prmkit.mlx5.ModifyVportStateIn;
import io.prmkit.mlx5.NicVportContext;
import io.prmkit.mlx5.QueryNicVportContextIn;
import io.prmkit.mlx5.QueryNicVportContextOut;
import io.prmkit.mlx5.QueryVportCounterIn;
import io.prmkit.mlx5.QueryVportCounterOut;
import io.prmkit.mlx5.QueryVportStateIn;
import io.prmkit.mlx5.QueryVportStateOut;
import io.prmkit.mlx5.TrafficCounter;
import io.prmkit.mlx5.VportOperState;
import io.prmkit.mlx5.VportStateOpMod;
import io.prmkit.mlx5.PrmCommands;
import io.prmkit.softhca.cmd.CommandSpec.Phase;
import io.prmkit.softhca.device.Objects;
import io.prmkit.softhca.device.Port;
import java.lang.foreign.MemorySegment;
import java.util.Map;

/**
 * PRM chapter "NIC vport": the function's own vport only (other_vport is BAD_PARAM): state, the
 * NIC vport context (MTU, permanent MAC, promiscuous modes, loopback blocks, minimum inline mode;
 * address lists are accepted and not used) and the vport traffic counters.
 */
final class VportCommands {
    private final HcaState hca;

    private VportCommands(HcaState hca) {
        this.hca = hca;
    }

    static void register(Map<Integer, CommandSpec> specs, HcaState hca) {
        VportCommands v = new VportCommands(hca);
        BringUpCommands.put(specs, PrmCommands.QUERY_VPORT_STATE, Phase.INITIALIZED, v::queryState);
        BringUpCommands.put(specs, PrmCommands.MODIFY_VPORT_STATE, Phase.INITIALIZED, v::modifyState);
        BringUpCommands.put(specs, PrmCommands.QUERY_NIC_VPORT_CONTEXT, Phase.INITIALIZED,
                v::queryContext);
        BringUpCommands.put(specs, PrmCommands.MODIFY_NIC_VPORT_CONTEXT, Phase.INITIALIZED, v::modifyContext);
        BringUpCommands.put(specs, PrmCommands.QUERY_VPORT_COUNTER, Phase.INITIALIZED,
                v::queryCounter);
    }

    private static void ownVport(Command c, boolean other, int number) {
        if (other || number != 0) throw c.fail(Syndrome.OTHER_FUNCTION, "vport " + number);
    }

    private void queryState(Command c) {
        ownVport(c, QueryVportStateIn.other_vport(c.in), QueryVportStateIn.vport_number(c.in));
        VportStateOpMod mod = QueryVportStateIn.op_mod$enum(c.in);
        if (mod != VportStateOpMod.VNIC_VPORT && mod != VportStateOpMod.UPLINK) throw c.fail(Syndrome.BAD_OP_MOD, "op_mod 0x" + Integer.toHexString(c.opMod));
        Port p = hca.objects.port;
        QueryVportStateOut.Device.state$set(c.out, p.operUp() ? VportOperState.UP : VportOperState.DOWN);
        QueryVportStateOut.Device.admin_state$set(c.out, p.vportAdminState);
    }

    private void modifyState(Command c) {
        ownVport(c, ModifyVportStateIn.other_vport(c.in), ModifyVportStateIn.vport_number(c.in));
        if (ModifyVportStateIn.admin_state$enum(c.in) == null) throw c.fail(Syndrome.BAD_FIELD, "admin_state " + ModifyVportStateIn.admin_state(c.in));
        hca.objects.port.vportAdminState = ModifyVportStateIn.admin_state(c.in);
    }

    private void queryContext(Command c) {
        ownVport(c, QueryNicVportContextIn.other_vport(c.in), QueryNicVportContextIn.vport_number(c.in));
        Port p = hca.objects.port;
        long at = QueryNicVportContextOut.nic_vport_context$BYTE_OFFSET;
        MemorySegment ctx = c.out.asSlice(at, NicVportContext.SIZE);
        NicVportContext.mtu$set(ctx, p.vportMtu);
        NicVportContext.promisc_uc$set(ctx, p.promiscUc);
        NicVportContext.promisc_mc$set(ctx, p.promiscMc);
        NicVportContext.promisc_all$set(ctx, p.promiscAll);
        NicVportContext.disable_uc_local_lb$set(ctx, p.disableUcLocalLb);
        NicVportContext.disable_mc_local_lb$set(ctx, p.disableMcLocalLb);
        NicVportContext.roce_en$set(ctx, p.roceEn);
        NicVportContext.min_wqe_inline_mode$set(ctx, p.minWqeInlineMode);
        long mac = NicVportContext.permanent_address$BYTE_OFFSET;
        MacAddressLayout.mac_addr$set(ctx, mac, p.permanentAddress);
    }

    private void modifyContext(Command c) {
        ownVport(c, ModifyNicVportContextIn.other_vport(c.in), ModifyNicVportContextIn.vport_number(c.in));
        long sel = ModifyNicVportContextIn.field_select$BYTE_OFFSET;
        MemorySegment ctx = c.in.asSlice(ModifyNicVportContextIn.nic_vport_context$BYTE_OFFSET, NicVportContext.SIZE);
        Port p = hca.objects.port;
        if (ModifyNicVportFieldSelect.affiliation(c.in, sel)) throw c.fail(Syndrome.BAD_FIELD, "vport affiliation is not modelled");
        if (ModifyNicVportFieldSelect.roce_en(c.in, sel) && NicVportContext.roce_en(ctx) && !CmdHcaCap.roce(hca.capsCurrent.get(0))) {
            throw c.fail(Syndrome.BAD_FIELD, "roce_en on a function without the roce capability");
        }
        if (ModifyNicVportFieldSelect.mtu(c.in, sel)) {
            int mtu = NicVportContext.mtu(ctx);
            // A hardware MTU, as in PMTU: Linux writes the IP MTU plus Ethernet header, a VLAN tag and FCS.
            if (mtu > p.maxMtu || mtu < io.prmkit.softhca.wire.Port.MIN_MTU) throw c.fail(Syndrome.MTU_ABOVE_PORT, "vport MTU " + mtu);
        }
        if (ModifyNicVportFieldSelect.min_inline(c.in, sel) && InlineMode.of(NicVportContext.min_wqe_inline_mode(ctx)) == null) {
            throw c.fail(Syndrome.BAD_FIELD, "min_wqe_inline_mode " + NicVportContext.min_wqe_inline_mode(ctx));
        }
        if (ModifyNicVportFieldSelect.mtu(c.in, sel)) p.vportMtu = NicVportContext.mtu(ctx);
        if (ModifyNicVportFieldSelect.promisc(c.in, sel)) {
            p.promiscUc = NicVportContext.promisc_uc(ctx);
            p.promiscMc = NicVportContext.promisc_mc(ctx);
            p.promiscAll = NicVportContext.promisc_all(ctx);
        }
        if (ModifyNicVportFieldSelect.disable_uc_local_lb(c.in, sel)) p.disableUcLocalLb = NicVportContext.disable_uc_local_lb(ctx);
        if (ModifyNicVportFieldSelect.disable_mc_local_lb(c.in, sel)) p.disableMcLocalLb = NicVportContext.disable_mc_local_lb(ctx);
        if (ModifyNicVportFieldSelect.roce_en(c.in, sel)) p.roceEn = NicVportContext.roce_en(ctx);
        if (ModifyNicVportFieldSelect.min_inline(c.in, sel)) p.minWqeInlineMode = NicVportContext.min_wqe_inline_mode(ctx);
        if (ModifyNicVportFieldSelect.permanent_address(c.in, sel)) {
            long mac = NicVportContext.permanent_address$BYTE_OFFSET;
            p.permanentAddress = MacAddressLayout.mac_addr(ctx, mac);
        }
    }

    private void queryCounter(Command c) {
        ownVport(c, QueryVportCounterIn.other_vport(c.in), QueryVportCounterIn.vport_number(c.in));
        Objects.VportCounters v = hca.objects.vportCounters;
        put(c.out, QueryVportCounterOut.received_errors$BYTE_OFFSET, v.rxErrorPackets, v.rxErrorOctets);
        put(c.out, QueryVportCounterOut.transmit_errors$BYTE_OFFSET, v.txErrorPackets, v.txErrorOctets);
        put(c.out, QueryVportCounterOut.received_eth_broadcast$BYTE_OFFSET, v.rxBroadcastPackets, v.rxBroadcastOctets);
        put(c.out, QueryVportCounterOut.transmitted_eth_broadcast$BYTE_OFFSET, v.txBroadcastPackets, v.txBroadcastOctets);
        put(c.out, QueryVportCounterOut.received_eth_unicast$BYTE_OFFSET, v.rxUnicastPackets, v.rxUnicastOctets);
        put(c.out, QueryVportCounterOut.transmitted_eth_unicast$BYTE_OFFSET, v.txUnicastPackets, v.txUnicastOctets);
        put(c.out, QueryVportCounterOut.received_eth_multicast$BYTE_OFFSET, v.rxMulticastPackets, v.rxMulticastOctets);
        put(c.out, QueryVportCounterOut.transmitted_eth_multicast$BYTE_OFFSET, v.txMulticastPackets, v.txMulticastOctets);
        if (QueryVportCounterIn.clear_(c.in)) {
            v.rxErrorPackets = v.rxErrorOctets = v.txErrorPackets = v.txErrorOctets = 0;
            v.rxBroadcastPackets = v.rxBroadcastOctets = v.txBroadcastPackets = v.txBroadcastOctets = 0;
            v.rxUnicastPackets = v.rxUnicastOctets = v.txUnicastPackets = v.txUnicastOctets = 0;
            v.rxMulticastPackets = v.rxMulticastOctets = v.txMulticastPackets = v.txMulticastOctets = 0;
        }
    }

    private static void put(MemorySegment out, long at, long packets, long octets) {
        TrafficCounter.packets$set(out, at, packets);
        TrafficCounter.octets$set(out, at, octets);
    }
}

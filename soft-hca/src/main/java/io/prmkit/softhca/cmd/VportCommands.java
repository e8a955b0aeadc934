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
import io.prmkit.mlx5.VportListType;
import io.prmkit.mlx5.VportStateOpMod;
import io.prmkit.mlx5.PrmCommands;
import io.prmkit.softhca.cmd.CommandSpec.Phase;
import io.prmkit.softhca.device.Resources;
import io.prmkit.softhca.device.Resources.VportCounters.Group;
import io.prmkit.softhca.device.PortState;
import java.lang.foreign.MemorySegment;
import java.util.Map;

/**
 * PRM chapter "NIC vport": the function's own vport only (other_vport is BAD_PARAM): state, the
 * NIC vport context (MTU, permanent MAC, promiscuous modes, the unicast and multicast address
 * lists, loopback blocks, minimum inline mode) and the vport traffic counters. The MACs and
 * promiscuous modes decide which received frames the vport takes ({@code device.PortState.accepts}).
 *
 * <p>A VLAN list ({@code allowed_list_type} VLAN) is checked like the address lists and then not
 * used: on a ConnectX it is the vport telling the E-Switch manager which VLANs it wants (Linux writes
 * it from {@code vlan_rx_add_vid} so that the SR-IOV E-Switch can build its FDB), not a filter the
 * vport applies itself; a function filters its own VLANs in its NIC RX flow tables (mlx5e's VLAN
 * table, matched on {@code cvlan_tag} and {@code first_vid}), which the model's steering does. The
 * model has one function and no other vport (no SR-IOV), so no FDB is built from the list: it is not
 * kept, and a query returns it empty.
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
        PortState p = hca.objects.port;
        QueryVportStateOut.Device.state$set(c.out, p.operUp() ? VportOperState.UP : VportOperState.DOWN);
        QueryVportStateOut.Device.admin_state$set(c.out, p.vportAdminState());
    }

    private void modifyState(Command c) {
        ownVport(c, ModifyVportStateIn.other_vport(c.in), ModifyVportStateIn.vport_number(c.in));
        if (ModifyVportStateIn.admin_state$enum(c.in) == null) throw c.fail(Syndrome.BAD_FIELD, "admin_state " + ModifyVportStateIn.admin_state(c.in));
        hca.objects.port.setVportAdminState(ModifyVportStateIn.admin_state(c.in));
    }

    private void queryContext(Command c) {
        ownVport(c, QueryNicVportContextIn.other_vport(c.in), QueryNicVportContextIn.vport_number(c.in));
        PortState p = hca.objects.port;
        long at = QueryNicVportContextOut.nic_vport_context$BYTE_OFFSET;
        MemorySegment ctx = c.out.asSlice(at, NicVportContext.SIZE);
        NicVportContext.mtu$set(ctx, p.vportMtu());
        NicVportContext.promisc_uc$set(ctx, p.promiscUc());
        NicVportContext.promisc_mc$set(ctx, p.promiscMc());
        NicVportContext.promisc_all$set(ctx, p.promiscAll());
        NicVportContext.disable_uc_local_lb$set(ctx, p.disableUcLocalLb());
        NicVportContext.disable_mc_local_lb$set(ctx, p.disableMcLocalLb());
        NicVportContext.roce_en$set(ctx, p.roceEn());
        NicVportContext.min_wqe_inline_mode$set(ctx, p.minWqeInlineMode());
        long mac = NicVportContext.permanent_address$BYTE_OFFSET;
        MacAddressLayout.mac_addr$set(ctx, mac, p.permanentAddress());
        // Linux reads system_image_guid as the devlink port's parent (switch) id when it is the eswitch manager
        NicVportContext.system_image_guid$set(ctx, guidOf(p.permanentAddress()));
        NicVportContext.node_guid$set(ctx, guidOf(p.permanentAddress()));
        // The address list the query asked for, as many entries as the output holds.
        VportListType type = QueryNicVportContextIn.allowed_list_type$enum(c.in);
        long[] list = type == VportListType.UC ? p.ucAddresses() : type == VportListType.MC ? p.mcAddresses() : new long[0];
        int room = (int) Math.max(0, (c.outLength() - at - NicVportContext.current_uc_mac_address$BYTE_OFFSET) / LIST_ENTRY);
        int n = Math.min(list.length, room);
        NicVportContext.allowed_list_type$set(c.out, at, QueryNicVportContextIn.allowed_list_type(c.in));
        NicVportContext.allowed_list_size$set(c.out, at, n);
        for (int i = 0; i < n; i++) {
            long e = at + NicVportContext.current_uc_mac_address$BYTE_OFFSET + (long) i * LIST_ENTRY;
            MacAddressLayout.mac_addr$set(c.out, e, list[i]);
        }
    }

    /**
     * The model's GUIDs: the permanent MAC widened to an EUI-64 with 0x0300 between the OUI and the
     * rest, the form ConnectX node GUIDs have (24:8a:07:aa:bb:cc -> 0x248a070300aabbcc).
     */
    static long guidOf(long mac) {
        return (mac >>> 24) << 40 | 0x0300L << 24 | (mac & 0xffffff);
    }

    /** One entry of {@code current_uc_mac_address} (a {@code mac_address_layout}). */
    private static final long LIST_ENTRY = NicVportContext.current_uc_mac_address$ELEMENT_BITS / Byte.SIZE;

    /**
     * The address list of a MODIFY_NIC_VPORT_CONTEXT with {@code addresses_list}: {@code allowed_list_size}
     * entries after the context, no more than the caps' {@code log_max_current_uc_list} /
     * {@code log_max_current_mc_list} / {@code log_max_vlan_list} allow, inside the input. Null for a
     * VLAN list, once checked (see the class comment).
     */
    private long[] addressList(Command c, MemorySegment ctx) {
        VportListType type = NicVportContext.allowed_list_type$enum(ctx);
        if (type == null) throw c.fail(Syndrome.BAD_FIELD, "allowed_list_type " + NicVportContext.allowed_list_type(ctx));
        int n = NicVportContext.allowed_list_size(ctx);
        MemorySegment general = hca.capsCurrent.get(0);
        int log = switch (type) {
            case UC -> CmdHcaCap.log_max_current_uc_list(general);
            case MC -> CmdHcaCap.log_max_current_mc_list(general);
            case VLAN -> CmdHcaCap.log_max_vlan_list(general);
        };
        if (n > 1 << log) throw c.fail(Syndrome.SIZE_ABOVE_MAX, type + " list of " + n + " entries (at most " + (1 << log) + ")");
        long first = ModifyNicVportContextIn.nic_vport_context$BYTE_OFFSET + NicVportContext.current_uc_mac_address$BYTE_OFFSET;
        if (first + n * LIST_ENTRY > c.inLength()) throw c.fail(Syndrome.INPUT_TOO_SHORT, n + " list entries do not fit an input of " + c.inLength() + " bytes");
        if (type == VportListType.VLAN) return null;
        long[] list = new long[n];
        for (int i = 0; i < n; i++) {
            long e = first + i * LIST_ENTRY;
            list[i] = MacAddressLayout.mac_addr(c.in, e);
        }
        return list;
    }

    private void modifyContext(Command c) {
        ownVport(c, ModifyNicVportContextIn.other_vport(c.in), ModifyNicVportContextIn.vport_number(c.in));
        long sel = ModifyNicVportContextIn.field_select$BYTE_OFFSET;
        MemorySegment ctx = c.in.asSlice(ModifyNicVportContextIn.nic_vport_context$BYTE_OFFSET, NicVportContext.SIZE);
        PortState p = hca.objects.port;
        if (ModifyNicVportFieldSelect.affiliation(c.in, sel)) throw c.fail(Syndrome.BAD_FIELD, "vport affiliation is not modelled");
        if (ModifyNicVportFieldSelect.roce_en(c.in, sel) && NicVportContext.roce_en(ctx) && !CmdHcaCap.roce(hca.capsCurrent.get(0))) {
            throw c.fail(Syndrome.BAD_FIELD, "roce_en on a function without the roce capability");
        }
        if (ModifyNicVportFieldSelect.mtu(c.in, sel)) {
            int mtu = NicVportContext.mtu(ctx);
            // A hardware MTU, as in PMTU: Linux writes the IP MTU plus Ethernet header, a VLAN tag and FCS.
            if (mtu > p.maxMtu() || mtu < io.prmkit.softhca.wire.Port.MIN_MTU) throw c.fail(Syndrome.MTU_ABOVE_PORT, "vport MTU " + mtu);
        }
        if (ModifyNicVportFieldSelect.min_inline(c.in, sel) && InlineMode.of(NicVportContext.min_wqe_inline_mode(ctx)) == null) {
            throw c.fail(Syndrome.BAD_FIELD, "min_wqe_inline_mode " + NicVportContext.min_wqe_inline_mode(ctx));
        }
        long[] list = ModifyNicVportFieldSelect.addresses_list(c.in, sel) ? addressList(c, ctx) : null;
        if (list != null) {
            p.setAddresses(NicVportContext.allowed_list_type$enum(ctx) == VportListType.MC, list);
        }
        if (ModifyNicVportFieldSelect.mtu(c.in, sel)) p.setVportMtu(NicVportContext.mtu(ctx));
        if (ModifyNicVportFieldSelect.promisc(c.in, sel)) {
            p.setPromiscuous(NicVportContext.promisc_uc(ctx), NicVportContext.promisc_mc(ctx), NicVportContext.promisc_all(ctx));
        }
        if (ModifyNicVportFieldSelect.disable_uc_local_lb(c.in, sel)) p.setDisableUcLocalLb(NicVportContext.disable_uc_local_lb(ctx));
        if (ModifyNicVportFieldSelect.disable_mc_local_lb(c.in, sel)) p.setDisableMcLocalLb(NicVportContext.disable_mc_local_lb(ctx));
        if (ModifyNicVportFieldSelect.roce_en(c.in, sel)) p.setRoceEn(NicVportContext.roce_en(ctx));
        if (ModifyNicVportFieldSelect.min_inline(c.in, sel)) p.setMinWqeInlineMode(NicVportContext.min_wqe_inline_mode(ctx));
        if (ModifyNicVportFieldSelect.permanent_address(c.in, sel)) {
            long mac = NicVportContext.permanent_address$BYTE_OFFSET;
            p.setPermanentAddress(MacAddressLayout.mac_addr(ctx, mac));
        }
    }

    private void queryCounter(Command c) {
        ownVport(c, QueryVportCounterIn.other_vport(c.in), QueryVportCounterIn.vport_number(c.in));
        Resources.VportCounters v = hca.objects.vportCounters;
        put(c.out, QueryVportCounterOut.received_errors$BYTE_OFFSET, v, Group.RX_ERROR);
        put(c.out, QueryVportCounterOut.transmit_errors$BYTE_OFFSET, v, Group.TX_ERROR);
        put(c.out, QueryVportCounterOut.received_eth_broadcast$BYTE_OFFSET, v, Group.RX_BROADCAST);
        put(c.out, QueryVportCounterOut.transmitted_eth_broadcast$BYTE_OFFSET, v, Group.TX_BROADCAST);
        put(c.out, QueryVportCounterOut.received_eth_unicast$BYTE_OFFSET, v, Group.RX_UNICAST);
        put(c.out, QueryVportCounterOut.transmitted_eth_unicast$BYTE_OFFSET, v, Group.TX_UNICAST);
        put(c.out, QueryVportCounterOut.received_eth_multicast$BYTE_OFFSET, v, Group.RX_MULTICAST);
        put(c.out, QueryVportCounterOut.transmitted_eth_multicast$BYTE_OFFSET, v, Group.TX_MULTICAST);
        if (QueryVportCounterIn.clear_(c.in)) v.clear();
    }

    private static void put(MemorySegment out, long at, Resources.VportCounters v, Group g) {
        TrafficCounter.packets$set(out, at, v.packets(g));
        TrafficCounter.octets$set(out, at, v.octets(g));
    }
}

package io.prmkit.driver.core;

import io.prmkit.driver.Mlx5Exception;
import io.prmkit.driver.cmd.CommandTransport;
import io.prmkit.mlx5.CmdHcaCap;
import io.prmkit.mlx5.HcaCapUnion;
import io.prmkit.mlx5.PerProtocolNetworkingOffloadCaps;
import io.prmkit.mlx5.QueryHcaCapIn;
import io.prmkit.mlx5.QueryHcaCapOpMod;
import io.prmkit.mlx5.QueryHcaCapOut;
import io.prmkit.mlx5.PrmCommands;
import java.lang.foreign.MemorySegment;

/**
 * The capability pages the driver uses (PRM "QUERY_HCA_CAP"): general device, Ethernet offloads
 * and NIC flow table, each in its current and maximum form. Read them with the generated accessors:
 * {@code CmdHcaCap.log_max_cq(caps.general())}. {@link #require} turns a missing capability into an
 * error that says which one, before the device would refuse a command.
 */
public final class Caps {

    private final MemorySegment general, generalMax, eth, ethMax, flow, flowMax;

    Caps(MemorySegment general, MemorySegment generalMax, MemorySegment eth, MemorySegment ethMax, MemorySegment flow, MemorySegment flowMax) {
        this.general = general;
        this.generalMax = generalMax;
        this.eth = eth;
        this.ethMax = ethMax;
        this.flow = flow;
        this.flowMax = flowMax;
    }

    /** Queries every page the driver uses; Ethernet and flow-table pages only when the general caps announce them. */
    public static Caps query(CommandTransport cmd) {
        MemorySegment gen = query(cmd, QueryHcaCapOpMod.GENERAL_DEVICE_CUR);
        MemorySegment genMax = query(cmd, QueryHcaCapOpMod.GENERAL_DEVICE_MAX);
        boolean hasEth = CmdHcaCap.eth_net_offloads(HcaCapUnion.cmd_hca_cap(gen));
        boolean hasFlow = CmdHcaCap.nic_flow_table(HcaCapUnion.cmd_hca_cap(gen));
        MemorySegment empty = MemorySegment.ofArray(new byte[(int) HcaCapUnion.SIZE]);
        return new Caps(gen, genMax,
                hasEth ? query(cmd, QueryHcaCapOpMod.ETHERNET_OFFLOADS_CUR) : empty,
                hasEth ? query(cmd, QueryHcaCapOpMod.ETHERNET_OFFLOADS_MAX) : empty,
                hasFlow ? query(cmd, QueryHcaCapOpMod.FLOW_TABLE_CUR) : empty,
                hasFlow ? query(cmd, QueryHcaCapOpMod.FLOW_TABLE_MAX) : empty);
    }

    /** QUERY_HCA_CAP for one op_mod; returns a copy of the capability union. */
    static MemorySegment query(CommandTransport cmd, QueryHcaCapOpMod which) {
        var in = PrmCommands.QUERY_HCA_CAP.input();
        QueryHcaCapIn.op_mod$set(in, which);
        var out = cmd.execute(PrmCommands.QUERY_HCA_CAP, in);
        MemorySegment copy = MemorySegment.ofArray(new byte[(int) HcaCapUnion.SIZE]);
        copy.copyFrom(QueryHcaCapOut.capability(out));
        return copy;
    }

    /** cmd_hca_cap, current values. */
    public MemorySegment general() {
        return HcaCapUnion.cmd_hca_cap(general);
    }

    /** cmd_hca_cap, maximum values. */
    public MemorySegment generalMax() {
        return HcaCapUnion.cmd_hca_cap(generalMax);
    }

    /** per_protocol_networking_offload_caps, current (all zero when the device has none). */
    public MemorySegment eth() {
        return HcaCapUnion.per_protocol_networking_offload_caps(eth);
    }

    public MemorySegment ethMax() {
        return HcaCapUnion.per_protocol_networking_offload_caps(ethMax);
    }

    /** flow_table_nic_cap, current (all zero when the device has no NIC flow table). */
    public MemorySegment flowTable() {
        return HcaCapUnion.flow_table_nic_cap(flow);
    }

    public MemorySegment flowTableMax() {
        return HcaCapUnion.flow_table_nic_cap(flowMax);
    }

    /** Throws an error naming the capability and the operation when {@code ok} is false. */
    public static void require(boolean ok, String what, String capability) {
        if (!ok) throw new Mlx5Exception(what + ": the device does not support it (capability " + capability + " is 0)");
    }

    /** Checks {@code log2(n) <= cap}; the message names the capability, its value and the request. */
    public static void requireLog(long n, int logMax, String what, String capability) {
        if (n > (1L << logMax))
            throw new Mlx5Exception(what + ": asked for " + n + ", the device allows at most 2^" + logMax + " = " + (1L << logMax)
                    + " (capability " + capability + ")");
    }

    /** The limits that matter most, for logs. */
    @Override
    public String toString() {
        MemorySegment g = general();
        return "caps[log_max_cq=" + CmdHcaCap.log_max_cq(g) + " log_max_eq=" + CmdHcaCap.log_max_eq(g) + " log_max_sq="
                + CmdHcaCap.log_max_sq(g) + " log_max_rq=" + CmdHcaCap.log_max_rq(g) + " eth=" + CmdHcaCap.eth_net_offloads(g)
                + " csum=" + PerProtocolNetworkingOffloadCaps.csum_cap(eth()) + " flow=" + CmdHcaCap.nic_flow_table(g)
                + "]";
    }
}

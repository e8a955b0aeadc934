package io.prmkit.driver.res;

import io.prmkit.driver.cmd.CommandTransport;
import io.prmkit.driver.core.Caps;
import io.prmkit.driver.core.DeviceObject;
import io.prmkit.mlx5.CreateFlowTableIn;
import io.prmkit.mlx5.CreateFlowTableOut;
import io.prmkit.mlx5.DestroyFlowTableIn;
import io.prmkit.mlx5.FlowTableContext;
import io.prmkit.mlx5.FlowTableNicCap;
import io.prmkit.mlx5.FlowTablePropLayout;
import io.prmkit.mlx5.FlowTableType;
import io.prmkit.mlx5.SetFlowTableRootIn;
import io.prmkit.mlx5.PrmCommands;

/**
 * A flow table (PRM "Flow Table", CREATE_FLOW_TABLE) of 2^n entries in one steering domain (the
 * driver uses NIC receive). {@link #setRoot} makes it the first table packets of the domain meet.
 * Groups ({@link FlowGroup}) and entries ({@link FlowEntry}) live inside it and are closed first.
 */
public final class FlowTable extends DeviceObject {

    private final FlowTableType type;
    private final int logSize;
    private boolean root;

    private FlowTable(CommandTransport cmd, CommandTransport.ObjectHandle handle, int id, FlowTableType type, int logSize) {
        super(cmd, handle, id);
        this.type = type;
        this.logSize = logSize;
    }

    /** CREATE_FLOW_TABLE for NIC receive at {@code level}; checks the NIC RX flow table caps first. */
    public static FlowTable nicRx(CommandTransport cmd, Caps caps, int level, int logSize) {
        var rx = FlowTableNicCap.flow_table_properties_nic_receive(caps.flowTable());
        Caps.require(FlowTablePropLayout.ft_support(rx), "CREATE_FLOW_TABLE (NIC RX)",
                "flow_table_nic_cap.flow_table_properties_nic_receive.ft_support");
        Caps.requireLog(1L << logSize, FlowTablePropLayout.log_max_ft_size(rx), "CREATE_FLOW_TABLE entries",
                "flow_table_properties_nic_receive.log_max_ft_size");
        if (level > FlowTablePropLayout.max_ft_level(rx))
            throw new io.prmkit.driver.Mlx5Exception("CREATE_FLOW_TABLE: level " + level + " above the device's max_ft_level "
                    + FlowTablePropLayout.max_ft_level(rx));
        var in = PrmCommands.CREATE_FLOW_TABLE.input();
        CreateFlowTableIn.table_type$set(in, FlowTableType.NIC_RX);
        var ctx = CreateFlowTableIn.flow_table_context(in);
        FlowTableContext.level$set(ctx, level);
        FlowTableContext.log_size$set(ctx, logSize);
        var created = cmd.create(PrmCommands.CREATE_FLOW_TABLE, in);
        return new FlowTable(cmd, created.handle(), CreateFlowTableOut.table_id(created.out()), FlowTableType.NIC_RX, logSize);
    }

    /** SET_FLOW_TABLE_ROOT: packets of this table's domain start here. */
    public void setRoot() {
        var in = PrmCommands.SET_FLOW_TABLE_ROOT.input();
        SetFlowTableRootIn.table_type$set(in, type);
        SetFlowTableRootIn.table_id$set(in, id());
        cmd.execute(PrmCommands.SET_FLOW_TABLE_ROOT, in);
        root = true;
    }

    /** SET_FLOW_TABLE_ROOT with op_mod 1: the domain has no root any more (Linux's disconnect). */
    private void disconnectRoot() {
        var in = PrmCommands.SET_FLOW_TABLE_ROOT.input();
        SetFlowTableRootIn.op_mod$set(in, DISCONNECT);
        SetFlowTableRootIn.table_type$set(in, type);
        cmd.execute(PrmCommands.SET_FLOW_TABLE_ROOT, in);
        root = false;
    }

    public FlowTableType type() {
        return type;
    }

    public int size() {
        return 1 << logSize;
    }

    CommandTransport commands() {
        return cmd;
    }

    /** op_mod of SET_FLOW_TABLE_ROOT that disconnects the root (kernel fs_cmd.c; not in mlx5_ifc.h's enums). */
    private static final int DISCONNECT = 1;

    @Override
    protected void destroy() {
        if (root) disconnectRoot();
        var in = PrmCommands.DESTROY_FLOW_TABLE.input();
        DestroyFlowTableIn.table_type$set(in, type);
        DestroyFlowTableIn.table_id$set(in, id());
        destroy(PrmCommands.DESTROY_FLOW_TABLE, in);
    }
}

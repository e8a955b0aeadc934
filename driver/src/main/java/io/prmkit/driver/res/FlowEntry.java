package io.prmkit.driver.res;

import io.prmkit.driver.cmd.CommandTransport;
import io.prmkit.driver.core.DeviceObject;
import io.prmkit.mlx5.DeleteFteIn;
import io.prmkit.mlx5.DestFormatStruct;
import io.prmkit.mlx5.DestFormatStructFlowCounterListAuto;
import io.prmkit.mlx5.ExtendedDestFormat;
import io.prmkit.mlx5.FlowContext;
import io.prmkit.mlx5.FlowContextAction;
import io.prmkit.mlx5.FlowDestinationType;
import io.prmkit.mlx5.SetFteIn;
import io.prmkit.mlx5.SetFteOpMod;
import io.prmkit.mlx5.PrmCommands;
import java.lang.foreign.MemorySegment;
import java.util.function.Consumer;

/**
 * A flow table entry (PRM SET_FLOW_TABLE_ENTRY / DELETE_FLOW_TABLE_ENTRY) at one index of a group:
 * packets matching {@code value} under the group's mask are forwarded to a TIR. The id is the
 * entry's flow index.
 */
public final class FlowEntry extends DeviceObject {

    private final FlowTable table;

    private FlowEntry(FlowTable table, CommandTransport.ObjectHandle handle, int index) {
        super(table.commands(), handle, index);
        this.table = table;
    }

    /** One entry forwarding to {@code tir}; {@code value} fills {@code match_value} (null: nothing to match). */
    public static FlowEntry forwardToTir(FlowGroup group, int index, Consumer<MemorySegment> value, Tir tir) {
        return forwardToTir(group, index, value, tir.id());
    }

    /** The same, to TIR number {@code tirn}. */
    public static FlowEntry forwardToTir(FlowGroup group, int index, Consumer<MemorySegment> value, int tirn) {
        if (index < group.start() || index > group.end())
            throw new IllegalArgumentException("flow index " + index + " outside its group " + group.start() + ".." + group.end());
        FlowTable table = group.table();
        var in = PrmCommands.SET_FLOW_TABLE_ENTRY.input(DestFormatStruct.SIZE, 0);
        SetFteIn.op_mod$set(in, SetFteOpMod.of(0));
        SetFteIn.table_type$set(in, table.type());
        SetFteIn.table_id$set(in, table.id());
        SetFteIn.flow_index$set(in, index);
        MemorySegment fc = SetFteIn.flow_context(in);
        FlowContext.group_id$set(fc, group.id());
        FlowContext.action$set(fc, FlowContextAction.FWD_DEST$MASK);
        FlowContext.destination_list_size$set(fc, 1);
        if (value != null) value.accept(FlowContext.match_value(fc));
        // Destination 0 in the plain 8-byte dest_format_struct form (extended_destination = 0), as
        // the kernel sizes it; the list's union element is the 16-byte extended form, so address it by offset.
        long dest = SetFteIn.flow_context$BYTE_OFFSET + FlowContext.destination$offset(0)
                + DestFormatStructFlowCounterListAuto.extended_dest_format$BYTE_OFFSET + ExtendedDestFormat.destination_entry$BYTE_OFFSET;
        DestFormatStruct.destination_type$set(in, dest, FlowDestinationType.TIR);
        DestFormatStruct.destination_id$set(in, dest, tirn);
        var created = table.commands().create(PrmCommands.SET_FLOW_TABLE_ENTRY, in);
        return new FlowEntry(table, created.handle(), index);
    }

    @Override
    protected void destroy() {
        var in = PrmCommands.DELETE_FLOW_TABLE_ENTRY.input();
        DeleteFteIn.table_type$set(in, table.type());
        DeleteFteIn.table_id$set(in, table.id());
        DeleteFteIn.flow_index$set(in, id());
        destroy(PrmCommands.DELETE_FLOW_TABLE_ENTRY, in);
    }
}

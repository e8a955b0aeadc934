package io.prmkit.driver.res;

import io.prmkit.driver.cmd.CommandTransport;
import io.prmkit.driver.core.DeviceObject;
import io.prmkit.mlx5.CreateFlowGroupIn;
import io.prmkit.mlx5.CreateFlowGroupOut;
import io.prmkit.mlx5.DestroyFlowGroupIn;
import io.prmkit.mlx5.PrmCommands;
import java.lang.foreign.MemorySegment;
import java.util.function.Consumer;

/**
 * A flow group (PRM CREATE_FLOW_GROUP): entries {@code start..end} (inclusive) of a table that
 * share one match mask. {@code criteria} fills the mask ({@code fte_match_param}) when the group
 * matches on something; with {@code criteriaEnable = 0} every packet matches (a catch-all group).
 */
public final class FlowGroup extends DeviceObject {

    private final FlowTable table;
    private final int start, end;

    private FlowGroup(FlowTable table, CommandTransport.ObjectHandle handle, int id, int start, int end) {
        super(table.commands(), handle, id);
        this.table = table;
        this.start = start;
        this.end = end;
    }

    public static FlowGroup create(FlowTable table, int start, int end, int criteriaEnable, Consumer<MemorySegment> criteria) {
        if (start < 0 || end < start || end >= table.size())
            throw new IllegalArgumentException("flow group " + start + ".." + end + " outside table of " + table.size() + " entries");
        var in = PrmCommands.CREATE_FLOW_GROUP.input();
        CreateFlowGroupIn.table_type$set(in, table.type());
        CreateFlowGroupIn.table_id$set(in, table.id());
        CreateFlowGroupIn.start_flow_index$set(in, start);
        CreateFlowGroupIn.end_flow_index$set(in, end);
        CreateFlowGroupIn.match_criteria_enable$set(in, criteriaEnable);
        if (criteria != null) criteria.accept(CreateFlowGroupIn.match_criteria(in));
        var created = table.commands().create(PrmCommands.CREATE_FLOW_GROUP, in);
        return new FlowGroup(table, created.handle(), CreateFlowGroupOut.group_id(created.out()), start, end);
    }

    public FlowTable table() {
        return table;
    }

    public int start() {
        return start;
    }

    public int end() {
        return end;
    }

    @Override
    protected void destroy() {
        var in = PrmCommands.DESTROY_FLOW_GROUP.input();
        DestroyFlowGroupIn.table_type$set(in, table.type());
        DestroyFlowGroupIn.table_id$set(in, table.id());
        DestroyFlowGroupIn.group_id$set(in, id());
        destroy(PrmCommands.DESTROY_FLOW_GROUP, in);
    }
}

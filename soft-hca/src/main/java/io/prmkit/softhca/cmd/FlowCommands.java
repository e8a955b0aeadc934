package io.prmkit.softhca.cmd;

import io.prmkit.mlx5.AllocFlowCounterIn;
import io.prmkit.mlx5.AllocFlowCounterOut;
import io.prmkit.mlx5.CreateFlowGroupIn;
import io.prmkit.mlx5.CreateFlowGroupOut;
import io.prmkit.mlx5.CreateFlowTableIn;
import io.prmkit.mlx5.CreateFlowTableOut;
import io.prmkit.mlx5.DeallocFlowCounterIn;
import io.prmkit.mlx5.DeleteFteIn;
import io.prmkit.mlx5.DestFormatStruct;
import io.prmkit.mlx5.DestroyFlowGroupIn;
import io.prmkit.mlx5.DestroyFlowTableIn;
import io.prmkit.mlx5.FlowContext;
import io.prmkit.mlx5.FlowContextAction;
import io.prmkit.mlx5.FlowCounterList;
import io.prmkit.mlx5.FlowDestinationType;
import io.prmkit.mlx5.FlowGroupType;
import io.prmkit.mlx5.FlowTableContext;
import io.prmkit.mlx5.FlowTableMissAction;
import io.prmkit.mlx5.FlowTableNicCap;
import io.prmkit.mlx5.FlowTablePropLayout;
import io.prmkit.mlx5.FlowTableType;
import io.prmkit.mlx5.FteMatchParam;
import io.prmkit.mlx5.MatchCriteriaEnable;
import io.prmkit.mlx5.QueryFlowCounterIn;
import io.prmkit.mlx5.QueryFlowCounterOut;
import io.prmkit.mlx5.SetFlowTableRootIn;
import io.prmkit.mlx5.SetFteIn;
import io.prmkit.mlx5.SetFteOpMod;
import io.prmkit.mlx5.TrafficCounter;
import io.prmkit.mlx5.PrmCommands;
import io.prmkit.softhca.device.DeviceObjects.Kind;
import io.prmkit.softhca.cmd.CommandSpec.Phase;
import io.prmkit.softhca.device.Resources;
import java.lang.foreign.MemorySegment;
import java.util.EnumSet;
import java.util.Map;

/**
 * PRM chapter "Flow Table": NIC receive and transmit tables, groups (TCAM sub-tables matching on
 * outer headers and misc parameters), entries (allow, drop, forward to a TIR or a deeper table,
 * count), the root of each domain, and flow counters. Limits from the flow table caps.
 */
final class FlowCommands {
    /** Actions the device models; an entry asking for another is BAD_PARAM. */
    private static final EnumSet<FlowContextAction> ACTIONS =
            EnumSet.of(FlowContextAction.ALLOW, FlowContextAction.DROP, FlowContextAction.FWD_DEST, FlowContextAction.COUNT);
    private static final EnumSet<MatchCriteriaEnable> CRITERIA = EnumSet.of(MatchCriteriaEnable.OUTER_HEADERS, MatchCriteriaEnable.MISC_PARAMETERS);

    private final HcaState hca;

    private FlowCommands(HcaState hca) {
        this.hca = hca;
    }

    static void register(Map<Integer, CommandSpec> specs, HcaState hca) {
        FlowCommands f = new FlowCommands(hca);
        BringUpCommands.put(specs, PrmCommands.CREATE_FLOW_TABLE, Phase.INITIALIZED, f::createTable);
        BringUpCommands.put(specs, PrmCommands.DESTROY_FLOW_TABLE, Phase.INITIALIZED, f::destroyTable);
        BringUpCommands.put(specs, PrmCommands.CREATE_FLOW_GROUP, Phase.INITIALIZED, f::createGroup);
        BringUpCommands.put(specs, PrmCommands.DESTROY_FLOW_GROUP, Phase.INITIALIZED, f::destroyGroup);
        BringUpCommands.put(specs, PrmCommands.SET_FLOW_TABLE_ENTRY, Phase.INITIALIZED, f::setEntry);
        BringUpCommands.put(specs, PrmCommands.DELETE_FLOW_TABLE_ENTRY, Phase.INITIALIZED, f::deleteEntry);
        BringUpCommands.put(specs, PrmCommands.SET_FLOW_TABLE_ROOT, Phase.INITIALIZED, f::setRoot);
        BringUpCommands.put(specs, PrmCommands.ALLOC_FLOW_COUNTER, Phase.INITIALIZED, f::allocCounter);
        BringUpCommands.put(specs, PrmCommands.DEALLOC_FLOW_COUNTER, Phase.INITIALIZED,
                f::deallocCounter);
        BringUpCommands.put(specs, PrmCommands.QUERY_FLOW_COUNTER, Phase.INITIALIZED, f::queryCounter);
    }

    /** The flow table properties page of a table type (receive or transmit). */
    private MemorySegment props(int type) {
        long at = type == FlowTableType.NIC_TX.value ? FlowTableNicCap.flow_table_properties_nic_transmit$BYTE_OFFSET
                : FlowTableNicCap.flow_table_properties_nic_receive$BYTE_OFFSET;
        return hca.capsCurrent.get((int) io.prmkit.mlx5.HcaCapType.FLOW_TABLE.value).asSlice(at, FlowTablePropLayout.SIZE);
    }

    private Resources.FlowTable table(Command c, int type, int id) {
        Resources.FlowTable t = hca.objects.flowTable(id);
        if (t == null || t.tableType != type) throw c.fail(Syndrome.NO_SUCH_OBJECT, "flow table " + id + " of type " + type);
        return t;
    }

    private static void checkType(Command c, int type) {
        if (type != FlowTableType.NIC_RX.value && type != FlowTableType.NIC_TX.value) {
            throw c.fail(Syndrome.BAD_FIELD, "table_type " + type + " (NIC_RX and NIC_TX are modelled)");
        }
    }

    private void createTable(Command c) {
        int type = CreateFlowTableIn.table_type(c.in);
        checkType(c, type);
        MemorySegment ftc = Support.copy(c.in, CreateFlowTableIn.flow_table_context$BYTE_OFFSET, FlowTableContext.SIZE);
        MemorySegment p = props(type);
        if (!FlowTablePropLayout.ft_support(p)) throw c.fail(Syndrome.BAD_FIELD, "flow tables of type " + type + " not supported");
        if (hca.objects.count(Kind.FLOW_TABLE) >= 1L << FlowTablePropLayout.log_max_ft_num(p)) throw c.fail(Syndrome.OUT_OF_NUMBERS, "log_max_ft_num");
        if (FlowTableContext.log_size(ftc) > FlowTablePropLayout.log_max_ft_size(p)) {
            throw c.fail(Syndrome.SIZE_ABOVE_MAX, "log_size " + FlowTableContext.log_size(ftc));
        }
        if (FlowTableContext.level(ftc) > FlowTablePropLayout.max_ft_level(p)) throw c.fail(Syndrome.BAD_FIELD, "level " + FlowTableContext.level(ftc));
        FlowTableMissAction miss = FlowTableContext.table_miss_action$enum(ftc);
        if (miss == FlowTableMissAction.FWD) {
            Resources.FlowTable next = hca.objects.flowTable(FlowTableContext.table_miss_id(ftc));
            if (next == null || next.tableType != type) throw c.fail(Syndrome.BAD_REFERENCE, "miss table " + FlowTableContext.table_miss_id(ftc));
        } else if (miss != FlowTableMissAction.DEF) {
            throw c.fail(Syndrome.BAD_FIELD, "table_miss_action " + FlowTableContext.table_miss_action(ftc));
        }
        if (FlowTableContext.reformat_en(ftc) || FlowTableContext.decap_en(ftc) || FlowTableContext.sw_owner(ftc)) {
            throw c.fail(Syndrome.BAD_FIELD, "reformat, decap and software-owned tables are not modelled");
        }
        int id = hca.nextNumber("flow_table", 1);
        hca.objects.add(new Resources.FlowTable(id, type, ftc, 1 << FlowTableContext.log_size(ftc)));
        CreateFlowTableOut.Device.table_id$set(c.out, id);
    }

    private void destroyTable(Command c) {
        Resources.FlowTable t = table(c, DestroyFlowTableIn.table_type(c.in), DestroyFlowTableIn.table_id(c.in));
        String user = hca.objects.usedBy(Kind.FLOW_TABLE, t.tableId);
        if (user != null) throw c.fail(Syndrome.OBJECT_IN_USE, "table " + t.tableId + " " + user);
        if (t.groupCount() > 0) throw c.fail(Syndrome.OBJECT_IN_USE, "table " + t.tableId + " still has " + t.groupCount() + " groups");
        hca.objects.destroy(Kind.FLOW_TABLE, t.tableId);
    }

    private void createGroup(Command c) {
        Resources.FlowTable t = table(c, CreateFlowGroupIn.table_type(c.in), CreateFlowGroupIn.table_id(c.in));
        if (CreateFlowGroupIn.group_type$enum(c.in) != FlowGroupType.TCAM_SUBTABLE) throw c.fail(Syndrome.BAD_FIELD, "group_type (TCAM only)");
        long start = Integer.toUnsignedLong(CreateFlowGroupIn.start_flow_index(c.in));
        long end = Integer.toUnsignedLong(CreateFlowGroupIn.end_flow_index(c.in));
        if (start > end || end >= t.size) throw c.fail(Syndrome.BAD_INDEX, "group " + start + ".." + end + " in a table of " + t.size);
        Resources.FlowGroup overlap = t.overlapping(start, end);
        if (overlap != null) throw c.fail(Syndrome.INDEX_IN_USE, "overlaps group " + overlap.groupId());
        int enable = CreateFlowGroupIn.match_criteria_enable(c.in);
        if (!CRITERIA.containsAll(MatchCriteriaEnable.of(enable)) || MatchCriteriaEnable.maskOf(MatchCriteriaEnable.of(enable)) != enable) {
            throw c.fail(Syndrome.BAD_FIELD, "match_criteria_enable 0x" + Integer.toHexString(enable) + " (outer headers and misc are modelled)");
        }
        MemorySegment criteria = Support.copy(c.in, CreateFlowGroupIn.match_criteria$BYTE_OFFSET, FteMatchParam.SIZE);
        int id = hca.nextNumber("flow_group", 1);
        t.add(new Resources.FlowGroup(id, (int) start, (int) end, enable, criteria));
        CreateFlowGroupOut.Device.group_id$set(c.out, id);
    }

    private void destroyGroup(Command c) {
        Resources.FlowTable t = table(c, DestroyFlowGroupIn.table_type(c.in), DestroyFlowGroupIn.table_id(c.in));
        int id = DestroyFlowGroupIn.group_id(c.in);
        Resources.FlowGroup g = t.group(id);
        if (g == null) throw c.fail(Syndrome.NO_SUCH_OBJECT, "group " + id);
        if (t.hasEntries(g.start(), g.end())) throw c.fail(Syndrome.OBJECT_IN_USE, "group " + id + " still has entries");
        t.removeGroup(id);
    }

    private void setEntry(Command c) {
        Resources.FlowTable t = table(c, SetFteIn.table_type(c.in), SetFteIn.table_id(c.in));
        SetFteOpMod mod = SetFteIn.op_mod$enum(c.in);
        if (mod == null) throw c.fail(Syndrome.BAD_OP_MOD, "op_mod 0x" + Integer.toHexString(c.opMod));
        long index = Integer.toUnsignedLong(SetFteIn.flow_index(c.in));
        long fc = SetFteIn.flow_context$BYTE_OFFSET;
        int groupId = FlowContext.group_id(c.in, fc);
        Resources.FlowGroup g = t.group(groupId);
        if (g == null) throw c.fail(Syndrome.BAD_REFERENCE, "group " + groupId);
        if (index < g.start() || index > g.end()) throw c.fail(Syndrome.BAD_INDEX, "flow_index " + index + " outside group " + g.start() + ".." + g.end());
        boolean exists = t.entry((int) index) != null;
        if (mod == SetFteOpMod.NEW && exists) throw c.fail(Syndrome.INDEX_IN_USE, "flow_index " + index);
        if (mod != SetFteOpMod.values()[0] && !exists) throw c.fail(Syndrome.NO_SUCH_OBJECT, "flow_index " + index);
        int actionBits = FlowContext.action(c.in, fc);
        EnumSet<FlowContextAction> actions = FlowContextAction.of(actionBits);
        if (FlowContextAction.maskOf(actions) != actionBits || !ACTIONS.containsAll(actions) || actions.isEmpty()) {
            throw c.fail(Syndrome.BAD_FIELD, "action 0x" + Integer.toHexString(actionBits) + " (allow, drop, forward, count)");
        }
        if (actions.contains(FlowContextAction.DROP) && actions.contains(FlowContextAction.FWD_DEST)) throw c.fail(Syndrome.BAD_FIELD, "drop and forward");
        if (FlowContext.extended_destination(c.in, fc)) throw c.fail(Syndrome.BAD_FIELD, "extended destinations are not modelled");
        int dests = FlowContext.destination_list_size(c.in, fc);
        int counters = FlowContext.flow_counter_list_size(c.in, fc);
        if (actions.contains(FlowContextAction.FWD_DEST) != (dests > 0)) throw c.fail(Syndrome.BAD_FIELD, dests + " destinations for action 0x" + Integer.toHexString(actionBits));
        if (actions.contains(FlowContextAction.COUNT) != (counters > 0)) throw c.fail(Syndrome.BAD_FIELD, counters + " counters for action 0x" + Integer.toHexString(actionBits));
        long list = fc + FlowContext.destination$BYTE_OFFSET;
        long entryBytes = DestFormatStruct.SIZE;
        if (c.inLength() < list + (dests + (long) counters) * entryBytes) throw c.fail(Syndrome.INPUT_TOO_SHORT, (dests + counters) + " destination entries");
        int level = FlowTableContext.level(t.context);
        for (int i = 0; i < dests; i++) {
            long at = list + i * entryBytes;
            FlowDestinationType type = DestFormatStruct.destination_type$enum(c.in, at);
            int id = DestFormatStruct.destination_id(c.in, at);
            if (type == FlowDestinationType.TIR) {
                if (!hca.objects.has(Kind.TIR, id)) throw c.fail(Syndrome.BAD_REFERENCE, "TIR " + id);
            } else if (type == FlowDestinationType.FLOW_TABLE) {
                Resources.FlowTable next = hca.objects.flowTable(id);
                if (next == null || next.tableType != t.tableType) throw c.fail(Syndrome.BAD_REFERENCE, "flow table " + id);
                if (FlowTableContext.level(next.context) <= level && !SetFteIn.ignore_flow_level(c.in)) {
                    throw c.fail(Syndrome.BAD_FIELD, "flow table " + id + " is not deeper than level " + level);
                }
            } else {
                throw c.fail(Syndrome.BAD_FIELD, "destination type " + DestFormatStruct.destination_type(c.in, at) + " (TIR or flow table)");
            }
        }
        for (int i = 0; i < counters; i++) {
            int id = FlowCounterList.flow_counter_id(c.in, list + (dests + i) * entryBytes);
            if (!hca.objects.has(Kind.FLOW_COUNTER, id)) throw c.fail(Syndrome.BAD_REFERENCE, "flow counter " + id);
        }
        long size = Math.min(c.inLength() - fc, FlowContext.destination$BYTE_OFFSET + (dests + (long) counters) * entryBytes);
        t.set(new Resources.FlowEntry((int) index, groupId, Support.copy(c.in, fc, size)));
    }

    private void deleteEntry(Command c) {
        Resources.FlowTable t = table(c, DeleteFteIn.table_type(c.in), DeleteFteIn.table_id(c.in));
        int index = DeleteFteIn.flow_index(c.in);
        if (!t.removeEntry(index)) throw c.fail(Syndrome.NO_SUCH_OBJECT, "flow_index " + Integer.toUnsignedString(index));
    }

    private void setRoot(Command c) {
        int type = SetFlowTableRootIn.table_type(c.in);
        checkType(c, type);
        if (c.opMod == 1) {
            // op_mod 1 disconnects the domain's root (Linux mlx5_cmd_update_root_ft with disconnect), so it can be destroyed.
            if (type == FlowTableType.NIC_RX.value) hca.objects.setRxRoot(-1);
            else hca.objects.setTxRoot(-1);
            return;
        }
        Resources.FlowTable t = table(c, type, SetFlowTableRootIn.table_id(c.in));
        if (type == FlowTableType.NIC_RX.value) hca.objects.setRxRoot(t.tableId);
        else hca.objects.setTxRoot(t.tableId);
    }

    private void allocCounter(Command c) {
        if (AllocFlowCounterIn.flow_counter_bulk_log_size(c.in) != 0 || AllocFlowCounterIn.flow_counter_bulk(c.in) != 0) {
            throw c.fail(Syndrome.BAD_FIELD, "bulk flow counters are not modelled");
        }
        int id = hca.nextNumber("flow_counter", 1);
        hca.objects.add(new Resources.FlowCounter(id));
        AllocFlowCounterOut.Device.flow_counter_id$set(c.out, id);
    }

    private void deallocCounter(Command c) {
        int id = DeallocFlowCounterIn.flow_counter_id(c.in);
        if (!hca.objects.has(Kind.FLOW_COUNTER, id)) throw c.fail(Syndrome.NO_SUCH_OBJECT, "flow counter " + id);
        hca.objects.destroy(Kind.FLOW_COUNTER, id);
    }

    private void queryCounter(Command c) {
        int first = QueryFlowCounterIn.flow_counter_id(c.in);
        int n = Math.max(1, QueryFlowCounterIn.num_of_counters(c.in));
        long at = QueryFlowCounterOut.flow_statistics$BYTE_OFFSET;
        if (c.outLength() < at + n * TrafficCounter.SIZE) throw c.fail(Syndrome.OUTPUT_TOO_SHORT, n + " counters");
        for (int i = 0; i < n; i++) {
            Resources.FlowCounter v = hca.objects.flowCounter(first + i);
            if (v == null) throw c.fail(Syndrome.NO_SUCH_OBJECT, "flow counter " + (first + i));
            TrafficCounter.packets$set(c.out, at + i * TrafficCounter.SIZE, v.packets());
            TrafficCounter.octets$set(c.out, at + i * TrafficCounter.SIZE, v.octets());
            if (QueryFlowCounterIn.clear_(c.in)) v.clear();
        }
    }
}

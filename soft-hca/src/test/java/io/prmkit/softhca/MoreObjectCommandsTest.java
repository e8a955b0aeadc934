package io.prmkit.softhca;

import static io.prmkit.softhca.Cmds.assertFails;
import static io.prmkit.softhca.Cmds.header;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.prmkit.mlx5.AllocFlowCounterIn;
import io.prmkit.mlx5.AllocFlowCounterOut;
import io.prmkit.mlx5.AllocUarIn;
import io.prmkit.mlx5.AllocUarOut;
import io.prmkit.mlx5.CmdOpcode;
import io.prmkit.mlx5.DeallocFlowCounterIn;
import io.prmkit.mlx5.DeallocFlowCounterOut;
import io.prmkit.mlx5.DestroyFlowGroupIn;
import io.prmkit.mlx5.DestroyFlowGroupOut;
import io.prmkit.mlx5.DestroyFlowTableIn;
import io.prmkit.mlx5.DestroyFlowTableOut;
import io.prmkit.mlx5.FlowContext;
import io.prmkit.mlx5.FlowContextAction;
import io.prmkit.mlx5.FlowCounterList;
import io.prmkit.mlx5.FlowTableType;
import io.prmkit.mlx5.ModifyRqtIn;
import io.prmkit.mlx5.ModifyRqtOut;
import io.prmkit.mlx5.QueryCqIn;
import io.prmkit.mlx5.QueryCqOut;
import io.prmkit.mlx5.QueryFlowCounterIn;
import io.prmkit.mlx5.QueryFlowCounterOut;
import io.prmkit.mlx5.QueryQpIn;
import io.prmkit.mlx5.QueryQpOut;
import io.prmkit.mlx5.QueryRqIn;
import io.prmkit.mlx5.QueryRqOut;
import io.prmkit.mlx5.QueryRqtIn;
import io.prmkit.mlx5.QueryRqtOut;
import io.prmkit.mlx5.QuerySqIn;
import io.prmkit.mlx5.QuerySqOut;
import io.prmkit.mlx5.QueryTirIn;
import io.prmkit.mlx5.QueryTirOut;
import io.prmkit.mlx5.QueryTisIn;
import io.prmkit.mlx5.QueryTisOut;
import io.prmkit.mlx5.RqNum;
import io.prmkit.mlx5.RqtBitmask;
import io.prmkit.mlx5.Rqtc;
import io.prmkit.mlx5.SetFlowTableRootIn;
import io.prmkit.mlx5.SetFlowTableRootOut;
import io.prmkit.mlx5.SetFteIn;
import io.prmkit.mlx5.TrafficCounter;
import io.prmkit.softhca.cmd.Syndrome;
import java.lang.foreign.MemorySegment;
import org.junit.jupiter.api.Test;

/** The bad cases the object tests leave out: unknown numbers, exhausted limits; flow counters; destroying a table. */
class MoreObjectCommandsTest {

    @Test
    void queriesOfUnknownNumbersAreBadResource() {
        try (TestHost h = ObjectCommandsTest.up()) {
            MemorySegment cq = header(CmdOpcode.QUERY_CQ, QueryCqIn.SIZE);
            QueryCqIn.cqn$set(cq, 0x3ff);
            assertFails(h.exec(cq, QueryCqOut.SIZE), Syndrome.NO_SUCH_OBJECT, CmdOpcode.QUERY_CQ);
            MemorySegment sq = header(CmdOpcode.QUERY_SQ, QuerySqIn.SIZE);
            QuerySqIn.sqn$set(sq, 5);
            assertFails(h.exec(sq, QuerySqOut.SIZE), Syndrome.NO_SUCH_OBJECT, CmdOpcode.QUERY_SQ);
            MemorySegment rq = header(CmdOpcode.QUERY_RQ, QueryRqIn.SIZE);
            QueryRqIn.rqn$set(rq, 5);
            assertFails(h.exec(rq, QueryRqOut.SIZE), Syndrome.NO_SUCH_OBJECT, CmdOpcode.QUERY_RQ);
            MemorySegment tis = header(CmdOpcode.QUERY_TIS, QueryTisIn.SIZE);
            QueryTisIn.tisn$set(tis, 5);
            assertFails(h.exec(tis, QueryTisOut.SIZE), Syndrome.NO_SUCH_OBJECT, CmdOpcode.QUERY_TIS);
            MemorySegment tir = header(CmdOpcode.QUERY_TIR, QueryTirIn.SIZE);
            QueryTirIn.tirn$set(tir, 5);
            assertFails(h.exec(tir, QueryTirOut.SIZE), Syndrome.NO_SUCH_OBJECT, CmdOpcode.QUERY_TIR);
            MemorySegment rqt = header(CmdOpcode.QUERY_RQT, QueryRqtIn.SIZE);
            QueryRqtIn.rqtn$set(rqt, 5);
            assertFails(h.exec(rqt, QueryRqtOut.SIZE), Syndrome.NO_SUCH_OBJECT, CmdOpcode.QUERY_RQT);
            MemorySegment qp = header(CmdOpcode.QUERY_QP, QueryQpIn.SIZE);
            QueryQpIn.qpn$set(qp, 5);
            assertFails(h.exec(qp, QueryQpOut.SIZE), Syndrome.NO_SUCH_OBJECT, CmdOpcode.QUERY_QP);
        }
    }

    @Test
    void modifyRqtChecksItsList() {
        try (TestHost h = ObjectCommandsTest.up()) {
            ObjectCommandsTest.Base b = ObjectCommandsTest.Base.of(h);
            int rq = Objs.rq(h, Objs.rqIn(h, b.cqn(), b.pd(), 0));
            int rqt = Objs.rqt(h, rq);
            MemorySegment mod = header(CmdOpcode.MODIFY_RQT, ModifyRqtIn.SIZE + 8);
            ModifyRqtIn.rqtn$set(mod, rqt);
            RqtBitmask.rqn_list$set(mod, ModifyRqtIn.bitmask$BYTE_OFFSET, true);
            long ctx = ModifyRqtIn.ctx$BYTE_OFFSET;
            Rqtc.rqt_max_size$set(mod, ctx, 2);
            Rqtc.rqt_actual_size$set(mod, ctx, 2);
            RqNum.rq_num$set(mod, ctx + Rqtc.rq_num$offset(0), rq);
            RqNum.rq_num$set(mod, ctx + Rqtc.rq_num$offset(1), rq);
            assertFails(h.exec(mod, ModifyRqtOut.SIZE), Syndrome.BAD_FIELD, CmdOpcode.MODIFY_RQT); // more than the RQT was made for
            Rqtc.rqt_actual_size$set(mod, ctx, 1);
            RqNum.rq_num$set(mod, ctx + Rqtc.rq_num$offset(0), rq + 40);
            assertFails(h.exec(mod, ModifyRqtOut.SIZE), Syndrome.BAD_REFERENCE, CmdOpcode.MODIFY_RQT);
            ModifyRqtIn.rqtn$set(mod, rqt + 40);
            assertFails(h.exec(mod, ModifyRqtOut.SIZE), Syndrome.NO_SUCH_OBJECT, CmdOpcode.MODIFY_RQT);
        }
    }

    @Test
    void allocationLimits() {
        CapsProfile caps = CapsProfile.defaults().withGeneral("log_max_transport_domain", 0).withGeneral("max_qp_cnt", 1);
        try (TestHost h = TestHost.started(new SoftHca.Options().caps(caps).uars(1), ExecutionMode.STEP)) {
            Cmds.bringUp(h);
            Objs.uar(h);
            assertFails(h.exec(header(CmdOpcode.ALLOC_UAR, AllocUarIn.SIZE), AllocUarOut.SIZE), Syndrome.OUT_OF_NUMBERS, CmdOpcode.ALLOC_UAR);
            Objs.td(h);
            assertFails(h.exec(header(CmdOpcode.ALLOC_TRANSPORT_DOMAIN, 16), 16), Syndrome.OUT_OF_NUMBERS, CmdOpcode.ALLOC_TRANSPORT_DOMAIN);
            Objs.qCounter(h);
            assertFails(h.exec(header(CmdOpcode.ALLOC_Q_COUNTER, 16), 16), Syndrome.OUT_OF_NUMBERS, CmdOpcode.ALLOC_Q_COUNTER);
        }
    }

    @Test
    void flowCountersAndDestroyingARootTable() {
        try (TestHost h = ObjectCommandsTest.up()) {
            ObjectCommandsTest.Base b = ObjectCommandsTest.Base.of(h);
            int counter = AllocFlowCounterOut.flow_counter_id(
                    h.exec(header(CmdOpcode.ALLOC_FLOW_COUNTER, AllocFlowCounterIn.SIZE), AllocFlowCounterOut.SIZE).ok().out());
            MemorySegment bulk = header(CmdOpcode.ALLOC_FLOW_COUNTER, AllocFlowCounterIn.SIZE);
            AllocFlowCounterIn.flow_counter_bulk_log_size$set(bulk, 2);
            assertFails(h.exec(bulk, AllocFlowCounterOut.SIZE), Syndrome.BAD_FIELD, CmdOpcode.ALLOC_FLOW_COUNTER);

            int rq = Objs.rq(h, Objs.rqIn(h, b.cqn(), b.pd(), 0));
            int tir = Objs.tir(h, Objs.tirDirectIn(b.td(), rq));
            int table = Objs.flowTable(h, Objs.flowTableIn(FlowTableType.NIC_RX, 4, 0));
            int group = Objs.flowGroup(h, Objs.flowGroupIn(table, 0, 3));
            MemorySegment fte = Objs.fteToTirIn(table, group, 0, tir);
            MemorySegment counted = TestHost.in(fte.byteSize() + 8);
            MemorySegment.copy(fte, 0, counted, 0, fte.byteSize());
            long fc = SetFteIn.flow_context$BYTE_OFFSET;
            FlowContext.action$set(counted, fc, (int) (FlowContextAction.FWD_DEST$MASK | FlowContextAction.COUNT$MASK));
            FlowContext.flow_counter_list_size$set(counted, fc, 1);
            FlowCounterList.flow_counter_id$set(counted, fc + FlowContext.destination$BYTE_OFFSET + 8, counter + 9);
            assertFails(Objs.fte(h, counted), Syndrome.BAD_REFERENCE, CmdOpcode.SET_FLOW_TABLE_ENTRY);
            FlowCounterList.flow_counter_id$set(counted, fc + FlowContext.destination$BYTE_OFFSET + 8, counter);
            Objs.fte(h, counted).ok();

            MemorySegment q = header(CmdOpcode.QUERY_FLOW_COUNTER, QueryFlowCounterIn.SIZE);
            QueryFlowCounterIn.flow_counter_id$set(q, counter);
            MemorySegment out = h.exec(q, QueryFlowCounterOut.SIZE + TrafficCounter.SIZE).ok().out();
            assertEquals(0, TrafficCounter.packets(out, QueryFlowCounterOut.flow_statistics$BYTE_OFFSET));
            assertFails(h.exec(q, QueryFlowCounterOut.SIZE), Syndrome.OUTPUT_TOO_SHORT, CmdOpcode.QUERY_FLOW_COUNTER);
            QueryFlowCounterIn.flow_counter_id$set(q, counter + 9);
            assertFails(h.exec(q, QueryFlowCounterOut.SIZE + TrafficCounter.SIZE), Syndrome.NO_SUCH_OBJECT, CmdOpcode.QUERY_FLOW_COUNTER);

            MemorySegment root = header(CmdOpcode.SET_FLOW_TABLE_ROOT, SetFlowTableRootIn.SIZE);
            SetFlowTableRootIn.table_type$set(root, FlowTableType.NIC_RX);
            SetFlowTableRootIn.table_id$set(root, table);
            h.exec(root, SetFlowTableRootOut.SIZE).ok();
            MemorySegment del = header(CmdOpcode.DELETE_FLOW_TABLE_ENTRY, io.prmkit.mlx5.DeleteFteIn.SIZE);
            io.prmkit.mlx5.DeleteFteIn.table_type$set(del, FlowTableType.NIC_RX);
            io.prmkit.mlx5.DeleteFteIn.table_id$set(del, table);
            h.exec(del, io.prmkit.mlx5.DeleteFteOut.SIZE).ok();
            MemorySegment dg = header(CmdOpcode.DESTROY_FLOW_GROUP, DestroyFlowGroupIn.SIZE);
            DestroyFlowGroupIn.table_type$set(dg, FlowTableType.NIC_RX);
            DestroyFlowGroupIn.table_id$set(dg, table);
            DestroyFlowGroupIn.group_id$set(dg, group);
            h.exec(dg, DestroyFlowGroupOut.SIZE).ok();
            MemorySegment dt = header(CmdOpcode.DESTROY_FLOW_TABLE, DestroyFlowTableIn.SIZE);
            DestroyFlowTableIn.table_type$set(dt, FlowTableType.NIC_RX);
            DestroyFlowTableIn.table_id$set(dt, table);
            assertFails(h.exec(dt, DestroyFlowTableOut.SIZE), Syndrome.OBJECT_IN_USE, CmdOpcode.DESTROY_FLOW_TABLE);
            SetFlowTableRootIn.op_mod$set(root, 1); // disconnect the root
            h.exec(root, SetFlowTableRootOut.SIZE).ok();
            h.exec(dt, DestroyFlowTableOut.SIZE).ok();
            assertFails(h.exec(dt, DestroyFlowTableOut.SIZE), Syndrome.NO_SUCH_OBJECT, CmdOpcode.DESTROY_FLOW_TABLE);

            MemorySegment d = header(CmdOpcode.DEALLOC_FLOW_COUNTER, DeallocFlowCounterIn.SIZE);
            DeallocFlowCounterIn.flow_counter_id$set(d, counter);
            h.exec(d, DeallocFlowCounterOut.SIZE).ok();
            assertFails(h.exec(d, DeallocFlowCounterOut.SIZE), Syndrome.NO_SUCH_OBJECT, CmdOpcode.DEALLOC_FLOW_COUNTER);
        }
    }
}

package io.prmkit.softhca;

import static io.prmkit.softhca.Cmds.header;

import io.prmkit.mlx5.AllocPdIn;
import io.prmkit.mlx5.AllocPdOut;
import io.prmkit.mlx5.AllocQCounterIn;
import io.prmkit.mlx5.AllocQCounterOut;
import io.prmkit.mlx5.AllocTransportDomainIn;
import io.prmkit.mlx5.AllocTransportDomainOut;
import io.prmkit.mlx5.AllocUarIn;
import io.prmkit.mlx5.AllocUarOut;
import io.prmkit.mlx5.CmdOpcode;
import io.prmkit.mlx5.CmdPas;
import io.prmkit.mlx5.Cqc;
import io.prmkit.mlx5.CreateCqIn;
import io.prmkit.mlx5.CreateCqOut;
import io.prmkit.mlx5.CreateEqIn;
import io.prmkit.mlx5.CreateEqOut;
import io.prmkit.mlx5.CreateFlowGroupIn;
import io.prmkit.mlx5.CreateFlowGroupOut;
import io.prmkit.mlx5.CreateFlowTableIn;
import io.prmkit.mlx5.CreateFlowTableOut;
import io.prmkit.mlx5.CreateRqIn;
import io.prmkit.mlx5.CreateRqOut;
import io.prmkit.mlx5.CreateRqtIn;
import io.prmkit.mlx5.CreateRqtOut;
import io.prmkit.mlx5.CreateSqIn;
import io.prmkit.mlx5.CreateSqOut;
import io.prmkit.mlx5.CreateTirIn;
import io.prmkit.mlx5.CreateTirOut;
import io.prmkit.mlx5.CreateTisIn;
import io.prmkit.mlx5.CreateTisOut;
import io.prmkit.mlx5.DestFormatStruct;
import io.prmkit.mlx5.Eqc;
import io.prmkit.mlx5.FlowContext;
import io.prmkit.mlx5.FlowContextAction;
import io.prmkit.mlx5.FlowDestinationType;
import io.prmkit.mlx5.FlowTableContext;
import io.prmkit.mlx5.FlowTableType;
import io.prmkit.mlx5.MatchCriteriaEnable;
import io.prmkit.mlx5.ModifyRqIn;
import io.prmkit.mlx5.ModifyRqOut;
import io.prmkit.mlx5.ModifySqIn;
import io.prmkit.mlx5.ModifySqOut;
import io.prmkit.mlx5.RqNum;
import io.prmkit.mlx5.Rqc;
import io.prmkit.mlx5.Rqtc;
import io.prmkit.mlx5.RxHashFn;
import io.prmkit.mlx5.SetFteIn;
import io.prmkit.mlx5.SetFteOut;
import io.prmkit.mlx5.Sqc;
import io.prmkit.mlx5.Tirc;
import io.prmkit.mlx5.TirDispType;
import io.prmkit.mlx5.Tisc;
import io.prmkit.mlx5.Wq;
import io.prmkit.mlx5.WqType;
import io.prmkit.platform.DmaRegion;
import java.lang.foreign.MemorySegment;

/** Test-side builders of object commands: good inputs (generated setters only) that tests run or spoil. */
final class Objs {
    private Objs() {}

    static int uar(TestHost h) {
        return AllocUarOut.uar(h.exec(header(CmdOpcode.ALLOC_UAR, AllocUarIn.SIZE), AllocUarOut.SIZE).ok().out());
    }

    static int pd(TestHost h) {
        return AllocPdOut.pd(h.exec(header(CmdOpcode.ALLOC_PD, AllocPdIn.SIZE), AllocPdOut.SIZE).ok().out());
    }

    static int td(TestHost h) {
        return AllocTransportDomainOut.transport_domain(
                h.exec(header(CmdOpcode.ALLOC_TRANSPORT_DOMAIN, AllocTransportDomainIn.SIZE), AllocTransportDomainOut.SIZE).ok().out());
    }

    static int qCounter(TestHost h) {
        return AllocQCounterOut.counter_set_id(h.exec(header(CmdOpcode.ALLOC_Q_COUNTER, AllocQCounterIn.SIZE), AllocQCounterOut.SIZE).ok().out());
    }

    /** One DMA page for a ring (its bus address is the single page address). */
    static DmaRegion page(TestHost h) {
        return h.f.dma().allocate(4096, 4096);
    }

    static MemorySegment eqIn(TestHost h, int uar, int logSize, int vector, long bitmask) {
        MemorySegment in = header(CmdOpcode.CREATE_EQ, CreateEqIn.SIZE + 8);
        long ctx = CreateEqIn.eq_context_entry$BYTE_OFFSET;
        Eqc.log_eq_size$set(in, ctx, logSize);
        Eqc.uar_page$set(in, ctx, uar);
        Eqc.intr$set(in, ctx, vector);
        CreateEqIn.event_bitmask$set(in, 0, bitmask);
        CreateEqIn.pas$set(in, 0, page(h).busAddress());
        return in;
    }

    static int eq(TestHost h, MemorySegment in) {
        return CreateEqOut.eq_number(h.exec(in, CreateEqOut.SIZE).ok().out());
    }

    static MemorySegment cqIn(TestHost h, int uar, int eqn, int logSize) {
        MemorySegment in = header(CmdOpcode.CREATE_CQ, CreateCqIn.SIZE + 8);
        long ctx = CreateCqIn.cq_context$BYTE_OFFSET;
        Cqc.log_cq_size$set(in, ctx, logSize);
        Cqc.uar_page$set(in, ctx, uar);
        Cqc.c_eqn_or_apu_element$set(in, ctx, eqn);
        Cqc.dbr_addr$set(in, ctx, page(h).busAddress());
        CreateCqIn.pas$set(in, 0, page(h).busAddress());
        return in;
    }

    static int cq(TestHost h, MemorySegment in) {
        return CreateCqOut.cqn(h.exec(in, CreateCqOut.SIZE).ok().out());
    }

    static MemorySegment tisIn(int td) {
        MemorySegment in = header(CmdOpcode.CREATE_TIS, CreateTisIn.SIZE);
        Tisc.transport_domain$set(in, CreateTisIn.ctx$BYTE_OFFSET, td);
        return in;
    }

    static int tis(TestHost h, int td) {
        return CreateTisOut.tisn(h.exec(tisIn(td), CreateTisOut.SIZE).ok().out());
    }

    /** A work queue of 2^logSize entries of 2^logStride bytes in one page, its doorbell record in another. */
    static void wq(TestHost h, MemorySegment in, long wq, int pd, int uar, int logSize, int logStride) {
        Wq.wq_type$set(in, wq, WqType.CYCLIC);
        Wq.pd$set(in, wq, pd);
        Wq.uar_page$set(in, wq, uar);
        Wq.dbr_addr$set(in, wq, page(h).busAddress());
        Wq.log_wq_stride$set(in, wq, logStride);
        Wq.log_wq_sz$set(in, wq, logSize);
        long pa = page(h).busAddress();
        MemorySegment pas = Wq.pas$elem(in, wq, 0);
        CmdPas.pa_h$set(pas, (int) (pa >>> 32));
        CmdPas.pa_l$setUnchecked(pas, (int) (pa >>> 12));
    }

    static MemorySegment sqIn(TestHost h, int cqn, int tisn, int pd, int uar) {
        MemorySegment in = header(CmdOpcode.CREATE_SQ, CreateSqIn.SIZE + 8);
        long ctx = CreateSqIn.ctx$BYTE_OFFSET;
        Sqc.cqn$set(in, ctx, cqn);
        Sqc.tis_lst_sz$set(in, ctx, 1);
        Sqc.tis_num_0$set(in, ctx, tisn);
        wq(h, in, ctx + Sqc.wq$BYTE_OFFSET, pd, uar, 6, 6);
        return in;
    }

    static int sq(TestHost h, MemorySegment in) {
        return CreateSqOut.sqn(h.exec(in, CreateSqOut.SIZE).ok().out());
    }

    static MemorySegment rqIn(TestHost h, int cqn, int pd, int counter) {
        MemorySegment in = header(CmdOpcode.CREATE_RQ, CreateRqIn.SIZE + 8);
        long ctx = CreateRqIn.ctx$BYTE_OFFSET;
        Rqc.cqn$set(in, ctx, cqn);
        Rqc.counter_set_id$set(in, ctx, counter);
        wq(h, in, ctx + Rqc.wq$BYTE_OFFSET, pd, 0, 6, 4);
        return in;
    }

    static int rq(TestHost h, MemorySegment in) {
        return CreateRqOut.rqn(h.exec(in, CreateRqOut.SIZE).ok().out());
    }

    static TestHost.Result modifySq(TestHost h, int sqn, int from, int to) {
        MemorySegment in = header(CmdOpcode.MODIFY_SQ, ModifySqIn.SIZE);
        ModifySqIn.sqn$set(in, sqn);
        ModifySqIn.sq_state$set(in, from);
        Sqc.state$set(in, ModifySqIn.ctx$BYTE_OFFSET, to);
        return h.exec(in, ModifySqOut.SIZE);
    }

    static TestHost.Result modifyRq(TestHost h, int rqn, int from, int to) {
        MemorySegment in = header(CmdOpcode.MODIFY_RQ, ModifyRqIn.SIZE);
        ModifyRqIn.rqn$set(in, rqn);
        ModifyRqIn.rq_state$set(in, from);
        Rqc.state$set(in, ModifyRqIn.ctx$BYTE_OFFSET, to);
        return h.exec(in, ModifyRqOut.SIZE);
    }

    static MemorySegment rqtIn(int... rqns) {
        MemorySegment in = header(CmdOpcode.CREATE_RQT, CreateRqtIn.SIZE + 4L * rqns.length);
        long ctx = CreateRqtIn.rqt_context$BYTE_OFFSET;
        Rqtc.rqt_max_size$set(in, ctx, rqns.length);
        Rqtc.rqt_actual_size$set(in, ctx, rqns.length);
        for (int i = 0; i < rqns.length; i++) RqNum.rq_num$set(in, ctx + Rqtc.rq_num$offset(i), rqns[i]);
        return in;
    }

    static int rqt(TestHost h, int... rqns) {
        return CreateRqtOut.rqtn(h.exec(rqtIn(rqns), CreateRqtOut.SIZE).ok().out());
    }

    static MemorySegment tirDirectIn(int td, int rqn) {
        MemorySegment in = header(CmdOpcode.CREATE_TIR, CreateTirIn.SIZE);
        long ctx = CreateTirIn.ctx$BYTE_OFFSET;
        Tirc.transport_domain$set(in, ctx, td);
        Tirc.disp_type$set(in, ctx, TirDispType.DIRECT);
        Tirc.inline_rqn$set(in, ctx, rqn);
        return in;
    }

    static MemorySegment tirIndirectIn(int td, int rqtn) {
        MemorySegment in = header(CmdOpcode.CREATE_TIR, CreateTirIn.SIZE);
        long ctx = CreateTirIn.ctx$BYTE_OFFSET;
        Tirc.transport_domain$set(in, ctx, td);
        Tirc.disp_type$set(in, ctx, TirDispType.INDIRECT);
        Tirc.indirect_table$set(in, ctx, rqtn);
        Tirc.rx_hash_fn$set(in, ctx, RxHashFn.TOEPLITZ);
        return in;
    }

    static int tir(TestHost h, MemorySegment in) {
        return CreateTirOut.tirn(h.exec(in, CreateTirOut.SIZE).ok().out());
    }

    static MemorySegment flowTableIn(FlowTableType type, int logSize, int level) {
        MemorySegment in = header(CmdOpcode.CREATE_FLOW_TABLE, CreateFlowTableIn.SIZE);
        CreateFlowTableIn.table_type$set(in, type);
        long ctx = CreateFlowTableIn.flow_table_context$BYTE_OFFSET;
        FlowTableContext.log_size$set(in, ctx, logSize);
        FlowTableContext.level$set(in, ctx, level);
        return in;
    }

    static int flowTable(TestHost h, MemorySegment in) {
        return CreateFlowTableOut.table_id(h.exec(in, CreateFlowTableOut.SIZE).ok().out());
    }

    static MemorySegment flowGroupIn(int table, int start, int end) {
        MemorySegment in = header(CmdOpcode.CREATE_FLOW_GROUP, CreateFlowGroupIn.SIZE);
        CreateFlowGroupIn.table_type$set(in, FlowTableType.NIC_RX);
        CreateFlowGroupIn.table_id$set(in, table);
        CreateFlowGroupIn.start_flow_index$set(in, start);
        CreateFlowGroupIn.end_flow_index$set(in, end);
        CreateFlowGroupIn.match_criteria_enable$set(in, (int) MatchCriteriaEnable.OUTER_HEADERS$MASK);
        return in;
    }

    static int flowGroup(TestHost h, MemorySegment in) {
        return CreateFlowGroupOut.group_id(h.exec(in, CreateFlowGroupOut.SIZE).ok().out());
    }

    /** SET_FLOW_TABLE_ENTRY forwarding to one TIR. */
    static MemorySegment fteToTirIn(int table, int group, int index, int tirn) {
        MemorySegment in = header(CmdOpcode.SET_FLOW_TABLE_ENTRY, SetFteIn.SIZE + DestFormatStruct.SIZE);
        SetFteIn.table_type$set(in, FlowTableType.NIC_RX);
        SetFteIn.table_id$set(in, table);
        SetFteIn.flow_index$set(in, index);
        long fc = SetFteIn.flow_context$BYTE_OFFSET;
        FlowContext.group_id$set(in, fc, group);
        FlowContext.action$set(in, fc, (int) FlowContextAction.FWD_DEST$MASK);
        FlowContext.destination_list_size$set(in, fc, 1);
        long d = fc + FlowContext.destination$BYTE_OFFSET;
        DestFormatStruct.destination_type$set(in, d, FlowDestinationType.TIR);
        DestFormatStruct.destination_id$set(in, d, tirn);
        return in;
    }

    static TestHost.Result fte(TestHost h, MemorySegment in) {
        return h.exec(in, SetFteOut.SIZE);
    }
}

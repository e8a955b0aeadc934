package io.prmkit.softhca.cmd;

import io.prmkit.mlx5.Cqc;
import io.prmkit.mlx5.CqModifyFields;
import io.prmkit.mlx5.CqeCompressionLayout;
import io.prmkit.mlx5.CqeSize;
import io.prmkit.mlx5.CreateCqIn;
import io.prmkit.mlx5.CreateCqOut;
import io.prmkit.mlx5.CreateEqIn;
import io.prmkit.mlx5.CreateEqOut;
import io.prmkit.mlx5.CreateRqIn;
import io.prmkit.mlx5.CreateRqOut;
import io.prmkit.mlx5.CreateSqIn;
import io.prmkit.mlx5.CreateSqOut;
import io.prmkit.mlx5.DestroyCqIn;
import io.prmkit.mlx5.DestroyEqIn;
import io.prmkit.mlx5.DestroyRqIn;
import io.prmkit.mlx5.DestroySqIn;
import io.prmkit.mlx5.Eqc;
import io.prmkit.mlx5.Eqe;
import io.prmkit.mlx5.MiniCqeResFormat;
import io.prmkit.mlx5.ModifyCqIn;
import io.prmkit.mlx5.ModifyCqOpMod;
import io.prmkit.mlx5.ModifyFieldSelect;
import io.prmkit.mlx5.ModifyRqBitmask;
import io.prmkit.mlx5.ModifyRqIn;
import io.prmkit.mlx5.ModifySqIn;
import io.prmkit.mlx5.QueryCqIn;
import io.prmkit.mlx5.QueryCqOut;
import io.prmkit.mlx5.QueryEqIn;
import io.prmkit.mlx5.QueryEqOut;
import io.prmkit.mlx5.QueryRqIn;
import io.prmkit.mlx5.QueryRqOut;
import io.prmkit.mlx5.QuerySqIn;
import io.prmkit.mlx5.QuerySqOut;
import io.prmkit.mlx5.Rqc;
import io.prmkit.mlx5.RqMemType;
import io.prmkit.mlx5.RqState;
import io.prmkit.mlx5.Sqc;
import io.prmkit.mlx5.SqState;
import io.prmkit.mlx5.Wq;
import io.prmkit.mlx5.WqType;
import io.prmkit.mlx5.PrmCommands;
import io.prmkit.softhca.cmd.CommandSpec.Phase;
import io.prmkit.softhca.device.Resources;
import io.prmkit.softhca.device.DeviceObjects.Kind;
import io.prmkit.softhca.device.Queues;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * PRM chapters "Event Queues", "Completion Queues" and "Work Queues" (SQ, RQ): create, query,
 * modify and destroy, validated against the contexts, the caps' log_max_* limits and the objects
 * they reference. SQ and RQ follow the state machine RST -> RDY -> ERR -> RST (RDY -> RST and
 * RDY -> RDY too); the current state given in MODIFY must be the queue's (BAD_QP_STATE otherwise).
 */
final class QueueCommands {
    private final HcaState hca;
    private final int vectors;

    private QueueCommands(HcaState hca, int vectors) {
        this.hca = hca;
        this.vectors = vectors;
    }

    static void register(Map<Integer, CommandSpec> specs, HcaState hca, int vectors) {
        QueueCommands q = new QueueCommands(hca, vectors);
        BringUpCommands.put(specs, PrmCommands.CREATE_EQ, Phase.INITIALIZED, q::createEq);
        BringUpCommands.put(specs, PrmCommands.DESTROY_EQ, Phase.INITIALIZED, q::destroyEq);
        BringUpCommands.put(specs, PrmCommands.QUERY_EQ, Phase.INITIALIZED, q::queryEq);
        BringUpCommands.put(specs, PrmCommands.CREATE_CQ, Phase.INITIALIZED, q::createCq);
        BringUpCommands.put(specs, PrmCommands.DESTROY_CQ, Phase.INITIALIZED, q::destroyCq);
        BringUpCommands.put(specs, PrmCommands.QUERY_CQ, Phase.INITIALIZED, q::queryCq);
        BringUpCommands.put(specs, PrmCommands.MODIFY_CQ, Phase.INITIALIZED, q::modifyCq);
        BringUpCommands.put(specs, PrmCommands.CREATE_SQ, Phase.INITIALIZED, q::createSq);
        BringUpCommands.put(specs, PrmCommands.MODIFY_SQ, Phase.INITIALIZED, q::modifySq);
        BringUpCommands.put(specs, PrmCommands.QUERY_SQ, Phase.INITIALIZED, q::querySq);
        BringUpCommands.put(specs, PrmCommands.DESTROY_SQ, Phase.INITIALIZED, q::destroySq);
        BringUpCommands.put(specs, PrmCommands.CREATE_RQ, Phase.INITIALIZED, q::createRq);
        BringUpCommands.put(specs, PrmCommands.MODIFY_RQ, Phase.INITIALIZED, q::modifyRq);
        BringUpCommands.put(specs, PrmCommands.QUERY_RQ, Phase.INITIALIZED, q::queryRq);
        BringUpCommands.put(specs, PrmCommands.DESTROY_RQ, Phase.INITIALIZED, q::destroyRq);
    }

    private void checkUar(Command c, int uar) {
        if (!hca.uars.contains(uar)) throw c.fail(Syndrome.BAD_REFERENCE, "UAR " + uar);
    }

    private static void checkPageOffset(Command c, int pageOffset) {
        if (pageOffset != 0) throw c.fail(Syndrome.BAD_FIELD, "page_offset " + pageOffset + " (the device takes rings from the start of their first page)");
    }

    // ---- EQ ----

    /** The first EQ number CREATE_EQ hands out, as the ConnectX-4 did (0x10: firmware keeps the low ones). */
    static final int FIRST_EQN = 0x10;

    private void createEq(Command c) {
        MemorySegment eqc = Support.copy(c.in, CreateEqIn.eq_context_entry$BYTE_OFFSET, Eqc.SIZE);
        Support.checkCount(c, hca, hca.objects.count(Kind.EQ), "log_max_eq");
        Support.checkLogSize(c, hca, Eqc.log_eq_size(eqc), "log_max_eq_sz");
        checkUar(c, Eqc.uar_page(eqc));
        if (Eqc.intr(eqc) >= vectors) throw c.fail(Syndrome.BAD_FIELD, "intr " + Eqc.intr(eqc) + " but " + vectors + " MSI-X vectors");
        checkPageOffset(c, Eqc.page_offset(eqc));
        long bytes = (1L << Eqc.log_eq_size(eqc)) * Eqe.SIZE;
        Queues.Ring ring = Support.ring(c, hca, CreateEqIn.pas$BYTE_OFFSET, bytes, Eqc.log_page_size(eqc));
        long[] mask = new long[CreateEqIn.event_bitmask$COUNT];
        for (int i = 0; i < mask.length; i++) mask[i] = CreateEqIn.event_bitmask$elem(c.in, i);
        int eqn = -1;
        for (int n = FIRST_EQN; n < 256; n++) {
            if (!hca.objects.has(Kind.EQ, n)) {
                eqn = n;
                break;
            }
        }
        if (eqn < 0) throw c.fail(Syndrome.OUT_OF_NUMBERS, "EQ numbers 0x" + Integer.toHexString(FIRST_EQN) + "..0xff");
        Queues.Eq eq = new Queues.Eq(eqn, eqc, ring, mask);
        // A new EQ is armed: its first event interrupts (the driver arms again after each one).
        eq.arm();
        hca.objects.add(eq);
        CreateEqOut.Device.eq_number$set(c.out, eqn);
    }

    private void destroyEq(Command c) {
        int eqn = DestroyEqIn.eq_number(c.in);
        if (!hca.objects.has(Kind.EQ, eqn)) throw c.fail(Syndrome.NO_SUCH_OBJECT, "EQ " + eqn);
        String user = hca.objects.usedBy(Kind.EQ, eqn);
        if (user != null) throw c.fail(Syndrome.OBJECT_IN_USE, "EQ " + eqn + " " + user);
        hca.objects.destroy(Kind.EQ, eqn);
    }

    private void queryEq(Command c) {
        Queues.Eq eq = hca.objects.eq(QueryEqIn.eq_number(c.in));
        if (eq == null) throw c.fail(Syndrome.NO_SUCH_OBJECT, "EQ " + QueryEqIn.eq_number(c.in));
        long at = QueryEqOut.eq_context_entry$BYTE_OFFSET;
        MemorySegment.copy(eq.eqc, 0, c.out, at, Eqc.SIZE);
        Eqc.producer_counter$setUnchecked(c.out, at, eq.producerCounter());
        Eqc.consumer_counter$setUnchecked(c.out, at, eq.consumerCounter());
        QueryEqOut.Device.event_bitmask$set(c.out, eq.eventBitmask(0));
    }

    // ---- CQ ----

    private void createCq(Command c) {
        MemorySegment cqc = Support.copy(c.in, CreateCqIn.cq_context$BYTE_OFFSET, Cqc.SIZE);
        Support.checkCount(c, hca, hca.objects.count(Kind.CQ), "log_max_cq");
        Support.checkLogSize(c, hca, Cqc.log_cq_size(cqc), "log_max_cq_sz");
        checkUar(c, Cqc.uar_page(cqc));
        int eqn = Cqc.c_eqn_or_apu_element(cqc);
        if (!hca.objects.has(Kind.EQ, eqn)) throw c.fail(Syndrome.BAD_REFERENCE, "EQ " + eqn);
        CqeSize size = Cqc.cqe_sz$enum(cqc);
        if (size == null) throw c.fail(Syndrome.BAD_FIELD, "cqe_sz " + Cqc.cqe_sz(cqc));
        if (Cqc.cqe_comp_en(cqc)) checkCompression(c, cqc, size);
        checkPageOffset(c, Cqc.page_offset(cqc));
        List<Resources.Umem> uses = new ArrayList<>();
        long dbr = doorbellRecord(c, Cqc.dbr_umem_valid(cqc), Cqc.dbr_umem_id(cqc), Cqc.dbr_addr(cqc), uses, "CQ");
        long stride = size == CqeSize.BYTES_64 ? 64 : 128;
        long bytes = (1L << Cqc.log_cq_size(cqc)) * stride;
        Queues.Ring ring = CreateCqIn.cq_umem_valid(c.in)
                ? DevxCommands.ring(c, hca, CreateCqIn.cq_umem_id(c.in), CreateCqIn.cq_umem_offset(c.in), bytes, true, uses, "CQ buffer")
                : Support.ring(c, hca, CreateCqIn.pas$BYTE_OFFSET, bytes, Cqc.log_page_size(cqc));
        int cqn = hca.nextNumber("cq", 0x400);
        Queues.Cq cq = new Queues.Cq(cqn, cqc, ring, dbr, uses);
        hca.objects.add(cq);
        DevxCommands.own(hca, c, Kind.CQ, cqn);
        CreateCqOut.Device.cqn$set(c.out, cqn);
    }

    /**
     * CQE compression (PRM "Compressed CQE"): the basic layout with 64-byte CQEs, mini CQEs that carry
     * the RSS hash or the checksum. Stride indices need a striding RQ, which the model does not have.
     */
    private void checkCompression(Command c, MemorySegment cqc, CqeSize size) {
        if (Support.cap(hca, "cqe_compression") == 0) throw c.fail(Syndrome.BAD_FIELD, "cqe_comp_en set but the device reports cqe_compression = 0");
        if (size != CqeSize.BYTES_64) throw c.fail(Syndrome.BAD_FIELD, "cqe_comp_en with cqe_sz " + size + ": CQE compression is modelled for 64-byte CQEs only");
        CqeCompressionLayout layout = Cqc.cqe_compression_layout$enum(cqc);
        if (layout != CqeCompressionLayout.BASIC) {
            throw c.fail(Syndrome.BAD_FIELD, "cqe_compression_layout " + (layout == null ? Cqc.cqe_compression_layout(cqc) : layout) + ": only the BASIC layout is modelled");
        }
        MiniCqeResFormat format = Cqc.mini_cqe_res_format$enum(cqc);
        if (format == null) throw c.fail(Syndrome.BAD_FIELD, "mini_cqe_res_format " + Cqc.mini_cqe_res_format(cqc) + " is reserved");
        if (format == MiniCqeResFormat.CSUM_STRIDX) throw c.fail(Syndrome.BAD_FIELD, "mini_cqe_res_format CSUM_STRIDX needs a striding RQ, which is not modelled (use HASH or CSUM)");
    }

    /**
     * The bus address of a context's doorbell record: {@code dbr} itself, or with {@code inUmem} the
     * offset {@code dbr} in umem {@code umemId} (recorded in {@code uses}).
     */
    private long doorbellRecord(Command c, boolean inUmem, int umemId, long dbr, List<Resources.Umem> uses, String what) {
        if (inUmem) return DevxCommands.doorbellRecord(c, hca, umemId, dbr, uses, what);
        Support.checkDoorbellRecord(c, hca, dbr);
        return dbr;
    }

    /** The CQ {@code cqn} for a command that destroys, modifies or queries it (of the command's uid). */
    private Queues.Cq cq(Command c, int cqn) {
        Queues.Cq cq = hca.objects.cq(cqn);
        if (cq == null) throw c.fail(Syndrome.NO_SUCH_OBJECT, "CQ " + cqn);
        DevxCommands.checkOwner(hca, c, Kind.CQ, cqn);
        return cq;
    }

    private void destroyCq(Command c) {
        Queues.Cq cq = cq(c, DestroyCqIn.cqn(c.in));
        String user = hca.objects.usedBy(Kind.CQ, cq.cqn);
        if (user != null) throw c.fail(Syndrome.OBJECT_IN_USE, "CQ " + cq.cqn + " " + user);
        hca.objects.destroy(Kind.CQ, cq.cqn);
    }

    private void queryCq(Command c) {
        Queues.Cq cq = cq(c, QueryCqIn.cqn(c.in));
        long at = QueryCqOut.cq_context$BYTE_OFFSET;
        MemorySegment.copy(cq.cqc, 0, c.out, at, Cqc.SIZE);
        Cqc.producer_counter$setUnchecked(c.out, at, cq.producerCounter());
        Cqc.consumer_counter$setUnchecked(c.out, at, cq.consumerCounter());
    }

    private void modifyCq(Command c) {
        Queues.Cq cq = cq(c, ModifyCqIn.cqn(c.in));
        ModifyCqOpMod mod = ModifyCqIn.op_mod$enum(c.in);
        if (mod != ModifyCqOpMod.MODIFY_CQ) throw c.fail(Syndrome.BAD_OP_MOD, "op_mod 0x" + Integer.toHexString(c.opMod) + " (resize is not modelled)");
        int bits = ModifyFieldSelect.modify_field_select(c.in, ModifyCqIn.modify_field_select_resize_field_select$BYTE_OFFSET);
        var fields = CqModifyFields.of(Integer.toUnsignedLong(bits));
        if (CqModifyFields.maskOf(fields) != Integer.toUnsignedLong(bits)) throw c.fail(Syndrome.BAD_FIELD, "modify_field_select 0x" + Integer.toHexString(bits));
        long ctx = ModifyCqIn.cq_context$BYTE_OFFSET;
        if (fields.contains(CqModifyFields.C_EQN) && !hca.objects.has(Kind.EQ, Cqc.c_eqn_or_apu_element(c.in, ctx))) {
            throw c.fail(Syndrome.BAD_REFERENCE, "EQ " + Cqc.c_eqn_or_apu_element(c.in, ctx));
        }
        if (fields.contains(CqModifyFields.CQ_PERIOD)) Cqc.cq_period$set(cq.cqc, Cqc.cq_period(c.in, ctx));
        if (fields.contains(CqModifyFields.CQ_MAX_COUNT)) Cqc.cq_max_count$set(cq.cqc, Cqc.cq_max_count(c.in, ctx));
        if (fields.contains(CqModifyFields.OI)) Cqc.oi$set(cq.cqc, Cqc.oi(c.in, ctx));
        if (fields.contains(CqModifyFields.C_EQN)) Cqc.c_eqn_or_apu_element$set(cq.cqc, Cqc.c_eqn_or_apu_element(c.in, ctx));
    }

    // ---- SQ / RQ ----

    /**
     * Checks the work queue part of an SQ or RQ context at {@code wq} of {@code ctx}; returns its ring
     * (from the page list, or from its umem with wq_umem_valid) and puts the doorbell record's bus
     * address in {@code dbr[0]}; the umems used go to {@code uses}.
     */
    private Queues.Ring workQueue(Command c, MemorySegment ctx, long wq, long pasOffset, boolean send, long[] dbr, List<Resources.Umem> uses) {
        if (Wq.wq_type$enum(ctx, wq) != WqType.CYCLIC) throw c.fail(Syndrome.BAD_FIELD, "wq_type " + Wq.wq_type(ctx, wq) + " (only cyclic)");
        // PD 0 is taken though ALLOC_PD never hands it out: Linux's drop RQ (mlx5e_build_drop_rq_param)
        // leaves pd 0 and the ConnectX-4 creates it; no mkey of an allocated PD can serve such a queue.
        int pd = Wq.pd(ctx, wq);
        if (pd != 0 && !hca.objects.has(Kind.PD, pd)) throw c.fail(Syndrome.BAD_REFERENCE, "PD " + pd);
        int stride = Wq.log_wq_stride(ctx, wq);
        String min = send ? "log_min_stride_sz_sq" : "log_min_stride_sz_rq";
        String max = send ? "log_max_stride_sz_sq" : "log_max_stride_sz_rq";
        if (stride < Support.cap(hca, min) || stride > Support.cap(hca, max)) throw c.fail(Syndrome.BAD_FIELD, "log_wq_stride " + stride);
        Support.checkLogSize(c, hca, Wq.log_wq_sz(ctx, wq), "log_max_wq_sz");
        checkPageOffset(c, Wq.page_offset(ctx, wq));
        String what = send ? "SQ" : "RQ";
        dbr[0] = doorbellRecord(c, Wq.dbr_umem_valid(ctx, wq), Wq.dbr_umem_id(ctx, wq), Wq.dbr_addr(ctx, wq), uses, what);
        long bytes = (1L << Wq.log_wq_sz(ctx, wq)) << stride;
        if (Wq.wq_umem_valid(ctx, wq)) return DevxCommands.ring(c, hca, Wq.wq_umem_id(ctx, wq), Wq.wq_umem_offset(ctx, wq), bytes, false, uses, what + " buffer");
        return Support.ring(c, hca, pasOffset, bytes, Wq.log_wq_pg_sz(ctx, wq));
    }

    private void createSq(Command c) {
        long at = CreateSqIn.ctx$BYTE_OFFSET;
        MemorySegment sqc = Support.copy(c.in, at, Sqc.SIZE);
        Support.checkCount(c, hca, hca.objects.count(Kind.SQ), "log_max_sq");
        if (Sqc.state$enum(sqc) != SqState.RST) throw c.fail(Syndrome.BAD_FIELD, "a new SQ starts in RST, not state " + Sqc.state(sqc));
        Queues.Cq cq = hca.objects.cq(Sqc.cqn(sqc));
        if (cq == null) throw c.fail(Syndrome.BAD_REFERENCE, "CQ " + Sqc.cqn(sqc));
        // one TIS, or none: Linux's ICO SQs (mlx5e_open_icosq) carry only NOPs and UMRs and name no TIS
        int tises = Sqc.tis_lst_sz(sqc);
        if (tises > 1) throw c.fail(Syndrome.BAD_FIELD, "tis_lst_sz " + tises + " (one TIS or none)");
        if (tises == 1 && !hca.objects.has(Kind.TIS, Sqc.tis_num_0(sqc))) throw c.fail(Syndrome.BAD_REFERENCE, "TIS " + Sqc.tis_num_0(sqc));
        checkUar(c, Wq.uar_page(sqc, Sqc.wq$BYTE_OFFSET));
        long[] dbr = new long[1];
        List<Resources.Umem> uses = new ArrayList<>();
        Queues.Ring ring = workQueue(c, sqc, Sqc.wq$BYTE_OFFSET, at + Sqc.wq$BYTE_OFFSET + Wq.pas$BYTE_OFFSET, true, dbr, uses);
        int sqn = hca.nextNumber("sq", 0x800);
        Queues.Sq sq = new Queues.Sq(sqn, sqc, ring, SqState.RST$VALUE, dbr[0], uses);
        hca.objects.add(sq);
        DevxCommands.own(hca, c, Kind.SQ, sqn);
        CreateSqOut.Device.sqn$set(c.out, sqn);
    }

    private Queues.Sq sq(Command c, int sqn) {
        Queues.Sq sq = hca.objects.sq(sqn);
        if (sq == null) throw c.fail(Syndrome.NO_SUCH_OBJECT, "SQ " + sqn);
        DevxCommands.checkOwner(hca, c, Kind.SQ, sqn);
        return sq;
    }

    /** The SQ/RQ state machine: RST->RDY, RDY->RDY, RDY->ERR, RDY->RST, ERR->RST. */
    static boolean legal(int from, int to) {
        int rst = SqState.RST$VALUE, rdy = SqState.RDY$VALUE, err = SqState.ERR$VALUE;
        return (from == rst && to == rdy) || (from == rdy && (to == rdy || to == err || to == rst)) || (from == err && to == rst);
    }

    private void modifySq(Command c) {
        Queues.Sq sq = sq(c, ModifySqIn.sqn(c.in));
        int current = ModifySqIn.sq_state(c.in);
        if (current != sq.state()) throw c.fail(Syndrome.CURRENT_STATE_MISMATCH, "sq_state " + current + " but the SQ is in " + sq.state());
        long at = ModifySqIn.ctx$BYTE_OFFSET;
        int next = Sqc.state(c.in, at);
        if (SqState.of(next) == null || !legal(sq.state(), next)) throw c.fail(Syndrome.BAD_STATE_TRANSITION, "SQ " + sq.state() + " -> " + next);
        sq.setState(next);
    }

    private void querySq(Command c) {
        Queues.Sq sq = sq(c, QuerySqIn.sqn(c.in));
        long at = QuerySqOut.sq_context$BYTE_OFFSET;
        MemorySegment.copy(sq.sqc, 0, c.out, at, Sqc.SIZE);
        Wq.hw_counter$set(c.out, at + Sqc.wq$BYTE_OFFSET, sq.consumerCounter());
    }

    private void destroySq(Command c) {
        Queues.Sq sq = sq(c, DestroySqIn.sqn(c.in));
        hca.objects.destroy(Kind.SQ, sq.sqn);
    }

    private void createRq(Command c) {
        long at = CreateRqIn.ctx$BYTE_OFFSET;
        MemorySegment rqc = Support.copy(c.in, at, Rqc.SIZE);
        Support.checkCount(c, hca, hca.objects.count(Kind.RQ), "log_max_rq");
        if (Rqc.state$enum(rqc) != RqState.RST) throw c.fail(Syndrome.BAD_FIELD, "a new RQ starts in RST, not state " + Rqc.state(rqc));
        if (Rqc.mem_rq_type$enum(rqc) != RqMemType.MEMORY_RQ_INLINE) throw c.fail(Syndrome.BAD_FIELD, "mem_rq_type " + Rqc.mem_rq_type(rqc) + " (RMP is not modelled)");
        Queues.Cq cq = hca.objects.cq(Rqc.cqn(rqc));
        if (cq == null) throw c.fail(Syndrome.BAD_REFERENCE, "CQ " + Rqc.cqn(rqc));
        int counter = Rqc.counter_set_id(rqc);
        if (counter != 0 && !hca.objects.has(Kind.Q_COUNTER, counter)) throw c.fail(Syndrome.BAD_REFERENCE, "Q counter " + counter);
        long[] dbr = new long[1];
        List<Resources.Umem> uses = new ArrayList<>();
        Queues.Ring ring = workQueue(c, rqc, Rqc.wq$BYTE_OFFSET, at + Rqc.wq$BYTE_OFFSET + Wq.pas$BYTE_OFFSET, false, dbr, uses);
        int rqn = hca.nextNumber("rq", 0xc00);
        Queues.Rq rq = new Queues.Rq(rqn, rqc, ring, RqState.RST$VALUE, dbr[0], uses);
        hca.objects.add(rq);
        DevxCommands.own(hca, c, Kind.RQ, rqn);
        CreateRqOut.Device.rqn$set(c.out, rqn);
    }

    private Queues.Rq rq(Command c, int rqn) {
        Queues.Rq rq = hca.objects.rq(rqn);
        if (rq == null) throw c.fail(Syndrome.NO_SUCH_OBJECT, "RQ " + rqn);
        DevxCommands.checkOwner(hca, c, Kind.RQ, rqn);
        return rq;
    }

    private void modifyRq(Command c) {
        Queues.Rq rq = rq(c, ModifyRqIn.rqn(c.in));
        int current = ModifyRqIn.rq_state(c.in);
        if (current != rq.state()) throw c.fail(Syndrome.CURRENT_STATE_MISMATCH, "rq_state " + current + " but the RQ is in " + rq.state());
        long at = ModifyRqIn.ctx$BYTE_OFFSET;
        int next = Rqc.state(c.in, at);
        if (RqState.of(next) == null || !legal(rq.state(), next)) throw c.fail(Syndrome.BAD_STATE_TRANSITION, "RQ " + rq.state() + " -> " + next);
        long bits = ModifyRqIn.modify_bitmask(c.in);
        var fields = ModifyRqBitmask.of(bits);
        if (ModifyRqBitmask.maskOf(fields) != bits) throw c.fail(Syndrome.BAD_FIELD, "modify_bitmask 0x" + Long.toHexString(bits));
        if (fields.contains(ModifyRqBitmask.RQ_COUNTER_SET_ID)) {
            int counter = Rqc.counter_set_id(c.in, at);
            if (counter != 0 && !hca.objects.has(Kind.Q_COUNTER, counter)) throw c.fail(Syndrome.BAD_REFERENCE, "Q counter " + counter);
            Rqc.counter_set_id$set(rq.rqc, counter);
        }
        if (fields.contains(ModifyRqBitmask.VSD)) Rqc.vsd$set(rq.rqc, Rqc.vsd(c.in, at));
        if (fields.contains(ModifyRqBitmask.SCATTER_FCS)) Rqc.scatter_fcs$set(rq.rqc, Rqc.scatter_fcs(c.in, at));
        rq.setState(next);
    }

    private void queryRq(Command c) {
        Queues.Rq rq = rq(c, QueryRqIn.rqn(c.in));
        long at = QueryRqOut.rq_context$BYTE_OFFSET;
        MemorySegment.copy(rq.rqc, 0, c.out, at, Rqc.SIZE);
        Wq.hw_counter$set(c.out, at + Rqc.wq$BYTE_OFFSET, rq.consumerCounter());
    }

    private void destroyRq(Command c) {
        Queues.Rq rq = rq(c, DestroyRqIn.rqn(c.in));
        String user = hca.objects.usedBy(Kind.RQ, rq.rqn);
        if (user != null) throw c.fail(Syndrome.OBJECT_IN_USE, "RQ " + rq.rqn + " " + user);
        hca.objects.destroy(Kind.RQ, rq.rqn);
    }
}

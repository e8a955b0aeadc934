package io.prmkit.softhca;

import static io.prmkit.softhca.Cmds.assertFails;
import static io.prmkit.softhca.Cmds.header;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.prmkit.mlx5.CmdOpcode;
import io.prmkit.mlx5.Cqc;
import io.prmkit.mlx5.CqeCompressionLayout;
import io.prmkit.mlx5.CqeSize;
import io.prmkit.mlx5.MiniCqeResFormat;
import io.prmkit.mlx5.CreateCqIn;
import io.prmkit.mlx5.CreateCqOut;
import io.prmkit.mlx5.CreateEqIn;
import io.prmkit.mlx5.CreateEqOut;
import io.prmkit.mlx5.CreateFlowGroupOut;
import io.prmkit.mlx5.CreateFlowTableIn;
import io.prmkit.mlx5.CreateFlowTableOut;
import io.prmkit.mlx5.CreateMkeyIn;
import io.prmkit.mlx5.CreateMkeyOut;
import io.prmkit.mlx5.CreateRqIn;
import io.prmkit.mlx5.CreateRqOut;
import io.prmkit.mlx5.CreateRqtOut;
import io.prmkit.mlx5.CreateSqIn;
import io.prmkit.mlx5.CreateSqOut;
import io.prmkit.mlx5.CreateTirOut;
import io.prmkit.mlx5.CreateTisOut;
import io.prmkit.mlx5.CqModifyFields;
import io.prmkit.mlx5.DeallocPdIn;
import io.prmkit.mlx5.DeallocPdOut;
import io.prmkit.mlx5.DeallocQCounterIn;
import io.prmkit.mlx5.DeallocQCounterOut;
import io.prmkit.mlx5.DeallocTransportDomainIn;
import io.prmkit.mlx5.DeallocTransportDomainOut;
import io.prmkit.mlx5.DeallocUarIn;
import io.prmkit.mlx5.DeallocUarOut;
import io.prmkit.mlx5.DeleteFteIn;
import io.prmkit.mlx5.DeleteFteOut;
import io.prmkit.mlx5.DestroyCqIn;
import io.prmkit.mlx5.DestroyCqOut;
import io.prmkit.mlx5.DestroyEqIn;
import io.prmkit.mlx5.DestroyEqOut;
import io.prmkit.mlx5.DestroyFlowGroupIn;
import io.prmkit.mlx5.DestroyFlowGroupOut;
import io.prmkit.mlx5.DestroyFlowTableIn;
import io.prmkit.mlx5.DestroyFlowTableOut;
import io.prmkit.mlx5.DestroyMkeyIn;
import io.prmkit.mlx5.DestroyMkeyOut;
import io.prmkit.mlx5.DestroyRqIn;
import io.prmkit.mlx5.DestroyRqOut;
import io.prmkit.mlx5.DestroyRqtIn;
import io.prmkit.mlx5.DestroyRqtOut;
import io.prmkit.mlx5.DestroySqIn;
import io.prmkit.mlx5.DestroySqOut;
import io.prmkit.mlx5.DestroyTirIn;
import io.prmkit.mlx5.DestroyTirOut;
import io.prmkit.mlx5.DestroyTisIn;
import io.prmkit.mlx5.DestroyTisOut;
import io.prmkit.mlx5.Eqc;
import io.prmkit.mlx5.FlowTableContext;
import io.prmkit.mlx5.FlowTableType;
import io.prmkit.mlx5.Mkc;
import io.prmkit.mlx5.MkcAccessMode;
import io.prmkit.mlx5.ModifyCqIn;
import io.prmkit.mlx5.ModifyCqOut;
import io.prmkit.mlx5.ModifyFieldSelect;
import io.prmkit.mlx5.ModifyRqtIn;
import io.prmkit.mlx5.ModifyRqtOut;
import io.prmkit.mlx5.QueryCqIn;
import io.prmkit.mlx5.QueryCqOut;
import io.prmkit.mlx5.QueryEqIn;
import io.prmkit.mlx5.QueryEqOut;
import io.prmkit.mlx5.QueryQCounterIn;
import io.prmkit.mlx5.QueryQCounterOut;
import io.prmkit.mlx5.QueryRqIn;
import io.prmkit.mlx5.QueryRqOut;
import io.prmkit.mlx5.QueryRqtIn;
import io.prmkit.mlx5.QueryRqtOut;
import io.prmkit.mlx5.QueryMkeyIn;
import io.prmkit.mlx5.QueryMkeyOut;
import io.prmkit.mlx5.QuerySpecialContextsIn;
import io.prmkit.mlx5.QuerySpecialContextsOut;
import io.prmkit.mlx5.QuerySqIn;
import io.prmkit.mlx5.QuerySqOut;
import io.prmkit.mlx5.QueryTirIn;
import io.prmkit.mlx5.QueryTirOut;
import io.prmkit.mlx5.QueryTisIn;
import io.prmkit.mlx5.QueryTisOut;
import io.prmkit.mlx5.RqNum;
import io.prmkit.mlx5.RqState;
import io.prmkit.mlx5.Rqc;
import io.prmkit.mlx5.RqtBitmask;
import io.prmkit.mlx5.Rqtc;
import io.prmkit.mlx5.RxHashFn;
import io.prmkit.mlx5.SetFlowTableRootIn;
import io.prmkit.mlx5.SetFlowTableRootOut;
import io.prmkit.mlx5.SetFteIn;
import io.prmkit.mlx5.SqState;
import io.prmkit.mlx5.Sqc;
import io.prmkit.mlx5.Tirc;
import io.prmkit.mlx5.Tisc;
import io.prmkit.mlx5.Wq;
import io.prmkit.softhca.cmd.Syndrome;
import java.lang.foreign.MemorySegment;
import org.junit.jupiter.api.Test;

/** The object commands after INIT_HCA, each with a good case and its bad cases, through BAR 0 and DMA only. */
class ObjectCommandsTest {

    static TestHost up() {
        TestHost h = TestHost.started(ExecutionMode.STEP);
        Cmds.bringUp(h);
        return h;
    }

    @Test
    void objectCommandsNeedInitHca() {
        try (TestHost h = TestHost.started(ExecutionMode.STEP)) {
            h.exec(header(CmdOpcode.ENABLE_HCA, io.prmkit.mlx5.EnableHcaIn.SIZE), io.prmkit.mlx5.EnableHcaOut.SIZE).ok();
            assertFails(h.exec(header(CmdOpcode.ALLOC_PD, 16), 16), Syndrome.NOT_INITIALIZED, CmdOpcode.ALLOC_PD);
        }
    }

    @Test
    void uarPdTdAndQCounterAllocation() {
        try (TestHost h = up()) {
            int uar = Objs.uar(h);
            assertTrue(uar * 4096L >= io.prmkit.mlx5.InitSeg.SIZE, "a UAR page lies after the init segment");
            assertNotEquals(uar, Objs.uar(h));
            MemorySegment d = header(CmdOpcode.DEALLOC_UAR, DeallocUarIn.SIZE);
            DeallocUarIn.uar$set(d, uar);
            h.exec(d, DeallocUarOut.SIZE).ok();
            assertFails(h.exec(d, DeallocUarOut.SIZE), Syndrome.NO_SUCH_OBJECT, CmdOpcode.DEALLOC_UAR);

            int pd = Objs.pd(h);
            MemorySegment dp = header(CmdOpcode.DEALLOC_PD, DeallocPdIn.SIZE);
            DeallocPdIn.pd$set(dp, pd + 100);
            assertFails(h.exec(dp, DeallocPdOut.SIZE), Syndrome.NO_SUCH_OBJECT, CmdOpcode.DEALLOC_PD);
            DeallocPdIn.pd$set(dp, pd);
            h.exec(dp, DeallocPdOut.SIZE).ok();

            int td = Objs.td(h);
            int tis = Objs.tis(h, td);
            MemorySegment dt = header(CmdOpcode.DEALLOC_TRANSPORT_DOMAIN, DeallocTransportDomainIn.SIZE);
            DeallocTransportDomainIn.transport_domain$set(dt, td);
            assertFails(h.exec(dt, DeallocTransportDomainOut.SIZE), Syndrome.OBJECT_IN_USE, CmdOpcode.DEALLOC_TRANSPORT_DOMAIN);
            MemorySegment dtis = header(CmdOpcode.DESTROY_TIS, DestroyTisIn.SIZE);
            DestroyTisIn.tisn$set(dtis, tis);
            h.exec(dtis, DestroyTisOut.SIZE).ok();
            h.exec(dt, DeallocTransportDomainOut.SIZE).ok();
            assertFails(h.exec(dt, DeallocTransportDomainOut.SIZE), Syndrome.NO_SUCH_OBJECT, CmdOpcode.DEALLOC_TRANSPORT_DOMAIN);

            int q = Objs.qCounter(h);
            MemorySegment qq = header(CmdOpcode.QUERY_Q_COUNTER, QueryQCounterIn.SIZE);
            QueryQCounterIn.counter_set_id$set(qq, q);
            assertEquals(0, QueryQCounterOut.out_of_buffer(h.exec(qq, QueryQCounterOut.SIZE).ok().out()));
            MemorySegment dq = header(CmdOpcode.DEALLOC_Q_COUNTER, DeallocQCounterIn.SIZE);
            DeallocQCounterIn.counter_set_id$set(dq, q);
            h.exec(dq, DeallocQCounterOut.SIZE).ok();
            assertFails(h.exec(qq, QueryQCounterOut.SIZE), Syndrome.NO_SUCH_OBJECT, CmdOpcode.QUERY_Q_COUNTER);
            assertFails(h.exec(dq, DeallocQCounterOut.SIZE), Syndrome.NO_SUCH_OBJECT, CmdOpcode.DEALLOC_Q_COUNTER);
        }
    }

    @Test
    void pdLimitComesFromTheCaps() {
        try (TestHost h = TestHost.started(new SoftHca.Options().caps(CapsProfile.defaults().withGeneral("log_max_pd", 1)), ExecutionMode.STEP)) {
            Cmds.bringUp(h);
            Objs.pd(h);
            Objs.pd(h);
            assertFails(h.exec(header(CmdOpcode.ALLOC_PD, 16), 16), Syndrome.OUT_OF_NUMBERS, CmdOpcode.ALLOC_PD);
        }
    }

    @Test
    void specialContextsGiveTheReservedLkey() {
        try (TestHost h = up()) {
            MemorySegment out = h.exec(header(CmdOpcode.QUERY_SPECIAL_CONTEXTS, QuerySpecialContextsIn.SIZE), QuerySpecialContextsOut.SIZE).ok().out();
            assertNotEquals(0, QuerySpecialContextsOut.resd_lkey(out));
            assertFails(h.exec(header(CmdOpcode.QUERY_SPECIAL_CONTEXTS, QuerySpecialContextsIn.SIZE), 0x10), Syndrome.OUTPUT_TOO_SHORT,
                    CmdOpcode.QUERY_SPECIAL_CONTEXTS);
        }
    }

    @Test
    void firstMkeyWithKeyByteZeroIsNotTheReservedLkey() {
        try (TestHost h = up()) {
            MemorySegment in = mkeyIn(Objs.pd(h), MkcAccessMode.PA, 0);
            Mkc.mkey_7_0$set(in, CreateMkeyIn.memory_key_mkey_entry$BYTE_OFFSET, 0);
            int index = CreateMkeyOut.mkey_index(h.exec(in, CreateMkeyOut.SIZE).ok().out());
            assertEquals(1, index, "the model numbers mkeys from 1");
            int resd = QuerySpecialContextsOut.resd_lkey(
                    h.exec(header(CmdOpcode.QUERY_SPECIAL_CONTEXTS, QuerySpecialContextsIn.SIZE), QuerySpecialContextsOut.SIZE).ok().out());
            assertNotEquals(index << Mkc.mkey_7_0$BIT_WIDTH, resd);
            // no index CREATE_MKEY hands out names the reserved lkey: querying or destroying its index finds nothing
            MemorySegment q = header(CmdOpcode.QUERY_MKEY, QueryMkeyIn.SIZE);
            QueryMkeyIn.mkey_index$set(q, resd >>> Mkc.mkey_7_0$BIT_WIDTH);
            assertFails(h.exec(q, QueryMkeyOut.SIZE), Syndrome.NO_SUCH_OBJECT, CmdOpcode.QUERY_MKEY);
        }
    }

    static MemorySegment mkeyIn(int pd, MkcAccessMode mode, int octwords) {
        MemorySegment in = header(CmdOpcode.CREATE_MKEY, CreateMkeyIn.SIZE + 16L * octwords);
        long m = CreateMkeyIn.memory_key_mkey_entry$BYTE_OFFSET;
        Mkc.pd$set(in, m, pd);
        Mkc.lr$set(in, m, true);
        Mkc.lw$set(in, m, true);
        Mkc.access_mode_1_0$setUnchecked(in, m, (int) mode.value);
        Mkc.mkey_7_0$set(in, m, 0x42);
        Mkc.qpn$set(in, m, 0xffffff);
        Mkc.translations_octword_size$set(in, m, octwords);
        CreateMkeyIn.translations_octword_actual_size$set(in, octwords);
        return in;
    }

    @Test
    void mkeysInPaMttAndKlmModes() {
        try (TestHost h = up()) {
            int pd = Objs.pd(h);
            MemorySegment pa = mkeyIn(pd, MkcAccessMode.PA, 0);
            Mkc.length64$set(pa, CreateMkeyIn.memory_key_mkey_entry$BYTE_OFFSET, true);
            int index = CreateMkeyOut.mkey_index(h.exec(pa, CreateMkeyOut.SIZE).ok().out());

            MemorySegment mtt = mkeyIn(pd, MkcAccessMode.MTT, 1);
            Mkc.log_page_size$set(mtt, CreateMkeyIn.memory_key_mkey_entry$BYTE_OFFSET, 12);
            io.prmkit.mlx5.CreateMkeyIn.klm_pas_mtt$set(mtt, 0, (int) (Objs.page(h).busAddress() >>> 32));
            h.exec(mtt, CreateMkeyOut.SIZE).ok();
            io.prmkit.mlx5.CreateMkeyIn.klm_pas_mtt$set(mtt, 1, 0x800); // an MTT entry not on a page boundary
            assertFails(h.exec(mtt, CreateMkeyOut.SIZE), Syndrome.BAD_FIELD, CmdOpcode.CREATE_MKEY);

            MemorySegment klm = mkeyIn(pd, MkcAccessMode.KLMS, 1);
            io.prmkit.mlx5.WqeUmrKlmSeg.mkey$set(klm, CreateMkeyIn.klm_pas_mtt$BYTE_OFFSET, index << 8 | 0x42);
            io.prmkit.mlx5.WqeUmrKlmSeg.byte_count$set(klm, CreateMkeyIn.klm_pas_mtt$BYTE_OFFSET, 4096);
            h.exec(klm, CreateMkeyOut.SIZE).ok();
            io.prmkit.mlx5.WqeUmrKlmSeg.mkey$set(klm, CreateMkeyIn.klm_pas_mtt$BYTE_OFFSET, 0x777700);
            assertFails(h.exec(klm, CreateMkeyOut.SIZE), Syndrome.BAD_REFERENCE, CmdOpcode.CREATE_MKEY);

            MemorySegment umr = mkeyIn(pd, MkcAccessMode.KLMS, 0);
            Mkc.free$set(umr, CreateMkeyIn.memory_key_mkey_entry$BYTE_OFFSET, true);
            assertFails(h.exec(umr, CreateMkeyOut.SIZE), Syndrome.BAD_FIELD, CmdOpcode.CREATE_MKEY);
            Mkc.umr_en$set(umr, CreateMkeyIn.memory_key_mkey_entry$BYTE_OFFSET, true);
            h.exec(umr, CreateMkeyOut.SIZE).ok();

            assertFails(h.exec(mkeyIn(pd + 9, MkcAccessMode.PA, 0), CreateMkeyOut.SIZE), Syndrome.BAD_REFERENCE, CmdOpcode.CREATE_MKEY);
            assertFails(h.exec(mkeyIn(pd, MkcAccessMode.PA, 2), CreateMkeyOut.SIZE), Syndrome.BAD_FIELD, CmdOpcode.CREATE_MKEY);
            MemorySegment tooShort = mkeyIn(pd, MkcAccessMode.MTT, 4).asSlice(0, CreateMkeyIn.SIZE + 16);
            assertFails(h.exec(tooShort, CreateMkeyOut.SIZE), Syndrome.INPUT_TOO_SHORT, CmdOpcode.CREATE_MKEY);

            MemorySegment q = header(CmdOpcode.QUERY_MKEY, io.prmkit.mlx5.QueryMkeyIn.SIZE);
            io.prmkit.mlx5.QueryMkeyIn.mkey_index$set(q, index);
            MemorySegment mk = h.exec(q, io.prmkit.mlx5.QueryMkeyOut.SIZE).ok().out();
            assertEquals(0x42, Mkc.mkey_7_0(mk, io.prmkit.mlx5.QueryMkeyOut.memory_key_mkey_entry$BYTE_OFFSET));
            assertEquals(pd, Mkc.pd(mk, io.prmkit.mlx5.QueryMkeyOut.memory_key_mkey_entry$BYTE_OFFSET));
            io.prmkit.mlx5.QueryMkeyIn.mkey_index$set(q, index + 1000);
            assertFails(h.exec(q, io.prmkit.mlx5.QueryMkeyOut.SIZE), Syndrome.NO_SUCH_OBJECT, CmdOpcode.QUERY_MKEY);

            MemorySegment pdInUse = header(CmdOpcode.DEALLOC_PD, DeallocPdIn.SIZE);
            DeallocPdIn.pd$set(pdInUse, pd);
            assertFails(h.exec(pdInUse, DeallocPdOut.SIZE), Syndrome.OBJECT_IN_USE, CmdOpcode.DEALLOC_PD);
            MemorySegment d = header(CmdOpcode.DESTROY_MKEY, DestroyMkeyIn.SIZE);
            DestroyMkeyIn.mkey_index$set(d, index);
            h.exec(d, DestroyMkeyOut.SIZE).ok();
            assertFails(h.exec(d, DestroyMkeyOut.SIZE), Syndrome.NO_SUCH_OBJECT, CmdOpcode.DESTROY_MKEY);
        }
    }

    @Test
    void eventQueues() {
        try (TestHost h = up()) {
            int uar = Objs.uar(h);
            int eqn = Objs.eq(h, Objs.eqIn(h, uar, 6, 0, 1));
            MemorySegment q = header(CmdOpcode.QUERY_EQ, QueryEqIn.SIZE);
            QueryEqIn.eq_number$set(q, eqn);
            MemorySegment out = h.exec(q, QueryEqOut.SIZE).ok().out();
            assertEquals(6, Eqc.log_eq_size(out, QueryEqOut.eq_context_entry$BYTE_OFFSET));
            assertEquals(1, QueryEqOut.event_bitmask(out));

            assertFails(h.exec(Objs.eqIn(h, uar, 6, 99, 1), CreateEqOut.SIZE), Syndrome.BAD_FIELD, CmdOpcode.CREATE_EQ);
            assertFails(h.exec(Objs.eqIn(h, uar + 50, 6, 0, 1), CreateEqOut.SIZE), Syndrome.BAD_REFERENCE, CmdOpcode.CREATE_EQ);
            assertFails(h.exec(Objs.eqIn(h, uar, 0x17, 0, 1), CreateEqOut.SIZE), Syndrome.SIZE_ABOVE_MAX, CmdOpcode.CREATE_EQ);
            MemorySegment noPages = Objs.eqIn(h, uar, 7, 0, 1); // 8 KiB of EQEs but one page given
            assertFails(h.exec(noPages, CreateEqOut.SIZE), Syndrome.INPUT_TOO_SHORT, CmdOpcode.CREATE_EQ);
            MemorySegment unmapped = Objs.eqIn(h, uar, 6, 0, 1);
            CreateEqIn.pas$set(unmapped, 0, 0x1000);
            assertFails(h.exec(unmapped, CreateEqOut.SIZE), Syndrome.RING_NOT_MAPPED, CmdOpcode.CREATE_EQ);

            int cqn = Objs.cq(h, Objs.cqIn(h, uar, eqn, 6));
            MemorySegment d = header(CmdOpcode.DESTROY_EQ, DestroyEqIn.SIZE);
            DestroyEqIn.eq_number$set(d, eqn);
            assertFails(h.exec(d, DestroyEqOut.SIZE), Syndrome.OBJECT_IN_USE, CmdOpcode.DESTROY_EQ);
            MemorySegment dc = header(CmdOpcode.DESTROY_CQ, DestroyCqIn.SIZE);
            DestroyCqIn.cqn$set(dc, cqn);
            h.exec(dc, DestroyCqOut.SIZE).ok();
            h.exec(d, DestroyEqOut.SIZE).ok();
            assertFails(h.exec(q, QueryEqOut.SIZE), Syndrome.NO_SUCH_OBJECT, CmdOpcode.QUERY_EQ);
        }
    }

    @Test
    void completionQueues() {
        try (TestHost h = up()) {
            int uar = Objs.uar(h);
            int eqn = Objs.eq(h, Objs.eqIn(h, uar, 6, 0, 1));
            int cqn = Objs.cq(h, Objs.cqIn(h, uar, eqn, 6));
            MemorySegment q = header(CmdOpcode.QUERY_CQ, QueryCqIn.SIZE);
            QueryCqIn.cqn$set(q, cqn);
            assertEquals(6, Cqc.log_cq_size(h.exec(q, QueryCqOut.SIZE).ok().out(), QueryCqOut.cq_context$BYTE_OFFSET));

            assertFails(h.exec(Objs.cqIn(h, uar, eqn + 7, 6), CreateCqOut.SIZE), Syndrome.BAD_REFERENCE, CmdOpcode.CREATE_CQ);
            assertFails(h.exec(Objs.cqIn(h, uar, eqn, 0x17), CreateCqOut.SIZE), Syndrome.SIZE_ABOVE_MAX, CmdOpcode.CREATE_CQ);
            MemorySegment badDbr = Objs.cqIn(h, uar, eqn, 6);
            Cqc.dbr_addr$set(badDbr, CreateCqIn.cq_context$BYTE_OFFSET, 0x10);
            assertFails(h.exec(badDbr, CreateCqOut.SIZE), Syndrome.RING_NOT_MAPPED, CmdOpcode.CREATE_CQ);
            // CQE compression (the CX4 profile reports cqe_compression): basic layout, HASH or CSUM minis, 64-byte CQEs
            long cc = CreateCqIn.cq_context$BYTE_OFFSET;
            for (MiniCqeResFormat ok : new MiniCqeResFormat[] {MiniCqeResFormat.HASH, MiniCqeResFormat.CSUM}) {
                MemorySegment comp = Objs.cqIn(h, uar, eqn, 6);
                Cqc.cqe_comp_en$set(comp, cc, true);
                Cqc.mini_cqe_res_format$set(comp, cc, ok);
                int compCqn = Objs.cq(h, comp);
                QueryCqIn.cqn$set(q, compCqn);
                MemorySegment got = h.exec(q, QueryCqOut.SIZE).ok().out();
                assertTrue(Cqc.cqe_comp_en(got, QueryCqOut.cq_context$BYTE_OFFSET));
                assertEquals(ok.value, Cqc.mini_cqe_res_format(got, QueryCqOut.cq_context$BYTE_OFFSET));
            }
            QueryCqIn.cqn$set(q, cqn);
            java.util.function.Consumer<java.util.function.Consumer<MemorySegment>> refused = edit -> {
                MemorySegment comp = Objs.cqIn(h, uar, eqn, 6);
                Cqc.cqe_comp_en$set(comp, cc, true);
                edit.accept(comp);
                assertFails(h.exec(comp, CreateCqOut.SIZE), Syndrome.BAD_FIELD, CmdOpcode.CREATE_CQ);
            };
            refused.accept(comp -> Cqc.mini_cqe_res_format$set(comp, cc, MiniCqeResFormat.CSUM_STRIDX)); // needs a striding RQ
            refused.accept(comp -> Cqc.mini_cqe_res_format$setUnchecked(comp, cc, 2)); // reserved
            refused.accept(comp -> Cqc.cqe_compression_layout$set(comp, cc, CqeCompressionLayout.ENHANCED));
            refused.accept(comp -> Cqc.cqe_sz$set(comp, cc, CqeSize.BYTES_128));
            // the format is not looked at without cqe_comp_en
            MemorySegment off = Objs.cqIn(h, uar, eqn, 6);
            Cqc.mini_cqe_res_format$set(off, cc, MiniCqeResFormat.CSUM_STRIDX);
            Objs.cq(h, off);

            MemorySegment m = header(CmdOpcode.MODIFY_CQ, ModifyCqIn.SIZE);
            ModifyCqIn.cqn$set(m, cqn);
            ModifyFieldSelect.modify_field_select$set(m, ModifyCqIn.modify_field_select_resize_field_select$BYTE_OFFSET,
                    (int) (CqModifyFields.CQ_PERIOD$MASK | CqModifyFields.CQ_MAX_COUNT$MASK));
            Cqc.cq_period$set(m, ModifyCqIn.cq_context$BYTE_OFFSET, 16);
            Cqc.cq_max_count$set(m, ModifyCqIn.cq_context$BYTE_OFFSET, 32);
            h.exec(m, ModifyCqOut.SIZE).ok();
            MemorySegment ctx = h.exec(q, QueryCqOut.SIZE).ok().out();
            assertEquals(16, Cqc.cq_period(ctx, QueryCqOut.cq_context$BYTE_OFFSET));
            assertEquals(32, Cqc.cq_max_count(ctx, QueryCqOut.cq_context$BYTE_OFFSET));
            ModifyCqIn.op_mod$set(m, 1);
            assertFails(h.exec(m, ModifyCqOut.SIZE), Syndrome.BAD_OP_MOD, CmdOpcode.MODIFY_CQ);
            ModifyCqIn.op_mod$set(m, 0);
            ModifyCqIn.cqn$set(m, cqn + 1000);
            assertFails(h.exec(m, ModifyCqOut.SIZE), Syndrome.NO_SUCH_OBJECT, CmdOpcode.MODIFY_CQ);
        }
    }

    @Test
    void cqeCompressionNeedsTheCapability() {
        try (TestHost h = TestHost.started(new SoftHca.Options().caps(CapsProfile.defaults().withGeneral("cqe_compression", 0)), ExecutionMode.STEP)) {
            Cmds.bringUp(h);
            int uar = Objs.uar(h);
            int eqn = Objs.eq(h, Objs.eqIn(h, uar, 6, 0, 1));
            MemorySegment comp = Objs.cqIn(h, uar, eqn, 6);
            Cqc.cqe_comp_en$set(comp, CreateCqIn.cq_context$BYTE_OFFSET, true);
            assertFails(h.exec(comp, CreateCqOut.SIZE), Syndrome.BAD_FIELD, CmdOpcode.CREATE_CQ);
            Objs.cq(h, Objs.cqIn(h, uar, eqn, 6)); // without it the CQ is made
        }
    }

    /** UAR, PD, TD, EQ, CQ, TIS: what an SQ or RQ needs. */
    record Base(int uar, int pd, int td, int eqn, int cqn, int tisn) {
        static Base of(TestHost h) {
            int uar = Objs.uar(h);
            int pd = Objs.pd(h);
            int td = Objs.td(h);
            int eqn = Objs.eq(h, Objs.eqIn(h, uar, 6, 0, 1));
            int cqn = Objs.cq(h, Objs.cqIn(h, uar, eqn, 6));
            return new Base(uar, pd, td, eqn, cqn, Objs.tis(h, td));
        }
    }

    @Test
    void sendQueueStateMachine() {
        try (TestHost h = up()) {
            Base b = Base.of(h);
            int sqn = Objs.sq(h, Objs.sqIn(h, b.cqn, b.tisn, b.pd, b.uar));
            int rst = SqState.RST$VALUE, rdy = SqState.RDY$VALUE, err = SqState.ERR$VALUE;
            assertFails(Objs.modifySq(h, sqn, rst, err), Syndrome.BAD_STATE_TRANSITION, CmdOpcode.MODIFY_SQ);
            assertFails(Objs.modifySq(h, sqn, rdy, err), Syndrome.CURRENT_STATE_MISMATCH, CmdOpcode.MODIFY_SQ);
            Objs.modifySq(h, sqn, rst, rdy).ok();
            Objs.modifySq(h, sqn, rdy, err).ok();
            assertFails(Objs.modifySq(h, sqn, err, rdy), Syndrome.BAD_STATE_TRANSITION, CmdOpcode.MODIFY_SQ);
            Objs.modifySq(h, sqn, err, rst).ok();
            Objs.modifySq(h, sqn, rst, rdy).ok();
            MemorySegment q = header(CmdOpcode.QUERY_SQ, QuerySqIn.SIZE);
            QuerySqIn.sqn$set(q, sqn);
            assertEquals(rdy, Sqc.state(h.exec(q, QuerySqOut.SIZE).ok().out(), QuerySqOut.sq_context$BYTE_OFFSET));
            assertFails(Objs.modifySq(h, sqn + 99, rst, rdy), Syndrome.NO_SUCH_OBJECT, CmdOpcode.MODIFY_SQ);

            MemorySegment cq = header(CmdOpcode.DESTROY_CQ, DestroyCqIn.SIZE);
            DestroyCqIn.cqn$set(cq, b.cqn);
            assertFails(h.exec(cq, DestroyCqOut.SIZE), Syndrome.OBJECT_IN_USE, CmdOpcode.DESTROY_CQ);
            MemorySegment tis = header(CmdOpcode.DESTROY_TIS, DestroyTisIn.SIZE);
            DestroyTisIn.tisn$set(tis, b.tisn);
            assertFails(h.exec(tis, DestroyTisOut.SIZE), Syndrome.OBJECT_IN_USE, CmdOpcode.DESTROY_TIS);
            MemorySegment d = header(CmdOpcode.DESTROY_SQ, DestroySqIn.SIZE);
            DestroySqIn.sqn$set(d, sqn);
            h.exec(d, DestroySqOut.SIZE).ok();
            assertFails(h.exec(d, DestroySqOut.SIZE), Syndrome.NO_SUCH_OBJECT, CmdOpcode.DESTROY_SQ);
            h.exec(cq, DestroyCqOut.SIZE).ok();
        }
    }

    @Test
    void sendQueueContextChecks() {
        try (TestHost h = up()) {
            Base b = Base.of(h);
            long ctx = CreateSqIn.ctx$BYTE_OFFSET;
            long wq = ctx + Sqc.wq$BYTE_OFFSET;
            MemorySegment in = Objs.sqIn(h, b.cqn + 5, b.tisn, b.pd, b.uar);
            assertFails(h.exec(in, CreateSqOut.SIZE), Syndrome.BAD_REFERENCE, CmdOpcode.CREATE_SQ);
            in = Objs.sqIn(h, b.cqn, b.tisn + 5, b.pd, b.uar);
            assertFails(h.exec(in, CreateSqOut.SIZE), Syndrome.BAD_REFERENCE, CmdOpcode.CREATE_SQ);
            in = Objs.sqIn(h, b.cqn, b.tisn, b.pd, b.uar);
            Sqc.state$set(in, ctx, SqState.RDY$VALUE);
            assertFails(h.exec(in, CreateSqOut.SIZE), Syndrome.BAD_FIELD, CmdOpcode.CREATE_SQ);
            in = Objs.sqIn(h, b.cqn, b.tisn, b.pd, b.uar);
            Wq.log_wq_stride$set(in, wq, 7); // send WQE basic blocks are 64 bytes
            assertFails(h.exec(in, CreateSqOut.SIZE), Syndrome.BAD_FIELD, CmdOpcode.CREATE_SQ);
            in = Objs.sqIn(h, b.cqn, b.tisn, b.pd, b.uar);
            Wq.log_wq_sz$set(in, wq, 0x10);
            assertFails(h.exec(in, CreateSqOut.SIZE), Syndrome.SIZE_ABOVE_MAX, CmdOpcode.CREATE_SQ);
            in = Objs.sqIn(h, b.cqn, b.tisn, b.pd, b.uar);
            Wq.log_wq_sz$set(in, wq, 7); // two pages of WQEs, one page address
            assertFails(h.exec(in, CreateSqOut.SIZE), Syndrome.INPUT_TOO_SHORT, CmdOpcode.CREATE_SQ);
            in = Objs.sqIn(h, b.cqn, b.tisn, b.pd + 3, b.uar);
            assertFails(h.exec(in, CreateSqOut.SIZE), Syndrome.BAD_REFERENCE, CmdOpcode.CREATE_SQ);
        }
    }

    @Test
    void receiveQueuesRqtAndTir() {
        try (TestHost h = up()) {
            Base b = Base.of(h);
            int counter = Objs.qCounter(h);
            int rq1 = Objs.rq(h, Objs.rqIn(h, b.cqn, b.pd, counter));
            int rq2 = Objs.rq(h, Objs.rqIn(h, b.cqn, b.pd, 0));
            assertFails(h.exec(Objs.rqIn(h, b.cqn, b.pd, counter + 9), CreateRqOut.SIZE), Syndrome.BAD_REFERENCE, CmdOpcode.CREATE_RQ);
            MemorySegment rmp = Objs.rqIn(h, b.cqn, b.pd, 0);
            Rqc.mem_rq_type$set(rmp, CreateRqIn.ctx$BYTE_OFFSET, 1);
            assertFails(h.exec(rmp, CreateRqOut.SIZE), Syndrome.BAD_FIELD, CmdOpcode.CREATE_RQ);
            int rst = RqState.RST$VALUE, rdy = RqState.RDY$VALUE;
            Objs.modifyRq(h, rq1, rst, rdy).ok();
            assertFails(Objs.modifyRq(h, rq1, rst, rdy), Syndrome.CURRENT_STATE_MISMATCH, CmdOpcode.MODIFY_RQ);
            MemorySegment q = header(CmdOpcode.QUERY_RQ, QueryRqIn.SIZE);
            QueryRqIn.rqn$set(q, rq1);
            MemorySegment rqc = h.exec(q, QueryRqOut.SIZE).ok().out();
            assertEquals(rdy, Rqc.state(rqc, QueryRqOut.rq_context$BYTE_OFFSET));
            assertEquals(counter, Rqc.counter_set_id(rqc, QueryRqOut.rq_context$BYTE_OFFSET));

            int rqt = Objs.rqt(h, rq1, rq2, rq1, rq2);
            MemorySegment qt = header(CmdOpcode.QUERY_RQT, QueryRqtIn.SIZE);
            QueryRqtIn.rqtn$set(qt, rqt);
            MemorySegment rqtOut = h.exec(qt, QueryRqtOut.SIZE + 16).ok().out();
            assertEquals(4, Rqtc.rqt_actual_size(rqtOut, QueryRqtOut.rqt_context$BYTE_OFFSET));
            assertEquals(rq2, RqNum.rq_num(rqtOut, QueryRqtOut.rqt_context$BYTE_OFFSET + Rqtc.rq_num$offset(1)));
            assertFails(h.exec(Objs.rqtIn(rq1, rq2 + 50), CreateRqtOut.SIZE), Syndrome.BAD_REFERENCE, CmdOpcode.CREATE_RQT);
            assertFails(h.exec(Objs.rqtIn(new int[1024]), CreateRqtOut.SIZE), Syndrome.SIZE_ABOVE_MAX, CmdOpcode.CREATE_RQT);
            MemorySegment mod = header(CmdOpcode.MODIFY_RQT, ModifyRqtIn.SIZE + 4);
            ModifyRqtIn.rqtn$set(mod, rqt);
            RqtBitmask.rqn_list$set(mod, ModifyRqtIn.bitmask$BYTE_OFFSET, true);
            Rqtc.rqt_max_size$set(mod, ModifyRqtIn.ctx$BYTE_OFFSET, 1);
            Rqtc.rqt_actual_size$set(mod, ModifyRqtIn.ctx$BYTE_OFFSET, 1);
            RqNum.rq_num$set(mod, ModifyRqtIn.ctx$BYTE_OFFSET + Rqtc.rq_num$offset(0), rq2);
            h.exec(mod, ModifyRqtOut.SIZE).ok();

            int direct = Objs.tir(h, Objs.tirDirectIn(b.td, rq1));
            int indirect = Objs.tir(h, Objs.tirIndirectIn(b.td, rqt));
            MemorySegment qtir = header(CmdOpcode.QUERY_TIR, QueryTirIn.SIZE);
            QueryTirIn.tirn$set(qtir, indirect);
            assertEquals(RxHashFn.TOEPLITZ.value, Tirc.rx_hash_fn(h.exec(qtir, QueryTirOut.SIZE).ok().out(), QueryTirOut.tir_context$BYTE_OFFSET));
            assertFails(h.exec(Objs.tirDirectIn(b.td, rq2 + 40), CreateTirOut.SIZE), Syndrome.BAD_REFERENCE, CmdOpcode.CREATE_TIR);
            assertFails(h.exec(Objs.tirIndirectIn(b.td, rqt + 40), CreateTirOut.SIZE), Syndrome.BAD_REFERENCE, CmdOpcode.CREATE_TIR);
            assertFails(h.exec(Objs.tirDirectIn(b.td + 40, rq1), CreateTirOut.SIZE), Syndrome.BAD_REFERENCE, CmdOpcode.CREATE_TIR);
            MemorySegment xor = Objs.tirIndirectIn(b.td, rqt);
            Tirc.rx_hash_fn$set(xor, io.prmkit.mlx5.CreateTirIn.ctx$BYTE_OFFSET, RxHashFn.INVERTED_XOR8);
            MemorySegment dxor = header(CmdOpcode.DESTROY_TIR, io.prmkit.mlx5.DestroyTirIn.SIZE);
            io.prmkit.mlx5.DestroyTirIn.tirn$set(dxor, Objs.tir(h, xor)); // Linux's direct TIRs (mlx5e_tir_builder_build_direct)
            h.exec(dxor, io.prmkit.mlx5.DestroyTirOut.SIZE).ok();
            Tirc.rx_hash_fn$setUnchecked(xor, io.prmkit.mlx5.CreateTirIn.ctx$BYTE_OFFSET, 3); // no such function
            assertFails(h.exec(xor, CreateTirOut.SIZE), Syndrome.BAD_FIELD, CmdOpcode.CREATE_TIR);

            MemorySegment mt = header(CmdOpcode.MODIFY_TIR, io.prmkit.mlx5.ModifyTirIn.SIZE);
            io.prmkit.mlx5.ModifyTirIn.tirn$set(mt, indirect);
            io.prmkit.mlx5.ModifyTirBitmask.hash$set(mt, io.prmkit.mlx5.ModifyTirIn.bitmask$BYTE_OFFSET, true);
            Tirc.rx_hash_fn$setUnchecked(mt, io.prmkit.mlx5.ModifyTirIn.ctx$BYTE_OFFSET, 3);
            assertFails(h.exec(mt, io.prmkit.mlx5.ModifyTirOut.SIZE), Syndrome.BAD_FIELD, CmdOpcode.MODIFY_TIR);
            Tirc.rx_hash_fn$set(mt, io.prmkit.mlx5.ModifyTirIn.ctx$BYTE_OFFSET, RxHashFn.NONE);
            h.exec(mt, io.prmkit.mlx5.ModifyTirOut.SIZE).ok();
            assertEquals(RxHashFn.NONE.value, Tirc.rx_hash_fn(h.exec(qtir, QueryTirOut.SIZE).ok().out(), QueryTirOut.tir_context$BYTE_OFFSET));
            io.prmkit.mlx5.ModifyTirIn.tirn$set(mt, indirect + 50);
            assertFails(h.exec(mt, io.prmkit.mlx5.ModifyTirOut.SIZE), Syndrome.NO_SUCH_OBJECT, CmdOpcode.MODIFY_TIR);
            MemorySegment mtis = header(CmdOpcode.MODIFY_TIS, io.prmkit.mlx5.ModifyTisIn.SIZE);
            io.prmkit.mlx5.ModifyTisIn.tisn$set(mtis, b.tisn());
            io.prmkit.mlx5.ModifyTisBitmask.prio$set(mtis, io.prmkit.mlx5.ModifyTisIn.bitmask$BYTE_OFFSET, true);
            Tisc.prio$set(mtis, io.prmkit.mlx5.ModifyTisIn.ctx$BYTE_OFFSET, 6);
            h.exec(mtis, io.prmkit.mlx5.ModifyTisOut.SIZE).ok();
            MemorySegment qtis0 = header(CmdOpcode.QUERY_TIS, QueryTisIn.SIZE);
            QueryTisIn.tisn$set(qtis0, b.tisn());
            assertEquals(6, Tisc.prio(h.exec(qtis0, QueryTisOut.SIZE).ok().out(), QueryTisOut.tis_context$BYTE_OFFSET));
            io.prmkit.mlx5.ModifyTisIn.tisn$set(mtis, b.tisn() + 50);
            assertFails(h.exec(mtis, io.prmkit.mlx5.ModifyTisOut.SIZE), Syndrome.NO_SUCH_OBJECT, CmdOpcode.MODIFY_TIS);

            MemorySegment drq = header(CmdOpcode.DESTROY_RQ, DestroyRqIn.SIZE);
            DestroyRqIn.rqn$set(drq, rq1);
            assertFails(h.exec(drq, DestroyRqOut.SIZE), Syndrome.OBJECT_IN_USE, CmdOpcode.DESTROY_RQ);
            MemorySegment drqt = header(CmdOpcode.DESTROY_RQT, DestroyRqtIn.SIZE);
            DestroyRqtIn.rqtn$set(drqt, rqt);
            assertFails(h.exec(drqt, DestroyRqtOut.SIZE), Syndrome.OBJECT_IN_USE, CmdOpcode.DESTROY_RQT);
            MemorySegment dtir = header(CmdOpcode.DESTROY_TIR, DestroyTirIn.SIZE);
            DestroyTirIn.tirn$set(dtir, direct);
            h.exec(dtir, DestroyTirOut.SIZE).ok();
            h.exec(drq, DestroyRqOut.SIZE).ok();
            assertFails(h.exec(drq, DestroyRqOut.SIZE), Syndrome.NO_SUCH_OBJECT, CmdOpcode.DESTROY_RQ);
            DestroyTirIn.tirn$set(dtir, indirect);
            h.exec(dtir, DestroyTirOut.SIZE).ok();
            h.exec(drqt, DestroyRqtOut.SIZE).ok();
            MemorySegment qtis = header(CmdOpcode.QUERY_TIS, QueryTisIn.SIZE);
            QueryTisIn.tisn$set(qtis, b.tisn);
            assertEquals(b.td, Tisc.transport_domain(h.exec(qtis, QueryTisOut.SIZE).ok().out(), QueryTisOut.tis_context$BYTE_OFFSET));
            assertFails(h.exec(Objs.tisIn(b.td + 9), CreateTisOut.SIZE), Syndrome.BAD_REFERENCE, CmdOpcode.CREATE_TIS);
        }
    }

    @Test
    void flowSteering() {
        try (TestHost h = up()) {
            Base b = Base.of(h);
            int rq = Objs.rq(h, Objs.rqIn(h, b.cqn, b.pd, 0));
            int tir = Objs.tir(h, Objs.tirDirectIn(b.td, rq));
            int table = Objs.flowTable(h, Objs.flowTableIn(FlowTableType.NIC_RX, 4, 0));
            assertFails(h.exec(Objs.flowTableIn(FlowTableType.FDB, 4, 0), CreateFlowTableOut.SIZE), Syndrome.BAD_FIELD, CmdOpcode.CREATE_FLOW_TABLE);
            assertFails(h.exec(Objs.flowTableIn(FlowTableType.NIC_RX, 0x11, 0), CreateFlowTableOut.SIZE), Syndrome.SIZE_ABOVE_MAX,
                    CmdOpcode.CREATE_FLOW_TABLE);
            MemorySegment miss = Objs.flowTableIn(FlowTableType.NIC_RX, 4, 0);
            FlowTableContext.table_miss_action$set(miss, CreateFlowTableIn.flow_table_context$BYTE_OFFSET, 1);
            FlowTableContext.table_miss_id$set(miss, CreateFlowTableIn.flow_table_context$BYTE_OFFSET, 999);
            assertFails(h.exec(miss, CreateFlowTableOut.SIZE), Syndrome.BAD_REFERENCE, CmdOpcode.CREATE_FLOW_TABLE);

            int group = Objs.flowGroup(h, Objs.flowGroupIn(table, 0, 7));
            assertFails(h.exec(Objs.flowGroupIn(table, 4, 9), CreateFlowGroupOut.SIZE), Syndrome.INDEX_IN_USE, CmdOpcode.CREATE_FLOW_GROUP);
            assertFails(h.exec(Objs.flowGroupIn(table, 8, 16), CreateFlowGroupOut.SIZE), Syndrome.BAD_INDEX, CmdOpcode.CREATE_FLOW_GROUP);
            assertFails(h.exec(Objs.flowGroupIn(table + 9, 0, 1), CreateFlowGroupOut.SIZE), Syndrome.NO_SUCH_OBJECT, CmdOpcode.CREATE_FLOW_GROUP);

            Objs.fte(h, Objs.fteToTirIn(table, group, 3, tir)).ok();
            assertFails(Objs.fte(h, Objs.fteToTirIn(table, group, 3, tir)), Syndrome.INDEX_IN_USE, CmdOpcode.SET_FLOW_TABLE_ENTRY);
            assertFails(Objs.fte(h, Objs.fteToTirIn(table, group, 9, tir)), Syndrome.BAD_INDEX, CmdOpcode.SET_FLOW_TABLE_ENTRY);
            assertFails(Objs.fte(h, Objs.fteToTirIn(table, group, 4, tir + 9)), Syndrome.BAD_REFERENCE, CmdOpcode.SET_FLOW_TABLE_ENTRY);
            MemorySegment decap = Objs.fteToTirIn(table, group, 4, tir);
            io.prmkit.mlx5.FlowContext.action$set(decap, SetFteIn.flow_context$BYTE_OFFSET, 0x24);
            assertFails(Objs.fte(h, decap), Syndrome.BAD_FIELD, CmdOpcode.SET_FLOW_TABLE_ENTRY);

            MemorySegment root = header(CmdOpcode.SET_FLOW_TABLE_ROOT, SetFlowTableRootIn.SIZE);
            SetFlowTableRootIn.table_type$set(root, FlowTableType.NIC_RX);
            SetFlowTableRootIn.table_id$set(root, table);
            h.exec(root, SetFlowTableRootOut.SIZE).ok();
            SetFlowTableRootIn.table_id$set(root, table + 9);
            assertFails(h.exec(root, SetFlowTableRootOut.SIZE), Syndrome.NO_SUCH_OBJECT, CmdOpcode.SET_FLOW_TABLE_ROOT);

            MemorySegment dtir = header(CmdOpcode.DESTROY_TIR, DestroyTirIn.SIZE);
            DestroyTirIn.tirn$set(dtir, tir);
            assertFails(h.exec(dtir, DestroyTirOut.SIZE), Syndrome.OBJECT_IN_USE, CmdOpcode.DESTROY_TIR);
            MemorySegment dg = header(CmdOpcode.DESTROY_FLOW_GROUP, DestroyFlowGroupIn.SIZE);
            DestroyFlowGroupIn.table_type$set(dg, FlowTableType.NIC_RX);
            DestroyFlowGroupIn.table_id$set(dg, table);
            DestroyFlowGroupIn.group_id$set(dg, group);
            assertFails(h.exec(dg, DestroyFlowGroupOut.SIZE), Syndrome.OBJECT_IN_USE, CmdOpcode.DESTROY_FLOW_GROUP);
            MemorySegment del = header(CmdOpcode.DELETE_FLOW_TABLE_ENTRY, DeleteFteIn.SIZE);
            DeleteFteIn.table_type$set(del, FlowTableType.NIC_RX);
            DeleteFteIn.table_id$set(del, table);
            DeleteFteIn.flow_index$set(del, 3);
            h.exec(del, DeleteFteOut.SIZE).ok();
            assertFails(h.exec(del, DeleteFteOut.SIZE), Syndrome.NO_SUCH_OBJECT, CmdOpcode.DELETE_FLOW_TABLE_ENTRY);
            h.exec(dg, DestroyFlowGroupOut.SIZE).ok();
            MemorySegment dt = header(CmdOpcode.DESTROY_FLOW_TABLE, DestroyFlowTableIn.SIZE);
            DestroyFlowTableIn.table_type$set(dt, FlowTableType.NIC_RX);
            DestroyFlowTableIn.table_id$set(dt, table);
            assertFails(h.exec(dt, DestroyFlowTableOut.SIZE), Syndrome.OBJECT_IN_USE, CmdOpcode.DESTROY_FLOW_TABLE);
            h.exec(dtir, DestroyTirOut.SIZE).ok();
        }
    }
}

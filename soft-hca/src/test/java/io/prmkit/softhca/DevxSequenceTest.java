package io.prmkit.softhca;

import static io.prmkit.softhca.Cmds.header;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.prmkit.mlx5.AllocPdIn;
import io.prmkit.mlx5.AllocPdOut;
import io.prmkit.mlx5.AllocTransportDomainIn;
import io.prmkit.mlx5.AllocTransportDomainOut;
import io.prmkit.mlx5.Ads;
import io.prmkit.mlx5.CmdOpcode;
import io.prmkit.mlx5.Cqc;
import io.prmkit.mlx5.CreateCqIn;
import io.prmkit.mlx5.CreateCqOut;
import io.prmkit.mlx5.CreateQpIn;
import io.prmkit.mlx5.CreateQpOut;
import io.prmkit.mlx5.CreateRqIn;
import io.prmkit.mlx5.CreateRqOut;
import io.prmkit.mlx5.CreateSqIn;
import io.prmkit.mlx5.CreateSqOut;
import io.prmkit.mlx5.CreateTisIn;
import io.prmkit.mlx5.CreateTisOut;
import io.prmkit.mlx5.CreateUctxIn;
import io.prmkit.mlx5.CreateUctxOut;
import io.prmkit.mlx5.CreateUmemIn;
import io.prmkit.mlx5.CreateUmemOut;
import io.prmkit.mlx5.DestroyUctxIn;
import io.prmkit.mlx5.DestroyUctxOut;
import io.prmkit.mlx5.Init2rtrQpIn;
import io.prmkit.mlx5.Init2rtrQpOut;
import io.prmkit.mlx5.ModifyRqIn;
import io.prmkit.mlx5.ModifyRqOut;
import io.prmkit.mlx5.ModifySqIn;
import io.prmkit.mlx5.ModifySqOut;
import io.prmkit.mlx5.NopIn;
import io.prmkit.mlx5.NopOut;
import io.prmkit.mlx5.QpMtu;
import io.prmkit.mlx5.QpPmState;
import io.prmkit.mlx5.QpServiceType;
import io.prmkit.mlx5.QpState;
import io.prmkit.mlx5.Qpc;
import io.prmkit.mlx5.QueryCqIn;
import io.prmkit.mlx5.QueryCqOut;
import io.prmkit.mlx5.QueryQpIn;
import io.prmkit.mlx5.QueryQpOut;
import io.prmkit.mlx5.QueryRqIn;
import io.prmkit.mlx5.QueryRqOut;
import io.prmkit.mlx5.QuerySqIn;
import io.prmkit.mlx5.QuerySqOut;
import io.prmkit.mlx5.Rqc;
import io.prmkit.mlx5.RqState;
import io.prmkit.mlx5.Rst2initQpIn;
import io.prmkit.mlx5.Rst2initQpOut;
import io.prmkit.mlx5.Rtr2rtsQpIn;
import io.prmkit.mlx5.Rtr2rtsQpOut;
import io.prmkit.mlx5.Sqc;
import io.prmkit.mlx5.SqState;
import io.prmkit.mlx5.Tisc;
import io.prmkit.mlx5.Wq;
import io.prmkit.mlx5.WqType;
import io.prmkit.platform.DmaRegion;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Issue 35's DEVX sequence: the commands a DEVX application's CQ, SQ, RQ and RC QP on umems
 * produce, with the lengths and fields rdma-core's mlx5 provider sends (what
 * {@code RdmaCoreVfioTest} records from the real libmlx5 through mlx5_vfio), replayed through BAR 0
 * and DMA only so that it runs where libmlx5 is missing:
 * <ul>
 *   <li>CREATE_UMEM as mlx5_vfio builds it ({@code _vfio_devx_umem_reg}): 0x30 + 8 bytes, one MTT
 *       entry of the power-of-two IOVA range with {@code rd_en | wr_en}, {@code log_page_size} =
 *       page shift - 12, {@code page_offset}; DESTROY_UMEM with {@code create_umem_in}'s length;</li>
 *   <li>object creation with the application's structures, whole (0x110 bytes for CREATE_CQ, no page
 *       list); destruction with the 16-byte {@code general_obj_in_cmd_hdr} length rdma-core's
 *       {@code devx_obj_build_destroy_cmd} uses, the create's uid copied;</li>
 *   <li>with uid 0 as mlx5_vfio sends everything, and with the uid of a CREATE_UCTX as the
 *       kernel's DEVX (mlx5_ib) puts into every command of a DEVX context.</li>
 * </ul>
 */
class DevxSequenceTest {
    /** rdma-core: DEVX_ST_SZ_BYTES(general_obj_in_cmd_hdr), the length of every destroy command it builds. */
    static final long GENERAL_OBJ_HDR = 0x10;

    record Sent(String command, int status) {}

    static final class Run {
        final TestHost h;
        final int uid;
        final List<Sent> sent = new ArrayList<>();

        Run(TestHost h, int uid) {
            this.h = h;
            this.uid = uid;
        }

        /**
         * Runs {@code in} ({@code inLen} bytes, as rdma-core sends it) with the run's uid in the header
         * (where every input that has a uid has it; create_umem_in's setter) and records it; its output.
         */
        MemorySegment exec(MemorySegment in, long inLen, long outLen) {
            assertEquals(inLen, in.byteSize());
            CreateUmemIn.uid$set(in, uid);
            TestHost.Result r = h.exec(in, outLen);
            assertEquals(0, r.delivery(), () -> CmdOpcode.nameOf(NopIn.opcode(in)) + " delivery");
            sent.add(new Sent(CmdOpcode.nameOf(NopIn.opcode(in)), r.status()));
            r.ok();
            return r.out();
        }

        /** The 16-byte destroy rdma-core builds: opcode, the create's uid, the object's number. */
        void destroy(CmdOpcode op, java.util.function.Consumer<MemorySegment> number) {
            MemorySegment in = header(op, GENERAL_OBJ_HDR);
            number.accept(in);
            exec(in, GENERAL_OBJ_HDR, NopOut.SIZE);
        }

        /** mlx5_vfio's CREATE_UMEM for a 4 KiB page-aligned buffer. */
        int umem(DmaRegion buf) {
            MemorySegment in = UmemCommandsTest.umemIn(0, 0, true, buf);
            return CreateUmemOut.umem_id(exec(in, CreateUmemIn.SIZE + 8, CreateUmemOut.SIZE));
        }
    }

    @ParameterizedTest(name = "uid from CREATE_UCTX: {0}")
    @ValueSource(booleans = {false, true})
    void aDevxApplicationsQueuesOnUmems(boolean withUctx) {
        try (TestHost h = TestHost.started(new SoftHca.Options().caps(CapsProfile.connectX4().withDevx()), ExecutionMode.STEP)) {
            Cmds.bringUp(h);
            int uar = Objs.uar(h);
            int eqn = Objs.eq(h, Objs.eqIn(h, uar, 4, 0, 1L));
            int uid = withUctx ? CreateUctxOut.uid(h.exec(header(CmdOpcode.CREATE_UCTX, CreateUctxIn.SIZE), CreateUctxOut.SIZE).ok().out()) : 0;
            Run r = new Run(h, uid);
            int pdn = AllocPdOut.pd(r.exec(header(CmdOpcode.ALLOC_PD, AllocPdIn.SIZE), AllocPdIn.SIZE, AllocPdOut.SIZE));
            int cqU = r.umem(Objs.page(h)), dbrU = r.umem(Objs.page(h)), sqU = r.umem(Objs.page(h)), rqU = r.umem(Objs.page(h)), qpU = r.umem(Objs.page(h));

            MemorySegment in = header(CmdOpcode.CREATE_CQ, CreateCqIn.SIZE);
            long c = CreateCqIn.cq_context$BYTE_OFFSET;
            Cqc.log_cq_size$set(in, c, 6);
            Cqc.uar_page$set(in, c, uar);
            Cqc.c_eqn_or_apu_element$set(in, c, eqn);
            Cqc.dbr_umem_valid$set(in, c, true);
            Cqc.dbr_umem_id$set(in, c, dbrU);
            CreateCqIn.cq_umem_valid$set(in, true);
            CreateCqIn.cq_umem_id$set(in, cqU);
            int cqn = CreateCqOut.cqn(r.exec(in, CreateCqIn.SIZE, CreateCqOut.SIZE));
            in = header(CmdOpcode.QUERY_CQ, QueryCqIn.SIZE);
            QueryCqIn.cqn$set(in, cqn);
            MemorySegment out = r.exec(in, QueryCqIn.SIZE, QueryCqOut.SIZE);
            assertEquals(6, Cqc.log_cq_size(out, QueryCqOut.cq_context$BYTE_OFFSET));
            assertEquals(dbrU, Cqc.dbr_umem_id(out, QueryCqOut.cq_context$BYTE_OFFSET));

            int td = AllocTransportDomainOut.transport_domain(r.exec(header(CmdOpcode.ALLOC_TRANSPORT_DOMAIN, AllocTransportDomainIn.SIZE),
                    AllocTransportDomainIn.SIZE, AllocTransportDomainOut.SIZE));
            in = header(CmdOpcode.CREATE_TIS, CreateTisIn.SIZE);
            Tisc.transport_domain$set(in, CreateTisIn.ctx$BYTE_OFFSET, td);
            int tisn = CreateTisOut.tisn(r.exec(in, CreateTisIn.SIZE, CreateTisOut.SIZE));

            in = header(CmdOpcode.CREATE_SQ, CreateSqIn.SIZE);
            long sc = CreateSqIn.ctx$BYTE_OFFSET;
            Sqc.flush_in_error_en$set(in, sc, true);
            Sqc.cqn$set(in, sc, cqn);
            Sqc.tis_lst_sz$set(in, sc, 1);
            Sqc.tis_num_0$set(in, sc, tisn);
            wq(in, sc + Sqc.wq$BYTE_OFFSET, pdn, uar, 6, 6, sqU, dbrU, 0x40);
            int sqn = CreateSqOut.sqn(r.exec(in, CreateSqIn.SIZE, CreateSqOut.SIZE));
            in = header(CmdOpcode.MODIFY_SQ, ModifySqIn.SIZE);
            ModifySqIn.sqn$set(in, sqn);
            ModifySqIn.sq_state$set(in, SqState.RST);
            Sqc.state$set(in, ModifySqIn.ctx$BYTE_OFFSET, SqState.RDY);
            r.exec(in, ModifySqIn.SIZE, ModifySqOut.SIZE);
            in = header(CmdOpcode.QUERY_SQ, QuerySqIn.SIZE);
            QuerySqIn.sqn$set(in, sqn);
            out = r.exec(in, QuerySqIn.SIZE, QuerySqOut.SIZE);
            assertEquals(SqState.RDY.value, Sqc.state(out, QuerySqOut.sq_context$BYTE_OFFSET));
            assertEquals(sqU, Wq.wq_umem_id(out, QuerySqOut.sq_context$BYTE_OFFSET + Sqc.wq$BYTE_OFFSET));

            in = header(CmdOpcode.CREATE_RQ, CreateRqIn.SIZE);
            long rc = CreateRqIn.ctx$BYTE_OFFSET;
            Rqc.flush_in_error_en$set(in, rc, true);
            Rqc.cqn$set(in, rc, cqn);
            wq(in, rc + Rqc.wq$BYTE_OFFSET, pdn, uar, 4, 6, rqU, dbrU, 0x80);
            int rqn = CreateRqOut.rqn(r.exec(in, CreateRqIn.SIZE, CreateRqOut.SIZE));
            in = header(CmdOpcode.MODIFY_RQ, ModifyRqIn.SIZE);
            ModifyRqIn.rqn$set(in, rqn);
            ModifyRqIn.rq_state$set(in, RqState.RST);
            Rqc.state$set(in, ModifyRqIn.ctx$BYTE_OFFSET, RqState.RDY);
            r.exec(in, ModifyRqIn.SIZE, ModifyRqOut.SIZE);
            in = header(CmdOpcode.QUERY_RQ, QueryRqIn.SIZE);
            QueryRqIn.rqn$set(in, rqn);
            out = r.exec(in, QueryRqIn.SIZE, QueryRqOut.SIZE);
            assertEquals(RqState.RDY.value, Rqc.state(out, QueryRqOut.rq_context$BYTE_OFFSET));
            assertEquals(rqU, Wq.wq_umem_id(out, QueryRqOut.rq_context$BYTE_OFFSET + Rqc.wq$BYTE_OFFSET));

            in = header(CmdOpcode.CREATE_QP, CreateQpIn.SIZE);
            long qc = CreateQpIn.qpc$BYTE_OFFSET;
            Qpc.st$set(in, qc, QpServiceType.RC);
            Qpc.pm_state$set(in, qc, QpPmState.MIGRATED);
            Qpc.pd$set(in, qc, pdn);
            Qpc.uar_page$set(in, qc, uar);
            Qpc.cqn_snd$set(in, qc, cqn);
            Qpc.cqn_rcv$set(in, qc, cqn);
            Qpc.log_rq_stride$set(in, qc, 2);
            Qpc.log_rq_size$set(in, qc, 4);
            Qpc.log_sq_size$set(in, qc, 4);
            Qpc.dbr_umem_valid$set(in, qc, true);
            Qpc.dbr_umem_id$set(in, qc, dbrU);
            Qpc.dbr_addr$set(in, qc, 0xc0);
            CreateQpIn.wq_umem_valid$set(in, true);
            CreateQpIn.wq_umem_id$set(in, qpU);
            int qpn = CreateQpOut.qpn(r.exec(in, CreateQpIn.SIZE, CreateQpOut.SIZE));
            long path = Qpc.primary_address_path$BYTE_OFFSET;
            in = header(CmdOpcode.RST2INIT_QP, Rst2initQpIn.SIZE);
            Rst2initQpIn.qpn$set(in, qpn);
            Qpc.rwe$set(in, Rst2initQpIn.qpc$BYTE_OFFSET, true);
            Qpc.rre$set(in, Rst2initQpIn.qpc$BYTE_OFFSET, true);
            Ads.vhca_port_num$set(in, Rst2initQpIn.qpc$BYTE_OFFSET + path, 1);
            r.exec(in, Rst2initQpIn.SIZE, Rst2initQpOut.SIZE);
            in = header(CmdOpcode.INIT2RTR_QP, Init2rtrQpIn.SIZE);
            Init2rtrQpIn.qpn$set(in, qpn);
            long q2 = Init2rtrQpIn.qpc$BYTE_OFFSET;
            Qpc.mtu$set(in, q2, QpMtu.MTU_1K);
            Qpc.log_msg_max$set(in, q2, 30);
            Qpc.remote_qpn$set(in, q2, qpn);
            Qpc.min_rnr_nak$set(in, q2, 12);
            Ads.vhca_port_num$set(in, q2 + path, 1);
            r.exec(in, Init2rtrQpIn.SIZE, Init2rtrQpOut.SIZE);
            in = header(CmdOpcode.RTR2RTS_QP, Rtr2rtsQpIn.SIZE);
            Rtr2rtsQpIn.qpn$set(in, qpn);
            long q3 = Rtr2rtsQpIn.qpc$BYTE_OFFSET;
            Qpc.retry_count$set(in, q3, 7);
            Qpc.rnr_retry$set(in, q3, 7);
            Ads.ack_timeout$set(in, q3 + path, 14);
            r.exec(in, Rtr2rtsQpIn.SIZE, Rtr2rtsQpOut.SIZE);
            in = header(CmdOpcode.QUERY_QP, QueryQpIn.SIZE);
            QueryQpIn.qpn$set(in, qpn);
            out = r.exec(in, QueryQpIn.SIZE, QueryQpOut.SIZE);
            assertEquals(QpState.RTS.value, Qpc.state(out, QueryQpOut.qpc$BYTE_OFFSET));
            assertEquals(dbrU, Qpc.dbr_umem_id(out, QueryQpOut.qpc$BYTE_OFFSET));

            r.destroy(CmdOpcode.DESTROY_QP, d -> io.prmkit.mlx5.DestroyQpIn.qpn$set(d, qpn));
            r.destroy(CmdOpcode.DESTROY_RQ, d -> io.prmkit.mlx5.DestroyRqIn.rqn$set(d, rqn));
            r.destroy(CmdOpcode.DESTROY_SQ, d -> io.prmkit.mlx5.DestroySqIn.sqn$set(d, sqn));
            r.destroy(CmdOpcode.DESTROY_TIS, d -> io.prmkit.mlx5.DestroyTisIn.tisn$set(d, tisn));
            r.destroy(CmdOpcode.DEALLOC_TRANSPORT_DOMAIN, d -> io.prmkit.mlx5.DeallocTransportDomainIn.transport_domain$set(d, td));
            r.destroy(CmdOpcode.DESTROY_CQ, d -> io.prmkit.mlx5.DestroyCqIn.cqn$set(d, cqn));
            for (int u : new int[] {cqU, dbrU, sqU, rqU, qpU}) {
                MemorySegment d = header(CmdOpcode.DESTROY_UMEM, CreateUmemIn.SIZE); // mlx5_vfio sizes it as create_umem_in
                io.prmkit.mlx5.DestroyUmemIn.umem_id$set(d, u);
                r.exec(d, CreateUmemIn.SIZE, io.prmkit.mlx5.DestroyUmemOut.SIZE);
            }
            r.destroy(CmdOpcode.DEALLOC_PD, d -> io.prmkit.mlx5.DeallocPdIn.pd$set(d, pdn));
            assertEquals(List.of("ALLOC_PD", "CREATE_UMEM", "CREATE_UMEM", "CREATE_UMEM", "CREATE_UMEM", "CREATE_UMEM", "CREATE_CQ", "QUERY_CQ",
                    "ALLOC_TRANSPORT_DOMAIN", "CREATE_TIS", "CREATE_SQ", "MODIFY_SQ", "QUERY_SQ", "CREATE_RQ", "MODIFY_RQ", "QUERY_RQ", "CREATE_QP",
                    "RST2INIT_QP", "INIT2RTR_QP", "RTR2RTS_QP", "QUERY_QP", "DESTROY_QP", "DESTROY_RQ", "DESTROY_SQ", "DESTROY_TIS",
                    "DEALLOC_TRANSPORT_DOMAIN", "DESTROY_CQ", "DESTROY_UMEM", "DESTROY_UMEM", "DESTROY_UMEM", "DESTROY_UMEM", "DESTROY_UMEM", "DEALLOC_PD"),
                    r.sent.stream().map(Sent::command).toList());
            assertTrue(r.sent.stream().allMatch(s -> s.status() == 0));
            if (withUctx) {
                MemorySegment d = header(CmdOpcode.DESTROY_UCTX, DestroyUctxIn.SIZE);
                DestroyUctxIn.uid$set(d, uid);
                h.exec(d, DestroyUctxOut.SIZE).ok();
            }
            // the function's own EQ and UAR stay; nothing of the DEVX application
            assertEquals(java.util.Map.of("eq", 1, "uar", 1), h.hca.liveObjects());
        }
    }

    static void wq(MemorySegment in, long wq, int pd, int uar, int logStride, int logSize, int ring, int dbr, long dbrOffset) {
        Wq.wq_type$set(in, wq, WqType.CYCLIC);
        Wq.pd$set(in, wq, pd);
        Wq.uar_page$set(in, wq, uar);
        Wq.log_wq_stride$set(in, wq, logStride);
        Wq.log_wq_sz$set(in, wq, logSize);
        Wq.wq_umem_valid$set(in, wq, true);
        Wq.wq_umem_id$set(in, wq, ring);
        Wq.dbr_umem_valid$set(in, wq, true);
        Wq.dbr_umem_id$set(in, wq, dbr);
        Wq.dbr_addr$set(in, wq, dbrOffset);
    }
}

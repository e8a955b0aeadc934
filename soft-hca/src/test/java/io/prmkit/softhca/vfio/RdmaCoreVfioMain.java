package io.prmkit.softhca.vfio;

import io.prmkit.mlx5.AllocPdIn;
import io.prmkit.mlx5.AllocPdOut;
import io.prmkit.mlx5.CmdHcaCap;
import io.prmkit.mlx5.CmdOpcode;
import io.prmkit.mlx5.QueryHcaCapIn;
import io.prmkit.mlx5.QueryHcaCapOpMod;
import io.prmkit.mlx5.QueryHcaCapOut;
import io.prmkit.mlx5.QueryIssiIn;
import io.prmkit.mlx5.QueryIssiOut;
import io.prmkit.mlx5.QueryNicVportContextIn;
import io.prmkit.mlx5.QueryNicVportContextOut;
import io.prmkit.mlx5.QueryVportStateIn;
import io.prmkit.mlx5.QueryVportStateOut;
import io.prmkit.softhca.CapsProfile;
import io.prmkit.softhca.SoftHca;
import java.io.PrintStream;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Path;
import java.util.function.Consumer;

/**
 * Runs in a JVM of its own with the VFIO stand-in preloaded (RdmaCoreVfioTest starts it): serves a
 * soft HCA behind the stand-in, then drives it with rdma-core's own mlx5_vfio provider from the
 * system's libmlx5 (mlx5dv_get_vfio_device_list, ibv_open_device, DEVX general commands and object
 * creation, close). It asserts nothing: it prints what happened, one fact per line, for the test.
 * <ul>
 *   <li>{@code CMD <opcode> op_mod=<hex> status=<hex> syndrome=<hex>}: every command the device
 *       completed, in order (from its command trace);</li>
 *   <li>{@code STEP <name> ok ...} or {@code STEP <name> FAILED errno=<n> ...}: each libmlx5 call;</li>
 *   <li>{@code VFIO <call>}: the stand-in's trace of the VFIO calls; {@code DONE} at the end.</li>
 * </ul>
 */
public final class RdmaCoreVfioMain {
    private static PrintStream out;
    private static SoftHca device;

    public static void main(String[] args) throws Throwable {
        out = new PrintStream(System.out, true);
        Path library = Path.of(args[0]);
        Path root = Path.of(args[1]);
        VfioStandIn.SysfsFunction fn = VfioStandIn.SysfsFunction.connectX4();
        // mlx5_vfio refuses a function without umem_uid_0 (it registers umems with uid 0); the real
        // ConnectX-4 whose capabilities the soft HCA reports has no DEVX, so it is turned on here.
        SoftHca.Options options = new SoftHca.Options().caps(CapsProfile.connectX4().withDevx())
                .trace(new CommandLines(out::println));
        try (VfioStandIn standIn = VfioStandIn.attach(library, root, fn, options, l -> out.println("VFIO " + l));
             Arena arena = Arena.ofShared()) {
            device = standIn.device();
            run(new RdmaCore(arena), arena, fn.pci());
            out.println("LIVE " + standIn.device().liveObjects());
            out.println("FAULTS " + standIn.device().iommu().faults() + " mappings " + standIn.device().iommu().mappings());
            out.println("ERROR " + standIn.device().error());
            if (standIn.device().error() != null) standIn.device().error().printStackTrace(out);
        }
        out.println("DONE");
        System.exit(0);
    }

    static void step(String name, boolean ok, RdmaCore rc, String detail) {
        out.println("STEP " + name + (ok ? " ok" : " FAILED errno=" + rc.errno()) + (detail.isEmpty() ? "" : " " + detail));
    }

    static void run(RdmaCore rc, Arena arena, String pci) throws Throwable {
        MemorySegment attr = arena.allocate(24, 8);
        attr.set(ValueLayout.ADDRESS, 0, arena.allocateFrom(pci));
        MemorySegment list = (MemorySegment) rc.getVfioDeviceList.invokeExact(rc.state(), attr);
        step("get_vfio_device_list", !list.equals(MemorySegment.NULL), rc, "");
        if (list.equals(MemorySegment.NULL)) return;
        MemorySegment dev = list.reinterpret(16).get(ValueLayout.ADDRESS, 0);
        MemorySegment ctx = (MemorySegment) rc.openDevice.invokeExact(rc.state(), dev);
        step("open_device", !ctx.equals(MemorySegment.NULL), rc, "");
        if (ctx.equals(MemorySegment.NULL)) {
            rc.freeDeviceList.invokeExact(rc.state(), list);
            return;
        }
        MemorySegment eventsFd = MemorySegment.NULL;
        int fd = (int) rc.eventsFd.invokeExact(rc.state(), ctx);
        step("vfio_get_events_fd", fd >= 0, rc, "fd=" + fd);

        // DEVX general commands
        MemorySegment in = arena.allocate(4096, 8);
        MemorySegment o = arena.allocate(8192, 8);
        for (QueryHcaCapOpMod mod : new QueryHcaCapOpMod[] {QueryHcaCapOpMod.GENERAL_DEVICE_CUR, QueryHcaCapOpMod.GENERAL_DEVICE_MAX,
                QueryHcaCapOpMod.ETHERNET_OFFLOADS_CUR}) {
            in.fill((byte) 0);
            o.fill((byte) 0);
            QueryHcaCapIn.opcode$set(in, CmdOpcode.QUERY_HCA_CAP);
            QueryHcaCapIn.op_mod$set(in, mod);
            int r = (int) rc.generalCmd.invokeExact(rc.state(), ctx, in, QueryHcaCapIn.SIZE, o, QueryHcaCapOut.SIZE);
            String detail = "op_mod=" + mod + " status=" + QueryHcaCapOut.status(o);
            if (mod == QueryHcaCapOpMod.GENERAL_DEVICE_CUR) {
                MemorySegment cap = QueryHcaCapOut.capability(o);
                detail += " port_type=" + CmdHcaCap.port_type(cap) + " log_max_qp=" + CmdHcaCap.log_max_qp(cap) + " umem_uid_0="
                        + (CmdHcaCap.umem_uid_0(cap) ? 1 : 0);
            }
            step("devx_general_cmd QUERY_HCA_CAP", r == 0, rc, detail);
        }
        in.fill((byte) 0);
        o.fill((byte) 0);
        QueryVportStateIn.opcode$set(in, CmdOpcode.QUERY_VPORT_STATE);
        int r = (int) rc.generalCmd.invokeExact(rc.state(), ctx, in, QueryVportStateIn.SIZE, o, QueryVportStateOut.SIZE);
        step("devx_general_cmd QUERY_VPORT_STATE", r == 0, rc, "state=" + QueryVportStateOut.state(o) + " admin_state=" + QueryVportStateOut.admin_state(o));
        in.fill((byte) 0);
        o.fill((byte) 0);
        QueryIssiIn.opcode$set(in, CmdOpcode.QUERY_ISSI);
        r = (int) rc.generalCmd.invokeExact(rc.state(), ctx, in, QueryIssiIn.SIZE, o, QueryIssiOut.SIZE);
        step("devx_general_cmd QUERY_ISSI", r == 0, rc, "current_issi=" + QueryIssiOut.current_issi(o));
        in.fill((byte) 0);
        o.fill((byte) 0);
        QueryNicVportContextIn.opcode$set(in, CmdOpcode.QUERY_NIC_VPORT_CONTEXT);
        r = (int) rc.generalCmd.invokeExact(rc.state(), ctx, in, QueryNicVportContextIn.SIZE, o, QueryNicVportContextOut.SIZE);
        step("devx_general_cmd QUERY_NIC_VPORT_CONTEXT", r == 0, rc, "status=" + QueryNicVportContextOut.status(o));

        // DEVX objects
        in.fill((byte) 0);
        o.fill((byte) 0);
        AllocPdIn.opcode$set(in, CmdOpcode.ALLOC_PD);
        MemorySegment pd = (MemorySegment) rc.objCreate.invokeExact(rc.state(), ctx, in, AllocPdIn.SIZE, o, AllocPdOut.SIZE);
        step("devx_obj_create ALLOC_PD", !pd.equals(MemorySegment.NULL), rc, "pd=" + AllocPdOut.pd(o));
        int pdn = AllocPdOut.pd(o);

        MemorySegment uar = (MemorySegment) rc.allocUar.invokeExact(rc.state(), ctx, 1);
        step("devx_alloc_uar", !uar.equals(MemorySegment.NULL), rc,
                uar.equals(MemorySegment.NULL) ? "" : "page_id=" + uar.reinterpret(24).get(ValueLayout.JAVA_INT, 16));
        MemorySegment eqn = arena.allocate(4, 4);
        r = (int) rc.queryEqn.invokeExact(rc.state(), ctx, 0, eqn);
        step("devx_query_eqn", r == 0, rc, "eqn=" + eqn.get(ValueLayout.JAVA_INT, 0));
        if (!pd.equals(MemorySegment.NULL) && !uar.equals(MemorySegment.NULL) && r == 0) {
            new DevxQueues(rc, ctx, arena, pdn, uar.reinterpret(24).get(ValueLayout.JAVA_INT, 16), eqn.get(ValueLayout.JAVA_INT, 0)).run();
        }

        if (!pd.equals(MemorySegment.NULL)) {
            r = (int) rc.objDestroy.invokeExact(rc.state(), pd);
            step("devx_obj_destroy PD", r == 0, rc, "");
        }
        if (!uar.equals(MemorySegment.NULL)) rc.freeUar.invokeExact(rc.state(), uar);
        r = (int) rc.processEvents.invokeExact(rc.state(), ctx);
        step("vfio_process_events", r == 0, rc, "");
        r = (int) rc.closeDevice.invokeExact(rc.state(), ctx);
        step("close_device", r == 0, rc, "");
        rc.freeDeviceList.invokeExact(rc.state(), list);
    }

    /**
     * What a DEVX application (DPDK's mlx5 PMD, a UCX or RDMA user) does with a DEVX context: memory
     * registered with mlx5dv_devx_umem_reg, a CQ, a transport domain, a TIS, an SQ and an RQ (as DPDK
     * creates them) and an RC QP, each with mlx5dv_devx_obj_create and its buffer and doorbell record
     * named by umem id; SQ and RQ modified to RDY and the QP walked to RTS with mlx5dv_devx_obj_modify,
     * each queried with mlx5dv_devx_obj_query; then everything destroyed and deregistered.
     */
    static final class DevxQueues {
        static final int IBV_ACCESS_LOCAL_WRITE = 1;
        final RdmaCore rc;
        final MemorySegment ctx, in, o;
        final Arena arena;
        final int pdn, uarPage, eqn;
        final java.util.List<MemorySegment> objects = new java.util.ArrayList<>();
        final java.util.List<String> names = new java.util.ArrayList<>();

        DevxQueues(RdmaCore rc, MemorySegment ctx, Arena arena, int pdn, int uarPage, int eqn) {
            this.rc = rc;
            this.ctx = ctx;
            this.arena = arena;
            this.pdn = pdn;
            this.uarPage = uarPage;
            this.eqn = eqn;
            this.in = arena.allocate(4096, 8);
            this.o = arena.allocate(4096, 8);
        }

        void clear() {
            in.fill((byte) 0);
            o.fill((byte) 0);
        }

        /** mlx5dv_devx_umem_reg of {@code bytes} fresh page-aligned bytes; its umem (NULL on failure). */
        MemorySegment umem(String what, long bytes) throws Throwable {
            MemorySegment buf = arena.allocate(bytes, 4096);
            MemorySegment u = (MemorySegment) rc.umemReg.invokeExact(rc.state(), ctx, buf, bytes, IBV_ACCESS_LOCAL_WRITE);
            step("devx_umem_reg " + what, !u.equals(MemorySegment.NULL), rc, u.equals(MemorySegment.NULL) ? "" : "umem_id=" + id(u));
            return u;
        }

        static int id(MemorySegment umem) {
            return umem.reinterpret(4).get(ValueLayout.JAVA_INT, 0);
        }

        /** mlx5dv_devx_obj_create of the input in {@code in}; the object (NULL on failure), kept for destruction. */
        MemorySegment create(String name, long inLen, long outLen, java.util.function.Function<MemorySegment, String> detail) throws Throwable {
            MemorySegment obj = (MemorySegment) rc.objCreate.invokeExact(rc.state(), ctx, in, inLen, o, outLen);
            boolean ok = !obj.equals(MemorySegment.NULL);
            step("devx_obj_create " + name, ok, rc, ok ? detail.apply(o) : "status=" + io.prmkit.mlx5.NopOut.status(o) + " syndrome=0x" + Integer.toHexString(io.prmkit.mlx5.NopOut.syndrome(o)));
            if (ok) {
                objects.add(obj);
                names.add(name);
            }
            return obj;
        }

        boolean modify(String name, MemorySegment obj, long inLen, long outLen) throws Throwable {
            int r = (int) rc.objModify.invokeExact(rc.state(), obj, in, inLen, o, outLen);
            step("devx_obj_modify " + name, r == 0, rc, r == 0 ? "" : "status=" + io.prmkit.mlx5.NopOut.status(o) + " syndrome=0x" + Integer.toHexString(io.prmkit.mlx5.NopOut.syndrome(o)));
            return r == 0;
        }

        boolean query(String name, MemorySegment obj, long inLen, long outLen) throws Throwable {
            int r = (int) rc.objQuery.invokeExact(rc.state(), obj, in, inLen, o, outLen);
            return r == 0;
        }

        void run() throws Throwable {
            MemorySegment cqMem = umem("cq", 4096), dbrMem = umem("doorbell_records", 4096), sqMem = umem("sq", 4096),
                    rqMem = umem("rq", 4096), qpMem = umem("qp", 4096);
            if (cqMem.equals(MemorySegment.NULL) || dbrMem.equals(MemorySegment.NULL) || sqMem.equals(MemorySegment.NULL)
                    || rqMem.equals(MemorySegment.NULL) || qpMem.equals(MemorySegment.NULL)) return;
            int dbr = id(dbrMem);
            try {
                queues(id(cqMem), dbr, id(sqMem), id(rqMem), id(qpMem));
            } finally {
                for (int i = objects.size() - 1; i >= 0; i--) {
                    int r = (int) rc.objDestroy.invokeExact(rc.state(), objects.get(i));
                    step("devx_obj_destroy " + names.get(i), r == 0, rc, "");
                }
                for (MemorySegment u : new MemorySegment[] {cqMem, dbrMem, sqMem, rqMem, qpMem}) {
                    int id = id(u);
                    int r = (int) rc.umemDereg.invokeExact(rc.state(), u);
                    step("devx_umem_dereg", r == 0, rc, "umem_id=" + id);
                }
                // mlx5_vfio waits for each command, so nothing runs on the device now
                out.println("LIVE_AFTER_DEVX " + device.liveObjects());
            }
        }

        void queries(String name, MemorySegment obj, long inLen, long outLen, java.util.function.Function<MemorySegment, String> detail) throws Throwable {
            boolean ok = query(name, obj, inLen, outLen);
            step("devx_obj_query " + name, ok, rc, ok ? detail.apply(o) : "status=" + io.prmkit.mlx5.NopOut.status(o));
        }

        private void queues(int cqUmem, int dbrUmem, int sqUmem, int rqUmem, int qpUmem) throws Throwable {
            // CQ: 64 CQEs of 64 bytes, the whole cq umem; doorbell record at 0 of the doorbell umem
            clear();
            io.prmkit.mlx5.CreateCqIn.opcode$set(in, CmdOpcode.CREATE_CQ);
            long c = io.prmkit.mlx5.CreateCqIn.cq_context$BYTE_OFFSET;
            io.prmkit.mlx5.Cqc.log_cq_size$set(in, c, 6);
            io.prmkit.mlx5.Cqc.uar_page$set(in, c, uarPage);
            io.prmkit.mlx5.Cqc.c_eqn_or_apu_element$set(in, c, eqn);
            io.prmkit.mlx5.Cqc.dbr_umem_valid$set(in, c, true);
            io.prmkit.mlx5.Cqc.dbr_umem_id$set(in, c, dbrUmem);
            io.prmkit.mlx5.Cqc.dbr_addr$set(in, c, 0);
            io.prmkit.mlx5.CreateCqIn.cq_umem_valid$set(in, true);
            io.prmkit.mlx5.CreateCqIn.cq_umem_id$set(in, cqUmem);
            io.prmkit.mlx5.CreateCqIn.cq_umem_offset$set(in, 0);
            MemorySegment cq = create("CREATE_CQ", io.prmkit.mlx5.CreateCqIn.SIZE, io.prmkit.mlx5.CreateCqOut.SIZE, x -> "cqn=" + io.prmkit.mlx5.CreateCqOut.cqn(x));
            if (cq.equals(MemorySegment.NULL)) return;
            int cqn = io.prmkit.mlx5.CreateCqOut.cqn(o);
            clear();
            io.prmkit.mlx5.QueryCqIn.opcode$set(in, CmdOpcode.QUERY_CQ);
            io.prmkit.mlx5.QueryCqIn.cqn$set(in, cqn);
            queries("QUERY_CQ", cq, io.prmkit.mlx5.QueryCqIn.SIZE, io.prmkit.mlx5.QueryCqOut.SIZE,
                    x -> "log_cq_size=" + io.prmkit.mlx5.Cqc.log_cq_size(x, io.prmkit.mlx5.QueryCqOut.cq_context$BYTE_OFFSET)
                            + " dbr_umem_id=" + io.prmkit.mlx5.Cqc.dbr_umem_id(x, io.prmkit.mlx5.QueryCqOut.cq_context$BYTE_OFFSET));

            // transport domain and TIS, then SQ and RQ as DPDK's mlx5 PMD creates them
            clear();
            io.prmkit.mlx5.AllocTransportDomainIn.opcode$set(in, CmdOpcode.ALLOC_TRANSPORT_DOMAIN);
            MemorySegment td = create("ALLOC_TRANSPORT_DOMAIN", io.prmkit.mlx5.AllocTransportDomainIn.SIZE, io.prmkit.mlx5.AllocTransportDomainOut.SIZE,
                    x -> "transport_domain=" + io.prmkit.mlx5.AllocTransportDomainOut.transport_domain(x));
            if (td.equals(MemorySegment.NULL)) return;
            int tdn = io.prmkit.mlx5.AllocTransportDomainOut.transport_domain(o);
            clear();
            io.prmkit.mlx5.CreateTisIn.opcode$set(in, CmdOpcode.CREATE_TIS);
            io.prmkit.mlx5.Tisc.transport_domain$set(in, io.prmkit.mlx5.CreateTisIn.ctx$BYTE_OFFSET, tdn);
            MemorySegment tis = create("CREATE_TIS", io.prmkit.mlx5.CreateTisIn.SIZE, io.prmkit.mlx5.CreateTisOut.SIZE, x -> "tisn=" + io.prmkit.mlx5.CreateTisOut.tisn(x));
            if (tis.equals(MemorySegment.NULL)) return;
            int tisn = io.prmkit.mlx5.CreateTisOut.tisn(o);

            clear();
            io.prmkit.mlx5.CreateSqIn.opcode$set(in, CmdOpcode.CREATE_SQ);
            long sc = io.prmkit.mlx5.CreateSqIn.ctx$BYTE_OFFSET, sw = sc + io.prmkit.mlx5.Sqc.wq$BYTE_OFFSET;
            io.prmkit.mlx5.Sqc.flush_in_error_en$set(in, sc, true);
            io.prmkit.mlx5.Sqc.cqn$set(in, sc, cqn);
            io.prmkit.mlx5.Sqc.tis_lst_sz$set(in, sc, 1);
            io.prmkit.mlx5.Sqc.tis_num_0$set(in, sc, tisn);
            wq(sw, 6, 6, sqUmem, dbrUmem, 0x40);
            MemorySegment sq = create("CREATE_SQ", io.prmkit.mlx5.CreateSqIn.SIZE, io.prmkit.mlx5.CreateSqOut.SIZE, x -> "sqn=" + io.prmkit.mlx5.CreateSqOut.sqn(x));
            if (sq.equals(MemorySegment.NULL)) return;
            int sqn = io.prmkit.mlx5.CreateSqOut.sqn(o);
            clear();
            io.prmkit.mlx5.ModifySqIn.opcode$set(in, CmdOpcode.MODIFY_SQ);
            io.prmkit.mlx5.ModifySqIn.sqn$set(in, sqn);
            io.prmkit.mlx5.ModifySqIn.sq_state$set(in, io.prmkit.mlx5.SqState.RST);
            io.prmkit.mlx5.Sqc.state$set(in, io.prmkit.mlx5.ModifySqIn.ctx$BYTE_OFFSET, io.prmkit.mlx5.SqState.RDY);
            modify("MODIFY_SQ RST->RDY", sq, io.prmkit.mlx5.ModifySqIn.SIZE, io.prmkit.mlx5.ModifySqOut.SIZE);
            clear();
            io.prmkit.mlx5.QuerySqIn.opcode$set(in, CmdOpcode.QUERY_SQ);
            io.prmkit.mlx5.QuerySqIn.sqn$set(in, sqn);
            queries("QUERY_SQ", sq, io.prmkit.mlx5.QuerySqIn.SIZE, io.prmkit.mlx5.QuerySqOut.SIZE, x -> {
                long q = io.prmkit.mlx5.QuerySqOut.sq_context$BYTE_OFFSET;
                return "state=" + io.prmkit.mlx5.Sqc.state(x, q) + " wq_umem_id=" + io.prmkit.mlx5.Wq.wq_umem_id(x, q + io.prmkit.mlx5.Sqc.wq$BYTE_OFFSET);
            });

            clear();
            io.prmkit.mlx5.CreateRqIn.opcode$set(in, CmdOpcode.CREATE_RQ);
            long rc0 = io.prmkit.mlx5.CreateRqIn.ctx$BYTE_OFFSET, rw = rc0 + io.prmkit.mlx5.Rqc.wq$BYTE_OFFSET;
            io.prmkit.mlx5.Rqc.flush_in_error_en$set(in, rc0, true);
            io.prmkit.mlx5.Rqc.cqn$set(in, rc0, cqn);
            wq(rw, 4, 6, rqUmem, dbrUmem, 0x80);
            MemorySegment rq = create("CREATE_RQ", io.prmkit.mlx5.CreateRqIn.SIZE, io.prmkit.mlx5.CreateRqOut.SIZE, x -> "rqn=" + io.prmkit.mlx5.CreateRqOut.rqn(x));
            if (rq.equals(MemorySegment.NULL)) return;
            int rqn = io.prmkit.mlx5.CreateRqOut.rqn(o);
            clear();
            io.prmkit.mlx5.ModifyRqIn.opcode$set(in, CmdOpcode.MODIFY_RQ);
            io.prmkit.mlx5.ModifyRqIn.rqn$set(in, rqn);
            io.prmkit.mlx5.ModifyRqIn.rq_state$set(in, io.prmkit.mlx5.RqState.RST);
            io.prmkit.mlx5.Rqc.state$set(in, io.prmkit.mlx5.ModifyRqIn.ctx$BYTE_OFFSET, io.prmkit.mlx5.RqState.RDY);
            modify("MODIFY_RQ RST->RDY", rq, io.prmkit.mlx5.ModifyRqIn.SIZE, io.prmkit.mlx5.ModifyRqOut.SIZE);
            clear();
            io.prmkit.mlx5.QueryRqIn.opcode$set(in, CmdOpcode.QUERY_RQ);
            io.prmkit.mlx5.QueryRqIn.rqn$set(in, rqn);
            queries("QUERY_RQ", rq, io.prmkit.mlx5.QueryRqIn.SIZE, io.prmkit.mlx5.QueryRqOut.SIZE, x -> {
                long q = io.prmkit.mlx5.QueryRqOut.rq_context$BYTE_OFFSET;
                return "state=" + io.prmkit.mlx5.Rqc.state(x, q) + " wq_umem_id=" + io.prmkit.mlx5.Wq.wq_umem_id(x, q + io.prmkit.mlx5.Rqc.wq$BYTE_OFFSET);
            });

            // an RC QP on the same CQ: RQ of 16 64-byte WQEs then SQ of 16 WQEBBs in the qp umem
            clear();
            io.prmkit.mlx5.CreateQpIn.opcode$set(in, CmdOpcode.CREATE_QP);
            long qc = io.prmkit.mlx5.CreateQpIn.qpc$BYTE_OFFSET;
            io.prmkit.mlx5.Qpc.st$set(in, qc, io.prmkit.mlx5.QpServiceType.RC);
            io.prmkit.mlx5.Qpc.pm_state$set(in, qc, io.prmkit.mlx5.QpPmState.MIGRATED);
            io.prmkit.mlx5.Qpc.pd$set(in, qc, pdn);
            io.prmkit.mlx5.Qpc.uar_page$set(in, qc, uarPage);
            io.prmkit.mlx5.Qpc.cqn_snd$set(in, qc, cqn);
            io.prmkit.mlx5.Qpc.cqn_rcv$set(in, qc, cqn);
            io.prmkit.mlx5.Qpc.log_rq_stride$set(in, qc, 2);
            io.prmkit.mlx5.Qpc.log_rq_size$set(in, qc, 4);
            io.prmkit.mlx5.Qpc.log_sq_size$set(in, qc, 4);
            io.prmkit.mlx5.Qpc.dbr_umem_valid$set(in, qc, true);
            io.prmkit.mlx5.Qpc.dbr_umem_id$set(in, qc, dbrUmem);
            io.prmkit.mlx5.Qpc.dbr_addr$set(in, qc, 0xc0);
            io.prmkit.mlx5.CreateQpIn.wq_umem_valid$set(in, true);
            io.prmkit.mlx5.CreateQpIn.wq_umem_id$set(in, qpUmem);
            MemorySegment qp = create("CREATE_QP", io.prmkit.mlx5.CreateQpIn.SIZE, io.prmkit.mlx5.CreateQpOut.SIZE, x -> "qpn=" + io.prmkit.mlx5.CreateQpOut.qpn(x));
            if (qp.equals(MemorySegment.NULL)) return;
            int qpn = io.prmkit.mlx5.CreateQpOut.qpn(o);
            long path = io.prmkit.mlx5.Qpc.primary_address_path$BYTE_OFFSET;
            clear();
            io.prmkit.mlx5.Rst2initQpIn.opcode$set(in, CmdOpcode.RST2INIT_QP);
            io.prmkit.mlx5.Rst2initQpIn.qpn$set(in, qpn);
            long q1 = io.prmkit.mlx5.Rst2initQpIn.qpc$BYTE_OFFSET;
            io.prmkit.mlx5.Qpc.rwe$set(in, q1, true);
            io.prmkit.mlx5.Qpc.rre$set(in, q1, true);
            io.prmkit.mlx5.Ads.vhca_port_num$set(in, q1 + path, 1);
            if (!modify("RST2INIT_QP", qp, io.prmkit.mlx5.Rst2initQpIn.SIZE, io.prmkit.mlx5.Rst2initQpOut.SIZE)) return;
            clear();
            io.prmkit.mlx5.Init2rtrQpIn.opcode$set(in, CmdOpcode.INIT2RTR_QP);
            io.prmkit.mlx5.Init2rtrQpIn.qpn$set(in, qpn);
            long q2 = io.prmkit.mlx5.Init2rtrQpIn.qpc$BYTE_OFFSET;
            io.prmkit.mlx5.Qpc.mtu$set(in, q2, io.prmkit.mlx5.QpMtu.MTU_1K);
            io.prmkit.mlx5.Qpc.log_msg_max$set(in, q2, 30);
            io.prmkit.mlx5.Qpc.remote_qpn$set(in, q2, qpn);
            io.prmkit.mlx5.Qpc.next_rcv_psn$set(in, q2, 0);
            io.prmkit.mlx5.Qpc.log_rra_max$set(in, q2, 0);
            io.prmkit.mlx5.Qpc.min_rnr_nak$set(in, q2, 12);
            io.prmkit.mlx5.Ads.vhca_port_num$set(in, q2 + path, 1);
            if (!modify("INIT2RTR_QP", qp, io.prmkit.mlx5.Init2rtrQpIn.SIZE, io.prmkit.mlx5.Init2rtrQpOut.SIZE)) return;
            clear();
            io.prmkit.mlx5.Rtr2rtsQpIn.opcode$set(in, CmdOpcode.RTR2RTS_QP);
            io.prmkit.mlx5.Rtr2rtsQpIn.qpn$set(in, qpn);
            long q3 = io.prmkit.mlx5.Rtr2rtsQpIn.qpc$BYTE_OFFSET;
            io.prmkit.mlx5.Qpc.retry_count$set(in, q3, 7);
            io.prmkit.mlx5.Qpc.rnr_retry$set(in, q3, 7);
            io.prmkit.mlx5.Qpc.next_send_psn$set(in, q3, 0);
            io.prmkit.mlx5.Ads.ack_timeout$set(in, q3 + path, 14);
            if (!modify("RTR2RTS_QP", qp, io.prmkit.mlx5.Rtr2rtsQpIn.SIZE, io.prmkit.mlx5.Rtr2rtsQpOut.SIZE)) return;
            clear();
            io.prmkit.mlx5.QueryQpIn.opcode$set(in, CmdOpcode.QUERY_QP);
            io.prmkit.mlx5.QueryQpIn.qpn$set(in, qpn);
            queries("QUERY_QP", qp, io.prmkit.mlx5.QueryQpIn.SIZE, io.prmkit.mlx5.QueryQpOut.SIZE, x -> {
                long q = io.prmkit.mlx5.QueryQpOut.qpc$BYTE_OFFSET;
                return "state=" + io.prmkit.mlx5.Qpc.state(x, q) + " dbr_umem_id=" + io.prmkit.mlx5.Qpc.dbr_umem_id(x, q);
            });
        }

        /** A cyclic work queue of 2^logSize entries of 2^logStride bytes at the start of umem {@code ring}, its doorbell record at {@code dbrOffset} of umem {@code dbr}. */
        private void wq(long wq, int logStride, int logSize, int ring, int dbr, long dbrOffset) {
            io.prmkit.mlx5.Wq.wq_type$set(in, wq, io.prmkit.mlx5.WqType.CYCLIC);
            io.prmkit.mlx5.Wq.pd$set(in, wq, pdn);
            io.prmkit.mlx5.Wq.uar_page$set(in, wq, uarPage);
            io.prmkit.mlx5.Wq.log_wq_stride$set(in, wq, logStride);
            io.prmkit.mlx5.Wq.log_wq_sz$set(in, wq, logSize);
            io.prmkit.mlx5.Wq.wq_umem_valid$set(in, wq, true);
            io.prmkit.mlx5.Wq.wq_umem_id$set(in, wq, ring);
            io.prmkit.mlx5.Wq.dbr_umem_valid$set(in, wq, true);
            io.prmkit.mlx5.Wq.dbr_umem_id$set(in, wq, dbr);
            io.prmkit.mlx5.Wq.dbr_addr$set(in, wq, dbrOffset);
        }
    }

    /** The device's command trace as one CMD line per completed command. */
    static final class CommandLines implements Consumer<String> {
        private final Consumer<String> sink;
        private final java.util.Map<Integer, String> pending = new java.util.HashMap<>();

        CommandLines(Consumer<String> sink) {
            this.sink = sink;
        }

        @Override
        public synchronized void accept(String block) {
            int at = block.indexOf("dump command ");
            if (at < 0) {
                sink.accept("TRACE " + block.strip());
                return;
            }
            int slot = Integer.parseInt(block.substring(4, block.indexOf(']')));
            String name = block.substring(at + "dump command ".length(), block.indexOf('(', at));
            String[] first = firstHexLine(block, slot);
            if (block.contains(") INPUT")) {
                int dw1 = first == null ? 0 : (int) Long.parseLong(first[1], 16);
                pending.put(slot, name + " op_mod=0x" + Integer.toHexString(dw1 & 0xffff));
            } else {
                long dw0 = first == null ? 0 : Long.parseLong(first[0], 16);
                String synd = first == null ? "0" : first[1];
                sink.accept("CMD " + pending.getOrDefault(slot, name) + " status=0x" + Long.toHexString(dw0 >>> 24) + " syndrome=0x" + synd);
            }
        }

        private static String[] firstHexLine(String block, int slot) {
            String key = "cmd[" + slot + "]: 000:";
            int i = block.indexOf(key);
            if (i < 0) return null;
            String[] w = block.substring(i + key.length()).strip().split("\\s+");
            return new String[] {w[0], w[1]};
        }
    }
}

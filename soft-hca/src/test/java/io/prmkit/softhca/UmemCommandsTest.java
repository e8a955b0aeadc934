package io.prmkit.softhca;

import static io.prmkit.softhca.Cmds.header;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.prmkit.mlx5.CmdOpcode;
import io.prmkit.mlx5.CmdStatus;
import io.prmkit.mlx5.Cqc;
import io.prmkit.mlx5.CreateCqIn;
import io.prmkit.mlx5.CreateCqOut;
import io.prmkit.mlx5.CreateQpIn;
import io.prmkit.mlx5.CreateQpOut;
import io.prmkit.mlx5.CreateSqIn;
import io.prmkit.mlx5.CreateUctxIn;
import io.prmkit.mlx5.CreateUctxOut;
import io.prmkit.mlx5.CreateUmemIn;
import io.prmkit.mlx5.CreateUmemOut;
import io.prmkit.mlx5.DestroyCqIn;
import io.prmkit.mlx5.DestroyCqOut;
import io.prmkit.mlx5.DestroyQpIn;
import io.prmkit.mlx5.DestroyQpOut;
import io.prmkit.mlx5.DestroySqIn;
import io.prmkit.mlx5.DestroySqOut;
import io.prmkit.mlx5.DestroyUctxIn;
import io.prmkit.mlx5.DestroyUctxOut;
import io.prmkit.mlx5.DestroyUmemIn;
import io.prmkit.mlx5.DestroyUmemOut;
import io.prmkit.mlx5.Mtt;
import io.prmkit.mlx5.QpServiceType;
import io.prmkit.mlx5.Qpc;
import io.prmkit.mlx5.QueryCqIn;
import io.prmkit.mlx5.QueryCqOut;
import io.prmkit.mlx5.QuerySqIn;
import io.prmkit.mlx5.QuerySqOut;
import io.prmkit.mlx5.Sqc;
import io.prmkit.mlx5.Umem;
import io.prmkit.mlx5.Wq;
import io.prmkit.platform.DmaRegion;
import io.prmkit.softhca.cmd.Syndrome;
import java.lang.foreign.MemorySegment;
import org.junit.jupiter.api.Test;

/**
 * DEVX user memory and user contexts through BAR 0 and DMA only: CREATE_UMEM / DESTROY_UMEM, CQs,
 * SQs and QPs whose rings and doorbell records are named by umem id and offset, the uid in the
 * headers (ownership of what a uid created), the caps that allow uid 0, and the refusals. The
 * datapath through umem rings is {@code EthernetDatapathTest.framesLoopBackThroughRingsAndDoorbellRecordsInUmems}.
 */
class UmemCommandsTest {

    static TestHost devx() {
        TestHost h = TestHost.started(new SoftHca.Options().caps(CapsProfile.defaults().withDevx()), ExecutionMode.STEP);
        Cmds.bringUp(h);
        return h;
    }

    /** A CREATE_UMEM input of uid {@code uid} over {@code pages} (4 KiB each, read and write), the region from {@code pageOffset}. */
    static MemorySegment umemIn(int uid, long pageOffset, boolean writable, DmaRegion... pages) {
        long[] bus = new long[pages.length];
        for (int i = 0; i < pages.length; i++) bus[i] = pages[i].busAddress();
        return umemIn(uid, pageOffset, writable, bus);
    }

    static MemorySegment umemIn(int uid, long pageOffset, boolean writable, long... pages) {
        MemorySegment in = header(CmdOpcode.CREATE_UMEM, CreateUmemIn.SIZE + Mtt.SIZE * pages.length);
        CreateUmemIn.uid$set(in, uid);
        long u = CreateUmemIn.umem$BYTE_OFFSET;
        Umem.log_page_size$set(in, u, 0);
        Umem.page_offset$set(in, u, (int) pageOffset);
        Umem.num_of_mtt$set(in, u, pages.length);
        for (int i = 0; i < pages.length; i++) {
            long e = u + Umem.mtt$BYTE_OFFSET + (long) i * Mtt.SIZE;
            long pa = pages[i];
            Mtt.ptag$set(in, e, pa);
            Mtt.rd_en$set(in, e, true);
            Mtt.wr_en$set(in, e, writable);
        }
        return in;
    }

    /** Registers {@code pages} as one umem of uid 0; its id. */
    static int umem(TestHost h, DmaRegion... pages) {
        return CreateUmemOut.umem_id(h.exec(umemIn(0, 0, true, pages), CreateUmemOut.SIZE).ok().out());
    }

    /** Registers the 4 KiB pages at these bus addresses as one umem of uid 0; its id. */
    static int umem(TestHost h, long... pages) {
        return CreateUmemOut.umem_id(h.exec(umemIn(0, 0, true, pages), CreateUmemOut.SIZE).ok().out());
    }

    static TestHost.Result destroyUmem(TestHost h, int uid, int id) {
        MemorySegment in = header(CmdOpcode.DESTROY_UMEM, DestroyUmemIn.SIZE);
        DestroyUmemIn.uid$set(in, uid);
        DestroyUmemIn.umem_id$set(in, id);
        return h.exec(in, DestroyUmemOut.SIZE);
    }

    static int uctx(TestHost h) {
        return CreateUctxOut.uid(h.exec(header(CmdOpcode.CREATE_UCTX, CreateUctxIn.SIZE), CreateUctxOut.SIZE).ok().out());
    }

    /** A CREATE_CQ of 16 64-byte CQEs (1 KiB) at {@code offset} of umem {@code ring}, its doorbell record at {@code dbOffset} of umem {@code db}. */
    static MemorySegment cqIn(int uid, int uar, int eqn, int ring, long offset, int db, long dbOffset) {
        MemorySegment in = header(CmdOpcode.CREATE_CQ, CreateCqIn.SIZE);
        CreateCqIn.uid$set(in, uid);
        long c = CreateCqIn.cq_context$BYTE_OFFSET;
        Cqc.log_cq_size$set(in, c, 4);
        Cqc.uar_page$set(in, c, uar);
        Cqc.c_eqn_or_apu_element$set(in, c, eqn);
        Cqc.dbr_umem_valid$set(in, c, true);
        Cqc.dbr_umem_id$set(in, c, db);
        Cqc.dbr_addr$set(in, c, dbOffset);
        CreateCqIn.cq_umem_valid$set(in, true);
        CreateCqIn.cq_umem_id$set(in, ring);
        CreateCqIn.cq_umem_offset$set(in, offset);
        return in;
    }

    static TestHost.Result destroyCq(TestHost h, int uid, int cqn) {
        MemorySegment in = header(CmdOpcode.DESTROY_CQ, DestroyCqIn.SIZE);
        DestroyCqIn.uid$set(in, uid);
        DestroyCqIn.cqn$set(in, cqn);
        return h.exec(in, DestroyCqOut.SIZE);
    }

    static int eq(TestHost h, int uar) {
        return Objs.eq(h, Objs.eqIn(h, uar, 4, 0, 1L));
    }

    @Test
    void aCqOnAUmemAndTheOrderOfDestruction() {
        try (TestHost h = devx()) {
            int uar = Objs.uar(h);
            int eqn = eq(h, uar);
            DmaRegion page = Objs.page(h);
            int u = umem(h, page);
            assertEquals(1, h.hca.liveObjects().get("umem"));
            // ring at 0 (1 KiB), doorbell record at 0xf00, both in the one umem
            int cqn = CreateCqOut.cqn(h.exec(cqIn(0, uar, eqn, u, 0, u, 0xf00), CreateCqOut.SIZE).ok().out());
            MemorySegment q = header(CmdOpcode.QUERY_CQ, QueryCqIn.SIZE);
            QueryCqIn.cqn$set(q, cqn);
            MemorySegment out = h.exec(q, QueryCqOut.SIZE).ok().out();
            long ctx = QueryCqOut.cq_context$BYTE_OFFSET;
            assertTrue(Cqc.dbr_umem_valid(out, ctx));
            assertEquals(u, Cqc.dbr_umem_id(out, ctx));
            assertEquals(0xf00, Cqc.dbr_addr(out, ctx), "the doorbell record's offset in the umem, as given");
            Cmds.assertFails(destroyUmem(h, 0, u), Syndrome.OBJECT_IN_USE, CmdOpcode.DESTROY_UMEM);
            assertEquals(CmdStatus.RES_BUSY.value, destroyUmem(h, 0, u).status());
            destroyCq(h, 0, cqn).ok();
            destroyUmem(h, 0, u).ok();
            Cmds.assertFails(destroyUmem(h, 0, u), Syndrome.NO_SUCH_OBJECT, CmdOpcode.DESTROY_UMEM);
            assertFalse(h.hca.liveObjects().containsKey("umem"));
            assertFalse(h.hca.liveObjects().containsKey("cq"));
        }
    }

    @Test
    void objectsBelongToTheUidTheyWereCreatedWith() {
        try (TestHost h = devx()) {
            int uar = Objs.uar(h);
            int eqn = eq(h, uar);
            int uid = uctx(h);
            assertTrue(uid > 0);
            assertEquals(1, h.hca.liveObjects().get("uctx"));
            int mine = CreateUmemOut.umem_id(h.exec(umemIn(uid, 0, true, Objs.page(h)), CreateUmemOut.SIZE).ok().out());
            int shared = umem(h, Objs.page(h));
            // a context may use only umems of its own uid
            Cmds.assertFails(h.exec(cqIn(0, uar, eqn, mine, 0, shared, 0), CreateCqOut.SIZE), Syndrome.UMEM_RANGE, CmdOpcode.CREATE_CQ);
            Cmds.assertFails(h.exec(cqIn(uid, uar, eqn, mine, 0, shared, 0), CreateCqOut.SIZE), Syndrome.UMEM_RANGE, CmdOpcode.CREATE_CQ);
            int cqn = CreateCqOut.cqn(h.exec(cqIn(uid, uar, eqn, mine, 0, mine, 0x800), CreateCqOut.SIZE).ok().out());
            // what uid created, only uid destroys or queries (uid 0 included)
            Cmds.assertFails(destroyCq(h, 0, cqn), Syndrome.NOT_OWNER, CmdOpcode.DESTROY_CQ);
            MemorySegment q = header(CmdOpcode.QUERY_CQ, QueryCqIn.SIZE);
            QueryCqIn.cqn$set(q, cqn);
            Cmds.assertFails(h.exec(q, QueryCqOut.SIZE), Syndrome.NOT_OWNER, CmdOpcode.QUERY_CQ);
            Cmds.assertFails(destroyUmem(h, 0, mine), Syndrome.NOT_OWNER, CmdOpcode.DESTROY_UMEM);
            Cmds.assertFails(destroyUmem(h, uid, shared), Syndrome.NOT_OWNER, CmdOpcode.DESTROY_UMEM);
            // a uid that names no user context
            Cmds.assertFails(destroyCq(h, uid + 1, cqn), Syndrome.BAD_UID, CmdOpcode.DESTROY_CQ);
            // the user context cannot go while it owns objects
            MemorySegment d = header(CmdOpcode.DESTROY_UCTX, DestroyUctxIn.SIZE);
            DestroyUctxIn.uid$set(d, uid);
            Cmds.assertFails(h.exec(d, DestroyUctxOut.SIZE), Syndrome.OBJECT_IN_USE, CmdOpcode.DESTROY_UCTX);
            destroyCq(h, uid, cqn).ok();
            destroyUmem(h, uid, mine).ok();
            h.exec(d, DestroyUctxOut.SIZE).ok();
            destroyUmem(h, 0, shared).ok();
            assertFalse(h.hca.liveObjects().containsKey("uctx"));
            assertFalse(h.hca.liveObjects().containsKey("umem"));
            // every command carries the uid where general_obj_in_cmd_hdr has it, even one whose own
            // structure calls those bits reserved (the kernel's DEVX sets it in QUERY_* and general commands)
            MemorySegment issi = header(CmdOpcode.QUERY_ISSI, io.prmkit.mlx5.QueryIssiIn.SIZE);
            io.prmkit.mlx5.GeneralObjInCmdHdr.uid$set(issi, uid);
            Cmds.assertFails(h.exec(issi, io.prmkit.mlx5.QueryIssiOut.SIZE), Syndrome.BAD_UID, CmdOpcode.QUERY_ISSI);
            int again = uctx(h);
            io.prmkit.mlx5.GeneralObjInCmdHdr.uid$set(issi, again);
            h.exec(issi, io.prmkit.mlx5.QueryIssiOut.SIZE).ok();
            MemorySegment d2 = header(CmdOpcode.DESTROY_UCTX, DestroyUctxIn.SIZE);
            DestroyUctxIn.uid$set(d2, again);
            h.exec(d2, DestroyUctxOut.SIZE).ok();
        }
    }

    @Test
    void uidZeroUmemsNeedUmemUid0AndAFunctionWithoutDevxDoesNotKnowTheCommands() {
        try (TestHost h = TestHost.started(new SoftHca.Options().caps(CapsProfile.defaults().withDevx().withGeneral("umem_uid_0", 0)), ExecutionMode.STEP)) {
            Cmds.bringUp(h);
            Cmds.assertFails(h.exec(umemIn(0, 0, true, Objs.page(h)), CreateUmemOut.SIZE), Syndrome.BAD_UID, CmdOpcode.CREATE_UMEM);
            int uid = uctx(h);
            h.exec(umemIn(uid, 0, true, Objs.page(h)), CreateUmemOut.SIZE).ok();
        }
        try (TestHost h = TestHost.started(new SoftHca.Options().caps(CapsProfile.connectX4()), ExecutionMode.STEP)) {
            Cmds.bringUp(h);
            Cmds.assertFails(h.exec(umemIn(0, 0, true, Objs.page(h)), CreateUmemOut.SIZE), Syndrome.BAD_OPCODE, CmdOpcode.CREATE_UMEM);
            Cmds.assertFails(h.exec(header(CmdOpcode.CREATE_UCTX, CreateUctxIn.SIZE), CreateUctxOut.SIZE), Syndrome.BAD_OPCODE, CmdOpcode.CREATE_UCTX);
        }
    }

    @Test
    void rangesMttsAndMappingsAreChecked() {
        try (TestHost h = devx()) {
            int uar = Objs.uar(h);
            int eqn = eq(h, uar);
            int u = umem(h, Objs.page(h));
            // the umem is one 4 KiB page; the CQ 1 KiB: past the end, misaligned (ring 64, doorbell record 8 bytes), no such umem
            Cmds.assertFails(h.exec(cqIn(0, uar, eqn, u, 0xc40, u, 0), CreateCqOut.SIZE), Syndrome.UMEM_RANGE, CmdOpcode.CREATE_CQ);
            Cmds.assertFails(h.exec(cqIn(0, uar, eqn, u, 0x20, u, 0), CreateCqOut.SIZE), Syndrome.UMEM_RANGE, CmdOpcode.CREATE_CQ);
            Cmds.assertFails(h.exec(cqIn(0, uar, eqn, u, 0, u, 0x1000), CreateCqOut.SIZE), Syndrome.UMEM_RANGE, CmdOpcode.CREATE_CQ);
            Cmds.assertFails(h.exec(cqIn(0, uar, eqn, u, 0, u, 0x804), CreateCqOut.SIZE), Syndrome.UMEM_RANGE, CmdOpcode.CREATE_CQ);
            Cmds.assertFails(h.exec(cqIn(0, uar, eqn, u + 100, 0, u, 0), CreateCqOut.SIZE), Syndrome.BAD_REFERENCE, CmdOpcode.CREATE_CQ);
            // the device writes CQEs: a umem without wr_en cannot hold a CQ
            int ro = CreateUmemOut.umem_id(h.exec(umemIn(0, 0, false, Objs.page(h)), CreateUmemOut.SIZE).ok().out());
            Cmds.assertFails(h.exec(cqIn(0, uar, eqn, ro, 0, u, 0), CreateCqOut.SIZE), Syndrome.UMEM_RANGE, CmdOpcode.CREATE_CQ);
            // a page the IOMMU does not map is found when a context uses it
            DmaRegion gone = Objs.page(h);
            int g = umem(h, gone);
            gone.close();
            Cmds.assertFails(h.exec(cqIn(0, uar, eqn, g, 0, u, 0), CreateCqOut.SIZE), Syndrome.RING_NOT_MAPPED, CmdOpcode.CREATE_CQ);
            // MTT entries: aligned to the page, as many as num_of_mtt says
            MemorySegment mis = umemIn(0, 0, true, Objs.page(h));
            long e = CreateUmemIn.umem$BYTE_OFFSET + Umem.mtt$BYTE_OFFSET;
            Mtt.ptag$set(mis, e, Mtt.ptag(mis, e) + 0x100);
            Cmds.assertFails(h.exec(mis, CreateUmemOut.SIZE), Syndrome.BAD_PAGE_ADDRESS, CmdOpcode.CREATE_UMEM);
            MemorySegment more = umemIn(0, 0, true, Objs.page(h));
            Umem.num_of_mtt$set(more, CreateUmemIn.umem$BYTE_OFFSET, 2);
            Cmds.assertFails(h.exec(more, CreateUmemOut.SIZE), Syndrome.INPUT_TOO_SHORT, CmdOpcode.CREATE_UMEM);
            // page_offset: the region starts inside the first page; offsets count from there
            int off = CreateUmemOut.umem_id(h.exec(umemIn(0, 0x400, true, Objs.page(h), Objs.page(h)), CreateUmemOut.SIZE).ok().out());
            int cqn = CreateCqOut.cqn(h.exec(cqIn(0, uar, eqn, off, 0x1800, off, 0x1c00 - 8), CreateCqOut.SIZE).ok().out());
            Cmds.assertFails(h.exec(cqIn(0, uar, eqn, off, 0x1800, off, 0x1c00), CreateCqOut.SIZE), Syndrome.UMEM_RANGE, CmdOpcode.CREATE_CQ);
            destroyCq(h, 0, cqn).ok();
        }
    }

    @Test
    void sqsAndQpsTakeTheirBuffersAndDoorbellRecordsFromUmems() {
        try (TestHost h = devx()) {
            int uar = Objs.uar(h);
            int eqn = eq(h, uar);
            int pd = Objs.pd(h);
            int td = Objs.td(h);
            int tisn = Objs.tis(h, td);
            int u = umem(h, Objs.page(h), Objs.page(h));
            int cqn = CreateCqOut.cqn(h.exec(cqIn(0, uar, eqn, u, 0, u, 0x1f00), CreateCqOut.SIZE).ok().out());
            // SQ: 64 WQEBBs (4 KiB) from 0x1000, doorbell record at 0x1f08
            MemorySegment sq = header(CmdOpcode.CREATE_SQ, CreateSqIn.SIZE);
            long sc = CreateSqIn.ctx$BYTE_OFFSET, wq = sc + Sqc.wq$BYTE_OFFSET;
            Sqc.cqn$set(sq, sc, cqn);
            Sqc.tis_lst_sz$set(sq, sc, 1);
            Sqc.tis_num_0$set(sq, sc, tisn);
            Wq.wq_type$set(sq, wq, io.prmkit.mlx5.WqType.CYCLIC);
            Wq.pd$set(sq, wq, pd);
            Wq.uar_page$set(sq, wq, uar);
            Wq.log_wq_stride$set(sq, wq, 6);
            Wq.log_wq_sz$set(sq, wq, 6);
            Wq.wq_umem_valid$set(sq, wq, true);
            Wq.wq_umem_id$set(sq, wq, u);
            Wq.wq_umem_offset$set(sq, wq, 0x1000);
            Wq.dbr_umem_valid$set(sq, wq, true);
            Wq.dbr_umem_id$set(sq, wq, u);
            Wq.dbr_addr$set(sq, wq, 0x1f08);
            // 4 KiB from 0x1000 overlaps the doorbell records at 0x1f00: firmware does not check that, nor do we
            int sqn = io.prmkit.mlx5.CreateSqOut.sqn(h.exec(sq, io.prmkit.mlx5.CreateSqOut.SIZE).ok().out());
            MemorySegment qs = header(CmdOpcode.QUERY_SQ, QuerySqIn.SIZE);
            QuerySqIn.sqn$set(qs, sqn);
            MemorySegment out = h.exec(qs, QuerySqOut.SIZE).ok().out();
            long ow = QuerySqOut.sq_context$BYTE_OFFSET + Sqc.wq$BYTE_OFFSET;
            assertEquals(u, Wq.wq_umem_id(out, ow));
            assertEquals(0x1000, Wq.wq_umem_offset(out, ow));
            // 8 KiB from 0x1000 does not fit
            Wq.log_wq_sz$set(sq, wq, 7);
            Cmds.assertFails(h.exec(sq, io.prmkit.mlx5.CreateSqOut.SIZE), Syndrome.UMEM_RANGE, CmdOpcode.CREATE_SQ);
            // a raw-packet QP: 1 KiB RQ and 1 KiB SQ from 0x400, doorbell record at 0x1f10
            MemorySegment qp = header(CmdOpcode.CREATE_QP, CreateQpIn.SIZE);
            long qc = CreateQpIn.qpc$BYTE_OFFSET;
            Qpc.st$set(qp, qc, QpServiceType.RAW_DATAGRAM);
            Qpc.pd$set(qp, qc, pd);
            Qpc.uar_page$set(qp, qc, uar);
            Qpc.cqn_snd$set(qp, qc, cqn);
            Qpc.cqn_rcv$set(qp, qc, cqn);
            Qpc.log_rq_size$set(qp, qc, 4);
            Qpc.log_rq_stride$set(qp, qc, 2);
            Qpc.log_sq_size$set(qp, qc, 4);
            Qpc.dbr_umem_valid$set(qp, qc, true);
            Qpc.dbr_umem_id$set(qp, qc, u);
            Qpc.dbr_addr$set(qp, qc, 0x1f10);
            CreateQpIn.wq_umem_valid$set(qp, true);
            CreateQpIn.wq_umem_id$set(qp, u);
            CreateQpIn.wq_umem_offset$set(qp, 0x400);
            int qpn = CreateQpOut.qpn(h.exec(qp, CreateQpOut.SIZE).ok().out());
            Cmds.assertFails(destroyUmem(h, 0, u), Syndrome.OBJECT_IN_USE, CmdOpcode.DESTROY_UMEM);
            MemorySegment dq = header(CmdOpcode.DESTROY_QP, DestroyQpIn.SIZE);
            DestroyQpIn.qpn$set(dq, qpn);
            h.exec(dq, DestroyQpOut.SIZE).ok();
            MemorySegment ds = header(CmdOpcode.DESTROY_SQ, DestroySqIn.SIZE);
            DestroySqIn.sqn$set(ds, sqn);
            h.exec(ds, DestroySqOut.SIZE).ok();
            Cmds.assertFails(destroyUmem(h, 0, u), Syndrome.OBJECT_IN_USE, CmdOpcode.DESTROY_UMEM);
            destroyCq(h, 0, cqn).ok();
            destroyUmem(h, 0, u).ok();
        }
    }
}

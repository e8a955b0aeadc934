package io.prmkit.softhca;

import static io.prmkit.softhca.Cmds.header;

import io.prmkit.mlx5.AccessRegisterOut;
import io.prmkit.mlx5.CmdOpcode;
import io.prmkit.mlx5.CmdPas;
import io.prmkit.mlx5.CompletionMode;
import io.prmkit.mlx5.CqArmDoorbell;
import io.prmkit.mlx5.CqDoorbellRecord;
import io.prmkit.mlx5.Cqc;
import io.prmkit.mlx5.Cqe64;
import io.prmkit.mlx5.CqeOpcode;
import io.prmkit.mlx5.CreateCqIn;
import io.prmkit.mlx5.CreateCqOut;
import io.prmkit.mlx5.CreateEqIn;
import io.prmkit.mlx5.CreateEqOut;
import io.prmkit.mlx5.CreateMkeyIn;
import io.prmkit.mlx5.CreateMkeyOut;
import io.prmkit.mlx5.CreateRqIn;
import io.prmkit.mlx5.CreateRqOut;
import io.prmkit.mlx5.CreateSqIn;
import io.prmkit.mlx5.CreateSqOut;
import io.prmkit.mlx5.Eqc;
import io.prmkit.mlx5.Eqe;
import io.prmkit.mlx5.EqDoorbell;
import io.prmkit.mlx5.FlowTableType;
import io.prmkit.mlx5.Mkc;
import io.prmkit.mlx5.MkcAccessMode;
import io.prmkit.mlx5.ModifyNicVportContextIn;
import io.prmkit.mlx5.ModifyNicVportContextOut;
import io.prmkit.mlx5.ModifyNicVportFieldSelect;
import io.prmkit.mlx5.NicVportContext;
import io.prmkit.mlx5.PmtuReg;
import io.prmkit.mlx5.PpcntGrp;
import io.prmkit.mlx5.PpcntReg;
import io.prmkit.mlx5.QueryMkeyIn;
import io.prmkit.mlx5.QueryMkeyOut;
import io.prmkit.mlx5.QueryQCounterIn;
import io.prmkit.mlx5.QueryQCounterOut;
import io.prmkit.mlx5.QueryRqIn;
import io.prmkit.mlx5.QueryRqOut;
import io.prmkit.mlx5.QuerySpecialContextsIn;
import io.prmkit.mlx5.QuerySpecialContextsOut;
import io.prmkit.mlx5.QuerySqIn;
import io.prmkit.mlx5.QuerySqOut;
import io.prmkit.mlx5.QueryVportCounterIn;
import io.prmkit.mlx5.QueryVportCounterOut;
import io.prmkit.mlx5.RegisterId;
import io.prmkit.mlx5.RqState;
import io.prmkit.mlx5.Rqc;
import io.prmkit.mlx5.SendWqeOpcode;
import io.prmkit.mlx5.SetFlowTableRootIn;
import io.prmkit.mlx5.SetFlowTableRootOut;
import io.prmkit.mlx5.SqState;
import io.prmkit.mlx5.Sqc;
import io.prmkit.mlx5.UarPage;
import io.prmkit.mlx5.Wq;
import io.prmkit.mlx5.WqDoorbellRecord;
import io.prmkit.mlx5.WqType;
import io.prmkit.mlx5.WqeCtrlSeg;
import io.prmkit.mlx5.WqeDataSeg;
import io.prmkit.mlx5.WqeEthSeg;
import io.prmkit.platform.DmaRegion;
import io.prmkit.softhca.wire.Port;
import io.prmkit.softhca.wire.Wire;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;

/**
 * A driver's side of one device for behaviour tests, QEMU qtest style: the device is reached only
 * through BAR 0 (the command queue, UAR doorbells), DMA memory (rings, doorbell records, frame
 * buffers, each object made by its command) and its cable. It reads what a driver reads: CQEs and
 * EQEs in DMA memory, command outputs (QUERY_SQ, QUERY_MKEY, QUERY_Q_COUNTER, PPCNT...), interrupts
 * on MSI-X vectors, and, when the test holds the other end of the wire ({@link #withPeer}), the frames
 * the device puts on it. The device runs in step mode: {@link #poll} runs it until idle.
 *
 * <p>Bring-up as Linux does it ({@link Cmds#bringUp}), then a UAR, a PD, a transport domain, a TIS and
 * one EQ on MSI-X vector {@link #VECTOR} taking completion, CQ error and port change events.
 */
final class Nic implements AutoCloseable {
    static final ValueLayout.OfLong BE64 = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN);
    static final ValueLayout.OfInt BE32 = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN);
    static final int VECTOR = 7;
    static final long REG = AccessRegisterOut.register_data$BYTE_OFFSET;

    final TestHost h;
    final List<DmaRegion> keep = new ArrayList<>();
    final int uar, pd, td, tisn;
    final Eq eq;
    /** Vectors signalled, in order (the handler bound to {@link #VECTOR}). */
    final List<Integer> interrupts = new ArrayList<>();
    /** The test's end of the cable ({@link #withPeer}), else null: the device's port is looped back. */
    final Port peer;
    /** What the device put on the cable to {@link #peer}, in order. */
    final List<byte[]> onWire = new ArrayList<>();
    private int counter = -1;

    /** A device whose port is looped back: what it sends it receives. */
    Nic() {
        this(new SoftHca.Options(), false);
    }

    Nic(SoftHca.Options options) {
        this(options, false);
    }

    /** A device whose cable ends in the test's {@link #peer} port. */
    static Nic withPeer() {
        return new Nic(new SoftHca.Options(), true);
    }

    private Nic(SoftHca.Options options, boolean peer) {
        h = TestHost.started(options.loopback(!peer), ExecutionMode.STEP);
        if (peer) {
            this.peer = new Port(1);
            this.peer.setSink((p, f, off, len) -> onWire.add(f.asSlice(off, len).toArray(ValueLayout.JAVA_BYTE)));
            Wire.join(h.hca.port(), this.peer);
        } else {
            this.peer = null;
        }
        keep.addAll(Cmds.bringUp(h));
        uar = Objs.uar(h);
        pd = Objs.pd(h);
        td = Objs.td(h);
        tisn = Objs.tis(h, td);
        h.f.interrupts().bind(VECTOR, interrupts::add);
        eq = new Eq(6, VECTOR);
        poll();
    }

    /** Runs the device until it has nothing left to do. */
    void poll() {
        h.hca.runUntilIdle();
    }

    /** The frames arrive from the wire one after the other, then the device takes them in one pass. */
    void arrive(List<byte[]> frames) {
        for (byte[] f : frames) {
            if (!peer.transmit(MemorySegment.ofArray(f), 0, f.length)) throw new AssertionError("the test's port has no link");
        }
        poll();
    }

    /** DMA memory the device reaches at {@link Mem#bus}. */
    record Mem(MemorySegment seg, long bus, DmaRegion region) {}

    Mem dma(long size) {
        DmaRegion r = h.f.dma().allocate(Math.max(4096, size + 4095 & ~4095L), 4096);
        keep.add(r);
        return new Mem(r.segment(), r.busAddress(), r);
    }

    /** The 4 KiB page addresses of a ring in {@code m}. */
    static long[] pages(Mem m, long bytes) {
        long[] pas = new long[(int) ((bytes + 4095) / 4096)];
        for (int i = 0; i < pas.length; i++) pas[i] = m.bus + 4096L * i;
        return pas;
    }

    // ---- memory keys ----

    /** CREATE_MKEY of a PA key over all memory (length64) in {@link #pd}, variant byte 0x42. */
    int paKey(boolean lr, boolean lw) {
        return paKey(lr, lw, 0x42);
    }

    int paKey(boolean lr, boolean lw, int keyByte) {
        MemorySegment in = ObjectCommandsTest.mkeyIn(pd, MkcAccessMode.PA, 0);
        long m = CreateMkeyIn.memory_key_mkey_entry$BYTE_OFFSET;
        Mkc.lr$set(in, m, lr);
        Mkc.lw$set(in, m, lw);
        Mkc.length64$set(in, m, true);
        Mkc.mkey_7_0$set(in, m, keyByte);
        return mkey(in);
    }

    /** Runs a CREATE_MKEY input; returns the key (index and the input's variant byte). */
    int mkey(MemorySegment in) {
        int index = CreateMkeyOut.mkey_index(h.exec(in, CreateMkeyOut.SIZE).ok().out());
        return index << Mkc.mkey_7_0$BIT_WIDTH | Mkc.mkey_7_0(in, CreateMkeyIn.memory_key_mkey_entry$BYTE_OFFSET);
    }

    /** QUERY_MKEY: the key's context as the device holds it. */
    MemorySegment queryMkey(int key) {
        MemorySegment in = header(CmdOpcode.QUERY_MKEY, QueryMkeyIn.SIZE);
        QueryMkeyIn.mkey_index$set(in, key >>> Mkc.mkey_7_0$BIT_WIDTH);
        return h.exec(in, QueryMkeyOut.SIZE).ok().out().asSlice(QueryMkeyOut.memory_key_mkey_entry$BYTE_OFFSET, Mkc.SIZE);
    }

    /** QUERY_SPECIAL_CONTEXTS resd_lkey. */
    int reservedLkey() {
        MemorySegment out = h.exec(header(CmdOpcode.QUERY_SPECIAL_CONTEXTS, QuerySpecialContextsIn.SIZE), QuerySpecialContextsOut.SIZE).ok().out();
        return QuerySpecialContextsOut.resd_lkey(out);
    }

    // ---- counters ----

    /** ALLOC_Q_COUNTER, once. */
    int qCounter() {
        if (counter < 0) counter = Objs.qCounter(h);
        return counter;
    }

    long outOfBuffer() {
        MemorySegment q = header(CmdOpcode.QUERY_Q_COUNTER, QueryQCounterIn.SIZE);
        QueryQCounterIn.counter_set_id$set(q, qCounter());
        return QueryQCounterOut.out_of_buffer(h.exec(q, QueryQCounterOut.SIZE).ok().out());
    }

    /** QUERY_VPORT_COUNTER's output. */
    MemorySegment vportCounters() {
        return h.exec(header(CmdOpcode.QUERY_VPORT_COUNTER, QueryVportCounterIn.SIZE), QueryVportCounterOut.SIZE).ok().out();
    }

    /** PPCNT of port 1, group {@code grp}: the whole ACCESS_REG output (counters at {@link #PPCNT}). */
    static MemorySegment ppcnt(TestHost h, PpcntGrp grp) {
        MemorySegment r = PortAndVportCommandsTest.reg(RegisterId.PPCNT, PpcntReg.layout(), false);
        PpcntReg.local_port$set(r, REG, 1);
        PpcntReg.grp$set(r, REG, grp);
        return PortAndVportCommandsTest.access(h, r).ok().out();
    }

    static final long PPCNT = REG + PpcntReg.counter_set$BYTE_OFFSET;

    /** IEEE 802.3 aFramesTransmittedOK: frames the MAC put on the wire. */
    static long framesTransmitted(TestHost h) {
        return io.prmkit.mlx5.Eth8023CntrsGrpDataLayout.a_frames_transmitted_ok_low(ppcnt(h, PpcntGrp.IEEE_802_3), PPCNT);
    }

    long framesTransmitted() {
        return framesTransmitted(h);
    }

    /** RFC 2863 ifInDiscards: frames received and dropped (filtered, unsteered, no WQE). */
    static long inDiscards(TestHost h) {
        return io.prmkit.mlx5.Eth2863CntrsGrpDataLayout.if_in_discards_low(ppcnt(h, PpcntGrp.RFC_2863), PPCNT);
    }

    long inDiscards() {
        return inDiscards(h);
    }

    // ---- port ----

    /** PMTU admin_mtu written (the hardware MTU). */
    static void setAdminMtu(TestHost h, int mtu) {
        MemorySegment write = PortAndVportCommandsTest.reg(RegisterId.PMTU, PmtuReg.layout(), true);
        PmtuReg.local_port$set(write, REG, 1);
        PmtuReg.admin_mtu$set(write, REG, mtu);
        PortAndVportCommandsTest.access(h, write).ok();
    }

    void setAdminMtu(int mtu) {
        setAdminMtu(h, mtu);
    }

    static int adminMtu(TestHost h) {
        MemorySegment read = PortAndVportCommandsTest.reg(RegisterId.PMTU, PmtuReg.layout(), false);
        PmtuReg.local_port$set(read, REG, 1);
        return PmtuReg.admin_mtu(PortAndVportCommandsTest.access(h, read).ok().out(), REG);
    }

    int adminMtu() {
        return adminMtu(h);
    }

    /** PAOS oper_status of port 1 ({@link #UP} or {@link #DOWN}). */
    static int operStatus(TestHost h) {
        MemorySegment read = PortAndVportCommandsTest.reg(RegisterId.PAOS, io.prmkit.mlx5.PaosReg.layout(), false);
        io.prmkit.mlx5.PaosReg.local_port$set(read, REG, 1);
        return io.prmkit.mlx5.PaosReg.oper_status(PortAndVportCommandsTest.access(h, read).ok().out(), REG);
    }

    int operStatus() {
        return operStatus(h);
    }

    /** PAOS status values. */
    static final int UP = 1, DOWN = 2;

    /** MODIFY_NIC_VPORT_CONTEXT promisc_uc/mc/all. */
    static void promisc(TestHost h, boolean uc, boolean mc, boolean all) {
        MemorySegment m = header(CmdOpcode.MODIFY_NIC_VPORT_CONTEXT, ModifyNicVportContextIn.SIZE);
        long ctx = ModifyNicVportContextIn.nic_vport_context$BYTE_OFFSET;
        ModifyNicVportFieldSelect.promisc$set(m, ModifyNicVportContextIn.field_select$BYTE_OFFSET, true);
        NicVportContext.promisc_uc$set(m, ctx, uc);
        NicVportContext.promisc_mc$set(m, ctx, mc);
        NicVportContext.promisc_all$set(m, ctx, all);
        h.exec(m, ModifyNicVportContextOut.SIZE).ok();
    }

    void promisc(boolean uc, boolean mc, boolean all) {
        promisc(h, uc, mc, all);
    }

    // ---- receive steering ----

    /** CREATE_TIR dispatching straight to {@code rq}. */
    int directTir(Rq rq) {
        return Objs.tir(h, Objs.tirDirectIn(td, rq.rqn));
    }

    /** A NIC RX root table, level 0, with one catch-all group and one entry forwarding everything to {@code tirn}. */
    int catchAll(int tirn) {
        int table = Objs.flowTable(h, Objs.flowTableIn(FlowTableType.NIC_RX, 4, 0));
        int group = Objs.flowGroup(h, Objs.flowGroupIn(table, 0, 15));
        Objs.fte(h, Objs.fteToTirIn(table, group, 0, tirn)).ok();
        root(table);
        return table;
    }

    /** SET_FLOW_TABLE_ROOT of the NIC RX tables. */
    void root(int table) {
        MemorySegment root = header(CmdOpcode.SET_FLOW_TABLE_ROOT, SetFlowTableRootIn.SIZE);
        SetFlowTableRootIn.table_type$set(root, FlowTableType.NIC_RX);
        SetFlowTableRootIn.table_id$set(root, table);
        h.exec(root, SetFlowTableRootOut.SIZE).ok();
    }

    // ---- doorbells through the UAR page in BAR 0 ----

    long uarOffset(long field) {
        return uar * 4096L + field;
    }

    // ---- EQ / CQ ----

    final class Eq {
        final int eqn;
        final Mem ring;
        final int logSize;
        int ci;

        Eq(int logSize, int vector) {
            this.logSize = logSize;
            ring = dma(64L << logSize);
            for (int i = 0; i < 1 << logSize; i++) Eqe.Device.owner$set(ring.seg, i * 64L, true);
            long[] pas = pages(ring, 64L << logSize);
            MemorySegment in = header(CmdOpcode.CREATE_EQ, CreateEqIn.SIZE + 8L * pas.length);
            long ctx = CreateEqIn.eq_context_entry$BYTE_OFFSET;
            Eqc.log_eq_size$set(in, ctx, logSize);
            Eqc.uar_page$set(in, ctx, uar);
            Eqc.intr$set(in, ctx, vector);
            CreateEqIn.event_bitmask$set(in, 0, 1L << io.prmkit.mlx5.EqeType.COMP.value | 1L << io.prmkit.mlx5.EqeType.CQ_ERROR.value
                    | 1L << io.prmkit.mlx5.EqeType.PORT_CHANGE.value);
            for (int i = 0; i < pas.length; i++) CreateEqIn.pas$set(in, i, pas[i]);
            eqn = CreateEqOut.eq_number(h.exec(in, CreateEqOut.SIZE).ok().out());
        }

        /** The next EQE if software owns it (consumed), else null. */
        MemorySegment next() {
            MemorySegment e = ring.seg.asSlice((long) (ci & ((1 << logSize) - 1)) * 64, 64);
            if (Eqe.owner(e) != (((ci >>> logSize) & 1) == 1)) return null;
            VarHandle.acquireFence();
            ci++;
            return MemorySegment.ofArray(e.toArray(ValueLayout.JAVA_BYTE));
        }

        /** Updates the consumer index and arms the EQ (UAR eq_doorbell_arm). */
        void arm() {
            MemorySegment w = MemorySegment.ofArray(new byte[4]);
            EqDoorbell.eqn$set(w, eqn);
            EqDoorbell.consumer_index$set(w, ci & 0xffffff);
            h.bar.write32(uarOffset(UarPage.eq_doorbell_arm$BYTE_OFFSET), w.get(BE32, 0));
        }
    }

    final class Cq {
        final int cqn;
        final Mem ring;
        final Mem dbr;
        final int logSize;
        int cc;

        Cq(int logSize) {
            this(logSize, -1);
        }

        /** With {@code compression} ≥ 0: cqe_comp_en, mini CQEs in that mini_cqe_res_format. */
        Cq(int logSize, int compression) {
            this.logSize = logSize;
            ring = dma(64L << logSize);
            dbr = dma(64);
            for (int i = 0; i < 1 << logSize; i++) {
                Cqe64.Device.opcode$set(ring.seg, i * 64L, CqeOpcode.INVALID);
                Cqe64.Device.owner$set(ring.seg, i * 64L, true);
            }
            long[] pas = pages(ring, 64L << logSize);
            MemorySegment in = header(CmdOpcode.CREATE_CQ, CreateCqIn.SIZE + 8L * pas.length);
            long c = CreateCqIn.cq_context$BYTE_OFFSET;
            Cqc.log_cq_size$set(in, c, logSize);
            Cqc.uar_page$set(in, c, uar);
            Cqc.c_eqn_or_apu_element$set(in, c, eq.eqn);
            Cqc.dbr_addr$set(in, c, dbr.bus);
            if (compression >= 0) {
                Cqc.cqe_comp_en$set(in, c, true);
                Cqc.mini_cqe_res_format$set(in, c, compression);
            }
            for (int i = 0; i < pas.length; i++) CreateCqIn.pas$set(in, i, pas[i]);
            cqn = CreateCqOut.cqn(h.exec(in, CreateCqOut.SIZE).ok().out());
        }

        /** The next CQE if software owns it (a copy; consumed, doorbell record updated), else null. */
        MemorySegment poll() {
            MemorySegment c = ring.seg.asSlice((long) (cc & ((1 << logSize) - 1)) * 64, 64);
            if (Cqe64.owner(c) != (((cc >>> logSize) & 1) == 1) || Cqe64.opcode(c) == CqeOpcode.INVALID.value) return null;
            VarHandle.acquireFence();
            MemorySegment copy = MemorySegment.ofArray(c.toArray(ValueLayout.JAVA_BYTE));
            cc++;
            CqDoorbellRecord.consumer_index$set(dbr.seg, cc & 0xffffff);
            return copy;
        }

        List<MemorySegment> drain() {
            List<MemorySegment> out = new ArrayList<>();
            for (MemorySegment c; (c = poll()) != null; ) out.add(c);
            return out;
        }

        /** Arms the CQ for the next completion (UAR cq_doorbell), as the driver does. */
        void arm() {
            MemorySegment w = MemorySegment.ofArray(new byte[8]);
            CqArmDoorbell.consumer_index$set(w, cc & 0xffffff);
            CqArmDoorbell.cqn$set(w, cqn);
            h.bar.write64(uarOffset(UarPage.cq_doorbell$BYTE_OFFSET), w.get(BE64, 0));
        }
    }

    /** A change to a queue context in a CREATE input ({@code ctx}: the context's offset). */
    @FunctionalInterface
    interface Ctx {
        void set(MemorySegment in, long ctx);
    }

    /** A cyclic work queue of 2^logSize entries of 2^logStride bytes in {@code ring}, its doorbell record in {@code dbr}. */
    void wq(MemorySegment in, long wq, Mem ring, Mem dbr, int logSize, int logStride) {
        Wq.wq_type$set(in, wq, WqType.CYCLIC);
        Wq.pd$set(in, wq, pd);
        Wq.uar_page$set(in, wq, uar);
        Wq.dbr_addr$set(in, wq, dbr.bus);
        Wq.log_wq_stride$set(in, wq, logStride);
        Wq.log_wq_sz$set(in, wq, logSize);
        long[] pas = pages(ring, (1L << logSize) << logStride);
        for (int i = 0; i < pas.length; i++) {
            MemorySegment p = Wq.pas$elem(in, wq, i);
            CmdPas.pa_h$set(p, (int) (pas[i] >>> 32));
            CmdPas.pa_l$setUnchecked(p, (int) (pas[i] >>> 12));
        }
    }

    // ---- SQ ----

    final class Sq {
        final int sqn;
        final Mem ring;
        final Mem dbr;
        final int logSize;
        int pc;

        /** CREATE_SQ on {@code cq} (with {@link #tisn}, reg_umr, min_wqe_inline_mode {@code inlineMode}, then {@code edits}), MODIFY_SQ RST to RDY. */
        Sq(int logSize, Cq cq, int inlineMode, Ctx... edits) {
            this.logSize = logSize;
            ring = dma(64L << logSize);
            dbr = dma(64);
            long pages = ((64L << logSize) + 4095) / 4096;
            MemorySegment in = header(CmdOpcode.CREATE_SQ, CreateSqIn.SIZE + 8 * pages);
            long ctx = CreateSqIn.ctx$BYTE_OFFSET;
            Sqc.cqn$set(in, ctx, cq.cqn);
            Sqc.tis_lst_sz$set(in, ctx, 1);
            Sqc.tis_num_0$set(in, ctx, tisn);
            Sqc.min_wqe_inline_mode$set(in, ctx, inlineMode);
            Sqc.reg_umr$set(in, ctx, true);
            wq(in, ctx + Sqc.wq$BYTE_OFFSET, ring, dbr, logSize, 6);
            for (Ctx e : edits) e.set(in, ctx);
            sqn = CreateSqOut.sqn(h.exec(in, CreateSqOut.SIZE).ok().out());
            Objs.modifySq(h, sqn, SqState.RST$VALUE, SqState.RDY$VALUE).ok();
        }

        long slot(int pc) {
            return (long) (pc & ((1 << logSize) - 1)) * 64;
        }

        /** Writes a control segment at the producer counter; returns the WQE's byte offset. */
        long ctrl(SendWqeOpcode op, int ds, boolean signal) {
            long o = slot(pc);
            WqeCtrlSeg.writer(ring.seg, o).opcode(op).wqe_index(pc & 0xffff).qpn(sqn).ds(ds)
                    .ce(signal ? CompletionMode.CQE_ALWAYS : CompletionMode.CQE_ON_ERROR).write();
            return o;
        }

        /** A SEND of {@code len} bytes at {@code bus} through {@code lkey}, the first {@code inline} bytes (from {@code frameHost}) inlined; returns its ds. */
        int send(int lkey, long bus, int len, MemorySegment frameHost, int inline, int csFlags, boolean signal) {
            int extraDs = inline > 2 ? (inline - 2 + 15) / 16 : 0;
            int ds = 2 + extraDs + (len > inline ? 1 : 0);
            int nbb = (ds + 3) / 4;
            MemorySegment w = MemorySegment.ofArray(new byte[nbb * 64]);
            WqeCtrlSeg.writer(w, 0).opcode(SendWqeOpcode.SEND).wqe_index(pc & 0xffff).qpn(sqn).ds(ds)
                    .ce(signal ? CompletionMode.CQE_ALWAYS : CompletionMode.CQE_ON_ERROR).write();
            WqeEthSeg.writer(w, 16).cs_flags(csFlags).inline_hdr_sz(inline).write();
            if (inline > 0) {
                MemorySegment.copy(frameHost, 0, w, 16 + WqeEthSeg.inline_hdr_start$BYTE_OFFSET, Math.min(2, inline));
                if (inline > 2) MemorySegment.copy(frameHost, 2, w, 32, inline - 2);
            }
            if (len > inline) WqeDataSeg.writer(w, 16L * (2 + extraDs)).byte_count(len - inline).lkey(lkey).addr(bus + inline).write();
            put(w, nbb);
            return ds;
        }

        /** Copies a linear WQE of {@code nbb} basic blocks into the ring at pc (wrapping), advances pc. */
        void put(MemorySegment w, int nbb) {
            for (int i = 0; i < nbb; i++) MemorySegment.copy(w, i * 64L, ring.seg, slot(pc + i), 64);
            pc += nbb;
        }

        /** Doorbell record, then the first 8 bytes of the WQE at {@code lastWqe} to the UAR's BlueFlame register. */
        void ring(long lastWqe) {
            VarHandle.storeStoreFence();
            WqDoorbellRecord.send_counter$set(dbr.seg, pc & 0xffff);
            VarHandle.fullFence();
            h.bar.write64(uarOffset(UarPage.bf_registers$BYTE_OFFSET), ring.seg.get(BE64, lastWqe));
        }

        void ring() {
            ring(slot(pc - 1));
        }

        /** Sends one frame (18 inline bytes, signalled), runs the device, and returns the one CQE {@code cq} got. */
        MemorySegment sendOne(Cq cq, int lkey, long bus, int len, MemorySegment frameHost) {
            send(lkey, bus, len, frameHost, 18, 0, true);
            ring();
            poll();
            List<MemorySegment> got = cq.drain();
            if (got.size() != 1) throw new AssertionError("expected one CQE, got " + got.size());
            return got.get(0);
        }

        /** QUERY_SQ's context. */
        MemorySegment query() {
            MemorySegment in = header(CmdOpcode.QUERY_SQ, QuerySqIn.SIZE);
            QuerySqIn.sqn$set(in, sqn);
            return h.exec(in, QuerySqOut.SIZE).ok().out().asSlice(QuerySqOut.sq_context$BYTE_OFFSET, Sqc.SIZE);
        }

        int state() {
            return Sqc.state(query());
        }

        /** The device's consumer counter (QUERY_SQ hw_counter). */
        int hwCounter() {
            return Wq.hw_counter(query(), Sqc.wq$BYTE_OFFSET);
        }

        /** MODIFY_SQ ERR to RST to RDY, as a driver recovers a queue: both counters start again at 0. */
        void recover() {
            Objs.modifySq(h, sqn, SqState.ERR$VALUE, SqState.RST$VALUE).ok();
            Objs.modifySq(h, sqn, SqState.RST$VALUE, SqState.RDY$VALUE).ok();
            pc = 0;
        }
    }

    // ---- RQ ----

    final class Rq {
        final int rqn;
        final Mem ring;
        final Mem dbr;
        final Mem buffers;
        final int logSize;
        final int bufSize;
        int posted;

        /** CREATE_RQ on {@code cq}, counting into {@link #qCounter()} when {@code counted}, VLANs stripped when {@code stripVlan}; MODIFY_RQ RST to RDY. */
        Rq(int logSize, Cq cq, int bufSize, boolean counted, boolean stripVlan) {
            this.logSize = logSize;
            this.bufSize = bufSize;
            ring = dma(16L << logSize);
            dbr = dma(64);
            buffers = dma((long) bufSize << logSize);
            long pages = ((16L << logSize) + 4095) / 4096;
            MemorySegment in = header(CmdOpcode.CREATE_RQ, CreateRqIn.SIZE + 8 * pages);
            long ctx = CreateRqIn.ctx$BYTE_OFFSET;
            Rqc.cqn$set(in, ctx, cq.cqn);
            if (counted) Rqc.counter_set_id$set(in, ctx, qCounter());
            Rqc.vsd$set(in, ctx, !stripVlan);
            wq(in, ctx + Rqc.wq$BYTE_OFFSET, ring, dbr, logSize, 4);
            rqn = CreateRqOut.rqn(h.exec(in, CreateRqOut.SIZE).ok().out());
            Objs.modifyRq(h, rqn, RqState.RST$VALUE, RqState.RDY$VALUE).ok();
        }

        /** Posts {@code n} one-segment WQEs over consecutive buffers, then the doorbell record. */
        void post(int n, int lkey) {
            for (int i = 0; i < n; i++) {
                int slot = posted & ((1 << logSize) - 1);
                WqeDataSeg.writer(ring.seg, slot * 16L).byte_count(bufSize).lkey(lkey).addr(buffers.bus + (long) slot * bufSize).write();
                posted++;
            }
            VarHandle.storeStoreFence();
            WqDoorbellRecord.receive_counter$set(dbr.seg, posted & 0xffff);
        }

        byte[] buffer(int wqeCounter, int len) {
            int slot = wqeCounter & ((1 << logSize) - 1);
            return buffers.seg.asSlice((long) slot * bufSize, len).toArray(ValueLayout.JAVA_BYTE);
        }

        /** The device's consumer counter: receive WQEs used (QUERY_RQ hw_counter). */
        int hwCounter() {
            MemorySegment in = header(CmdOpcode.QUERY_RQ, QueryRqIn.SIZE);
            QueryRqIn.rqn$set(in, rqn);
            MemorySegment out = h.exec(in, QueryRqOut.SIZE).ok().out();
            return Wq.hw_counter(out, QueryRqOut.rq_context$BYTE_OFFSET + Rqc.wq$BYTE_OFFSET);
        }
    }

    @Override
    public void close() {
        h.close();
    }
}

package io.prmkit.softhca.datapath;

import io.prmkit.mlx5.CompletionMode;
import io.prmkit.mlx5.CqDoorbellRecord;
import io.prmkit.mlx5.Cqc;
import io.prmkit.mlx5.Cqe64;
import io.prmkit.mlx5.CqeOpcode;
import io.prmkit.mlx5.Eqc;
import io.prmkit.mlx5.FlowContext;
import io.prmkit.mlx5.FlowContextAction;
import io.prmkit.mlx5.FlowDestinationType;
import io.prmkit.mlx5.DestFormatStruct;
import io.prmkit.mlx5.FteMatchParam;
import io.prmkit.mlx5.MatchCriteriaEnable;
import io.prmkit.mlx5.Mkc;
import io.prmkit.mlx5.MkcAccessMode;
import io.prmkit.mlx5.Rqc;
import io.prmkit.mlx5.SendWqeOpcode;
import io.prmkit.mlx5.SqState;
import io.prmkit.mlx5.Sqc;
import io.prmkit.mlx5.Tirc;
import io.prmkit.mlx5.TirDispType;
import io.prmkit.mlx5.Wq;
import io.prmkit.mlx5.WqDoorbellRecord;
import io.prmkit.mlx5.WqeCtrlSeg;
import io.prmkit.mlx5.WqeDataSeg;
import io.prmkit.mlx5.WqeEthSeg;
import io.prmkit.mlx5.RqState;
import io.prmkit.softhca.device.DeviceContext;
import io.prmkit.softhca.device.DeviceObjects;
import io.prmkit.softhca.device.Events;
import io.prmkit.softhca.device.Iommu;
import io.prmkit.softhca.device.Resources;
import io.prmkit.softhca.device.Queues;
import io.prmkit.softhca.wire.Port;
import io.prmkit.softhca.wire.Wire;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.VarHandle;
import java.util.ArrayList;
import java.util.List;

/**
 * Plays the driver and the control path around a {@link SoftDatapath}: host memory mapped into an
 * IOMMU at bus addresses, queue objects registered as the commands would, WQEs built with the
 * generated writers, doorbell records and UAR doorbells. Step mode: the test calls {@link #poll}.
 */
final class Harness {
    static final int PD = 5;
    static final int UAR = 3;
    static final long BF = io.prmkit.mlx5.UarPage.bf_registers$BYTE_OFFSET;
    final Arena arena = Arena.ofShared();
    final Iommu iommu = new Iommu();
    final DeviceObjects objects = new DeviceObjects();
    final List<Integer> interrupts = new ArrayList<>();
    final Events events = new Events(objects, iommu, interrupts::add);
    final DeviceContext ctx = new DeviceContext(iommu, objects, events, t -> null, () -> {});
    final Port port = new Port(1);
    final Wire wire = Wire.loopback(port);
    final SoftDatapath dp = new SoftDatapath(ctx, port);
    private long nextBus = Iommu.BASE;
    int lkey;

    /** Host memory mapped for the device; returns {segment, bus address}. */
    record Mem(MemorySegment seg, long bus) {}

    Mem dma(long size) {
        MemorySegment s = arena.allocate(size, 4096);
        long bus = nextBus;
        nextBus += (size + 4095 & ~4095L) + 4096;
        iommu.map(bus, s);
        return new Mem(s, bus);
    }

    static Queues.Ring ring(Mem m, long bytes) {
        int pages = (int) ((bytes + 4095) / 4096);
        long[] pas = new long[pages];
        for (int i = 0; i < pages; i++) pas[i] = m.bus + 4096L * i;
        return new Queues.Ring(pas, 0, 0);
    }

    /** A PA memory key over everything (length64) with local read and write, PD {@link #PD}. */
    int paKey(int index, boolean lr, boolean lw) {
        MemorySegment mkc = MemorySegment.ofArray(new byte[(int) Mkc.SIZE]);
        Mkc.access_mode_1_0$set(mkc, MkcAccessMode.PA$VALUE);
        Mkc.lr$set(mkc, lr);
        Mkc.lw$set(mkc, lw);
        Mkc.length64$set(mkc, true);
        Mkc.pd$set(mkc, PD);
        Mkc.mkey_7_0$set(mkc, 0x42);
        int key = index << 8 | 0x42;
        objects.mkeys.put(index, new Resources.Mkey(key, mkc, null));
        return key;
    }

    // ---- EQ / CQ ----

    final class Eq {
        final Queues.Eq eq;
        final Mem ring;
        int ci;

        Eq(int eqn, int logSize, int vector, long... types) {
            ring = dma(64L << logSize);
            for (int i = 0; i < 1 << logSize; i++) io.prmkit.mlx5.Eqe.Device.owner$set(ring.seg, i * 64L, true);
            MemorySegment eqc = MemorySegment.ofArray(new byte[(int) Eqc.SIZE]);
            Eqc.log_eq_size$set(eqc, logSize);
            Eqc.intr$set(eqc, vector);
            long[] mask = new long[4];
            for (long t : types) mask[(int) (t >>> 6)] |= 1L << (t & 63);
            eq = new Queues.Eq(eqn, eqc, ring(ring, 64L << logSize), mask);
            objects.eqs.put(eqn, eq);
        }

        /** The next EQE if software owns it (consumes it), else null. */
        MemorySegment next() {
            int log = Eqc.log_eq_size(eq.eqc);
            MemorySegment e = ring.seg.asSlice((long) (ci & ((1 << log) - 1)) * 64, 64);
            if (io.prmkit.mlx5.Eqe.owner(e) != (((ci >>> log) & 1) == 1)) return null;
            ci++;
            return e;
        }
    }

    final class Cq {
        final Queues.Cq cq;
        final Mem ring;
        final Mem dbr;
        final int logSize;
        int cc;

        Cq(int cqn, int logSize, int eqn) {
            this.logSize = logSize;
            ring = dma(64L << logSize);
            dbr = dma(64);
            for (int i = 0; i < 1 << logSize; i++) {
                Cqe64.Device.opcode$set(ring.seg, i * 64L, CqeOpcode.INVALID);
                Cqe64.Device.owner$set(ring.seg, i * 64L, true);
            }
            MemorySegment cqc = MemorySegment.ofArray(new byte[(int) Cqc.SIZE]);
            Cqc.log_cq_size$set(cqc, logSize);
            Cqc.c_eqn_or_apu_element$set(cqc, eqn);
            Cqc.dbr_addr$set(cqc, dbr.bus);
            cq = new Queues.Cq(cqn, cqc, ring(ring, 64L << logSize));
            objects.cqs.put(cqn, cq);
        }

        /** The next CQE if software owns it (consumes it and updates the doorbell record), else null. */
        MemorySegment poll() {
            MemorySegment c = ring.seg.asSlice((long) (cc & ((1 << logSize) - 1)) * 64, 64);
            if (Cqe64.owner(c) != (((cc >>> logSize) & 1) == 1) || Cqe64.opcode(c) == CqeOpcode.INVALID.value) return null;
            VarHandle.acquireFence();
            MemorySegment copy = MemorySegment.ofArray(c.toArray(java.lang.foreign.ValueLayout.JAVA_BYTE));
            cc++;
            CqDoorbellRecord.consumer_index$set(dbr.seg, cc & 0xffffff);
            return copy;
        }

        List<MemorySegment> drain() {
            List<MemorySegment> out = new ArrayList<>();
            for (MemorySegment c; (c = poll()) != null; ) out.add(c);
            return out;
        }

        /** Arms the CQ for the next completion, as the driver does (record, then UAR 0x20). */
        void arm() {
            MemorySegment w = MemorySegment.ofArray(new byte[8]);
            io.prmkit.mlx5.CqArmDoorbell.consumer_index$set(w, cc & 0xffffff);
            io.prmkit.mlx5.CqArmDoorbell.cqn$set(w, cq.cqn);
            dp.uarWrite(UAR, io.prmkit.mlx5.UarPage.cq_doorbell$BYTE_OFFSET, w.get(BE64, 0), 8);
        }
    }

    static final java.lang.foreign.ValueLayout.OfLong BE64 = java.lang.foreign.ValueLayout.JAVA_LONG_UNALIGNED.withOrder(java.nio.ByteOrder.BIG_ENDIAN);

    // ---- SQ ----

    final class Sq {
        final Queues.Sq sq;
        final Mem ring;
        final Mem dbr;
        final int logSize;
        int pc;

        Sq(int sqn, int logSize, int cqn, int inlineMode) {
            this.logSize = logSize;
            ring = dma(64L << logSize);
            dbr = dma(64);
            MemorySegment sqc = MemorySegment.ofArray(new byte[(int) Sqc.SIZE]);
            Sqc.cqn$set(sqc, cqn);
            Sqc.min_wqe_inline_mode$set(sqc, inlineMode);
            Sqc.state$set(sqc, SqState.RDY$VALUE);
            Sqc.reg_umr$set(sqc, true);
            long wq = Sqc.wq$BYTE_OFFSET;
            Wq.log_wq_sz$set(sqc, wq, logSize);
            Wq.log_wq_stride$set(sqc, wq, 6);
            Wq.pd$set(sqc, wq, PD);
            Wq.dbr_addr$set(sqc, wq, dbr.bus);
            sq = new Queues.Sq(sqn, sqc, Harness.ring(ring, 64L << logSize), SqState.RDY$VALUE);
            objects.sqs.put(sqn, sq);
        }

        long slot(int pc) {
            return (long) (pc & ((1 << logSize) - 1)) * 64;
        }

        /** Writes a control segment at the producer counter; returns the WQE's byte offset. */
        long ctrl(SendWqeOpcode op, int ds, boolean signal) {
            long o = slot(pc);
            WqeCtrlSeg.writer(ring.seg, o).opcode(op).wqe_index(pc & 0xffff).qpn(sq.sqn).ds(ds)
                    .ce(signal ? CompletionMode.CQE_ALWAYS : CompletionMode.CQE_ON_ERROR).write();
            return o;
        }

        /** A SEND of {@code frame} (in host memory at {@code bus} through {@code lkey}), the first {@code inline} bytes inlined; returns its ds. */
        int send(int lkey, long bus, int len, MemorySegment frameHost, int inline, int csFlags, boolean signal) {
            int extraDs = inline > 2 ? (inline - 2 + 15) / 16 : 0;
            int ds = 2 + extraDs + (len > inline ? 1 : 0);
            long o = ctrl(SendWqeOpcode.SEND, ds, signal);
            int nbb = (ds + 3) / 4;
            // build in a linear buffer then copy into the ring with wrap-around
            MemorySegment w = MemorySegment.ofArray(new byte[nbb * 64]);
            MemorySegment.copy(ring.seg, o, w, 0, 16);
            WqeEthSeg.writer(w, 16).cs_flags(csFlags).inline_hdr_sz(inline).write();
            if (inline > 0) {
                MemorySegment.copy(frameHost, 0, w, 16 + WqeEthSeg.inline_hdr_start$BYTE_OFFSET, Math.min(2, inline));
                if (inline > 2) MemorySegment.copy(frameHost, 2, w, 32, inline - 2);
            }
            if (len > inline) WqeDataSeg.writer(w, 16L * (2 + extraDs)).byte_count(len - inline).lkey(lkey).addr(bus + inline).write();
            put(w, nbb);
            return ds;
        }

        /** Copies a linear WQE into the ring at pc (wrapping), advances pc. */
        void put(MemorySegment w, int nbb) {
            for (int i = 0; i < nbb; i++) MemorySegment.copy(w, i * 64L, ring.seg, slot(pc + i), 64);
            pc += nbb;
        }

        /** Doorbell record, then the first 8 bytes of the last WQE to the BlueFlame register. */
        void ring(long lastWqe) {
            VarHandle.storeStoreFence();
            WqDoorbellRecord.send_counter$set(dbr.seg, pc & 0xffff);
            VarHandle.fullFence();
            dp.uarWrite(UAR, BF, ring.seg.get(BE64, lastWqe), 8);
        }

        /** Sends one frame (18 inline bytes, signalled), lets the device run, and returns the one CQE {@code cq} got. */
        MemorySegment sendOne(Cq cq, int lkey, long bus, int len, MemorySegment frameHost) {
            send(lkey, bus, len, frameHost, 18, 0, true);
            ring();
            poll();
            List<MemorySegment> got = cq.drain();
            if (got.size() != 1) throw new AssertionError("expected one CQE, got " + got.size());
            return got.get(0);
        }

        void ring() {
            ring(slot(pc - 1));
        }
    }

    // ---- RQ / TIR / steering ----

    final class Rq {
        final Queues.Rq rq;
        final Mem ring;
        final Mem dbr;
        final Mem buffers;
        final int logSize;
        final int bufSize;
        int posted;

        Rq(int rqn, int logSize, int cqn, int bufSize, int counterSet, boolean stripVlan) {
            this.logSize = logSize;
            this.bufSize = bufSize;
            ring = dma(16L << logSize);
            dbr = dma(64);
            buffers = dma((long) bufSize << logSize);
            MemorySegment rqc = MemorySegment.ofArray(new byte[(int) Rqc.SIZE]);
            Rqc.cqn$set(rqc, cqn);
            Rqc.state$set(rqc, RqState.RDY$VALUE);
            Rqc.counter_set_id$set(rqc, counterSet);
            Rqc.vsd$set(rqc, !stripVlan);
            long wq = Rqc.wq$BYTE_OFFSET;
            Wq.log_wq_sz$set(rqc, wq, logSize);
            Wq.log_wq_stride$set(rqc, wq, 4);
            Wq.pd$set(rqc, wq, PD);
            Wq.dbr_addr$set(rqc, wq, dbr.bus);
            rq = new Queues.Rq(rqn, rqc, ring(ring, 16L << logSize), RqState.RDY$VALUE);
            objects.rqs.put(rqn, rq);
        }

        /** Posts {@code n} one-segment WQEs over consecutive buffers. */
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
            return buffers.seg.asSlice((long) slot * bufSize, len).toArray(java.lang.foreign.ValueLayout.JAVA_BYTE);
        }
    }

    void directTir(int tirn, int rqn) {
        MemorySegment tirc = MemorySegment.ofArray(new byte[(int) Tirc.SIZE]);
        Tirc.disp_type$set(tirc, TirDispType.DIRECT$VALUE);
        Tirc.inline_rqn$set(tirc, rqn);
        objects.tirs.put(tirn, new Resources.Tir(tirn, tirc));
    }

    /** Root table {@code tableId} with one catch-all group and one entry forwarding everything to {@code tirn}. */
    void catchAll(int tableId, int tirn) {
        MemorySegment ctx = MemorySegment.ofArray(new byte[(int) io.prmkit.mlx5.FlowTableContext.SIZE]);
        Resources.FlowTable t = new Resources.FlowTable(tableId, 0, ctx, 16);
        MemorySegment criteria = MemorySegment.ofArray(new byte[(int) FteMatchParam.SIZE]);
        t.groups.put(1, new Resources.FlowGroup(1, 0, 15, 0, criteria));
        t.entries.put(0, new Resources.FlowEntry(0, 1, forward(tirn, 0)));
        objects.flowTables.put(tableId, t);
        objects.nicRxRoot = tableId;
    }

    static MemorySegment forward(int tirn, int flowTag) {
        MemorySegment fc = MemorySegment.ofArray(new byte[(int) (FlowContext.destination$BYTE_OFFSET + 16)]);
        FlowContext.action$set(fc, FlowContextAction.FWD_DEST$MASK);
        FlowContext.flow_tag$set(fc, flowTag);
        FlowContext.destination_list_size$set(fc, 1);
        DestFormatStruct.destination_type$set(fc, FlowContext.destination$BYTE_OFFSET, FlowDestinationType.TIR);
        DestFormatStruct.destination_id$set(fc, FlowContext.destination$BYTE_OFFSET, tirn);
        return fc;
    }

    /** Runs the device until idle; objects changed by the test count as changed by a command. */
    void poll() {
        objects.generation++;
        for (int i = 0; i < 100 && dp.poll(); i++) {}
    }
}

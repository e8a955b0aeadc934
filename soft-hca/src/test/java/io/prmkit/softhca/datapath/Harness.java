package io.prmkit.softhca.datapath;

import io.prmkit.mlx5.CqDoorbellRecord;
import io.prmkit.mlx5.Cqc;
import io.prmkit.mlx5.Cqe64;
import io.prmkit.mlx5.CqeOpcode;
import io.prmkit.mlx5.FlowContext;
import io.prmkit.mlx5.FlowContextAction;
import io.prmkit.mlx5.FlowDestinationType;
import io.prmkit.mlx5.DestFormatStruct;
import io.prmkit.mlx5.FteMatchParam;
import io.prmkit.mlx5.Mkc;
import io.prmkit.mlx5.MkcAccessMode;
import io.prmkit.mlx5.Rqc;
import io.prmkit.mlx5.SqState;
import io.prmkit.mlx5.Sqc;
import io.prmkit.mlx5.Tirc;
import io.prmkit.mlx5.TirDispType;
import io.prmkit.mlx5.Wq;
import io.prmkit.mlx5.WqDoorbellRecord;
import io.prmkit.mlx5.WqeDataSeg;
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
 * A white-box harness for unit tests of the datapath ({@link WqeFuzzTest}): it plays the driver and
 * the control path around a {@link SoftDatapath} alone, with host memory mapped into an IOMMU at bus
 * addresses, queue objects put into {@link DeviceObjects} as the commands would, WQEs built with the
 * generated writers, doorbell records and UAR doorbells. Step mode: the test calls {@link #poll}.
 * Behaviour tests do not use it: they reach a whole device through BAR 0, DMA and the wire
 * ({@code io.prmkit.softhca.Nic}).
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
        objects.add(new Resources.Mkey(key, mkc, null));
        return key;
    }

    // ---- CQ ----

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
            objects.add(cq);
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
            objects.add(sq);
        }

        long slot(int pc) {
            return (long) (pc & ((1 << logSize) - 1)) * 64;
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
            objects.add(rq);
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

    }

    void directTir(int tirn, int rqn) {
        MemorySegment tirc = MemorySegment.ofArray(new byte[(int) Tirc.SIZE]);
        Tirc.disp_type$set(tirc, TirDispType.DIRECT$VALUE);
        Tirc.inline_rqn$set(tirc, rqn);
        objects.add(new Resources.Tir(tirn, tirc));
    }

    /** Root table {@code tableId} with one catch-all group and one entry forwarding everything to {@code tirn}. */
    void catchAll(int tableId, int tirn) {
        MemorySegment ctx = MemorySegment.ofArray(new byte[(int) io.prmkit.mlx5.FlowTableContext.SIZE]);
        Resources.FlowTable t = new Resources.FlowTable(tableId, 0, ctx, 16);
        MemorySegment criteria = MemorySegment.ofArray(new byte[(int) FteMatchParam.SIZE]);
        t.add(new Resources.FlowGroup(1, 0, 15, 0, criteria));
        t.set(new Resources.FlowEntry(0, 1, forward(tirn, 0)));
        objects.add(t);
        objects.setRxRoot(tableId);
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
        objects.changed();
        for (int i = 0; i < 100 && dp.poll(); i++) {}
    }
}

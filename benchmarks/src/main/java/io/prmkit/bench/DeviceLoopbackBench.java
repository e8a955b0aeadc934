package io.prmkit.bench;

import io.prmkit.mlx5.CompletionMode;
import io.prmkit.mlx5.CqDoorbellRecord;
import io.prmkit.mlx5.Cqc;
import io.prmkit.mlx5.Cqe64;
import io.prmkit.mlx5.CqeFormat;
import io.prmkit.mlx5.CqeOpcode;
import io.prmkit.mlx5.DestFormatStruct;
import io.prmkit.mlx5.FlowContext;
import io.prmkit.mlx5.FlowContextAction;
import io.prmkit.mlx5.FlowDestinationType;
import io.prmkit.mlx5.FlowTableContext;
import io.prmkit.mlx5.FteMatchParam;
import io.prmkit.mlx5.MiniCqe8;
import io.prmkit.mlx5.MiniCqeResFormat;
import io.prmkit.mlx5.Mkc;
import io.prmkit.mlx5.MkcAccessMode;
import io.prmkit.mlx5.RqState;
import io.prmkit.mlx5.Rqc;
import io.prmkit.mlx5.SendWqeOpcode;
import io.prmkit.mlx5.SqState;
import io.prmkit.mlx5.Sqc;
import io.prmkit.mlx5.TirDispType;
import io.prmkit.mlx5.Tirc;
import io.prmkit.mlx5.UarPage;
import io.prmkit.mlx5.Wq;
import io.prmkit.mlx5.WqDoorbellRecord;
import io.prmkit.mlx5.WqeCtrlSeg;
import io.prmkit.mlx5.WqeDataSeg;
import io.prmkit.mlx5.WqeEthSeg;
import io.prmkit.softhca.datapath.SoftDatapath;
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
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * device-loopback: the soft HCA's cost per 64-byte frame, one SQ looped back into one RQ, bursts of
 * 32: the device executes 32 SEND WQEs (18 bytes inline, 46 by pointer through a PA key), puts each
 * frame on the loopback wire, steers it through a catch-all root table and a direct TIR into the RQ,
 * and writes 32 RX CQEs and one TX CQE. The bench thread plays a minimal driver (refreshes the
 * WQEs' index dword, rings, reaps the CQEs, reposts the receive WQEs), so the figure is device +
 * a little driver work on one thread; objects are registered directly, as the commands would.
 * With {@code compress} the RX CQ has CQE compression on (CSUM minis, as the kernel sets it): the
 * device writes each burst as two sessions of 16 (a title and two mini arrays each), and the bench's
 * driver reads the minis and rewrites the owner bit of every slot of a session, as the kernel does.
 *
 * <p>White-box on purpose: with {@link DeviceLoopbackTwoThread}, which reuses its setup, the only
 * classes outside soft-hca that build its internals ({@code device}, {@code datapath}; allowed by
 * name in cli's {@code SoftHcaSurfaceTest}). It measures the datapath
 * alone, the doorbell handed to {@code SoftDatapath.uarWrite} and one {@code poll()} per burst on the
 * bench thread. Through the public API ({@code SoftHca} in step mode, stores to BAR 0, objects made by
 * commands) the same loop would also time BAR 0's page decoding per doorbell and {@code step()}'s
 * round of the command queue, task and EQ doorbell queues and the heartbeat, and would need a
 * driver's bring-up (pages, INIT_HCA, ~20 commands) in the benchmark: another figure than the
 * device's cost per frame that the bench log has tracked. The objects are registered as the
 * commands would make them; soft-hca's own tests check that the commands do.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@OperationsPerInvocation(DeviceLoopbackBench.BURST)
public class DeviceLoopbackBench {
    static final int BURST = 32;
    /** RX CQE compression on the receive CQ. */
    @Param({"false", "true"})
    public boolean compress;
    static final int LOG = 10;
    static final int N = 1 << LOG;
    static final int PD = 1;
    static final ValueLayout.OfLong BE64 = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN);
    final Arena arena = Arena.ofShared();
    final Iommu iommu = new Iommu();
    final DeviceObjects objects = new DeviceObjects();
    SoftDatapath dp;
    MemorySegment sq, sqDb, txCq, txCqDb, rq, rqDb, rxCq, rxCqDb, bufs, frame;
    long nextBus = Iommu.BASE;
    int pc, txCc, rxCc, posted;

    long map(MemorySegment s) {
        long bus = nextBus;
        nextBus += (s.byteSize() + 4095 & ~4095L) + 4096;
        iommu.map(bus, s);
        return bus;
    }

    MemorySegment mem(long size) {
        return arena.allocate(size, 4096);
    }

    Queues.Ring ring(MemorySegment s) {
        long bus = map(s);
        long[] pas = new long[(int) ((s.byteSize() + 4095) / 4096)];
        for (int i = 0; i < pas.length; i++) pas[i] = bus + 4096L * i;
        return new Queues.Ring(pas, 0, 0);
    }

    @Setup
    public void setup() {
        Events events = new Events(objects, iommu, v -> {});
        DeviceContext ctx = new DeviceContext(iommu, objects, events, t -> null, () -> {});
        Port port = new Port(1);
        dp = new SoftDatapath(ctx, port);
        Wire.loopback(port);
        MemorySegment mkc = MemorySegment.ofArray(new byte[(int) Mkc.SIZE]);
        Mkc.access_mode_1_0$set(mkc, MkcAccessMode.PA$VALUE);
        Mkc.lr$set(mkc, true);
        Mkc.lw$set(mkc, true);
        Mkc.length64$set(mkc, true);
        Mkc.pd$set(mkc, PD);
        objects.add(new Resources.Mkey(0x100 | 0x42, mkc, null));
        int lkey = 0x142;
        txCq = mem(64L * N);
        txCqDb = mem(64);
        rxCq = mem(64L * N);
        rxCqDb = mem(64);
        cq(10, txCq, txCqDb);
        cq(11, rxCq, rxCqDb);
        if (compress) {
            Cqc.cqe_comp_en$set(objects.cq(11).cqc, true);
            Cqc.mini_cqe_res_format$set(objects.cq(11).cqc, MiniCqeResFormat.CSUM);
        }
        sq = mem(64L * N);
        sqDb = mem(64);
        MemorySegment sqc = MemorySegment.ofArray(new byte[(int) Sqc.SIZE]);
        Sqc.cqn$set(sqc, 10);
        Sqc.min_wqe_inline_mode$set(sqc, 1);
        long wq = Sqc.wq$BYTE_OFFSET;
        Wq.log_wq_sz$set(sqc, wq, LOG);
        Wq.pd$set(sqc, wq, PD);
        Wq.dbr_addr$set(sqc, wq, map(sqDb));
        objects.add(new Queues.Sq(20, sqc, ring(sq), SqState.RDY$VALUE));
        rq = mem(16L * N);
        rqDb = mem(64);
        bufs = mem(2048L * N);
        long bufBus = map(bufs);
        MemorySegment rqc = MemorySegment.ofArray(new byte[(int) Rqc.SIZE]);
        Rqc.cqn$set(rqc, 11);
        long rw = Rqc.wq$BYTE_OFFSET;
        Wq.log_wq_sz$set(rqc, rw, LOG);
        Wq.log_wq_stride$set(rqc, rw, 4);
        Wq.pd$set(rqc, rw, PD);
        Wq.dbr_addr$set(rqc, rw, map(rqDb));
        objects.add(new Queues.Rq(30, rqc, ring(rq), RqState.RDY$VALUE));
        for (int i = 0; i < N; i++) WqeDataSeg.writer(rq, i * 16L).byte_count(2048).lkey(lkey).addr(bufBus + 2048L * i).write();
        posted = N;
        WqDoorbellRecord.receive_counter$set(rqDb, posted & 0xffff);
        MemorySegment tirc = MemorySegment.ofArray(new byte[(int) Tirc.SIZE]);
        Tirc.disp_type$set(tirc, TirDispType.DIRECT);
        Tirc.inline_rqn$set(tirc, 30);
        objects.add(new Resources.Tir(40, tirc));
        Resources.FlowTable t = new Resources.FlowTable(50, 0, MemorySegment.ofArray(new byte[(int) FlowTableContext.SIZE]), 16);
        t.add(new Resources.FlowGroup(1, 0, 15, 0, MemorySegment.ofArray(new byte[(int) FteMatchParam.SIZE])));
        MemorySegment fc = MemorySegment.ofArray(new byte[(int) (FlowContext.destination$BYTE_OFFSET + 16)]);
        FlowContext.action$set(fc, FlowContextAction.FWD_DEST$MASK);
        FlowContext.destination_list_size$set(fc, 1);
        DestFormatStruct.destination_type$set(fc, FlowContext.destination$BYTE_OFFSET, FlowDestinationType.TIR);
        DestFormatStruct.destination_id$set(fc, FlowContext.destination$BYTE_OFFSET, 40);
        t.set(new Resources.FlowEntry(0, 1, fc));
        objects.add(t);
        objects.setRxRoot(50);
        // 64-byte UDP frames (without FCS, 60 on the wire + 4): addresses (to the vport's default MAC
        // 02:00:00:00:00:01, which it takes without promiscuous mode), IPv4, UDP
        frame = mem(4096);
        long frameBus = map(frame);
        byte[] f = new byte[60];
        f[0] = 2; f[5] = 1; f[6] = 2; f[11] = 2; f[12] = 8; f[14] = 0x45; f[17] = 46; f[22] = 64; f[23] = 17;
        MemorySegment.copy(f, 0, frame, ValueLayout.JAVA_BYTE, 0, f.length);
        for (int i = 0; i < N; i++) {
            long o = 64L * i;
            WqeEthSeg.writer(sq, o + 16).inline_hdr_sz(18).write();
            MemorySegment.copy(frame, 0, sq, o + 16 + WqeEthSeg.inline_hdr_start$BYTE_OFFSET, 18);
            WqeDataSeg.writer(sq, o + 48).byte_count(60 - 18).lkey(lkey).addr(frameBus + 18).write();
        }
    }

    void cq(int cqn, MemorySegment ring, MemorySegment db) {
        for (int i = 0; i < N; i++) {
            Cqe64.Device.opcode$set(ring, i * 64L, CqeOpcode.INVALID);
            Cqe64.Device.owner$set(ring, i * 64L, true);
        }
        MemorySegment cqc = MemorySegment.ofArray(new byte[(int) Cqc.SIZE]);
        Cqc.log_cq_size$set(cqc, LOG);
        Cqc.dbr_addr$set(cqc, map(db));
        objects.add(new Queues.Cq(cqn, cqc, ring(ring)));
    }

    @Benchmark
    public int loopback() {
        for (int i = 0; i < BURST; i++, pc++) {
            long o = (long) (pc & (N - 1)) << 6;
            WqeCtrlSeg.writer(sq, o).opcode(SendWqeOpcode.SEND).wqe_index(pc & 0xffff).qpn(20).ds(4)
                    .ce(i == BURST - 1 ? CompletionMode.CQE_ALWAYS : CompletionMode.CQE_ON_ERROR).write();
        }
        WqDoorbellRecord.send_counter$set(sqDb, pc & 0xffff);
        dp.uarWrite(0, UarPage.bf_registers$BYTE_OFFSET, sq.get(BE64, (long) ((pc - 1) & (N - 1)) << 6), 8);
        dp.poll();
        int got = 0;
        while (true) {
            long c = (long) (rxCc & (N - 1)) << 6; // offsets, not slices: the driver side allocates nothing either
            if (Cqe64.owner(rxCq, c) != (((rxCc >>> LOG) & 1) == 1) || Cqe64.opcode(rxCq, c) == CqeOpcode.INVALID.value) break;
            if (Cqe64.cqe_format(rxCq, c) != CqeFormat.COMPRESSED$VALUE) {
                got += Cqe64.byte_cnt(rxCq, c);
                rxCc++;
                continue;
            }
            // a session: N minis (array 0 in the slot after the title, array k in slot title + 8k), then
            // every slot's owner bit rewritten for its pass (mlx5e_cqes_update_owner)
            int n = Cqe64.byte_cnt(rxCq, c);
            for (int i = 0; i < n; i++) {
                int slot = rxCc + (i < 8 ? 1 : i & ~7);
                got += MiniCqe8.byte_cnt(rxCq, ((long) (slot & (N - 1)) << 6) + (i & 7) * MiniCqe8.SIZE);
            }
            for (int i = 0; i < n; i++) {
                int slot = rxCc + i;
                Cqe64.Device.owner$set(rxCq, (long) (slot & (N - 1)) << 6, ((slot >>> LOG) & 1) == 1);
            }
            rxCc += n;
        }
        CqDoorbellRecord.consumer_index$set(rxCqDb, rxCc & 0xffffff);
        posted = rxCc + N;
        WqDoorbellRecord.receive_counter$set(rqDb, posted & 0xffff);
        long t = (long) (txCc & (N - 1)) << 6;
        if (Cqe64.owner(txCq, t) == (((txCc >>> LOG) & 1) == 1) && Cqe64.opcode(txCq, t) != CqeOpcode.INVALID.value) {
            txCc++;
            CqDoorbellRecord.consumer_index$set(txCqDb, txCc & 0xffffff);
        }
        if (got != BURST * 60) throw new IllegalStateException("received " + got + " bytes of " + BURST * 60);
        return got;
    }
}

package io.prmkit.bench;

import io.prmkit.driver.dp.PacketPool;
import io.prmkit.driver.dp.TxQueue;
import io.prmkit.driver.eth.SqResources;
import io.prmkit.mlx5.Cqe64;
import io.prmkit.mlx5.CqeOpcode;
import java.lang.foreign.MemorySegment;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * tx-burst: the driver's cost per packet of a 32-packet burst through {@link TxQueue#send}: take
 * 32 buffers from the pool, build 32 WQEs (ctrl + eth with the 18-byte L2 header inline + data
 * segment), one doorbell, and reap the one CQE the previous burst asked for (freeing its buffers).
 * The "device" completes each burst by writing that CQE: one 64-byte entry per 32 packets. Same
 * algorithm in {@code dp_bench.c}, and in {@link HandTx} ({@link #handWritten}): Java on raw
 * {@code MemorySegment} stores without the generated accessors, on rings of its own.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@OperationsPerInvocation(DpRings.BURST)
public class TxBurstBench {
    DpRings rings;
    PacketPool pool;
    TxQueue tx;
    SqResources sq;
    private MemorySegment cq;
    private int cqPc;
    /** The device's CQE writer, kept like the driver's (nothing allocated here either, compiled or not). */
    private final Cqe64.Device.Writer cqeWriter = Cqe64.Device.writer();
    final int[] bufs = new int[DpRings.BURST];
    /**
     * The whole-frame inline limit of dp_bench.c (its INLINE_MAX), below the 64-byte frames: both sides
     * time the header-inline + data segment path, the one every frame longer than the limit takes.
     */
    static final int C_INLINE_MAX = 60;

    HandTx hand;
    SqResources handSq;
    private MemorySegment handCq;
    private int handCqPc;

    @Setup(Level.Trial)
    public void setup() {
        setup(new DpRings());
    }

    void setup(DpRings r) {
        rings = r;
        sq = rings.sq(new DpRings.Uar(rings.arena));
        pool = rings.pool();
        tx = new TxQueue(sq, pool);
        tx.inlineMax(C_INLINE_MAX);
        cq = sq.cq().ring().segment();
        handSq = rings.sq(new DpRings.Uar(rings.arena));
        PacketPool handPool = rings.pool(); // its bytes; HandTx keeps the handles and metadata itself
        hand = new HandTx(handSq, (DpRings.Uar) handSq.uar(), handPool.memory(), handPool.busAddress(), handPool.capacity(),
                handPool.bufferSize(), DpRings.LKEY, C_INLINE_MAX);
        handCq = handSq.cq().ring().segment();
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        rings.close();
    }

    @Benchmark
    public int generated() {
        int n = pool.alloc(bufs, DpRings.BURST);
        for (int i = 0; i < n; i++) pool.setLength(bufs[i], DpRings.FRAME);
        int sent = tx.send(bufs, n);
        // The device: the burst's last WQE asked for a CQE.
        long off = (long) (cqPc & ((1 << DpRings.LOG_RING) - 1)) * Cqe64.SIZE;
        cqeWriter.at(cq, off).wqe_counter((tx.producerCounter() - 1) & 0xffff).qpn(0x42).opcode(CqeOpcode.REQ)
                .owner(((cqPc >>> DpRings.LOG_RING) & 1) != 0).write();
        cqPc++;
        return sent;
    }

    @Benchmark
    public int handWritten() {
        int n = hand.alloc(bufs, DpRings.BURST);
        for (int i = 0; i < n; i++) hand.meta[bufs[i] * HandTx.META_STRIDE] = DpRings.FRAME;
        int sent = hand.send(bufs, n);
        long off = (long) (handCqPc & ((1 << DpRings.LOG_RING) - 1)) * Cqe64.SIZE;
        cqeWriter.at(handCq, off).wqe_counter((hand.producerCounter() - 1) & 0xffff).qpn(0x42).opcode(CqeOpcode.REQ)
                .owner(((handCqPc >>> DpRings.LOG_RING) & 1) != 0).write();
        handCqPc++;
        return sent;
    }
}

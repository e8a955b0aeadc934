package io.prmkit.bench;

import io.prmkit.driver.dp.PacketPool;
import io.prmkit.driver.dp.RqResources;
import io.prmkit.driver.dp.RxQueue;
import io.prmkit.mlx5.CqeL3HdrType;
import io.prmkit.mlx5.CqeL4HdrType;
import io.prmkit.mlx5.CqeOpcode;
import io.prmkit.mlx5.Cqe64;
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
 * rx-burst: the driver's cost per packet of {@link RxQueue#receive} of 32 packets: poll 32 CQEs by
 * owner bit, decode length, checksum flags, header types, VLAN and RSS hash into the pool's arrays,
 * refill 32 RQ WQEs from the pool and update both doorbell records; the application then frees the
 * 32 buffers. The "device" only hands each CQE over (one op_own byte per packet); the rest of every
 * CQE was written once, as the RQ and CQ have the same size and the slots repeat. Same algorithm in
 * {@code dp_bench.c}.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@OperationsPerInvocation(DpRings.BURST)
public class RxBurstBench {
    DpRings rings;
    PacketPool pool;
    RxQueue rx;
    RqResources rq;
    private MemorySegment cq;
    private int cqPc;
    final int[] bufs = new int[DpRings.BURST];

    @Setup(Level.Trial)
    public void setup() {
        setup(new DpRings());
    }

    void setup(DpRings r) {
        rings = r;
        rq = rings.rq();
        pool = rings.pool();
        rx = new RxQueue(rq, pool);
        cq = rq.cq().ring().segment();
        for (int i = 0; i < 1 << DpRings.LOG_RING; i++) {
            Cqe64.Device.writer(cq, i * Cqe64.SIZE).byte_cnt(DpRings.FRAME).wqe_counter(i).rss_hash_result(0x9e3779b9 * i)
                    .l2_ok(true).l3_ok(true).l4_ok(true).l3_hdr_type(CqeL3HdrType.IPV4).l4_hdr_type(CqeL4HdrType.UDP)
                    .opcode(CqeOpcode.INVALID).owner(true).write();
        }
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        rings.close();
    }

    @Benchmark
    public int generated() {
        int n = receiveOnly(bufs);
        pool.free(bufs, 0, n);
        return n;
    }

    /** The device hands over 32 packets, the driver receives them into {@code out}. */
    int receiveOnly(int[] out) {
        for (int i = 0; i < DpRings.BURST; i++, cqPc++) {
            long off = (long) (cqPc & ((1 << DpRings.LOG_RING) - 1)) * Cqe64.SIZE;
            Cqe64.Device.opcode$setUnchecked(cq, off, CqeOpcode.RESP_SEND$VALUE);
            Cqe64.Device.owner$setUnchecked(cq, off, ((cqPc >>> DpRings.LOG_RING) & 1) != 0);
        }
        return rx.receive(out, DpRings.BURST);
    }
}

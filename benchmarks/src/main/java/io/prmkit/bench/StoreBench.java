package io.prmkit.bench;

import static io.prmkit.bench.Datapath.*;

import io.prmkit.mlx5.CompletionMode;
import io.prmkit.mlx5.SendWqeOpcode;
import io.prmkit.mlx5.WqeCtrlSeg;
import io.prmkit.mlx5.WqeDataSeg;
import io.prmkit.mlx5.WqeEthSeg;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.CompilerControl;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * The WQE of wqe-build written on the ring the way a driver does (offsets into the ring, no slice per
 * WQE), in the three generated forms a datapath can use: long-lived writers re-pointed with {@code at}
 * (their words are heap fields), and the static {@code store} and {@code storeUnchecked} (the words are
 * arguments: registers). Not a {@code prmkit bench} case; run it with JMH to compare the forms, e.g.
 * {@code java -cp ... org.openjdk.jmh.Main StoreBench -f 2 -wi 3 -i 5}. Scores are per WQE.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@OperationsPerInvocation(Datapath.RING)
public class StoreBench {
    private static final long ETH = WqeCtrlSeg.SIZE;
    private static final long INLINE_START = ETH + WqeEthSeg.inline_hdr_start$BYTE_OFFSET;
    private static final long DATA = ETH + WqeEthSeg.SIZE + 16;

    private Arena arena;
    private MemorySegment ring;
    private MemorySegment headers;
    private int pi;
    private final WqeCtrlSeg.Writer ctrl = WqeCtrlSeg.writer();
    private final WqeEthSeg.Writer eth = WqeEthSeg.writer();
    private final WqeDataSeg.Writer data = WqeDataSeg.writer();

    @Setup(Level.Trial)
    public void setup() {
        arena = Datapath.arena();
        ring = Datapath.ring(arena);
        headers = Datapath.headers(arena);
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        arena.close();
    }

    @Benchmark
    public MemorySegment writers() {
        writersLoop(ring, headers, pi, ctrl, eth, data);
        pi += RING;
        return ring;
    }

    @Benchmark
    public MemorySegment store() {
        storeLoop(ring, headers, pi);
        pi += RING;
        return ring;
    }

    @Benchmark
    public MemorySegment storeUnchecked() {
        storeUncheckedLoop(ring, headers, pi);
        pi += RING;
        return ring;
    }

    @CompilerControl(CompilerControl.Mode.DONT_INLINE)
    static void writersLoop(MemorySegment ring, MemorySegment headers, int pi0, WqeCtrlSeg.Writer ctrl, WqeEthSeg.Writer eth, WqeDataSeg.Writer data) {
        for (int i = 0; i < RING; i++) {
            int pi = pi0 + i;
            long wqe = (long) (pi & (RING - 1)) * WQEBB;
            ctrl.at(ring, wqe).wqe_index(pi & 0xffff).opcode(SendWqeOpcode.SEND$VALUE).qpn(QPN).ds(4).ce(CompletionMode.CQE_ALWAYS$VALUE).write();
            eth.at(ring, wqe + ETH).cs_flags(CS_L3_L4).inline_hdr_sz(INLINE_HDR).write();
            copyHeader(headers, (long) i * INLINE_HDR, ring, wqe);
            data.at(ring, wqe + DATA).byte_count(LEN).lkey(LKEY).addr(ADDR + (long) i * 2048).write();
        }
    }

    @CompilerControl(CompilerControl.Mode.DONT_INLINE)
    static void storeLoop(MemorySegment ring, MemorySegment headers, int pi0) {
        for (int i = 0; i < RING; i++) {
            int pi = pi0 + i;
            long wqe = (long) (pi & (RING - 1)) * WQEBB;
            WqeCtrlSeg.store(ring, wqe, 0, pi & 0xffff, SendWqeOpcode.SEND$VALUE, QPN, 4, 0, 0, 0, CompletionMode.CQE_ALWAYS$VALUE, false, 0);
            WqeEthSeg.store$inline_hdr(ring, wqe + ETH, 0, 0, 0, 0, CS_L3_L4, 0, 0, 0, false, 0, INLINE_HDR);
            copyHeader(headers, (long) i * INLINE_HDR, ring, wqe);
            WqeDataSeg.store(ring, wqe + DATA, LEN, LKEY, ADDR + (long) i * 2048);
        }
    }

    @CompilerControl(CompilerControl.Mode.DONT_INLINE)
    static void storeUncheckedLoop(MemorySegment ring, MemorySegment headers, int pi0) {
        for (int i = 0; i < RING; i++) {
            int pi = pi0 + i;
            long wqe = (long) (pi & (RING - 1)) * WQEBB;
            WqeCtrlSeg.storeUnchecked(ring, wqe, 0, pi, SendWqeOpcode.SEND$VALUE, QPN, 4, 0, 0, 0, CompletionMode.CQE_ALWAYS$VALUE, false, 0);
            WqeEthSeg.storeUnchecked$inline_hdr(ring, wqe + ETH, 0, 0, 0, 0, CS_L3_L4, 0, 0, 0, false, 0, INLINE_HDR);
            copyHeader(headers, (long) i * INLINE_HDR, ring, wqe);
            WqeDataSeg.storeUnchecked(ring, wqe + DATA, LEN, LKEY, ADDR + (long) i * 2048);
        }
    }

    /** The 18 header bytes as one 2-byte and two 8-byte moves, as in {@link Generated}. */
    private static void copyHeader(MemorySegment headers, long h, MemorySegment ring, long wqe) {
        ring.set(ValueLayout.JAVA_SHORT_UNALIGNED, wqe + INLINE_START, headers.get(ValueLayout.JAVA_SHORT_UNALIGNED, h));
        ring.set(ValueLayout.JAVA_LONG_UNALIGNED, wqe + INLINE_START + 2, headers.get(ValueLayout.JAVA_LONG_UNALIGNED, h + 2));
        ring.set(ValueLayout.JAVA_LONG_UNALIGNED, wqe + INLINE_START + 10, headers.get(ValueLayout.JAVA_LONG_UNALIGNED, h + 10));
    }
}

package io.prmkit.bench;

import java.lang.foreign.Arena;
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
 * wqe-build: write a send WQE (ctrl + eth with an 18-byte inline header + data segment, one 64-byte
 * WQEBB) into each slot of a 1,024-entry ring. Scores are per WQE.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@OperationsPerInvocation(Datapath.RING)
public class WqeBuildBench {
    private Arena arena;
    private MemorySegment ring;
    private MemorySegment headers;
    private int pi;

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
    public MemorySegment handWritten() {
        HandWritten.buildRing(ring, headers, pi);
        pi += Datapath.RING;
        return ring;
    }

    @Benchmark
    public MemorySegment generated() {
        Generated.buildRing(ring, headers, pi);
        pi += Datapath.RING;
        return ring;
    }
}

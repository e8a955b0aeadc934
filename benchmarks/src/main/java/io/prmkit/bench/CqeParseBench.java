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
 * cqe-parse: read owner and opcode, byte count, wqe_counter, the L3/L4 checksum-ok flags and the
 * VLAN tag from each CQE of a 1,024-entry ring. Scores are per CQE.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@OperationsPerInvocation(Datapath.RING)
public class CqeParseBench {
    private Arena arena;
    private MemorySegment ring;

    @Setup(Level.Trial)
    public void setup() {
        arena = Datapath.arena();
        ring = Datapath.cqes(arena);
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        arena.close();
    }

    @Benchmark
    public long handWritten() {
        return HandWritten.parseRing(ring);
    }

    @Benchmark
    public long generated() {
        return Generated.parseRing(ring);
    }
}

package io.prmkit.bench;

import io.prmkit.demo.LoopbackRig;
import io.prmkit.driver.eth.EthPortConfig;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * {@code prmkit bench}'s loopback case, the same {@link LoopbackRig} (driver on the bench thread, the
 * soft HCA on its own, one queue pair, 64-byte frames, at most 512 in flight), inside JMH, so that
 * {@code benchmarks/tools/perfasm.sh 'LoopbackTwoThreadBench'} shows both threads' hot code as assembly
 * (where the cross-core cache misses land). Not one of the bench command's cases: its figure swings
 * with the scheduler (a slice lost by either thread stalls the other), so the loopback line stays
 * the bench command's. Per frame, over invocations of {@link #FRAMES} frames.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@OperationsPerInvocation(LoopbackTwoThreadBench.FRAMES)
public class LoopbackTwoThreadBench {
    static final int FRAMES = 200_000;
    LoopbackRig rig;

    @Setup
    public void setup() {
        rig = new LoopbackRig(EthPortConfig.CqeCompression.AUTO);
    }

    @TearDown
    public void tearDown() {
        rig.close();
    }

    @Benchmark
    public double loopback() {
        return rig.round(FRAMES);
    }
}

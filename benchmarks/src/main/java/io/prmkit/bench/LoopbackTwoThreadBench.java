package io.prmkit.bench;

import io.prmkit.driver.core.DeviceOptions;
import io.prmkit.driver.core.Mlx5Device;
import io.prmkit.driver.dp.PacketPool;
import io.prmkit.driver.dp.RxQueue;
import io.prmkit.driver.dp.TrafficMix;
import io.prmkit.driver.dp.TxQueue;
import io.prmkit.driver.eth.EthPort;
import io.prmkit.driver.eth.EthPortConfig;
import io.prmkit.softhca.SoftHca;
import io.prmkit.softhca.datapath.SoftDatapath;
import io.prmkit.softhca.wire.Port;
import io.prmkit.softhca.wire.Wire;
import java.time.Duration;
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
 * The two-thread loopback of {@code prmkit bench}'s loopback case (driver on the bench thread, the soft
 * HCA on its own, one queue pair, 64-byte frames, at most 512 in flight) inside JMH, so that
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
    static final int BURST = 32;
    Port port;
    Wire wire;
    SoftHca hca;
    Mlx5Device dev;
    EthPort eth;
    PacketPool txPool, rxPool;
    TxQueue tx;
    RxQueue rx;
    final int[] bufs = new int[BURST];
    final int[] got = new int[BURST];
    long sent, received;

    @Setup
    public void setup() {
        port = new Port(1);
        wire = Wire.loopback(port);
        hca = SoftHca.create(new SoftHca.Options().datapath(ctx -> new SoftDatapath(ctx, port)));
        dev = Mlx5Device.open(hca.function(), DeviceOptions.defaults().withHealth(Duration.ofSeconds(1), 0));
        eth = EthPort.open(dev, EthPortConfig.defaults().withPromiscuous(true));
        txPool = new PacketPool(dev.dma(), 4096, 2048, eth.lkey());
        rxPool = new PacketPool(dev.dma(), 2048, 2048, eth.lkey());
        tx = new TxQueue(eth.txResources(0), txPool);
        rx = new RxQueue(eth.rxResources(0), rxPool);
        TrafficMix mix = new TrafficMix(64);
        for (int h = 0; h < txPool.capacity(); h++) mix.build(txPool, h, 16 * h);
    }

    @TearDown
    public void tearDown() throws Exception {
        txPool.close();
        rxPool.close();
        eth.close();
        dev.close();
        hca.close();
        wire.close();
    }

    @Benchmark
    public long loopback() {
        long goal = received + FRAMES;
        while (received < goal) {
            if (sent - received <= 512 - BURST) {
                int n = txPool.alloc(bufs, BURST);
                for (int i = 0; i < n; i++) txPool.setLength(bufs[i], 64);
                int s = n == 0 ? 0 : tx.send(txPool, bufs, 0, n);
                for (int i = s; i < n; i++) txPool.free(bufs[i]);
                sent += s;
                if (n == 0) tx.reap();
            }
            int r = rx.receive(got, BURST);
            rxPool.free(got, 0, r);
            received += r;
        }
        return received;
    }
}

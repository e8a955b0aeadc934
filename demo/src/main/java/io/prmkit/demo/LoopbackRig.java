package io.prmkit.demo;

import io.prmkit.driver.core.DeviceOptions;
import io.prmkit.driver.core.Mlx5Device;
import io.prmkit.driver.dp.PacketPool;
import io.prmkit.driver.dp.RxQueue;
import io.prmkit.driver.dp.TxQueue;
import io.prmkit.driver.eth.EthPort;
import io.prmkit.driver.eth.EthPortConfig;
import io.prmkit.driver.eth.PortStats;
import io.prmkit.softhca.SoftHca;
import java.time.Duration;

/**
 * {@code prmkit bench}'s loopback case (and {@code LoopbackTwoThreadBench}'s): one soft HCA on its own thread, plugged into a loopback wire,
 * with the driver's port (one queue pair, 64-byte UDP frames built once) open for every round, as a
 * packet generator measures a port it has brought up once. Rounds on fresh devices timed more than the
 * datapath: the first frames of every new device take branches the previous one's steady state never
 * took, and the JIT deoptimized and recompiled the datapath inside the timed rounds (rounds of one run
 * spread over 3.3..9.3 Mpps; see docs/datapath-bench-log.md "Loopback case on one device"). Nothing is
 * allocated per frame.
 */
public final class LoopbackRig implements AutoCloseable {
    /** Frames sent and not yet received, at most: half the driver's RQ, so no frame is dropped. */
    public static final int WINDOW = 512;
    /** Length of every frame the rig sends, in bytes (the 64-byte frames). */
    public static final int FRAME = 64;
    private final SoftHca hca;
    private Mlx5Device dev;
    private EthPort eth;
    private PacketPool txPool;
    private PacketPool rxPool;
    private TxQueue tx;
    private RxQueue rx;
    private final int[] bufs = new int[LoopbackRun.BURST];
    private final int[] got = new int[LoopbackRun.BURST];

    public LoopbackRig(EthPortConfig.CqeCompression compression) {
        hca = SoftHca.create(new SoftHca.Options().loopback(true)); // its port cabled to itself
        try {
            dev = Mlx5Device.open(hca.function(), DeviceOptions.defaults().withHealth(Duration.ofSeconds(1), 0));
            eth = EthPort.open(dev, EthPortConfig.defaults().withPromiscuous(true).withCqeCompression(compression));
            txPool = PacketPool.open(eth, 4096, 2048);
            rxPool = PacketPool.open(eth, 2048, 2048);
            tx = TxQueue.open(eth, 0, txPool);
            rx = RxQueue.open(eth, 0, rxPool);
        } catch (RuntimeException e) {
            close();
            throw e;
        }
        TrafficMix mix = new TrafficMix(FRAME);
        for (int h = 0; h < txPool.capacity(); h++) mix.build(txPool, h, 16 * h); // ids = 0 mod 16: plain UDP/IPv4
    }

    /** Whether the receive CQ compresses completions (what the port's option chose). */
    public boolean cqeCompression() {
        return eth.cqeCompression();
    }

    /** The port's counters (device commands: not for the timed part). */
    public PortStats stats() {
        return eth.queryStats();
    }

    /** Buffers back in the driver's pools: all of them between rounds. */
    public int freeTxBuffers() {
        return txPool.available();
    }

    /**
     * Sends {@code frames} frames in bursts of 32 and receives them all (counted, not compared; the
     * frame bytes stay from the first build); returns millions of frames per second over the round.
     * Every round ends with nothing in flight, so rounds are independent.
     */
    public double round(long frames) {
        long sent = 0, received = 0;
        long start = System.nanoTime();
        long idle = start;
        while (received < frames) {
            if (sent < frames && sent - received <= WINDOW - LoopbackRun.BURST) {
                int n = txPool.alloc(bufs, (int) Math.min(LoopbackRun.BURST, frames - sent));
                for (int i = 0; i < n; i++) txPool.setLength(bufs[i], FRAME);
                int s = n == 0 ? 0 : tx.send(txPool, bufs, 0, n);
                for (int i = s; i < n; i++) txPool.free(bufs[i]);
                sent += s;
                if (n == 0) tx.reap();
            }
            int r = rx.receive(got, LoopbackRun.BURST);
            rxPool.free(got, 0, r);
            received += r;
            long now = System.nanoTime();
            if (r > 0) idle = now;
            else if (now - idle > 5_000_000_000L) throw new IllegalStateException("loopback: nothing received for 5 s (" + received + " of " + sent + ")");
        }
        double mpps = received / ((System.nanoTime() - start) / 1e9) / 1e6;
        long end = System.nanoTime() + 5_000_000_000L; // the last sends' completions, so the next round starts clean
        while (tx.inFlight() > 0) {
            tx.reap();
            if (System.nanoTime() > end) throw new IllegalStateException("loopback: " + tx.inFlight() + " sends never completed");
        }
        return mpps;
    }

    @Override
    public void close() {
        for (AutoCloseable c : new AutoCloseable[] {txPool, rxPool, eth, dev, hca}) {
            if (c == null) continue;
            try {
                c.close();
            } catch (Exception ignored) {
                // teardown after a failure: the first error is the one reported
            }
        }
    }
}

package io.prmkit.demo;

import io.prmkit.driver.core.DeviceOptions;
import io.prmkit.driver.core.Mlx5Device;
import io.prmkit.driver.dp.PacketPool;
import io.prmkit.driver.dp.RxQueue;
import io.prmkit.driver.dp.TxQueue;
import io.prmkit.driver.eth.EthPort;
import io.prmkit.driver.eth.EthPortConfig;
import io.prmkit.softhca.CapsProfile;
import io.prmkit.softhca.SoftHca;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/** A soft HCA whose port is cabled to itself, brought up by the driver with an Ethernet port of {@code queues} pairs. */
final class SoftLoopback implements AutoCloseable {
    final SoftHca hca;
    final Mlx5Device dev;
    final EthPort eth;
    final List<AutoCloseable> closeables = new ArrayList<>();

    /** Completions the receive queues decoded: [0] compressed sessions, [1] the completions in them (summed over runs). */
    final long[] sessions = new long[2];

    SoftLoopback(int queues) {
        this(queues, EthPortConfig.CqeCompression.AUTO);
    }

    SoftLoopback(int queues, EthPortConfig.CqeCompression compression) {
        hca = SoftHca.create(new SoftHca.Options()
                .caps(CapsProfile.defaults().with(1, "reg_umr_sq", 1, true, true))
                .loopback(true));
        dev = Mlx5Device.open(hca.function(), DeviceOptions.defaults().withCommandTimeout(Duration.ofSeconds(10)).withHealth(Duration.ofMillis(100), 0));
        eth = EthPort.open(dev, EthPortConfig.defaults().withQueuePairs(queues).withPromiscuous(true).withCqeCompression(compression));
    }

    PacketPool pool(int buffers) {
        PacketPool p = PacketPool.open(eth, buffers, 2048);
        closeables.add(p);
        return p;
    }

    /** How long the queue threads may go without any frame arriving before the run counts as stuck. */
    static final long STALL_NANOS = Duration.ofSeconds(60).toNanos();

    /** Runs {@code ids} frames of {@code mix} over all queue pairs, one thread each; returns the merged check. */
    WireCheck run(TrafficMix mix, int ids, boolean umrAndBadWqe, long[] txErrors) throws InterruptedException {
        int q = eth.queuePairs();
        WireCheck[] checks = new WireCheck[q];
        LoopbackRun[] runs = new LoopbackRun[q];
        TxQueue[] txs = new TxQueue[q];
        RxQueue[] rxs = new RxQueue[q];
        long expected = 0;
        AtomicLong progress = new AtomicLong();
        AtomicLong sent = new AtomicLong();
        for (int i = 0; i < q; i++) {
            checks[i] = new WireCheck(mix, ids);
            int count = (ids - i + q - 1) / q;
            LoopbackRun.expect(checks[i], i, q, count);
            expected += checks[i].expectedFrames();
        }
        for (int i = 0; i < q; i++) {
            PacketPool txPool = pool(2048);
            PacketPool rxPool = pool(2048);
            txs[i] = TxQueue.open(eth, i, txPool);
            RxQueue rx = RxQueue.open(eth, i, rxPool);
            rxs[i] = rx;
            int count = (ids - i + q - 1) / q;
            runs[i] = new LoopbackRun(txs[i], rx, txPool, mix, checks[i], i, q, count, progress, expected, Duration.ofSeconds(5).toNanos())
                    .withWindow(sent, 512);
            if (umrAndBadWqe && i == 0) {
                PacketPool region = pool(64);
                int mkey = eth.umrMkey(4);
                if (!txs[i].registerUmr(mkey, 0x10_0000L, region, 4)) throw new AssertionError("UMR not posted");
                runs[i].withUmrPool(region, Math.min(40, count));
                PacketPool bad = new PacketPool(dev.dma(), 4, 2048, eth.lkey() ^ 0x7fff00);
                closeables.add(bad);
                runs[i].withBadWqe(bad);
            }
        }
        Thread[] threads = new Thread[q];
        for (int i = 0; i < q; i++) {
            threads[i] = new Thread(runs[i], "queue-" + i);
            threads[i].start();
        }
        // Bounded by progress, not by the clock: a run ends by itself once nothing arrives for its idle
        // timeout; the wait gives up only when no frame arrived anywhere for STALL_NANOS, however long
        // a long soak takes on a loaded machine.
        long seen = -1;
        long lastChange = System.nanoTime();
        for (Thread t : threads) {
            while (t.isAlive() && System.nanoTime() - lastChange < STALL_NANOS) {
                t.join(1_000);
                long now = progress.get();
                if (now != seen) {
                    seen = now;
                    lastChange = System.nanoTime();
                }
            }
        }
        for (int i = 0; i < q; i++) {
            if (runs[i].failure() != null) throw new AssertionError("queue " + i + " failed", runs[i].failure());
            if (threads[i].isAlive()) throw new AssertionError("queue " + i + " did not finish");
            txErrors[0] += txs[i].errors();
            txErrors[1] += txs[i].recoveries();
            sessions[0] += rxs[i].compressedSessions();
            sessions[1] += rxs[i].compressedCompletions();
        }
        for (int i = 1; i < q; i++) checks[0].merge(checks[i]);
        return checks[0];
    }

    @Override
    public void close() throws Exception {
        eth.close();
        for (AutoCloseable c : closeables) c.close();
        dev.close();
        hca.close();
    }
}

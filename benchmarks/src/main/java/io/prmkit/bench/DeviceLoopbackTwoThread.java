package io.prmkit.bench;

import io.prmkit.mlx5.CompletionMode;
import io.prmkit.mlx5.CqDoorbellRecord;
import io.prmkit.mlx5.Cqe64;
import io.prmkit.mlx5.CqeFormat;
import io.prmkit.mlx5.CqeOpcode;
import io.prmkit.mlx5.MiniCqe8;
import io.prmkit.mlx5.SendWqeOpcode;
import io.prmkit.mlx5.UarPage;
import io.prmkit.mlx5.WqDoorbellRecord;
import io.prmkit.mlx5.WqeCtrlSeg;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.VarHandle;
import java.util.Arrays;
import java.util.Locale;

/**
 * {@link DeviceLoopbackBench}'s setup on two threads: the soft HCA's datapath polls on a thread of its
 * own while the main thread plays the same minimal driver (32-WQE bursts, at most 512 frames in flight,
 * RX CQ reaped plain or compressed, RQ kept full), so the figure includes the cache lines the two cores
 * hand each other (WQEs, CQEs, doorbell records) but none of the real driver's work. Plain and
 * compressed RX CQs are set up in one JVM and measured in alternating rounds; prints Mpps per round and
 * the medians. Not a JMH benchmark (two threads, one of them the device's own loop). White-box for
 * {@link DeviceLoopbackBench}'s reason: it times the datapath alone.
 *
 * <pre>java -cp 'cli/target/prmkit-cli.jar:cli/target/lib/*' io.prmkit.bench.DeviceLoopbackTwoThread [frames [rounds]]</pre>
 */
public final class DeviceLoopbackTwoThread {
    static final int IN_FLIGHT = 512;
    static final int N = DeviceLoopbackBench.N;
    static final int LOG = DeviceLoopbackBench.LOG;
    static final int BURST = DeviceLoopbackBench.BURST;

    private final DeviceLoopbackBench b;
    private volatile boolean running;
    private int pc, txDone, rxCc;
    private long bytes;
    /** CPU time of the device thread and of the driver (main) thread in the last run, ns. */
    private volatile long deviceCpu;
    private long driverCpu;
    /** Device polls that found nothing to do, in the last run. */
    private volatile long idlePolls;

    DeviceLoopbackTwoThread(boolean compress) {
        b = new DeviceLoopbackBench();
        b.compress = compress;
        b.setup();
    }

    /** Runs {@code frames} frames through the device thread; returns frames per second. */
    double run(long frames) throws InterruptedException {
        running = true;
        java.lang.management.ThreadMXBean mx = java.lang.management.ManagementFactory.getThreadMXBean();
        Thread device = new Thread(() -> {
            long cpu0 = mx.getCurrentThreadCpuTime();
            long idle = 0;
            while (running) if (!b.dp.poll()) idle++;
            idlePolls = idle;
            deviceCpu = mx.getCurrentThreadCpuTime() - cpu0;
        }, "soft-hca-datapath");
        long driverCpu0 = mx.getCurrentThreadCpuTime();
        device.start();
        long start = System.nanoTime();
        long first = rxCc;
        long target = rxCc + frames;
        bytes = 0;
        while (rxCc - target < 0) {
            if (pc - rxCc <= IN_FLIGHT - BURST && pc - txDone <= N - BURST) post();
            reapRx();
            reapTx();
        }
        double s = (System.nanoTime() - start) / 1e9;
        driverCpu = mx.getCurrentThreadCpuTime() - driverCpu0;
        running = false;
        device.join();
        if (bytes != (long) (rxCc - first) * 60) throw new IllegalStateException("received " + bytes + " bytes for " + (rxCc - first) + " frames");
        return (rxCc - first) / s;
    }

    private void post() {
        MemorySegment sq = b.sq;
        for (int i = 0; i < BURST; i++, pc++) {
            long o = (long) (pc & (N - 1)) << 6;
            WqeCtrlSeg.writer(sq, o).opcode(SendWqeOpcode.SEND).wqe_index(pc & 0xffff).qpn(20).ds(4)
                    .ce(i == BURST - 1 ? CompletionMode.CQE_ALWAYS : CompletionMode.CQE_ON_ERROR).write();
        }
        VarHandle.storeStoreFence();
        WqDoorbellRecord.send_counter$set(b.sqDb, pc & 0xffff);
        VarHandle.fullFence();
        b.dp.uarWrite(0, UarPage.bf_registers$BYTE_OFFSET, sq.get(DeviceLoopbackBench.BE64, (long) ((pc - 1) & (N - 1)) << 6), 8);
    }

    private void reapRx() {
        MemorySegment cq = b.rxCq;
        int cc = rxCc;
        while (true) {
            long c = (long) (cc & (N - 1)) << 6;
            if (Cqe64.owner(cq, c) != (((cc >>> LOG) & 1) == 1) || Cqe64.opcode(cq, c) == CqeOpcode.INVALID.value) break;
            VarHandle.acquireFence();
            if (Cqe64.cqe_format(cq, c) != CqeFormat.COMPRESSED$VALUE) {
                bytes += Cqe64.byte_cnt(cq, c);
                cc++;
                continue;
            }
            int n = Cqe64.byte_cnt(cq, c);
            for (int i = 0; i < n; i++) {
                int slot = cc + (i < 8 ? 1 : i & ~7);
                bytes += MiniCqe8.byte_cnt(cq, ((long) (slot & (N - 1)) << 6) + (i & 7) * MiniCqe8.SIZE);
            }
            for (int i = 0; i < n; i++) {
                int slot = cc + i;
                Cqe64.Device.owner$set(cq, (long) (slot & (N - 1)) << 6, ((slot >>> LOG) & 1) == 1);
            }
            cc += n;
        }
        if (cc == rxCc) return;
        rxCc = cc;
        CqDoorbellRecord.consumer_index$set(b.rxCqDb, cc & 0xffffff);
        VarHandle.storeStoreFence();
        WqDoorbellRecord.receive_counter$set(b.rqDb, (cc + N) & 0xffff); // the WQEs are static: the RQ stays full
    }

    private void reapTx() {
        MemorySegment cq = b.txCq;
        while (true) {
            long t = (long) (b.txCc & (N - 1)) << 6;
            if (Cqe64.owner(cq, t) != (((b.txCc >>> LOG) & 1) == 1) || Cqe64.opcode(cq, t) == CqeOpcode.INVALID.value) return;
            VarHandle.acquireFence();
            if (Cqe64.opcode(cq, t) != CqeOpcode.REQ.value) throw new IllegalStateException("send error CQE");
            txDone = txDone + ((Cqe64.wqe_counter(cq, t) + 1 - txDone) & 0xffff);
            b.txCc++;
            CqDoorbellRecord.consumer_index$set(b.txCqDb, b.txCc & 0xffffff);
        }
    }

    public static void main(String[] args) throws InterruptedException {
        long frames = args.length > 0 ? Long.parseLong(args[0]) : 5_000_000;
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 5;
        DeviceLoopbackTwoThread[] forms = {new DeviceLoopbackTwoThread(false), new DeviceLoopbackTwoThread(true)};
        String[] names = {"plain CQEs", "compressed CQEs"};
        for (DeviceLoopbackTwoThread f : forms) f.run(frames / 2); // warm-up
        double[][] mpps = new double[2][rounds];
        for (int r = 0; r < rounds; r++) {
            for (int k = 0; k < 2; k++) {
                mpps[k][r] = forms[k].run(frames) / 1e6;
                System.out.printf(Locale.ROOT, "round %d %s: %.2f Mpps (CPU per frame: device thread %.1f ns, driver thread %.1f ns; idle device polls per frame %.2f)%n",
                        r + 1, names[k], mpps[k][r], (double) forms[k].deviceCpu / frames, (double) forms[k].driverCpu / frames,
                        (double) forms[k].idlePolls / frames);
            }
        }
        for (int k = 0; k < 2; k++) {
            double[] m = mpps[k].clone();
            Arrays.sort(m);
            System.out.printf(Locale.ROOT, "device-loopback-two-thread %s: median %.2f Mpps (%.2f..%.2f), %d rounds of %d frames%n",
                    names[k], m[rounds / 2], m[0], m[rounds - 1], rounds, frames);
        }
    }
}

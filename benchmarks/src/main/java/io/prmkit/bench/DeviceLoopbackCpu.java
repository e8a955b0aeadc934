package io.prmkit.bench;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Arrays;
import java.util.Locale;

/**
 * {@link DeviceLoopbackBench}'s work timed by the thread's CPU clock instead of the wall clock: on a
 * machine shared with other jobs (load far above the core count) the JMH figure measures mostly the
 * time the bench thread waited for a core, while its CPU time per frame stays within a few percent
 * from run to run. Not a JMH benchmark: warm-up, then {@code rounds} rounds of {@code bursts} bursts of
 * 32 frames (each checked by the bench); prints each round and the median and minimum, in ns of CPU per frame.
 *
 * The third argument picks the RX CQ's form: {@code plain} (default), {@code compress} (CQE
 * compression), or {@code ab}: both, set up in this JVM and measured in alternating rounds.
 *
 * <pre>java -cp 'cli/target/prmkit-cli.jar:cli/target/lib/*' io.prmkit.bench.DeviceLoopbackCpu [bursts [rounds [plain|compress|ab]]]</pre>
 */
public final class DeviceLoopbackCpu {
    private DeviceLoopbackCpu() {}

    public static void main(String[] args) {
        int bursts = args.length > 0 ? Integer.parseInt(args[0]) : 50_000;
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 15;
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        if (!mx.isCurrentThreadCpuTimeSupported()) {
            System.err.println("device-loopback-cpu: this JVM cannot read a thread's CPU time");
            System.exit(1);
        }
        String forms = args.length > 2 ? args[2] : "plain";
        boolean[] compress = switch (forms) {
            case "plain" -> new boolean[] {false};
            case "compress" -> new boolean[] {true};
            case "ab" -> new boolean[] {false, true}; // both in this JVM, rounds alternating
            default -> throw new IllegalArgumentException("forms: plain, compress or ab, not " + forms);
        };
        DeviceLoopbackBench[] b = new DeviceLoopbackBench[compress.length];
        for (int k = 0; k < b.length; k++) {
            b[k] = new DeviceLoopbackBench();
            b[k].compress = compress[k];
            b[k].setup();
            // loopback() itself throws when a burst comes back short
            for (int i = 0; i < 3 * bursts; i++) b[k].loopback(); // warm-up: C2 compiles the device's path
        }
        double[][] ns = new double[b.length][rounds];
        for (int r = 0; r < rounds; r++) {
            for (int k = 0; k < b.length; k++) {
                long cpu = mx.getCurrentThreadCpuTime();
                long wall = System.nanoTime();
                for (int i = 0; i < bursts; i++) b[k].loopback();
                double frames = (double) bursts * DeviceLoopbackBench.BURST;
                ns[k][r] = (mx.getCurrentThreadCpuTime() - cpu) / frames;
                System.out.printf(Locale.ROOT, "round %d %s: %.1f ns CPU per frame (%.1f ns wall)%n", r + 1, name(compress[k]), ns[k][r],
                        (System.nanoTime() - wall) / frames);
            }
        }
        for (int k = 0; k < b.length; k++) {
            Arrays.sort(ns[k]);
            System.out.printf(Locale.ROOT, "device-loopback-cpu %s: median %.1f ns, min %.1f ns CPU per frame (%d rounds of %d frames)%n",
                    name(compress[k]), ns[k][rounds / 2], ns[k][0], rounds, bursts * DeviceLoopbackBench.BURST);
        }
    }

    private static String name(boolean compress) {
        return compress ? "compressed CQEs" : "plain CQEs";
    }
}

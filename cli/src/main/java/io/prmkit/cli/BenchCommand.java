package io.prmkit.cli;

import io.prmkit.demo.CoreToCore;
import io.prmkit.demo.LoopbackRig;
import io.prmkit.driver.eth.EthPortConfig;
import io.prmkit.dsl.Words;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.net.URISyntaxException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code prmkit bench}: the datapath benchmarks, three ways in one run — the generated accessors and
 * the best hand-written FFM code (JMH, forked JVMs) and the C reference (gcc -O2, built here from the
 * source shipped in the benchmarks jar). Ends with one summary line per case.
 */
@Command(
        name = "bench",
        mixinStandardHelpOptions = true,
        description = {
            "Runs the datapath benchmarks: wqe-build and cqe-parse (generated accessors vs hand-written FFM vs C, "
                    + "gcc -O2), tx-burst (the driver's 32-packet TX burst vs the same algorithm by hand on raw "
                    + "MemorySegment stores and in C), rx-burst (the RX burst vs C), and loopback (64-byte frames through the driver and the soft HCA, one queue pair). "
                    + "Needs gcc.",
            "Every case is measured in --rounds rounds (default 5), each running all forms once (C just before and just "
                    + "after the case's JMH forks, C's figure the mean of the two). Every figure is the median over the rounds "
                    + "with its range (min..max); ratios are taken within each round. Each loopback round is listed with the "
                    + "core-to-core round trip measured just before it (two threads bouncing a cache line): the loopback moves "
                    + "a few lines per frame between the driver's and the device's cores and follows it.",
            "The output ends with a line naming the machine (CPU with its x86 family and model, CPUs, OS, JDK, C compiler; "
                    + "the same code has measured on either side of a goal on different CPU kinds), then one line per case:",
            "  wqe-build: generated X ns, hand-written Y ns, C Z ns,",
            "      generated/C R1, hand-written/C R2, generated/hand-written R3",
            "      (one line; cqe-parse and tx-burst alike)",
            "  rx-burst: generated X ns, C Z ns, generated/C R   (per packet)",
            "  loopback: X Mpps   (the median of the rounds after three warm-up rounds)"
        },
        exitCodeList = {"0:measured and summarised", "1:the C reference could not be built, or another benchmark run holds JMH's lock"})
final class BenchCommand implements Callable<Integer> {
    /** Case, JMH class, C program (its source is {@code /io/prmkit/bench/<program>.c}), has a hand-written FFM version. */
    private static final String[][] CASES = {
        {"wqe-build", "io.prmkit.bench.WqeBuildBench", "prm_bench", "yes"},
        {"cqe-parse", "io.prmkit.bench.CqeParseBench", "prm_bench", "yes"},
        {"tx-burst", "io.prmkit.bench.TxBurstBench", "dp_bench", "yes"},
        {"rx-burst", "io.prmkit.bench.RxBurstBench", "dp_bench", "no"},
    };

    @Spec
    CommandSpec spec;

    @Option(names = "--quick", description = "Fewer, shorter iterations (about three minutes in all with 5 rounds).")
    boolean quick;

    @Option(names = "--cases", paramLabel = "CASE", split = ",",
            description = "Only these cases (default: all): wqe-build, cqe-parse, tx-burst, rx-burst, loopback.")
    List<String> only;

    @Option(names = "--rounds", paramLabel = "N", defaultValue = "5",
            description = "Measure every case N times, interleaved, and report medians with their range (default: ${DEFAULT-VALUE}).")
    int rounds;

    @Option(names = "--cqe-compression", paramLabel = "MODE", defaultValue = "AUTO",
            description = "The loopback case's receive CQ: AUTO (the driver's default: compressed where the device reports cqe_compression), ON or OFF (default: ${DEFAULT-VALUE}).")
    EthPortConfig.CqeCompression cqeCompression;

    @Option(names = "--cc", paramLabel = "CC", description = "C compiler (default: ${DEFAULT-VALUE}).", defaultValue = "gcc")
    String cc;

    /** The lock JMH takes for a run (a test hook: tests use their own file, never the shared one). */
    Path jmhLock = JmhLock.defaultFile();

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        List<String[]> cases = new ArrayList<>();
        for (String[] kase : CASES) if (only == null || only.contains(kase[0])) cases.add(kase);
        boolean loopback = only == null || only.contains("loopback");
        if (only != null) {
            List<String> unknown = new ArrayList<>(only);
            unknown.remove("loopback");
            for (String[] kase : CASES) unknown.removeIf(kase[0]::equals);
            if (!unknown.isEmpty() || only.isEmpty()) {
                err.println("prmkit bench: " + (only.isEmpty() ? "--cases names no case" : "unknown case " + String.join(", ", unknown) + " in --cases")
                        + " (known: wqe-build, cqe-parse, tx-burst, rx-burst, loopback)");
                return 2;
            }
        }
        if (rounds < 1) {
            err.println("prmkit bench: --rounds must be at least 1");
            return 2;
        }
        if ((!cases.isEmpty() || loopback) && JmhLock.held(jmhLock)) {
            err.println("prmkit bench: " + JmhLock.message(jmhLock));
            return 1;
        }
        Path work = Files.createTempDirectory("prmkit-bench");
        // A live line on a terminal's standard error (Progress) unless JMH's own lines are on the same
        // terminal (standard output): they are the progress then.
        progress = Progress.start("bench", !Progress.isTerminal(1), () -> step);
        try {
            Map<String, Path> binaries = new LinkedHashMap<>();
            try {
                for (String[] kase : cases) {
                    if (!binaries.containsKey(kase[2])) binaries.put(kase[2], buildC(work, kase[2]));
                }
            } catch (IOException e) {
                err.println("prmkit bench: " + e.getMessage());
                return 1;
            }
            // Rounds: each measures every case once in each form, case after case: its C program, its JMH
            // forks (one per benchmark), its C program again. C's figure is the mean of the two runs around
            // the forks, so a round's ratio compares times taken within the same half-minute; with every
            // JMH fork of a round first and the C programs a minute later, the host's drift went into the
            // ratios (rx-burst C 7.17..10.68 ns within one run). The summary is the median over rounds of
            // each time and of each round's ratios, with the range seen.
            Map<String, double[][]> rows = new LinkedHashMap<>(); // case -> round -> {gen, hand, C, gen B/op, hand B/op}
            for (String[] kase : cases) rows.put(kase[0], new double[rounds][]);
            for (int round = 0; round < rounds; round++) {
                log(err, String.format(Locale.ROOT, "prmkit bench: round %d of %d", round + 1, rounds));
                for (String[] kase : cases) {
                    step = String.format(Locale.ROOT, "round %d of %d, %s", round + 1, rounds, kase[0]);
                    double before = runC(binaries.get(kase[2]), kase[0]);
                    double[] j;
                    try {
                        j = runJmh(List.<String[]>of(kase)).get(kase[0]);
                    } catch (RunnerException e) {
                        if (!JmhLock.held(jmhLock)) throw e;
                        err.println("prmkit bench: " + JmhLock.message(jmhLock)); // taken since the check above
                        return 1;
                    }
                    double after = runC(binaries.get(kase[2]), kase[0]);
                    rows.get(kase[0])[round] = new double[] {j[0], j[1], (before + after) / 2, j[2], j[3]};
                }
            }
            progress.close();
            out.println();
            out.println(BenchMachine.current(cc));
            for (String[] kase : cases) {
                double[][] r = rows.get(kase[0]);
                if (kase[3].equals("yes")) {
                    out.printf(Locale.ROOT, "gc: %s generated %.1f B/op, hand-written %.1f B/op%n", kase[0], Spread.of(r, 3).max(), Spread.of(r, 4).max());
                } else {
                    out.printf(Locale.ROOT, "gc: %s generated %.1f B/op%n", kase[0], Spread.of(r, 3).max());
                }
            }
            for (String[] kase : cases) {
                double[][] r = rows.get(kase[0]);
                Spread gen = Spread.of(r, 0);
                Spread c = Spread.of(r, 2);
                Spread genC = Spread.ratio(r, 0, 2);
                if (kase[3].equals("yes")) {
                    out.printf(Locale.ROOT, "%s: generated %s ns, hand-written %s ns, C %s ns, generated/C %s, hand-written/C %s, generated/hand-written %s (median of %s, min..max)%n",
                            kase[0], gen, Spread.of(r, 1), c, genC, Spread.ratio(r, 1, 2), Spread.ratio(r, 0, 1), Words.plural(rounds, "round"));
                } else {
                    // The ranges on a line of their own, then the case's summary line exactly as issue 13 has it (medians).
                    out.printf(Locale.ROOT, "  %s over %s, min..max: generated %.2f..%.2f ns, C %.2f..%.2f ns, generated/C %.2f..%.2f%n",
                            kase[0], Words.plural(rounds, "round"), gen.min(), gen.max(), c.min(), c.max(), genC.min(), genC.max());
                    out.printf(Locale.ROOT, "%s: generated %.2f ns, C %.2f ns, generated/C %.2f%n", kase[0], gen.median(), c.median(), genC.median());
                }
            }
            if (loopback) {
                // Not JMH: a timed run of the driver and the soft HCA (its own thread) through the loopback wire,
                // under JMH's lock all the same (two spinning threads on two cores: a JMH run beside it would
                // spoil both figures).
                boolean ignoreLock = Boolean.getBoolean("jmh.ignoreLock"); // as JMH does
                FileChannel lock = ignoreLock ? null : JmhLock.take(jmhLock);
                if (lock == null && !ignoreLock) {
                    err.println("prmkit bench: " + JmhLock.message(jmhLock)); // taken since the check above
                    return 1;
                }
                double[] mpps;
                try {
                    mpps = loopbackRounds(err);
                } finally {
                    if (lock != null) lock.close();
                }
                StringBuilder each = new StringBuilder();
                for (int i = 0; i < rounds; i++) each.append(String.format(Locale.ROOT, " %.2f@%.0f", mpps[i], loopbackRoundTrip[i]));
                out.printf(Locale.ROOT, "  loopback rounds (Mpps@core-to-core round trip in ns, measured just before the round):%s%n", each);
                Arrays.sort(mpps);
                out.printf(Locale.ROOT, "  loopback over %s after %s, min..max: %.2f..%.2f Mpps, CQE compression %s%n", Words.plural(rounds, "round"), Words.plural(LOOPBACK_WARMUP, "warm-up round"), mpps[0], mpps[rounds - 1],
                        loopbackCompressed ? "on" : "off");
                out.printf(Locale.ROOT, "loopback: %.2f Mpps%n", mpps[rounds / 2]);
            }
            out.flush();
            return 0;
        } finally {
            progress.close();
            try (Stream<Path> files = Files.walk(work)) {
                files.sorted((a, b) -> b.compareTo(a)).forEach(p -> p.toFile().delete());
            }
        }
    }

    /**
     * The loopback case's rounds, after {@link #LOOPBACK_WARMUP} unmeasured ones, all on one device
     * and port ({@link LoopbackRig}). The warm-up rounds let C2 compile the driver and the device
     * (the first round ran 1.2-2.1 Mpps against 3.7-4.6 warmed when that was measured).
     */
    /** One line on standard error, above the progress line. */
    private void log(PrintWriter err, String line) {
        progress.above(() -> {
            err.println(line);
            err.flush();
        });
    }

    private double[] loopbackRounds(PrintWriter err) {
        int frames = quick ? 500_000 : 2_000_000;
        try (LoopbackRig rig = new LoopbackRig(cqeCompression)) {
            for (int w = 0; w < LOOPBACK_WARMUP; w++) {
                step = String.format(Locale.ROOT, "loopback warm-up round %d of %d", w + 1, LOOPBACK_WARMUP);
                log(err, "prmkit bench: " + step);
                CoreToCore.roundTripNanos(ROUND_TRIPS); // compiles the probe too
                rig.round(frames);
            }
            double[] mpps = new double[rounds];
            loopbackRoundTrip = new double[rounds];
            for (int round = 0; round < rounds; round++) {
                step = String.format(Locale.ROOT, "loopback round %d of %d", round + 1, rounds);
                log(err, "prmkit bench: " + step);
                loopbackRoundTrip[round] = CoreToCore.roundTripNanos(ROUND_TRIPS);
                mpps[round] = rig.round(frames);
            }
            loopbackCompressed = rig.cqeCompression();
            return mpps;
        }
    }

    /** Whether the loopback rounds' receive CQ compressed completions (what AUTO chose). */
    private boolean loopbackCompressed;
    /** The live line on standard error while the rounds run, and what it shows. */
    private Progress progress;
    private volatile String step = "starting";

    /**
     * The core-to-core round trip before each loopback round, in ns ({@link CoreToCore}): the loopback
     * follows it, and on a VM it can change severalfold between rounds, so each round is printed with it.
     */
    private double[] loopbackRoundTrip;

    /** Round trips per core-to-core measurement: 6 ms at 60 ns, 33 ms at 330 ns. */
    static final int ROUND_TRIPS = 100_000;

    /** Unmeasured loopback rounds first (see {@link #loopbackRounds}). */
    static final int LOOPBACK_WARMUP = 3;

    private Path buildC(Path work, String program) throws IOException, InterruptedException {
        Path source = work.resolve(program + ".c");
        try (InputStream in = BenchCommand.class.getResourceAsStream("/io/prmkit/bench/" + program + ".c")) {
            if (in == null) throw new IOException(program + ".c is missing from the benchmarks jar");
            Files.copy(in, source);
        }
        Path binary = work.resolve(program);
        Process p;
        try {
            p = new ProcessBuilder(cc, "-O2", "-o", binary.toString(), source.toString())
                    .redirectErrorStream(true)
                    .start();
        } catch (IOException e) {
            throw new IOException("cannot run the C compiler '" + cc + "' (install gcc, or pass --cc)");
        }
        String log = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (p.waitFor() != 0) throw new IOException(cc + " failed on " + program + ".c:\n" + log);
        return binary;
    }

    /** ns per item of one run of the C reference (as long as one JMH measurement phase). */
    private double runC(Path binary, String kase) throws IOException, InterruptedException {
        String seconds = quick ? "1" : "2";
        Process p = new ProcessBuilder(binary.toString(), kase, seconds).redirectErrorStream(true).start();
        String line = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        if (p.waitFor() != 0) throw new IOException(binary.getFileName() + " " + kase + " failed: " + line);
        return Double.parseDouble(line.split(" ")[1]);
    }

    /** The median of a column over rounds, with the smallest and largest value seen. */
    record Spread(double median, double min, double max) {
        static Spread of(double[] values) {
            double[] v = values.clone();
            Arrays.sort(v);
            int n = v.length;
            double median = n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
            return new Spread(median, v[0], v[n - 1]);
        }

        static Spread of(double[][] rounds, int column) {
            return of(Arrays.stream(rounds).mapToDouble(r -> r[column]).toArray());
        }

        /** Per-round ratio of two columns: both measured in the same round, so shared noise cancels. */
        static Spread ratio(double[][] rounds, int numerator, int denominator) {
            return of(Arrays.stream(rounds).mapToDouble(r -> r[numerator] / r[denominator]).toArray());
        }

        @Override
        public String toString() {
            return String.format(Locale.ROOT, "%.2f (%.2f..%.2f)", median, min, max);
        }
    }

    /** Per case: generated ns, hand-written ns, generated B/op, hand-written B/op. */
    private Map<String, double[]> runJmh(List<String[]> cases) throws RunnerException, URISyntaxException {
        // No JMH case asked for (--cases loopback): JMH without an include pattern would run every benchmark in the jar.
        if (cases.isEmpty()) return new LinkedHashMap<>();
        // JMH forks JVMs with java.class.path; under `java -jar` that is only the CLI jar, so spell out its Class-Path.
        System.setProperty("java.class.path", classPath());
        ChainedOptionsBuilder options = new OptionsBuilder()
                .forks(1) // one fork per round; the rounds give the repetition
                .warmupIterations(quick ? 2 : 4)
                .warmupTime(TimeValue.seconds(1))
                .measurementIterations(quick ? 3 : 5)
                .measurementTime(TimeValue.seconds(quick ? 1 : 2))
                .timeUnit(TimeUnit.NANOSECONDS)
                .jvmArgsAppend("--enable-native-access=ALL-UNNAMED")
                .addProfiler("gc");
        for (String[] kase : cases) {
            options.include("^" + kase[1].replace(".", "\\.") + "\\.");
        }
        Collection<RunResult> results = new Runner(options.build()).run();
        Map<String, double[]> byCase = new LinkedHashMap<>();
        for (String[] kase : cases) {
            byCase.put(kase[0], new double[4]);
        }
        for (RunResult r : results) {
            String bench = r.getParams().getBenchmark();
            for (String[] kase : cases) {
                if (!bench.startsWith(kase[1] + ".")) continue;
                int column = bench.endsWith(".generated") ? 0 : 1;
                double[] row = byCase.get(kase[0]);
                row[column] = r.getPrimaryResult().getScore();
                Result<?> alloc = r.getSecondaryResults().get("·gc.alloc.rate.norm");
                if (alloc == null) alloc = r.getSecondaryResults().get("gc.alloc.rate.norm");
                row[2 + column] = alloc == null ? Double.NaN : alloc.getScore();
            }
        }
        return byCase;
    }

    private static String classPath() throws URISyntaxException {
        Path jar = Path.of(BenchCommand.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        List<String> entries = new ArrayList<>();
        entries.add(jar.toString());
        File[] libs = jar.resolveSibling("lib").toFile().listFiles((d, n) -> n.endsWith(".jar"));
        if (libs != null) {
            Arrays.sort(libs);
            for (File f : libs) entries.add(f.getPath());
        }
        String current = System.getProperty("java.class.path", "");
        if (!current.isEmpty() && !Files.isRegularFile(jar)) entries.add(current);
        return String.join(File.pathSeparator, entries);
    }
}

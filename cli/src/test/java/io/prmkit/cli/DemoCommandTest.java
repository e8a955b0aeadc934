package io.prmkit.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.prmkit.demo.TrafficMix;
import io.prmkit.dsl.Child;
import io.prmkit.dsl.HostTools;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

class DemoCommandTest {
    private static final Pattern LAST = Pattern.compile(
            "demo: tx (\\d+) frames, rx (\\d+) frames, lost (\\d+), corrupt (\\d+), tx errors recovered (\\d+), (\\d+\\.\\d\\d) Mpps");

    /**
     * Frames on the wire for {@code packets} sends of the demo's mix: one each, but for its one LSO send
     * (id TrafficMix.LSO_ID), which the device cuts into MAX_WIRE_FRAMES segments.
     */
    static long wireFrames(long packets) {
        return packets + TrafficMix.MAX_WIRE_FRAMES - 1;
    }

    private static String lastLine(String out) {
        String[] lines = out.strip().split("\n");
        return lines[lines.length - 1];
    }

    @Test
    void theDemoSendsTheMixOverThreeQueuesAndGetsEveryFrameBack(@TempDir Path dir) throws Exception {
        Path pcap = dir.resolve("wire.pcap");
        // 80000: ids past 65536, where a bare id in the payload's first word looked like a STUN header to Wireshark;
        // 3 queues: a count that does not divide the 4096 source ports, where flows were once spread over queues
        // and tshark flagged their TCP frames out of order
        PrmkitCliTest.Run r = PrmkitCliTest.run("demo", "--packets", "80000", "--queues", "3", "--pcap", pcap.toString());
        assertEquals(0, r.exitCode(), r.out() + r.err());
        Matcher m = LAST.matcher(lastLine(r.out()));
        assertTrue(m.matches(), lastLine(r.out()));
        long tx = Long.parseLong(m.group(1));
        assertEquals(wireFrames(80000), tx, "80000 frames (every flow's source port used), the LSO send's segments counted one by one");
        assertEquals(tx, Long.parseLong(m.group(2)));
        assertEquals("0", m.group(3));
        assertEquals("0", m.group(4));
        assertEquals("1", m.group(5));
        assertTrue(r.out().contains("bring-up: soft-hca:0"), r.out());
        assertTrue(r.out().contains("LOCAL_PROT_ERR"), "the bad WQE's syndrome is named: " + r.out());
        // pcap: 24-byte header, then per frame a 16-byte record header and the frame
        byte[] p = Files.readAllBytes(pcap);
        assertEquals(0xa1b2c3d4, java.nio.ByteBuffer.wrap(p, 0, 4).order(java.nio.ByteOrder.LITTLE_ENDIAN).getInt());
        int frames = 0;
        for (int at = 24; at < p.length; frames++) {
            at += 16 + java.nio.ByteBuffer.wrap(p, at + 8, 4).order(java.nio.ByteOrder.LITTLE_ENDIAN).getInt();
        }
        assertEquals(tx, frames, "every wire frame is in the capture");
        assertTsharkSeesPlainUdpAndTcp(pcap, tx);
    }

    /** What tshark decodes every frame as: the demo's UDP/TCP, never another protocol's (malformed) packet. */
    private static final Pattern PLAIN_FRAME = Pattern.compile("eth:ethertype:(vlan:ethertype:)?(ip|ipv6):(udp:data|tcp|tcp:data)");

    /**
     * Wireshark picks a UDP/TCP dissector by port: the demo's frames must stay plain data to it (see
     * Frames.SOURCE_PORTS). Without tshark: one line, and the test counts as skipped; under CI=true: a failure.
     */
    private static void assertTsharkSeesPlainUdpAndTcp(Path pcap, long frames) throws Exception {
        String out = io.prmkit.softhca.wire.Tools.run("tshark", "-r", pcap.toString(), "-T", "fields", "-e", "frame.protocols");
        List<String> lines = out.lines().toList();
        assertEquals(frames, lines.size(), "tshark reads every frame");
        List<String> other = lines.stream().filter(l -> !PLAIN_FRAME.matcher(l).matches()).distinct().toList();
        assertTrue(other.isEmpty(), "tshark decodes frames as other protocols: " + other);
        // Nothing a Wireshark user would take for trouble: no malformed frame, no TCP gap, retransmission or
        // reordering, and (with checksum validation on, which Wireshark leaves off by default) no bad IPv4, UDP
        // or TCP checksum: Wireshark's own check of the device's offloads and of TrafficMix's software sums.
        String[] validate = {"-o", "ip.check_checksum:TRUE", "-o", "udp.check_checksum:TRUE", "-o", "tcp.check_checksum:TRUE"};
        List<String> flaggedCmd = new java.util.ArrayList<>(List.of("tshark", "-r", pcap.toString()));
        flaggedCmd.addAll(List.of(validate));
        flaggedCmd.addAll(List.of("-Y", "_ws.expert.severity >= warning || _ws.malformed || tcp.analysis.flags", "-T", "fields", "-e", "frame.number", "-e", "_ws.expert.message"));
        String flagged = io.prmkit.softhca.wire.Tools.run(flaggedCmd.toArray(String[]::new));
        List<String> warnings = flagged.lines().limit(5).toList();
        assertTrue(warnings.isEmpty(), "tshark flags frames (first 5 of " + flagged.lines().count() + "): " + warnings);
        List<String> checkedCmd = new java.util.ArrayList<>(List.of("tshark", "-r", pcap.toString()));
        checkedCmd.addAll(List.of(validate));
        checkedCmd.addAll(List.of("-Y", "udp.checksum.status == 1 || tcp.checksum.status == 1", "-T", "fields", "-e", "frame.number"));
        assertEquals(frames, io.prmkit.softhca.wire.Tools.run(checkedCmd.toArray(String[]::new)).lines().count(), "every frame's L4 checksum verified good by tshark");
    }

    /** {@code --pcap -}: the capture on standard output (tcpdump's {@code -w -}), the report on standard error. */
    @Test
    void aCaptureOnStandardOutputLeavesTheReportOnStandardError(@TempDir Path dir) throws Exception {
        Path pcap = dir.resolve("stdout.pcap");
        Path err = dir.resolve("err.txt");
        Child.Result p = Child.run(new ProcessBuilder(demoProcess("--packets", "20000", "--pcap", "-")).redirectOutput(pcap.toFile())
                .redirectError(err.toFile()), Duration.ofMinutes(4));
        String report = Files.readString(err);
        assertEquals(0, p.exit(), report);
        Matcher m = LAST.matcher(lastLine(report));
        assertTrue(m.matches(), report);
        long tx = Long.parseLong(m.group(1));
        byte[] b = Files.readAllBytes(pcap);
        assertEquals(0xa1b2c3d4, java.nio.ByteBuffer.wrap(b, 0, 4).order(java.nio.ByteOrder.LITTLE_ENDIAN).getInt(), "standard output is the pcap alone");
        int frames = 0;
        for (int at = 24; at < b.length; frames++) at += 16 + java.nio.ByteBuffer.wrap(b, at + 8, 4).order(java.nio.ByteOrder.LITTLE_ENDIAN).getInt();
        assertEquals(tx, frames, "every wire frame is in the capture");
        assertFalse(report.contains("pcap: "), "no file to offer: " + report);
        // The deliberate bad WQE is said once, as the expected event it is: no driver [WARNING] for it, no dated JUL line.
        assertTrue(report.lines().anyMatch(l -> l.startsWith("  bad WQE     sent on purpose") && l.contains("LOCAL_PROT_ERR")
                && l.contains("as expected")), report);
        assertFalse(report.contains("[WARNING]"), report);
        assertFalse(report.lines().anyMatch(l -> l.matches("\\w{3} \\d{2}, \\d{4} .*")), "a dated log line: " + report);
    }

    /** {@code --pcap - | tshark -c 10 -r -}: a reader that stops early is no failure of the demo; it ends as any command whose reader went away. */
    @Test
    void aCaptureReaderThatStopsEarlyEndsTheDemoQuietly(@TempDir Path dir) throws Exception {
        Path err = dir.resolve("err.txt");
        Child.Running p = Child.start(new ProcessBuilder(demoProcess("--packets", "200000", "--pcap", "-")).redirectError(err.toFile()),
                Duration.ofMinutes(4));
        assertEquals(1000, p.process().getInputStream().readNBytes(1000).length);
        p.process().getInputStream().close();
        int exit = p.finish().exit();
        String report = Files.readString(err);
        assertEquals(StandardOutput.READER_GONE, exit, report);
        assertTrue(LAST.matcher(lastLine(report)).matches(), "the traffic ran and was reported: " + report);
        assertFalse(report.contains("cannot write"), report);
    }

    /**
     * A --pcap run stopped by a signal (SIGTERM, as kill and Ctrl-C's SIGINT end a JVM): the capture
     * ends at a record boundary, every record whole, and standard error says so with the count of
     * frames it holds (issue 36 item 9: it was cut there, silently).
     */
    @Test
    void aSignalLeavesTheCaptureWholeAndSaysSo(@TempDir Path dir) throws Exception {
        Path pcap = dir.resolve("cut.pcap");
        Path err = dir.resolve("err.txt");
        Child.Running p = Child.start(new ProcessBuilder(demoProcess("--packets", "100000000", "--pcap", pcap.toString()))
                .redirectError(err.toFile()).redirectOutput(dir.resolve("out.txt").toFile()), Duration.ofMinutes(4));
        long until = System.nanoTime() + Duration.ofMinutes(3).toNanos();
        // more than the writer's 1 MiB buffer: records have gone out and more are on their way
        while ((!Files.exists(pcap) || Files.size(pcap) < (2 << 20)) && p.process().isAlive() && System.nanoTime() < until) Thread.sleep(20);
        assertTrue(p.process().isAlive(), "the demo ended before the signal: " + Files.readString(err));
        p.process().destroy(); // SIGTERM
        int exit = p.finish().exit();
        String report = Files.readString(err);
        assertEquals(143, exit, report);
        Matcher m = Pattern.compile("prmkit demo: interrupted: the capture " + Pattern.quote(pcap.toString())
                + " holds the (\\d+) frames written before the signal and ends at a record boundary \\(tshark reads it\\)\n").matcher(report);
        assertTrue(m.find(), report);
        byte[] b = Files.readAllBytes(pcap);
        java.nio.ByteBuffer buf = java.nio.ByteBuffer.wrap(b).order(java.nio.ByteOrder.LITTLE_ENDIAN);
        assertEquals(0xa1b2c3d4, buf.getInt(0), "pcap magic");
        long records = 0;
        int at = 24;
        while (at + 16 <= b.length) {
            int incl = buf.getInt(at + 8);
            assertTrue(incl > 0 && incl <= buf.getInt(at + 12), "record " + records + " at " + at + ": " + incl + " bytes");
            at += 16 + incl;
            records++;
        }
        assertEquals(b.length, at, "the file ends where its last record ends");
        assertEquals(Long.parseLong(m.group(1)), records, report);
        assertTrue(records > 1000, "records: " + records);
    }

    private static List<String> demoProcess(String... args) {
        List<String> all = new java.util.ArrayList<>(List.of("demo"));
        all.addAll(List.of(args));
        return CliProcessTest.javaCommand(all);
    }

    /**
     * The smallest counts it accepts run the whole mix, the bad WQE included: with 32 frames on a queue
     * (one burst) the bad WQE once waited for a later burst that never came ("bad WQE: did not fail").
     */
    @Test
    void everyAcceptedCountRunsTheBadWqe() {
        for (String[] args : List.of(new String[] {"--packets", "32"}, new String[] {"--queues", "2", "--packets", "33"},
                new String[] {"--queues", "4", "--packets", "128"})) {
            List<String> cmd = new java.util.ArrayList<>(List.of("demo"));
            cmd.addAll(List.of(args));
            PrmkitCliTest.Run r = PrmkitCliTest.run(cmd.toArray(String[]::new));
            assertEquals(0, r.exitCode(), String.join(" ", args) + ": " + r.out() + r.err());
            Matcher m = LAST.matcher(lastLine(r.out()));
            assertTrue(m.matches(), lastLine(r.out()));
            assertEquals("1", m.group(5), String.join(" ", args));
            assertTrue(r.out().contains("LOCAL_PROT_ERR"), r.out());
        }
        // one burst a queue: no window to measure allocation in, said in words (it printed "0 bytes while ... 0 packets")
        PrmkitCliTest.Run shortRun = PrmkitCliTest.run("demo", "--packets", "32");
        assertTrue(shortRun.out().contains("  allocation  not measured: no queue's measuring window"), shortRun.out());
    }

    @Test
    void badOptionsSayWhich() {
        PrmkitCliTest.Run r = PrmkitCliTest.run("demo", "--queues", "0");
        assertEquals(2, r.exitCode());
        assertTrue(r.err().contains("--queues 0 outside 1..16"), r.err());
    }

    @Test
    void aPcapFileThatCannotBeOpenedFailsBeforeBringUp(@TempDir Path dir) {
        PrmkitCliTest.Run r = PrmkitCliTest.run("demo", "--pcap", dir.toString());
        assertEquals(1, r.exitCode(), r.out() + r.err());
        assertEquals("", r.out(), "nothing was brought up");
        assertEquals(dir + ": error: cannot write: is a folder, not a file\n", r.err());
        Path missing = dir.resolve("none").resolve("wire.pcap");
        r = PrmkitCliTest.run("demo", "--pcap", missing.toString());
        assertEquals(1, r.exitCode(), r.out() + r.err());
        assertEquals(missing + ": error: cannot write: no such folder " + missing.getParent() + "\n", r.err());
    }

    /** A write error part way (here /dev/full's ENOSPC) stops the capture, not the traffic; the demo says so and fails. */
    @Test
    void aCaptureThatFailsPartWayIsReportedAndTheTrafficGoesOn() {
        HostTools.requireSystem(Files.exists(Path.of("/dev/full")), "Linux's /dev/full", "a capture whose writes fail");
        PrmkitCliTest.Run r = PrmkitCliTest.run("demo", "--packets", "20000", "--pcap", "/dev/full");
        assertEquals(1, r.exitCode(), r.out() + r.err());
        Matcher m = LAST.matcher(lastLine(r.out()));
        assertTrue(m.matches(), r.out());
        assertEquals(Long.toString(wireFrames(20000)), m.group(2), "every frame still came back");
        assertFalse(r.out().contains("pcap: "), "no pcap is offered to read: " + r.out());
        assertTrue(r.err().endsWith("/dev/full: error: cannot write: No space left on device; the capture is incomplete\n"), r.err());
    }

    /**
     * A regular file that cannot grow (the file size limit of {@code ulimit -f}; HotSpot ignores
     * SIGXFSZ, so the write fails with EFBIG) is removed rather than left looking like a whole capture.
     */
    @Test
    void anIncompleteCaptureFileIsRemoved(@TempDir Path dir) throws Exception {
        Path bash = Path.of("/bin/bash");
        HostTools.requireSystem(Files.isExecutable(bash), "/bin/bash", "ulimit -f for a capture file that cannot grow");
        Path pcap = dir.resolve("wire.pcap");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Child.Result p = Child.run(new ProcessBuilder(List.of(bash.toString(), "-c", "ulimit -f 512 && exec \"$@\"", "bash", java,
                "--enable-native-access=ALL-UNNAMED", "-cp", System.getProperty("java.class.path"),
                PrmkitCli.class.getName(), "demo", "--packets", "100000", "--pcap", pcap.toString()))
                .redirectErrorStream(true), Duration.ofMinutes(4));
        String text = p.stdout();
        assertEquals(1, p.exit(), text);
        assertTrue(text.contains(pcap + ": error: cannot write: File too large; the incomplete capture was removed"), text);
        assertFalse(Files.exists(pcap), "the partial capture is gone");
    }

    private static final long ONE_OFF_BYTES = 1024;

    private static final Pattern ALLOCATION = Pattern.compile(
            "  allocation  queue threads allocated (\\d+) bytes while sending (\\d+) and receiving (\\d+) packets .*");

    /**
     * The datapath allocates nothing per packet once compiled: the demo counts what its queue threads
     * allocate (HotSpot's per-thread allocated bytes) over the second half of each queue's sends,
     * receiving and checking included; with 100,000 frames per queue that window holds at least
     * 100,000 packets. One object per burst of 32 would be over 50,000 bytes there; what is allowed is
     * {@link #ONE_OFF_BYTES}, for the JDK's one-time code generation behind MemorySegment accessors that
     * a loaded machine's late JIT tier changes can put inside the window (seen: 280-296 bytes, once).
     */
    @Tag("timing") // at most 1 KiB depends on the JIT having settled in the measured half (docs/testing.md)
    @Test
    void theQueueThreadsAllocateNothingAfterTheWarmUp() {
        PrmkitCliTest.Run r = PrmkitCliTest.run("demo", "--packets", "200000", "--queues", "2");
        assertEquals(0, r.exitCode(), r.out() + r.err());
        Matcher m = r.out().lines().map(ALLOCATION::matcher).filter(Matcher::matches).findFirst().orElseThrow(() -> new AssertionError(r.out()));
        assertTrue(Long.parseLong(m.group(2)) + Long.parseLong(m.group(3)) >= 100_000, m.group());
        assertTrue(Long.parseLong(m.group(2)) <= 100_000, "at most the second half of the sends: " + m.group());
        assertTrue(Long.parseLong(m.group(1)) <= ONE_OFF_BYTES, m.group());
        Matcher rate = r.out().lines().map(RATE::matcher).filter(Matcher::matches).findFirst().orElseThrow(() -> new AssertionError(r.out()));
        Matcher last = LAST.matcher(lastLine(r.out()));
        assertTrue(last.matches(), r.out());
        assertEquals(last.group(6), rate.group(1), "the rate line's first figure is the last line's");
        assertTrue(Double.parseDouble(rate.group(2)) > 0, rate.group());
    }

    private static final Pattern RATE = Pattern.compile(
            "  rate        (\\d+\\.\\d\\d) Mpps over all the traffic, (\\d+\\.\\d\\d) Mpps over the second half of each queue's sends .*");

    private static final int MAX_TRAPS_AT_ONE_PLACE = 10;
    private static final Pattern TRAP = Pattern.compile("level=4 (\\S+) trap_bci=(\\d+) (\\S+)");

    /**
     * Compiled once, not over and over: C2 code that keeps hitting the same uncommon trap is thrown
     * away and recompiled each time, until HotSpot's per-method trap limit (100). A loop in RxQueue
     * whose predicate failed at every ring wrap did that (101 recompilations, a third of the demo's
     * CPU in the C2 thread). HotSpot logs every trap; no one place may trap more than
     * {@link #MAX_TRAPS_AT_ONE_PLACE} times (seen after the fix: at most 4, in JDK code).
     */
    @Tag("timing") // trap counts depend on the JIT and the load (docs/testing.md)
    @Test
    void theDatapathIsNotRecompiledOverAndOver(@TempDir Path dir) throws Exception {
        Path log = dir.resolve("deopt.log");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Child.Result p = Child.run(new ProcessBuilder(List.of(java, "-Xlog:deoptimization=debug:file=" + log, "--enable-native-access=ALL-UNNAMED",
                "-cp", System.getProperty("java.class.path"), PrmkitCli.class.getName(), "demo", "--packets", "4000000"))
                .redirectErrorStream(true), Duration.ofMinutes(4));
        assertEquals(0, p.exit(), p.stdout());
        java.util.Map<String, Integer> traps = new java.util.TreeMap<>();
        for (String line : Files.readAllLines(log)) {
            Matcher m = TRAP.matcher(line);
            if (m.find()) traps.merge(m.group(1) + " at bci " + m.group(2) + " (" + m.group(3) + ")", 1, Integer::sum);
        }
        assertTrue(Files.size(log) > 0, "HotSpot wrote no deoptimization log");
        traps.forEach((where, n) -> assertTrue(n <= MAX_TRAPS_AT_ONE_PLACE, where + " trapped " + n + " times"));
    }

    /**
     * Per-packet allocation would exhaust this heap: Epsilon never collects, and 10 million packets at
     * even one minimum-size object each (16 bytes with the default object headers: 12 padded to 8-byte alignment) are
     * 160 MB, more than the 128 MB heap. What the run needs besides (start-up, class loading, JIT warm-up,
     * bring-up, the report) measured 52 to 65 MB on this machine, so the heap leaves room for that and
     * for nothing per packet. ExitOnOutOfMemoryError turns an exhausted heap in any thread into a
     * failed exit at once instead of a stuck queue thread.
     */
    @Test
    @Timeout(value = 12, unit = TimeUnit.MINUTES) // an exception to the 5-minute default: 10 million frames on a loaded machine
    void theDemoRunsWithoutAGarbageCollectorInASmallHeap() throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Child.Result p = Child.run(new ProcessBuilder(List.of(java, "-XX:+UnlockExperimentalVMOptions", "-XX:+UseEpsilonGC", "-Xmx128m",
                "-XX:+ExitOnOutOfMemoryError", "--enable-native-access=ALL-UNNAMED", "-cp", System.getProperty("java.class.path"),
                PrmkitCli.class.getName(), "demo", "--packets", "10000000"))
                .redirectErrorStream(true), Duration.ofMinutes(10));
        String text = p.stdout();
        assertEquals(0, p.exit(), text);
        Matcher m = LAST.matcher(lastLine(text));
        assertTrue(m.matches(), text);
        assertEquals(Long.toString(wireFrames(10_000_000)), m.group(1), text);
        assertEquals("0", m.group(3), text);
        assertEquals("0", m.group(4), text);
    }
}

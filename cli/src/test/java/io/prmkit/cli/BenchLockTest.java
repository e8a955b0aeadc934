package io.prmkit.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code prmkit bench} while another JMH run holds its lock: one clear line and exit 1, before
 * anything is built or run, instead of JMH's RunnerException as an internal error. The tests lock a
 * file of their own, never the machine's {@code /tmp/jmh.lock} (other benchmark runs may use it).
 */
class BenchLockTest {
    @TempDir
    Path dir;

    @Test
    void aHeldJmhLockIsAOneLineErrorBeforeAnythingRuns() throws IOException {
        assertRefusedWhileLocked("--cases", "wqe-build", "--cc", "no-such-cc");
    }

    @Test
    void theLoopbackCaseWaitsForTheLockToo() throws IOException {
        assertRefusedWhileLocked("--cases", "loopback");
    }

    /** {@code bench --quick --rounds 1 <args>} while this test holds the lock: exit 1, one line, no output. */
    private void assertRefusedWhileLocked(String... args) throws IOException {
        Path lock = dir.resolve("jmh.lock");
        try (FileChannel ch = FileChannel.open(lock, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
                FileLock held = ch.lock()) {
            StringWriter out = new StringWriter();
            StringWriter err = new StringWriter();
            CommandLine cli = PrmkitCli.commandLine();
            BenchCommand bench = cli.getSubcommands().get("bench").getCommand();
            bench.jmhLock = lock;
            cli.setOut(new PrintWriter(out, true));
            cli.setErr(new PrintWriter(err, true));
            String[] argv = new String[4 + args.length];
            System.arraycopy(new String[] {"bench", "--quick", "--rounds", "1"}, 0, argv, 0, 4);
            System.arraycopy(args, 0, argv, 4, args.length);
            int exit = cli.execute(argv);
            assertEquals(PrmkitCli.INPUT_ERROR, exit, err.toString());
            assertEquals("prmkit bench: another benchmark run (JMH) holds " + lock
                    + "; wait for it to finish, then run prmkit bench again\n", err.toString());
            assertEquals("", out.toString());
        }
    }

    @Test
    void takingTheLockHoldsItUntilClosed() throws IOException {
        Path lock = dir.resolve("jmh.lock");
        try (FileChannel taken = JmhLock.take(lock)) {
            assertNotNull(taken);
            assertNull(JmhLock.take(lock), "a second run must not get it");
        }
        assertFalse(JmhLock.held(lock));
    }

    @Test
    void theCheckLeavesAFreeLockFree() throws IOException {
        Path lock = dir.resolve("jmh.lock");
        assertFalse(JmhLock.held(lock));
        assertFalse(JmhLock.held(lock), "the first check released what it took");
        try (FileChannel ch = FileChannel.open(lock, StandardOpenOption.WRITE); FileLock held = ch.lock()) {
            assertTrue(JmhLock.held(lock));
        }
        assertFalse(JmhLock.held(lock));
    }

    /**
     * The lock held by another process, as a JMH run holds it: the check sees it (a null tryLock, not
     * this JVM's OverlappingFileLockException) and take refuses it; free again once that process ends.
     */
    @Test
    void aLockHeldByAnotherProcessIsSeen() throws Exception {
        Path lock = dir.resolve("jmh.lock");
        Path holder = java.nio.file.Files.writeString(dir.resolve("Holder.java"), """
                import java.nio.channels.FileChannel;
                import java.nio.file.Path;
                import java.nio.file.StandardOpenOption;
                public class Holder {
                    public static void main(String[] a) throws Exception {
                        try (FileChannel ch = FileChannel.open(Path.of(a[0]), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
                             var l = ch.lock()) {
                            System.out.println("locked");
                            System.out.flush();
                            System.in.read(); // holds the lock until the test closes standard input
                        }
                    }
                }
                """);
        String javaExe = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        io.prmkit.dsl.Child.Running child = io.prmkit.dsl.Child.start(new ProcessBuilder(javaExe, holder.toString(), lock.toString()),
                java.time.Duration.ofMinutes(2));
        java.io.BufferedReader out = new java.io.BufferedReader(new java.io.InputStreamReader(child.process().getInputStream()));
        assertEquals("locked", out.readLine());
        assertTrue(JmhLock.held(lock), "held by the other process");
        assertNull(JmhLock.take(lock), "a run must not take it from the other process");
        child.process().getOutputStream().close();
        assertEquals(0, child.finish().exit());
        assertFalse(JmhLock.held(lock), "free once the other process ended");
    }

    @Test
    void theDefaultIsJmhsOwnLockFile() {
        assertEquals(Path.of(System.getProperty("java.io.tmpdir"), "jmh.lock"), JmhLock.defaultFile());
    }

    @Test
    void theHelpSaysWhatExitCodeOneMeans() {
        String help = PrmkitCliTest.run("help", "bench").out();
        assertTrue(help.matches("(?s).*\n  1 +the C reference could not be built, or another benchmark run holds\\s+JMH's lock\n.*"), help);
    }
}

package io.prmkit.dsl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** {@link Child}: the deadline of every process a test starts is enforced. Uses /bin/sh, as any Linux has. */
class ChildTest {

    @Test
    void aHangingChildIsKilledAndReportedWithinItsTimeout() throws IOException {
        long start = System.nanoTime();
        AssertionError e = assertThrows(AssertionError.class,
                () -> Child.run(Duration.ofSeconds(2), "/bin/sh", "-c", "echo started; exec sleep 600"));
        long took = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - start);
        assertTrue(e.getMessage().contains("did not finish within 2 s and was killed"), e.getMessage());
        assertTrue(e.getMessage().contains("started"), "what it printed before: " + e.getMessage());
        // 2 s of deadline; the rest is the kill and a loaded machine's scheduling, far below sleep's 600 s
        assertTrue(took < 60, "reported after " + took + " s");
    }

    @Test
    void aGrandchildHoldingTheOutputIsKilledToo() throws IOException {
        // the shell's child inherits standard output: killing the shell alone would leave the read hanging
        long start = System.nanoTime();
        AssertionError e = assertThrows(AssertionError.class,
                () -> Child.run(Duration.ofSeconds(2), "/bin/sh", "-c", "sleep 600 & sleep 600; wait"));
        assertTrue(e.getMessage().contains("was killed"), e.getMessage());
        assertTrue(TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - start) < 60);
    }

    @Test
    void aChildFillingBothPipesFinishes() throws IOException {
        // 1 MiB on each stream: more than a pipe holds, so reading one stream after the other would deadlock
        Child.Result r = Child.run(Duration.ofSeconds(120), "/bin/sh", "-c",
                "head -c 1048576 /dev/zero | tr '\\0' o; head -c 1048576 /dev/zero | tr '\\0' e >&2; exit 3");
        assertEquals(3, r.exit());
        assertEquals(1 << 20, r.stdoutBytes().length);
        assertEquals(1 << 20, r.stderrBytes().length);
        assertThrows(AssertionError.class, r::assertSuccess);
    }

    @Test
    void aChildTheTestReadsFromIsStillBounded() throws IOException {
        Child.Running running = Child.start(new ProcessBuilder(List.of("/bin/sh", "-c", "printf abc; exec sleep 600")), Duration.ofSeconds(2));
        assertEquals("abc", new String(running.process().getInputStream().readNBytes(3)));
        // this read blocks until the watchdog kills the child; then the stream ends
        assertEquals(-1, running.process().getInputStream().read());
        AssertionError e = assertThrows(AssertionError.class, running::finish);
        assertTrue(e.getMessage().contains("was killed"), e.getMessage());
        assertFalse(running.process().isAlive());
    }

    @Test
    void aQuickChildReturnsItsOutputAndExitCode() throws IOException {
        Child.Result r = Child.run(Duration.ofSeconds(60), List.of("/bin/sh", "-c", "echo out; echo err >&2"));
        assertEquals(0, r.assertSuccess().exit());
        assertEquals("out\n", r.stdout());
        assertEquals("err\n", r.stderr());
    }
}

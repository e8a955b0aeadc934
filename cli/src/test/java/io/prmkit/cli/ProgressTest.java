package io.prmkit.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The progress line: on a terminal after 2 s, redrawn in place, erased at the end; nothing otherwise. */
class ProgressTest {
    private static final long S = 1_000_000_000L;
    private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    private final PrintStream err = new PrintStream(bytes, true, StandardCharsets.UTF_8);
    private final AtomicLong now = new AtomicLong(100 * S);
    private final AtomicLong done = new AtomicLong();

    private String printed() {
        return bytes.toString(StandardCharsets.UTF_8);
    }

    @Test
    void onATerminalTheLineAppearsAfterTwoSecondsIsRewrittenInPlaceAndErasedAtTheEnd() {
        Progress p = Progress.manual(err, true, now::get, "demo", () -> done.get() + " frames checked");
        now.addAndGet(S);
        done.set(10);
        p.redraw();
        assertEquals("", printed(), "work shorter than 2 s prints nothing");
        now.addAndGet(S);
        p.redraw();
        done.set(20);
        now.addAndGet(63 * S);
        p.redraw();
        p.close();
        assertEquals("\rprmkit demo: 10 frames checked, 2 s\u001b[K"
                + "\rprmkit demo: 20 frames checked, 1:05\u001b[K"
                + "\r\u001b[K", printed());
        p.redraw();
        p.close();
        assertEquals("\rprmkit demo: 10 frames checked, 2 s\u001b[K\rprmkit demo: 20 frames checked, 1:05\u001b[K\r\u001b[K",
                printed(), "nothing after close");
    }

    @Test
    void notATerminalPrintsNothingHoweverLongTheWork() {
        Progress p = Progress.manual(err, false, now::get, "bench", () -> "round 1 of 5");
        now.addAndGet(3600 * S);
        p.redraw();
        p.above(() -> err.println("prmkit bench: round 2 of 5"));
        p.close();
        assertEquals("prmkit bench: round 2 of 5" + System.lineSeparator(), printed());
    }

    @Test
    void otherOutputOnStandardErrorIsPrintedOnAClearedLine() {
        Progress p = Progress.manual(err, true, now::get, "bench", () -> "round 1 of 5, tx-burst");
        now.addAndGet(3 * S);
        p.redraw();
        p.above(() -> err.print("prmkit bench: round 2 of 5\n"));
        p.close();
        assertEquals("\rprmkit bench: round 1 of 5, tx-burst, 3 s\u001b[K\r\u001b[Kprmkit bench: round 2 of 5\n", printed(),
                "erased before the other line; nothing left to erase at close");
    }

    @Test
    void closedBeforeTwoSecondsPrintsNothing() {
        Progress p = Progress.manual(err, true, now::get, "doc", () -> "compiling 3 files");
        now.addAndGet(S);
        p.redraw();
        p.close();
        assertEquals("", printed());
    }

    @Test
    void elapsedTime() {
        assertEquals("0 s", Progress.elapsed(999_999_999L));
        assertEquals("59 s", Progress.elapsed(59 * S));
        assertEquals("1:00", Progress.elapsed(60 * S));
        assertEquals("61:01", Progress.elapsed(3661 * S));
    }

    @Test
    void surefiresPipesAreNotTerminals() {
        // The forked test JVM's standard output and error are pipes to surefire, as in a script.
        assertFalse(Progress.isTerminal(1));
        assertFalse(Progress.isTerminal(2));
    }
}

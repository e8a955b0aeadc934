package io.prmkit.cli;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * One line on standard error, rewritten in place, while a long command works: shown only when
 * standard error is a terminal and only once the work has taken {@link #DELAY_NANOS} (2 s), erased
 * when the work ends. Piped or redirected, a command prints exactly what it printed before, so
 * scripts and the demo's last-line contract do not see it.
 *
 * <p>A daemon thread redraws the line every {@link #PERIOD_MILLIS} ms from a supplier the command
 * gives (counters it already keeps); the work itself does nothing for it.
 */
final class Progress implements AutoCloseable {
    /** Work shorter than this prints nothing. */
    static final long DELAY_NANOS = 2_000_000_000L;
    static final long PERIOD_MILLIS = 250;
    /** Carriage return, the text, then erase to the end of the line (ANSI EL), so a shorter text leaves no tail. */
    private static final String ERASE_TO_END = "\u001b[K";

    private final PrintStream err;
    private final boolean terminal;
    private final LongSupplier clock;
    private final long start;
    private final String prefix;
    private final Supplier<String> text;
    private final Thread ticker;
    private boolean shown;
    private boolean closed;

    private Progress(PrintStream err, boolean terminal, LongSupplier clock, String prefix, Supplier<String> text, boolean thread) {
        this.err = err;
        this.terminal = terminal;
        this.clock = clock;
        this.start = clock.getAsLong();
        this.prefix = prefix;
        this.text = text;
        if (terminal && thread) {
            ticker = Thread.ofPlatform().daemon().name("prmkit-progress").unstarted(this::tick);
            ticker.start();
        } else {
            ticker = null;
        }
    }

    /**
     * Starts a progress line for a command on this process's standard error, shown only if that is a
     * terminal.
     *
     * @param command the command's name, e.g. {@code demo}; the line starts with {@code prmkit demo: }
     * @param text what to show, called on the progress thread every {@link #PERIOD_MILLIS} ms
     * @return the progress line, to close when the work ends
     */
    static Progress start(String command, Supplier<String> text) {
        return start(command, true, text);
    }

    /**
     * As {@link #start(String, Supplier)}, shown only if {@code show} too (e.g. a command whose
     * standard output already shows its progress at the same terminal passes false then).
     *
     * @param command the command's name
     * @param show false to show nothing whatever standard error is
     * @param text what to show
     * @return the progress line, to close when the work ends
     */
    static Progress start(String command, boolean show, Supplier<String> text) {
        return new Progress(System.err, show && isTerminal(2), System::nanoTime, "prmkit " + command + ": ", text, true);
    }

    /** For tests: no thread; {@link #redraw()} draws as the thread would at {@code clock}'s time. */
    static Progress manual(PrintStream err, boolean terminal, LongSupplier clock, String command, Supplier<String> text) {
        return new Progress(err, terminal, clock, "prmkit " + command + ": ", text, false);
    }

    /** Draws the line if standard error is a terminal and the work has gone on long enough. */
    synchronized void redraw() {
        if (!terminal || closed) return;
        long elapsed = clock.getAsLong() - start;
        if (elapsed < DELAY_NANOS) return;
        err.print("\r" + prefix + text.get() + ", " + elapsed(elapsed) + ERASE_TO_END);
        err.flush();
        shown = true;
    }

    /**
     * Prints something else on standard error (through {@code print}) without garbling it: the line
     * is erased first and drawn again at the next tick.
     *
     * @param print what prints, and flushes, the other output
     */
    synchronized void above(Runnable print) {
        if (shown && !closed) {
            err.print("\r" + ERASE_TO_END);
            err.flush();
            shown = false;
        }
        print.run();
    }

    /** Stops redrawing and erases the line, so what the command prints next starts on a clean line. */
    @Override
    public void close() {
        synchronized (this) {
            if (closed) return;
            closed = true;
            if (shown) {
                err.print("\r" + ERASE_TO_END);
                err.flush();
            }
        }
        if (ticker != null) {
            ticker.interrupt();
            try {
                ticker.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private void tick() {
        try {
            while (!Thread.currentThread().isInterrupted()) {
                Thread.sleep(PERIOD_MILLIS);
                redraw();
            }
        } catch (InterruptedException e) {
            // closed
        }
    }

    /** {@code 7 s}, {@code 1:05}: seconds up to a minute, then minutes and seconds. */
    static String elapsed(long nanos) {
        long s = nanos / 1_000_000_000L;
        return s < 60 ? s + " s" : String.format(Locale.ROOT, "%d:%02d", s / 60, s % 60);
    }

    /**
     * Whether file descriptor {@code fd} (1 standard output, 2 standard error) is a terminal: on Linux
     * what {@code /proc/self/fd/N} links to (a pseudo-terminal or a console, not a pipe, a file or
     * {@code /dev/null}); elsewhere the JDK's console, which asks that of standard input and output.
     *
     * @param fd the file descriptor
     * @return whether it is a terminal
     */
    static boolean isTerminal(int fd) {
        Path fd2 = Path.of("/proc/self/fd/" + fd);
        if (Files.isSymbolicLink(fd2)) {
            try {
                String target = Files.readSymbolicLink(fd2).toString();
                return target.startsWith("/dev/pts/") || target.startsWith("/dev/tty") || target.startsWith("/dev/console");
            } catch (IOException | UnsupportedOperationException | SecurityException e) {
                return false;
            }
        }
        return System.console() != null && System.console().isTerminal();
    }
}

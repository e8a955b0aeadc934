package io.prmkit.dsl;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The one way tests start a process: with a deadline that is enforced. A watchdog kills the child
 * (and every process it started) when its time is up, and its standard output and error are read on
 * threads of their own, so neither a child that never exits nor one that fills a pipe while the test
 * waits for something else can hang the build.
 *
 * <p>{@link #run} is the usual call: start, read everything, wait, return the exit code and output;
 * a child past its deadline is killed and fails the test with what it printed so far.
 * {@link #start} is for tests that talk to the child while it runs (read the first bytes, then close
 * the pipe): the watchdog is armed from the start, so a blocking read returns (end of stream) once the
 * child has been killed, and {@link Running#finish()} reports the timeout.
 */
public final class Child {
    private Child() {}

    /** What a finished child did: its exit code, standard output and standard error (empty when redirected). */
    public record Result(List<String> command, int exit, byte[] stdoutBytes, byte[] stderrBytes) {
        public String stdout() {
            return new String(stdoutBytes, StandardCharsets.UTF_8);
        }

        public String stderr() {
            return new String(stderrBytes, StandardCharsets.UTF_8);
        }

        /** Standard output, then standard error: what a person would have seen. */
        public String output() {
            return stdout() + stderr();
        }

        /** Fails unless the child exited with 0, with its command line and the end of its output. */
        public Result assertSuccess() {
            if (exit != 0) throw new AssertionError(String.join(" ", command) + " exited with " + exit + ":\n" + tail(output()));
            return this;
        }
    }

    /** Starts the process of {@code pb} (its redirects as given) and waits for it at most {@code timeout}. */
    public static Result run(ProcessBuilder pb, Duration timeout) throws IOException {
        return start(pb, timeout).finish();
    }

    /** {@link #run(ProcessBuilder, Duration)} of a command, standard input empty, standard error separate. */
    public static Result run(Duration timeout, String... command) throws IOException {
        return run(new ProcessBuilder(command).redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null"))), timeout);
    }

    /** {@link #run(ProcessBuilder, Duration)} of a command, standard input empty, standard error separate. */
    public static Result run(Duration timeout, List<String> command) throws IOException {
        return run(timeout, command.toArray(String[]::new));
    }

    /** Starts the process with its watchdog armed; the caller must call {@link Running#finish()}. */
    public static Running start(ProcessBuilder pb, Duration timeout) throws IOException {
        return new Running(pb.command(), pb.start(), timeout);
    }

    /** A child that is running under its watchdog. */
    public static final class Running {
        private final List<String> command;
        private final Process process;
        private final Duration timeout;
        private final CompletableFuture<Void> watchdog;
        private volatile boolean killed;

        private Running(List<String> command, Process process, Duration timeout) {
            this.command = List.copyOf(command);
            this.process = process;
            this.timeout = timeout;
            this.watchdog = new CompletableFuture<>();
            this.watchdog.completeOnTimeout(null, timeout.toMillis(), TimeUnit.MILLISECONDS).thenRun(() -> {
                if (process.isAlive()) {
                    killed = true;
                    kill(process);
                }
            });
            process.onExit().thenRun(() -> watchdog.complete(null));
        }

        public Process process() {
            return process;
        }

        /**
         * Reads what is left of standard output and error (each on its own thread), waits for the
         * child, and returns its result; a child killed by the watchdog fails with its output so far.
         */
        public Result finish() {
            CompletableFuture<byte[]> out = drain(process.getInputStream());
            CompletableFuture<byte[]> err = drain(process.getErrorStream());
            try {
                // the watchdog ends the child by its deadline; the extra time is for the kill to take effect
                if (!process.waitFor(timeout.toMillis() + 30_000, TimeUnit.MILLISECONDS)) {
                    kill(process);
                    throw new AssertionError(describe() + " could not be killed");
                }
                // a grandchild the kill missed could still hold the pipes: bounded too
                byte[] o = out.get(30, TimeUnit.SECONDS);
                byte[] e = err.get(30, TimeUnit.SECONDS);
                if (killed) {
                    throw new AssertionError(describe() + " did not finish within " + seconds(timeout) + " and was killed; its output so far:\n"
                            + tail(new String(o, StandardCharsets.UTF_8) + new String(e, StandardCharsets.UTF_8)));
                }
                return new Result(command, process.exitValue(), o, e);
            } catch (InterruptedException ex) {
                kill(process);
                Thread.currentThread().interrupt();
                throw new AssertionError(describe() + ": interrupted while waiting (killed)", ex);
            } catch (ExecutionException | TimeoutException ex) {
                kill(process);
                throw new AssertionError(describe() + ": its output could not be read to the end", ex);
            } finally {
                watchdog.complete(null);
            }
        }

        private String describe() {
            String c = String.join(" ", command);
            return (c.length() > 300 ? c.substring(0, 300) + "..." : c);
        }
    }

    /** Kills the process and its descendants, children first, so none keeps a pipe open. */
    static void kill(Process p) {
        p.descendants().forEach(ProcessHandle::destroyForcibly);
        p.destroyForcibly();
    }

    private static CompletableFuture<byte[]> drain(InputStream in) {
        CompletableFuture<byte[]> f = new CompletableFuture<>();
        Thread t = new Thread(() -> {
            ByteArrayOutputStream buf = new ByteArrayOutputStream();
            byte[] chunk = new byte[8192];
            try (in) {
                for (int n; (n = in.read(chunk)) >= 0; ) buf.write(chunk, 0, n);
            } catch (IOException e) {
                // closed by the test (it read what it wanted) or by the kill: what was read stands
            } catch (UncheckedIOException e) {
                // same
            }
            f.complete(buf.toByteArray());
        }, "child-output");
        t.setDaemon(true);
        t.start();
        return f;
    }

    private static String seconds(Duration d) {
        return d.toMillis() % 1000 == 0 ? d.toSeconds() + " s" : d.toMillis() + " ms";
    }

    static String tail(String s) {
        return s.length() <= 4000 ? s : "..." + s.substring(s.length() - 4000);
    }
}

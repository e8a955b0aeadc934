package io.prmkit.doc;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.opentest4j.TestAbortedException;

/**
 * A real headless Chromium (Debian package {@code chromium}) for the browser tests. Missing, the
 * tests are skipped with one line saying what to install; under {@code CI=true} they fail, since
 * {@code .ci/run} installs it. {@code -Dprmkit.chromium} / {@code PRMKIT_CHROMIUM} names another binary.
 */
final class Chromium {
    /** Hard upper bound for one browser run; a hung browser fails the test instead of hanging the build. */
    private static final long TIMEOUT_SECONDS = 120;
    private static boolean announced;

    /** What a page run printed: the serialized DOM after load and scripts, and the browser's log. */
    record Result(String dom, String log) {
        /** Console messages and uncaught script errors, as Chromium logs them with --enable-logging=stderr. */
        List<String> consoleMessages() {
            return log.lines().filter(l -> l.contains(":CONSOLE")).toList();
        }
    }

    private final Path binary;

    private Chromium(Path binary) {
        this.binary = binary;
    }

    /** The browser, or the test is skipped (failed in CI). */
    static synchronized Chromium require() {
        Optional<Path> found = locate();
        if (found.isPresent()) return new Chromium(found.get());
        String message = "a headless Chromium (apt-get install chromium, or -Dprmkit.chromium=<binary>)";
        if ("true".equalsIgnoreCase(System.getenv("CI"))) {
            throw new IllegalStateException("missing " + message + " -- CI=true: the browser tests must run in CI, where .ci/run installs it");
        }
        if (!announced) {
            announced = true;
            System.out.println("[prmkit] SKIPPED: browser tests that need " + message);
        }
        throw new TestAbortedException("missing " + message);
    }

    private static Optional<Path> locate() {
        String configured = System.getProperty("prmkit.chromium", System.getenv("PRMKIT_CHROMIUM"));
        if (configured != null && !configured.isBlank()) {
            Path p = Path.of(configured);
            return Files.isExecutable(p) ? Optional.of(p) : Optional.empty();
        }
        for (String dir : System.getenv().getOrDefault("PATH", "/usr/bin:/bin").split(java.io.File.pathSeparator)) {
            for (String name : List.of("chromium", "chromium-browser", "google-chrome")) {
                Path p = Path.of(dir.isEmpty() ? "." : dir, name);
                if (Files.isExecutable(p)) return Optional.of(p);
            }
        }
        return Optional.empty();
    }

    /** Loads {@code url} in a fresh profile and returns the DOM once the page has loaded and its scripts ran. */
    Result dumpDom(String url, Path work, String... extraFlags) throws IOException, InterruptedException {
        Path profile = Files.createTempDirectory(work, "profile");
        Path out = work.resolve("dom-" + profile.getFileName() + ".html");
        Path log = work.resolve("log-" + profile.getFileName() + ".txt");
        List<String> cmd = new ArrayList<>(List.of(binary.toString(), "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--user-data-dir=" + profile, "--enable-logging=stderr", "--v=0", "--window-size=1400,1000"));
        cmd.addAll(List.of(extraFlags));
        cmd.add("--dump-dom");
        cmd.add(url);
        Process p = new ProcessBuilder(cmd).redirectOutput(out.toFile()).redirectError(log.toFile()).start();
        if (!p.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("chromium did not finish within " + TIMEOUT_SECONDS + " s: " + url);
        }
        String logText = Files.readString(log, StandardCharsets.UTF_8);
        if (p.exitValue() != 0) throw new AssertionError("chromium exited with " + p.exitValue() + " for " + url + ":\n" + logText);
        return new Result(Files.readString(out, StandardCharsets.UTF_8), logText);
    }
}

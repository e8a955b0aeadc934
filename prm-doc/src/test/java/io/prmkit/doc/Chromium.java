package io.prmkit.doc;

import io.prmkit.dsl.Child;
import io.prmkit.dsl.HostTools;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * A real headless Chromium (Debian package {@code chromium}) for the browser tests, found by
 * {@link HostTools}: missing, the tests are skipped with one line saying what to install; in CI they
 * fail, since {@code .ci/run} installs it. {@code -Dprmkit.chromium} / {@code PRMKIT_CHROMIUM} names another binary.
 */
final class Chromium {
    /** Hard upper bound for one browser run; a hung browser fails the test instead of hanging the build. */
    private static final long TIMEOUT_SECONDS = 120;

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

    /** The browser (HostTools finds it), or the test is skipped (failed in CI). */
    static Chromium require() {
        return new Chromium(HostTools.chromium());
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
        Child.Result r = Child.run(new ProcessBuilder(cmd).redirectOutput(out.toFile()).redirectError(log.toFile()),
                Duration.ofSeconds(TIMEOUT_SECONDS));
        String logText = Files.readString(log, StandardCharsets.UTF_8);
        if (r.exit() != 0) throw new AssertionError("chromium exited with " + r.exit() + " for " + url + ":\n" + logText);
        return new Result(Files.readString(out, StandardCharsets.UTF_8), logText);
    }
}

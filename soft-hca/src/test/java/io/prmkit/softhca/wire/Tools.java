package io.prmkit.softhca.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

/** Runs a system tool for a test: missing outside CI skips with one line; missing under CI=true fails. */
public final class Tools {
    private Tools() {}

    /**
     * Stdout of the command. A missing tool fails under CI=true; elsewhere it prints one line and
     * aborts the test (JUnit counts it as skipped, not passed).
     */
    public static String run(String... cmd) throws Exception {
        Process p;
        try {
            p = new ProcessBuilder(cmd).redirectErrorStream(false).start();
        } catch (java.io.IOException e) {
            if ("true".equals(System.getenv("CI"))) fail(cmd[0] + " is not installed, and CI must have it (.ci/run installs it): " + e.getMessage());
            System.out.println("SKIPPED: " + cmd[0] + " is not installed (apt-get install " + cmd[0] + "); the check that reads the pcap with it did not run");
            throw new org.opentest4j.TestAbortedException(cmd[0] + " is not installed");
        }
        p.getOutputStream().close();
        byte[] err = new byte[0];
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        err = p.getErrorStream().readAllBytes();
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), cmd[0] + " did not finish");
        assertEquals(0, p.exitValue(), cmd[0] + " failed: " + new String(err, StandardCharsets.UTF_8));
        return out;
    }
}

package io.prmkit.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.prmkit.cli.PrmkitCliTest.Run;
import org.junit.jupiter.api.Test;

/** Bad {@code bench} options are usage errors before anything is built or measured. */
class BenchOptionsTest {
    private static final String KNOWN = " (known: wqe-build, cqe-parse, tx-burst, rx-burst, loopback)\n";

    private static void assertUsage(String expected, String... args) {
        Run run = PrmkitCliTest.run(args);
        assertEquals(2, run.exitCode(), run.out() + run.err());
        assertEquals("", run.out(), "nothing ran");
        assertEquals(expected, run.err().replace("\r\n", "\n"));
    }

    @Test
    void casesMustNameKnownCases() {
        assertUsage("prmkit bench: unknown case frob in --cases" + KNOWN, "bench", "--cases", "tx-burst,frob");
        assertUsage("prmkit bench: unknown case frob, Loopback in --cases" + KNOWN, "bench", "--cases", "frob,Loopback");
        // an empty list used to measure nothing and exit 0
        assertUsage("prmkit bench: --cases names no case" + KNOWN, "bench", "--cases", ",,");
    }

    @Test
    void roundsMustBePositive() {
        assertUsage("prmkit bench: --rounds must be at least 1\n", "bench", "--rounds", "0");
    }
}

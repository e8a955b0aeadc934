package io.prmkit.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.prmkit.cli.PrmkitCliTest.Run;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code layout}, {@code diff} and {@code doc} compile a spec through the pipeline, as {@code check}
 * does (issue 36 item 10): what they say about a spec is what {@code check} says, and {@code doc},
 * which writes a page per structure, refuses what {@code check} refuses instead of failing part way.
 */
class OnePipelineTest {
    @TempDir
    Path tmp;

    private Path spec(String name, String text) throws IOException {
        return Files.writeString(tmp.resolve(name), text);
    }

    /** What check prints before its count line ("1 error", "0 errors, 1 warning"). */
    private static String diagnostics(Run check) {
        String err = check.err();
        return err.substring(0, err.lastIndexOf('\n', err.length() - 2) + 1);
    }

    /**
     * A structure name of 250 characters: check refuses it at its declaration (its class and page
     * names would pass the 255 bytes a file name holds). doc said so only when the write failed,
     * naming no declaration; now it gives check's diagnostic and writes nothing.
     */
    @Test
    void docRefusesWhatCheckRefusesWithChecksDiagnostic() throws IOException {
        Path p = spec("long.prm", "package acme;\nstruct r" + "x".repeat(249) + " size 0x4 {\n    0x00 [31:0] a;\n}\n");
        Run check = PrmkitCliTest.run("check", p.toString());
        assertEquals(1, check.exitCode(), check.err());
        assertTrue(check.err().startsWith(p + ":2:"), check.err());
        Path out = tmp.resolve("site");
        Run doc = PrmkitCliTest.run("doc", p.toString(), "-o", out.toString());
        assertEquals(1, doc.exitCode(), doc.err());
        assertEquals(diagnostics(check) + "prmkit doc: 1 error, nothing written\n", doc.err());
        assertFalse(Files.exists(out), "nothing written");
    }

    /** A warning check prints (a rule that reads no field) is printed by layout and diff too, the same lines; diff dropped it. */
    @Test
    void layoutAndDiffPrintChecksWarnings() throws IOException {
        Path old = spec("old.prm", "package acme;\nstruct a size 0x4 {\n    0x00 [31:0] x;\n}\n");
        Path now = spec("new.prm", "package acme;\nstruct a size 0x4 {\n    0x00 [31:0] x;\n    rule r: 1 \"m\";\n}\n");
        Run check = PrmkitCliTest.run("check", now.toString());
        assertEquals(0, check.exitCode(), check.err());
        assertTrue(check.err().contains(": warning: rule 'r' does not depend on any field"), check.err());
        Run layout = PrmkitCliTest.run("layout", now.toString());
        assertEquals(0, layout.exitCode(), layout.err());
        assertEquals(check.err(), layout.err());
        Run diff = PrmkitCliTest.run("diff", old.toString(), now.toString());
        assertEquals(0, diff.exitCode(), diff.err());
        assertEquals(check.err(), diff.err());
    }

    /** A spec with errors: layout and diff print check's diagnostics and count, then their own line. */
    @Test
    void layoutAndDiffPrintChecksErrors() throws IOException {
        Path good = spec("good.prm", "package acme;\nstruct a size 0x4 {\n    0x00 [31:0] x;\n}\n");
        Path bad = spec("bad.prm", "package acme;\nstruct a size 0x4 {\n    0x00 [31:0] x;\n    0x00 [7:0] y;\n}\n");
        Run check = PrmkitCliTest.run("check", bad.toString());
        assertEquals(1, check.exitCode());
        Run layout = PrmkitCliTest.run("layout", bad.toString());
        assertEquals(1, layout.exitCode());
        assertEquals(check.err(), layout.err());
        Run diff = PrmkitCliTest.run("diff", good.toString(), bad.toString());
        assertEquals(1, diff.exitCode());
        assertEquals(check.err() + "prmkit diff: " + bad + ": the spec does not compile (1 error)\n", diff.err());
    }
}

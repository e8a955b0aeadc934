package io.prmkit.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CheckCommandTest {
    @TempDir
    Path dir;

    @Test
    void javaNameCollisionsTheGeneratorWouldRefuseAreReportedWithTheirPlace() throws IOException {
        Path f = dir.resolve("twins.prm");
        Files.writeString(f, "package p;\nstruct a {\n    0x00 [31:16] clear;\n    0x00 [15:0] clear_;\n}\n");
        PrmkitCliTest.Run run = PrmkitCliTest.run("check", f.toString());
        assertEquals(1, run.exitCode(), run.err());
        assertEquals(f + ":4:17: error: members 'clear' and 'clear_' of a both become Java accessors named clear_; rename one\n"
                + "    0x00 [15:0] clear_;\n"
                + "                ^\n"
                + f + ":3:18: note: 'clear' declared here\n"
                + "    0x00 [31:16] clear;\n"
                + "                 ^\n"
                + "1 error\n", run.err());
        PrmkitCliTest.Run gen = PrmkitCliTest.run("generate", f.toString(), "-o", dir.resolve("out").toString());
        assertEquals(1, gen.exitCode(), gen.err());
        assertEquals(true, gen.err().startsWith(f + ":4:17: error: members 'clear' and 'clear_'"), gen.err());
        assertEquals(false, Files.exists(dir.resolve("out")), "nothing written");
    }

    @Test
    void validSpecsPrintNothing() throws IOException {
        Files.writeString(dir.resolve("a.prm"), "package p;\nstruct a { 0x00 [31:0] x; }\n");
        PrmkitCliTest.Run run = PrmkitCliTest.run("check", dir.toString());
        assertEquals(0, run.exitCode(), run.err());
        assertEquals("", run.out());
        assertEquals("", run.err());
    }

    @Test
    void errorsAreRenderedWithSourceLineAndCaretAndExitOne() throws IOException {
        Path sub = Files.createDirectories(dir.resolve("specs"));
        Files.writeString(sub.resolve("b.prm"), "package p;\nstruct a {\n\t0x00 [31:16] x;\n\t0x00 [20:0] y;\n}\n");
        Files.writeString(sub.resolve("c.prm"), "package p;\nstruct c { 0x00 [8:23] z; }\n");
        PrmkitCliTest.Run run = PrmkitCliTest.run("check", sub.toString());
        assertEquals(1, run.exitCode());
        assertEquals("", run.out());
        String b = sub.resolve("b.prm").toString();
        String c = sub.resolve("c.prm").toString();
        assertEquals(b + ":4:14: error: 'y' overlaps 'x' at 0x00 [20:16]\n"
                + "\t0x00 [20:0] y;\n"
                + "\t            ^\n"
                + b + ":3:15: note: 'x' is declared here\n"
                + "\t0x00 [31:16] x;\n"
                + "\t             ^\n"
                + c + ":2:17: error: bit range [8:23] is reversed: the high bit comes first, [23:8]\n"
                + "struct c { 0x00 [8:23] z; }\n"
                + "                ^\n"
                + "2 errors\n", run.err());
    }

    @Test
    void missingFileIsAnErrorAtThatPath() {
        PrmkitCliTest.Run run = PrmkitCliTest.run("check", dir.resolve("nope.prm").toString());
        assertEquals(1, run.exitCode());
        assertEquals(dir.resolve("nope.prm") + ": error: no such file or folder\nprmkit check: 1 error reading the specs\n", run.err());
    }

    @Test
    void noSpecMeansTheBundledSpec() {
        PrmkitCliTest.Run run = PrmkitCliTest.run("check");
        assertEquals(0, run.exitCode(), run.err());
        assertFalse(run.err().contains("error"), run.err());
    }
}

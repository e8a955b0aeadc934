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

class DocCommandTest {
    @TempDir
    Path tmp;

    @Test
    void writesTheBundledSpecsReference() throws IOException {
        Path out = tmp.resolve("site");
        Run run = PrmkitCliTest.run("doc", "-o", out.toString());
        assertEquals(0, run.exitCode(), run.err());
        assertEquals("", run.err());
        assertTrue(run.out().contains(" files written to " + out), run.out());
        String index = Files.readString(out.resolve("index.html"));
        assertTrue(index.contains("<title>mlx5 PRM reference</title>"), index);
        String eth = Files.readString(out.resolve("structs/mlx5.wqe_eth_seg.html"));
        assertTrue(eth.contains("data-field=\"insert_vlan\" data-hi=\"31\" data-lo=\"31\""), "insert_vlan cell");
        assertTrue(Files.isRegularFile(out.resolve("enums/mlx5.cqe_error_syndrome.html")));
    }

    @Test
    void aSpecWithErrorsWritesNothing() throws IOException {
        Path spec = tmp.resolve("bad.prm");
        Files.writeString(spec, "package acme;\nstruct r size 0x4 {\n    0x00 [31:0] a;\n    0x00 [7:0] b;\n}\n");
        Path out = tmp.resolve("site");
        Run run = PrmkitCliTest.run("doc", spec.toString(), "-o", out.toString(), "--title", "acme");
        assertEquals(1, run.exitCode());
        assertTrue(run.err().contains("bad.prm:4:"), run.err());
        assertTrue(run.err().contains("prmkit doc: 1 error, nothing written"), run.err());
        assertFalse(Files.exists(out));
    }

    @Test
    void anOutputThatIsAFileIsOneLineAndWritesNothing() throws IOException {
        Path file = tmp.resolve("site");
        Files.writeString(file, "mine");
        Run run = PrmkitCliTest.run("doc", "-o", file.toString());
        assertEquals(1, run.exitCode());
        assertEquals("", run.out());
        assertEquals("prmkit doc: cannot write to " + file + ": is a file, not a folder; nothing written\n", run.err().replace("\r\n", "\n"));
        assertEquals("mine", Files.readString(file));
        try (var left = Files.list(tmp)) {
            assertEquals(1, left.count(), "no temporary file beside it");
        }
    }

    /** A folder where a page must go: named, and the site is as it was; pages get the permissions of a plain write. */
    @Test
    void aBlockedPageLeavesTheSiteAsItWas() throws IOException {
        Path out = tmp.resolve("site");
        Path spec = tmp.resolve("s.prm");
        Files.writeString(spec, "package acme;\nstruct r size 0x4 {\n    0x00 [31:0] a;\n}\nstruct s size 0x4 {\n    0x00 [31:0] b;\n}\n");
        assertEquals(0, PrmkitCliTest.run("doc", spec.toString(), "-o", out.toString()).exitCode());
        Path plain = Files.writeString(tmp.resolve("plain"), "x");
        assertEquals(Files.getPosixFilePermissions(plain), Files.getPosixFilePermissions(out.resolve("index.html")));
        String index = Files.readString(out.resolve("index.html"));
        Files.delete(out.resolve("structs/acme.s.html"));
        Files.createDirectories(out.resolve("structs/acme.s.html/mine"));

        Files.writeString(spec, "package acme;\nstruct r size 0x4 {\n    0x00 [31:0] a2;\n}\nstruct s size 0x4 {\n    0x00 [31:0] b2;\n}\n");
        Run run = PrmkitCliTest.run("doc", spec.toString(), "-o", out.toString());
        assertEquals(1, run.exitCode());
        assertEquals("prmkit doc: cannot write " + out.resolve("structs/acme.s.html") + ": is a folder, not a file; nothing written\n",
                run.err().replace("\r\n", "\n"));
        assertEquals(index, Files.readString(out.resolve("index.html")));
        try (var left = Files.walk(out)) {
            assertEquals(java.util.List.of(), left.filter(p -> p.getFileName().toString().endsWith(".tmp")).toList());
        }
    }

    @Test
    void aMissingSpecIsOneLine() {
        Run run = PrmkitCliTest.run("doc", tmp.resolve("nope.prm").toString(), "-o", tmp.resolve("site").toString());
        assertEquals(1, run.exitCode());
        assertEquals(tmp.resolve("nope.prm") + ": error: no such file or folder\nprmkit doc: 1 error reading the specs\n",
                run.err().replace("\r\n", "\n"));
    }

    @Test
    void diffAsHtmlMarksTheChangedFields() throws IOException {
        Path a = tmp.resolve("a.prm");
        Path b = tmp.resolve("b.prm");
        Files.writeString(a, "package acme;\nstruct r size 0x4 {\n    0x00 [31:16] a;\n    0x00 [15:0] b;\n}\n");
        Files.writeString(b, "package acme;\nstruct r size 0x4 {\n    0x00 [31:16] a;\n    0x00 [15:8] b;\n    0x00 [7:0] c;\n}\n");
        Run html = PrmkitCliTest.run("diff", "--format", "html", a.toString(), b.toString());
        Run text = PrmkitCliTest.run("diff", a.toString(), b.toString());
        assertEquals(text.exitCode(), html.exitCode(), "the exit code does not depend on the format");
        assertEquals("", html.err());
        assertTrue(html.out().startsWith("<!DOCTYPE html>"), html.out());
        assertTrue(html.out().contains("<td class=\"f resized\" colspan=\"8\" data-field=\"b\""), html.out());
        assertTrue(html.out().contains("<td class=\"f added\" colspan=\"8\" data-field=\"c\""), html.out());
        assertTrue(html.out().endsWith("</html>\n"));
    }
}

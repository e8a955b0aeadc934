package io.prmkit.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.prmkit.cli.PrmkitCliTest.Run;
import io.prmkit.dsl.HostTools;
import io.prmkit.pipeline.Inputs;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Unreadable, odd and hostile input: every command says where and why, in words. */
class InputProblemsTest {
    @TempDir
    Path dir;

    private static final String OK = "package p;\nstruct a { 0x00 [31:0] x; }\n";

    private Path latin1() throws IOException {
        // "caf\u00e9" in ISO-8859-1: byte 0xe9 is not UTF-8
        return Files.write(dir.resolve("latin1.prm"), "package p;\n// caf\u00e9\n".getBytes(StandardCharsets.ISO_8859_1));
    }

    @Test
    void notUtf8IsAnErrorAtTheByteInEveryCommand() throws IOException {
        Path f = latin1();
        String expected = f + ":2:7: error: not valid UTF-8 (byte 0xe9)\n";
        Run check = PrmkitCliTest.run("check", f.toString());
        assertEquals(1, check.exitCode());
        assertEquals(expected + "prmkit check: 1 error reading the specs\n", check.err());

        Run diff = PrmkitCliTest.run("diff", f.toString(), f.toString());
        assertEquals(1, diff.exitCode());
        assertEquals(expected, diff.err());

        Path h = Files.write(dir.resolve("mlx5_ifc.h"), "/* caf\u00e9 */\n".getBytes(StandardCharsets.ISO_8859_1));
        Run imp = PrmkitCliTest.run("import-ifc", h.toString(), "-o", dir.resolve("out").toString());
        assertEquals(1, imp.exitCode());
        assertEquals(h + ":1:7: error: not valid UTF-8 (byte 0xe9)\nprmkit import-ifc: 1 error reading the headers\n", imp.err());
        assertFalse(Files.exists(dir.resolve("out")));
    }

    @Test
    void aFileNamedTwiceOrWithItsFolderIsReadOnce() throws IOException {
        Path sub = Files.createDirectories(dir.resolve("specs"));
        Path a = Files.writeString(sub.resolve("a.prm"), OK);
        Run twice = PrmkitCliTest.run("check", a.toString(), a.toString());
        assertEquals(0, twice.exitCode(), twice.err());
        assertEquals("", twice.err());
        Run withFolder = PrmkitCliTest.run("check", sub.toString(), a.toString());
        assertEquals(0, withFolder.exitCode(), withFolder.err());
        Run dotted = PrmkitCliTest.run("check", a.toString(), sub.resolve("../specs/a.prm").toString());
        assertEquals(0, dotted.exitCode(), dotted.err());
    }

    @Test
    void aLeadingByteOrderMarkIsDropped() throws IOException {
        Path f = Files.writeString(dir.resolve("bom.prm"), "\uFEFF" + OK);
        Run run = PrmkitCliTest.run("check", f.toString());
        assertEquals(0, run.exitCode(), run.err());
        assertEquals("", run.err());
    }

    @Test
    void aLoneCarriageReturnIsALineBreak() throws IOException {
        Path f = Files.writeString(dir.resolve("cr.prm"), "package p;\rstruct a {\r    0x00 [8:23] x;\r}\r");
        Run run = PrmkitCliTest.run("check", f.toString());
        assertEquals(1, run.exitCode());
        assertTrue(run.err().startsWith(f + ":3:10: error: bit range [8:23] is reversed"), run.err());
        assertTrue(run.err().contains("\n    0x00 [8:23] x;\n         ^\n"), run.err());
    }

    @Test
    void anEmptyFolderIsNamedAsAPathNotAJavaList() throws IOException {
        Path empty = Files.createDirectories(dir.resolve("emptydir"));
        Run run = PrmkitCliTest.run("check", empty.toString());
        assertEquals(1, run.exitCode());
        assertEquals(empty + ": error: no .prm files in this folder\nprmkit check: 1 error reading the specs\n", run.err());
    }

    @Test
    void aFolderWhereAFileIsNeededIsSaidSo() throws IOException {
        Path folder = Files.createDirectories(dir.resolve("headers.h"));
        Run run = PrmkitCliTest.run("import-ifc", folder.toString(), "-o", dir.resolve("out").toString());
        assertEquals(1, run.exitCode());
        assertEquals(folder + ": error: is a folder, not a file\nprmkit import-ifc: 1 error reading the headers\n", run.err());
    }

    @Test
    void aSymbolicLinkLoopIsNotCalledMissing() throws IOException {
        Path loop = dir.resolve("loop.prm");
        Files.createSymbolicLink(loop, loop.getFileName());
        Run run = PrmkitCliTest.run("check", loop.toString());
        assertEquals(1, run.exitCode());
        assertEquals(loop + ": error: symbolic link loop\nprmkit check: 1 error reading the specs\n", run.err());
    }

    /**
     * An output that is a symbolic link loop, or lies below one: one sentence naming the loop, for
     * every command that writes (issue 36 item 7; generate said "cannot write to loop: /tmp/.../loop").
     */
    @Test
    void anOutputThatIsASymbolicLinkLoopIsSaidSo() throws IOException {
        Path loop = dir.resolve("loop");
        Files.createSymbolicLink(loop, loop.getFileName());
        Path spec = Files.writeString(dir.resolve("a.prm"), OK);
        Path header = Files.writeString(dir.resolve("mlx5_ifc.h"), "struct mlx5_ifc_a_bits {\n\tu8 x[0x20];\n};\n");
        for (String cmd : List.of("generate", "doc", "import-ifc")) {
            Run run = PrmkitCliTest.run(cmd, cmd.equals("import-ifc") ? header.toString() : spec.toString(), "-o", loop.toString());
            assertEquals(1, run.exitCode(), cmd + ": " + run.err());
            assertEquals("prmkit " + cmd + ": cannot write to " + loop + ": symbolic link loop; nothing written\n", run.err(), cmd);
            Path below = loop.resolve("sub");
            run = PrmkitCliTest.run(cmd, cmd.equals("import-ifc") ? header.toString() : spec.toString(), "-o", below.toString());
            assertEquals(1, run.exitCode(), cmd + ": " + run.err());
            assertEquals("prmkit " + cmd + ": cannot write to " + below + ": " + loop + " is a symbolic link loop; nothing written\n", run.err(), cmd);
        }
        Run demo = PrmkitCliTest.run("demo", "--packets", "32", "--pcap", loop.toString());
        assertEquals(1, demo.exitCode(), demo.err());
        assertEquals(loop + ": error: cannot write: symbolic link loop\n", demo.err());
    }

    @Test
    void aFileOverTheSizeLimitIsRejectedUpFront() throws IOException {
        Path big = dir.resolve("big.prm");
        try (var out = Files.newOutputStream(big)) {
            out.write(new byte[(int) Inputs.MAX_FILE_BYTES + 1]);
        }
        Run run = PrmkitCliTest.run("check", big.toString());
        assertEquals(1, run.exitCode());
        assertEquals(big + ": error: larger than 8 MiB, the limit for one input file (real specs and headers are well under 1 MiB)\n"
                + "prmkit check: 1 error reading the specs\n", run.err());
    }

    @Test
    void anEndlessDeviceStopsAtTheSizeLimit() {
        Path zero = Path.of("/dev/zero");
        HostTools.requireSystem(Files.isReadable(zero), "/dev/zero", "an input with no end");
        Run run = PrmkitCliTest.run("check", zero.toString());
        assertEquals(1, run.exitCode());
        assertTrue(run.err().startsWith("/dev/zero: error: larger than 8 MiB"), run.err());
    }

    @Test
    void messagesNameNoJavaExceptions() throws IOException {
        Path blocked = Files.writeString(dir.resolve("blocked"), "a file");
        Path spec = Files.writeString(dir.resolve("a.prm"), OK);
        Run run = PrmkitCliTest.run("generate", spec.toString(), "-o", blocked.resolve("out").toString());
        assertEquals(1, run.exitCode());
        assertFalse(run.err().contains("Exception"), run.err());
        // the path that blocked, not the output folder
        assertEquals("prmkit generate: cannot write " + blocked + ": is a file, not a folder; nothing written\n", run.err());
    }

    static long count(Path root) throws IOException {
        try (Stream<Path> s = Files.walk(root)) {
            return s.filter(Files::isRegularFile).count();
        }
    }
}

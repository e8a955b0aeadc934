package io.prmkit.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.prmkit.cli.PrmkitCliTest.Run;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class GenerateCommandTest {
    static final String SPEC = """
            package mlx5;

            enum send_wqe_opcode width 8 {
                NOP = 0x00 "No operation";
                SEND = 0x0a "Send";
            }

            /// Control segment: the first 16 bytes of every send WQE.
            struct wqe_ctrl_seg size 0x10 {
                0x00 [31:24] opc_mod                          "Opcode modifier";
                0x00 [23:8]  wqe_index                        "WQE counter of this WQE";
                0x00 [7:0]   opcode    enum send_wqe_opcode   "What the WQE does";
                0x04 [31:8]  qpn                              "Send queue number";
                0x04 [7:6]   reserved;
                0x04 [5:0]   ds        range 1..63            "WQE size in 16-byte units";
                0x08 [31:0]  reserved;
                0x0c         imm : u32                        "Immediate data";
            }
            """;

    @TempDir
    Path tmp;

    private Path spec(String name, String text) throws IOException {
        Path p = tmp.resolve(name);
        Files.writeString(p, text);
        return p;
    }

    private static List<Path> files(Path dir) throws IOException {
        if (!Files.exists(dir)) return List.of();
        try (Stream<Path> s = Files.walk(dir)) {
            return s.filter(Files::isRegularFile).sorted().toList();
        }
    }

    @Test
    void generatesAccessorsAndPrintsASummary() throws IOException {
        Path spec = spec("wqe.prm", SPEC);
        Path out = tmp.resolve("out");
        Run run = PrmkitCliTest.run("generate", spec.toString(), "-o", out.toString(), "--package", "io.example");
        assertEquals(0, run.exitCode(), run.err());
        assertEquals("", run.err());
        assertEquals("1 structure, 6 fields, 1 enum, 3 files written to " + out + "\n", run.out().replace("\r\n", "\n"));
        assertEquals(List.of(
                out.resolve(".prmkit-generated"),
                out.resolve("io/example/mlx5/PrmField.java"),
                out.resolve("io/example/mlx5/SendWqeOpcode.java"),
                out.resolve("io/example/mlx5/WqeCtrlSeg.java")), files(out));
        String ctrl = Files.readString(out.resolve("io/example/mlx5/WqeCtrlSeg.java"));
        assertTrue(ctrl.startsWith("package io.example.mlx5;"), ctrl);
        assertTrue(ctrl.contains("\nimport io.prmkit.layout.PrmLayout;\n"), "the support class comes from the prmkit-layout jar");
        assertTrue(ctrl.contains("public static int wqe_index(MemorySegment s, long offset)"), ctrl);
        assertTrue(ctrl.contains("spec " + spec + ":10"), "javadoc cites the spec line");

        Run again = PrmkitCliTest.run("generate", spec.toString(), "-o", out.toString(), "--package", "io.example");
        assertEquals(0, again.exitCode(), again.err());
        assertTrue(again.out().contains("0 files written to " + out + " (3 unchanged)"), again.out());
    }

    @Test
    void specErrorsArePrintedWithLocationsAndNothingIsWritten() throws IOException {
        Path spec = spec("bad.prm", "package mlx5;\nstruct s size 4 {\n    0x00 [31:0] a;\n    0x00 [7:0] b;\n}\n");
        Path out = tmp.resolve("out");
        Run run = PrmkitCliTest.run("generate", spec.toString(), "-o", out.toString());
        assertEquals(1, run.exitCode());
        assertTrue(run.err().startsWith(spec + ":4:"), run.err());
        assertTrue(run.err().contains("error: "), run.err());
        assertTrue(run.err().contains("    0x00 [7:0] b;\n"), run.err());
        assertTrue(run.err().endsWith("nothing written\n"), run.err());
        assertFalse(run.err().contains("Exception"), run.err());
        assertEquals("", run.out());
        assertEquals(List.of(), files(out));
    }

    @Test
    void missingSpecFileIsAOneLineError() {
        Run run = PrmkitCliTest.run("generate", tmp.resolve("nope.prm").toString(), "-o", tmp.resolve("out").toString());
        assertEquals(1, run.exitCode());
        assertEquals(tmp.resolve("nope.prm") + ": error: no such file or folder\nprmkit generate: 1 error reading the specs\n", run.err());
    }

    @Test
    void badPackageIsAUsageError() throws IOException {
        Run run = PrmkitCliTest.run("generate", spec("wqe.prm", SPEC).toString(), "-o", tmp.toString(), "--package", "io.class");
        assertEquals(2, run.exitCode());
        assertEquals("prmkit generate: --package: not a valid Java package: io.class\nRun 'prmkit help generate' for usage.\n", run.err());
    }

    @Test
    void outputIsRequired() {
        Run run = PrmkitCliTest.run("generate");
        assertEquals(2, run.exitCode());
        assertTrue(run.err().startsWith("prmkit generate: Missing required option: '--output=DIR'"), run.err());
    }

    @Test
    void aRenamedStructsOldClassIsDeleted() throws IOException {
        Path spec = spec("s.prm", "package p;\nstruct old_name { 0x00 [31:0] x; }\n");
        Path out = tmp.resolve("out");
        assertEquals(0, PrmkitCliTest.run("generate", spec.toString(), "-o", out.toString()).exitCode());
        assertTrue(Files.exists(out.resolve("p/OldName.java")));
        Path mine = Files.writeString(out.resolve("p/Mine.java"), "package p; class Mine {}\n");

        Files.writeString(spec, "package p;\nstruct new_name { 0x00 [31:0] x; }\n");
        Run run = PrmkitCliTest.run("generate", spec.toString(), "-o", out.toString());
        assertEquals(0, run.exitCode(), run.err());
        assertTrue(run.out().contains("1 file written to " + out + " (1 unchanged, 1 stale deleted)"), run.out()); // PrmField unchanged
        assertFalse(Files.exists(out.resolve("p/OldName.java")));
        assertTrue(Files.exists(out.resolve("p/NewName.java")));
        assertTrue(Files.exists(mine), "files prmkit did not generate stay");
    }

    /** A write that fails halfway leaves no partial output: package a is not written when package b cannot be. */
    @Test
    void aFailedWriteLeavesNothingBehind() throws IOException {
        Path a = spec("a.prm", "package a;\nstruct s { 0x00 [31:0] x; }\n");
        Path b = spec("b.prm", "package b;\nstruct t { 0x00 [31:0] y; }\n");
        Path out = Files.createDirectories(tmp.resolve("out"));
        Files.writeString(out.resolve("b"), "a file where package b's folder must go");
        Run run = PrmkitCliTest.run("generate", a.toString(), b.toString(), "-o", out.toString());
        assertEquals(1, run.exitCode());
        assertTrue(run.err().endsWith("is a file, not a folder; nothing written\n"), run.err());
        assertEquals(List.of(out.resolve("b")), files(out));
    }

    /**
     * A folder where a changed generated file must go: the error names that folder, and the output is
     * as it was (the other changed class not renamed into place, the manifest unchanged, no .tmp file).
     */
    @Test
    void aBlockedFileLeavesTheOutputAsItWasAndIsNamed() throws IOException {
        Path spec = spec("s.prm", "package p;\nstruct a { 0x00 [31:0] x; }\nstruct z { 0x00 [31:0] y; }\n");
        Path out = tmp.resolve("out");
        assertEquals(0, PrmkitCliTest.run("generate", spec.toString(), "-o", out.toString()).exitCode());
        String a = Files.readString(out.resolve("p/A.java"));
        String manifest = Files.readString(out.resolve(".prmkit-generated"));
        Files.delete(out.resolve("p/Z.java"));
        Files.createDirectories(out.resolve("p/Z.java/mine"));

        Files.writeString(spec, "package p;\nstruct a { 0x00 [31:0] x2; }\nstruct z { 0x00 [31:0] y2; }\nstruct n { 0x00 [31:0] w; }\n");
        Run run = PrmkitCliTest.run("generate", spec.toString(), "-o", out.toString());
        assertEquals(1, run.exitCode(), run.out());
        assertEquals("prmkit generate: cannot write " + out.resolve("p/Z.java") + ": is a folder, not a file; nothing written\n",
                run.err().replace("\r\n", "\n"));
        assertEquals(a, Files.readString(out.resolve("p/A.java")));
        assertEquals(manifest, Files.readString(out.resolve(".prmkit-generated")));
        assertEquals(List.of(out.resolve(".prmkit-generated"), out.resolve("p/A.java"), out.resolve("p/PrmField.java")), files(out));
    }

    /** Generated files get the permissions a plain write gives (umask applied), not 0600. */
    @Test
    void generatedFilesGetThePermissionsOfAPlainWrite() throws IOException {
        Path plain = Files.writeString(tmp.resolve("plain"), "x");
        Path out = tmp.resolve("out");
        assertEquals(0, PrmkitCliTest.run("generate", spec("wqe.prm", SPEC).toString(), "-o", out.toString()).exitCode());
        for (Path f : files(out)) assertEquals(Files.getPosixFilePermissions(plain), Files.getPosixFilePermissions(f), f.toString());
    }

    @Test
    void headersAreImportedAndGenerated() throws IOException {
        Path h = spec("mlx5_ifc.h", "struct mlx5_ifc_thing_bits {\n\tu8         opcode[0x10];\n\tu8         reserved_at_10[0x10];\n};\n");
        Path out = tmp.resolve("out");
        Run run = PrmkitCliTest.run("generate", "--headers", h.toString(), "-o", out.toString());
        assertEquals(0, run.exitCode(), run.err());
        assertTrue(run.out().startsWith("1 structure, 1 field, 0 enums"), run.out());
        assertTrue(Files.exists(out.resolve("mlx5/Thing.java")), files(out).toString());
    }
}

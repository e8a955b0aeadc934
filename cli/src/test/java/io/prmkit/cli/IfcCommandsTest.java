package io.prmkit.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.prmkit.cli.PrmkitCliTest.Run;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class IfcCommandsTest {

    @TempDir
    Path dir;

    private static final String HEADER = """
            enum {
            	MLX5_CQC_STATUS_OK = 0x0,
            	MLX5_CQC_STATUS_CQ_OVERFLOW = 0x9,
            };
            struct mlx5_ifc_cqc_bits {
            	u8         status[0x4];
            	u8         reserved_at_4[0x1c];
            	u8         size[0x20];
            };
            """;

    private Path write(String name, String text) throws Exception {
        Path p = dir.resolve(name);
        Files.createDirectories(p.getParent());
        Files.writeString(p, text);
        return p;
    }

    @Test
    void importWritesCheckedPrmFiles() throws Exception {
        Path h = write("mlx5_ifc.h", HEADER);
        Path out = dir.resolve("out");
        Run run = PrmkitCliTest.run("import-ifc", h.toString(), "-o", out.toString());
        assertEquals(0, run.exitCode(), run.err());
        assertEquals("wrote " + out.resolve("mlx5_ifc.prm") + "\n"
                + "1 struct, 0 unions, 2 named fields, 1 reserved range, 1 enum, 0 constants; 0 warnings, 0 notes\n", run.out());
        assertTrue(Files.readString(out.resolve("mlx5_ifc.prm")).contains("struct cqc size 0x8 {\n    status : 0x4;\n"));
        // the permissions a plain write gives (umask applied), not a temporary file's 0600
        Path plain = write("plain", "x");
        assertEquals(Files.getPosixFilePermissions(plain), Files.getPosixFilePermissions(out.resolve("mlx5_ifc.prm")));
    }

    @Test
    void untranslatableHeaderIsReportedWithItsLineAndNothingIsWritten() throws Exception {
        Path h = write("bad.h", "struct mlx5_ifc_a_bits {\n\tu8 a[0x20];\n\tint b;\n};\n");
        Path out = dir.resolve("out");
        Run run = PrmkitCliTest.run("import-ifc", h.toString(), "-o", out.toString());
        assertEquals(1, run.exitCode());
        assertEquals(h + ":3:2: error: unsupported member starting with 'int' (expected u8 name[bits], struct or union)\n"
                + "\tint b;\n\t^\n"
                + "prmkit import-ifc: 1 error; nothing written\n", run.err());
        assertFalse(Files.exists(out));
    }

    @Test
    void aConstructWithoutTranslationIsRefusedAtItsColumnAndNothingIsWritten() throws Exception {
        Path h = write("mlx5_ifc.h", HEADER + "struct mlx5_ifc_eqc_bits {\n\tu8         n[0x20];\n} __aligned(8);\n");
        Path out = dir.resolve("out");
        Run run = PrmkitCliTest.run("import-ifc", h.toString(), "-o", out.toString());
        assertEquals(1, run.exitCode(), run.err());
        assertTrue(run.err().startsWith(h + ":12:3: error: attribute __aligned(8) after mlx5_ifc_eqc_bits may change the layout"), run.err());
        assertTrue(run.err().contains("\n} __aligned(8);\n  ^\n"), run.err());
        assertTrue(run.err().endsWith("prmkit import-ifc: 1 error; nothing written\n"), run.err());
        assertFalse(Files.exists(out));

        // the newer-header shape: a flexible array beside a fixed alternative of a trailing union
        Path newer = write("new/mlx5_ifc.h", HEADER + """
                struct mlx5_ifc_out_bits {
                	u8         n[0x20];
                	union {
                		u8 reserved_at_20[0x40];
                		DECLARE_FLEX_ARRAY(struct mlx5_ifc_cqc_bits, cqs);
                	};
                };
                """);
        Run ok = PrmkitCliTest.run("import-ifc", newer.toString(), "-o", out.toString());
        assertEquals(0, ok.exitCode(), ok.err());
        assertTrue(Files.readString(out.resolve("mlx5_ifc.prm")).contains("        cqs : cqc[];\n"));
    }

    @Test
    void importOfAMissingHeader() {
        Run run = PrmkitCliTest.run("import-ifc", dir.resolve("nope.h").toString(), "-o", dir.toString());
        assertEquals(1, run.exitCode());
        assertEquals(dir.resolve("nope.h") + ": error: no such file or folder\nprmkit import-ifc: 1 error reading the headers\n", run.err());
    }

    @Test
    void diffExitCodesTellBreakingFromAdditive() throws Exception {
        Path a = write("a/mlx5_ifc.h", HEADER);
        Path additive = write("b/mlx5_ifc.h", HEADER.replace("u8         reserved_at_4[0x1c];",
                "u8         new_bit[0x1];\n\tu8         reserved_at_5[0x1b];"));
        Path breaking = write("c/mlx5_ifc.h", HEADER.replace("u8         status[0x4];\n\tu8         reserved_at_4[0x1c];",
                "u8         status[0x8];\n\tu8         reserved_at_8[0x18];"));

        Run same = PrmkitCliTest.run("diff", a.toString(), a.toString());
        assertEquals(0, same.exitCode(), same.err());
        assertEquals("no layout changes\n", same.out());

        Run add = PrmkitCliTest.run("diff", a.toString(), additive.toString());
        assertEquals(0, add.exitCode(), add.err());
        assertEquals("Added fields (1):\n  mlx5.cqc.new_bit: added at 0x00 [27], 1 bit\n\n1 change: 0 breaking, 1 additive\n", add.out());

        Run brk = PrmkitCliTest.run("diff", "--format", "markdown", a.getParent().toString(), breaking.getParent().toString());
        assertEquals(DiffCommand.BREAKING, brk.exitCode(), brk.err());
        assertEquals("""
                ## Layout changes

                1 change: 1 breaking, 0 additive.

                ### Breaking changes (1)

                | Where | Change |
                |---|---|
                | `mlx5.cqc.status` | resized from 4 to 8 bits |
                """, brk.out());
    }

    @Test
    void diffOfPrmFilesAsJson() throws Exception {
        Path a = write("a.prm", "package p;\nstruct s size 0x4 {\n    x : 0x20;\n}\n");
        Path b = write("b.prm", "package p;\nstruct s size 0x4 {\n    y : 0x20;\n}\n");
        Run run = PrmkitCliTest.run("diff", "--format=json", a.toString(), b.toString());
        assertEquals(DiffCommand.BREAKING, run.exitCode(), run.err());
        assertTrue(run.out().startsWith("{\n  \"breaking\": true,"), run.out());
        assertTrue(run.out().contains("\"kind\": \"field_renamed\", \"breaking\": true, \"owner\": \"p.s\", \"name\": \"x\", \"newName\": \"y\""),
                run.out());
    }

    @Test
    void diffErrorsExitWithOne() throws Exception {
        Path a = write("a.prm", "package p;\nstruct s size 0x4 {\n    x : 0x20;\n}\n");
        Path broken = write("broken.prm", "package p;\nstruct s size 0x4 {\n    x : 0x10;\n}\n");

        Run missing = PrmkitCliTest.run("diff", a.toString(), dir.resolve("none.prm").toString());
        assertEquals(1, missing.exitCode());
        assertEquals(dir.resolve("none.prm") + ": error: no such file or folder\n", missing.err());

        Run bad = PrmkitCliTest.run("diff", a.toString(), broken.toString());
        assertEquals(1, bad.exitCode());
        assertTrue(bad.err().startsWith(broken + ":"), bad.err());
        assertTrue(bad.err().endsWith("prmkit diff: " + broken + ": the spec does not compile (1 error)\n"), bad.err());

        Run format = PrmkitCliTest.run("diff", "--format", "yaml", a.toString(), a.toString());
        assertEquals(2, format.exitCode());
        assertEquals("prmkit diff: unknown format 'yaml' (expected text, json, markdown or html)\nRun 'prmkit help diff' for usage.\n", format.err());

        Run usage = PrmkitCliTest.run("diff", a.toString());
        assertEquals(2, usage.exitCode(), "a usage error, as in every command");
        assertTrue(usage.err().startsWith("prmkit diff: Missing required parameter: 'NEW'"), usage.err());
    }

    @Test
    void helpDocumentsTheExitCodes() {
        Run run = PrmkitCliTest.run("diff", "--help");
        assertEquals(0, run.exitCode());
        assertTrue(run.out().contains("Exit codes:\n  0     no breaking change (identical, or additive changes only)\n"
                + "  1     errors in the input (unreadable, import or compile errors)\n"
                + "  2     usage error (unknown option, missing or bad argument)\n  3     breaking changes\n"
                + "  70    internal error (a bug in prmkit)\n"
                + "  141   the reader of standard output went away (as in | head); nothing printed\n"), run.out());
    }
}

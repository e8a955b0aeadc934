package io.prmkit.dsl.importer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.prmkit.dsl.HostTools;

import io.prmkit.dsl.CompileResult;
import io.prmkit.dsl.Diagnostic;
import io.prmkit.dsl.PrmCompiler;
import io.prmkit.dsl.Severity;
import io.prmkit.dsl.SourceFile;
import io.prmkit.dsl.diff.DiffRenderer;
import io.prmkit.dsl.diff.DiffReport;
import io.prmkit.dsl.diff.LayoutDiff;
import io.prmkit.dsl.ir.LayoutModel;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The kernel's own mlx5_ifc.h (+ mlx5_ifc_fpga.h): import, compile with the normal compiler, and
 * check every member's bit offset and width and every structure's size against gcc, which lays out
 * the header's one-byte-per-bit structures so that byte offsets are the PRM's bit offsets.
 */
class IfcRoundTripTest {

    private static Path dir;
    private static ImportResult imported;
    private static LayoutModel model;

    @BeforeAll
    static void importAndCompile() throws IOException {
        dir = HostTools.kernelMlx5Dir();
        imported = IfcImporter.importHeaders(List.of(dir.resolve("mlx5_ifc.h")), ImportOptions.DEFAULTS);
        assertFalse(imported.hasErrors(), () -> "import errors: " + imported.notes());
        CompileResult compiled = PrmCompiler.compile(imported.dslFiles());
        List<Diagnostic> errors = compiled.diagnostics().stream().filter(Diagnostic::isError).toList();
        assertEquals(List.of(), errors, "the imported header must compile");
        model = compiled.model().orElseThrow();
    }

    @Test
    void importsBothHeadersWithoutErrors() {
        assertEquals(List.of("mlx5_ifc_fpga.prm", "mlx5_ifc.prm"), imported.dslFiles().stream().map(SourceFile::name).toList());
        long structs = model.structs().stream().filter(s -> !s.isUnion()).count();
        long named = model.structs().stream().flatMap(s -> s.members().stream()).filter(m -> !m.reserved()).count();
        long reserved = model.structs().stream().flatMap(s -> s.members().stream()).filter(m -> m.reserved()).count();
        System.out.printf("[ifc] %s: %d structs + %d unions (%d from inline unions), %d named members, %d reserved ranges,"
                        + " %d enums, %d constants; import notes: %d warnings, %d notes%n",
                dir, structs, model.structs().size() - structs, synthesized(), named, reserved, model.enums().size(),
                model.constants().size(), imported.notes().stream().filter(d -> d.severity() == Severity.WARNING).count(),
                imported.notes().stream().filter(d -> d.severity() == Severity.NOTE).count());
        // the 6.1 header has 653 structs and 17 unions of its own; newer ones only add
        assertTrue(model.structs().size() >= 670, "structures: " + model.structs().size());
        assertTrue(named >= 4000, "named members: " + named);
    }

    /**
     * Every MLX5_CMD_OP_* of the header whose {@code mlx5_ifc_<opcode>_in_bits} and {@code _out_bits}
     * both exist becomes a command with those structures and the opcode's value (gcc's view of the
     * enum value is the conformance test's; here the header's text), and the kernel's differently
     * named pairs are found too (ACCESS_REG's access_register_in, 2ERR_QP's qp_2err_in).
     */
    @Test
    void everyOpcodeWithBothStructuresBecomesACommand() throws IOException {
        String text = Files.readString(dir.resolve("mlx5_ifc.h"), java.nio.charset.StandardCharsets.UTF_8);
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("\\bMLX5_CMD_OP_(\\w+)\\s*=\\s*(0x[0-9a-fA-F]+)").matcher(text);
        int paired = 0;
        List<String> skipped = new java.util.ArrayList<>();
        while (m.find()) {
            String base = m.group(1).toLowerCase(java.util.Locale.ROOT);
            if (!text.contains("struct mlx5_ifc_" + base + "_in_bits {") || !text.contains("struct mlx5_ifc_" + base + "_out_bits {")) continue;
            paired++;
            long opcode = Long.parseLong(m.group(2).substring(2), 16);
            var c = model.command("mlx5", opcode).orElse(null);
            if (c == null) {
                // the header's own slip (6.1's query_scheduling_element_out begins with opcode/op_mod): a note, no command
                String op = "MLX5_CMD_OP_" + m.group(1);
                assertTrue(imported.notes().stream().anyMatch(d -> d.severity() == Severity.NOTE && d.message().endsWith("no command declared for " + op)),
                        op + " has both structures but neither a command nor a note");
                skipped.add(op);
                continue;
            }
            assertEquals(base + "_in", c.in().name());
            assertEquals(base + "_out", c.out().name());
            assertEquals(c.inBytes(), c.oldestInputBytes(), "the header knows no older length");
        }
        assertTrue(paired >= 160, "6.1 pairs 166 opcodes by name; found " + paired);
        assertTrue(skipped.size() <= 3, "structures without command headers: " + skipped);
        var access = model.commands().stream().filter(c -> c.name().name().equals("ACCESS_REG")).findFirst().orElseThrow();
        assertEquals("access_register_in", access.in().name());
        var err = model.commands().stream().filter(c -> c.name().name().equals("QP_2ERR")).findFirst().orElseThrow();
        assertEquals("qp_2err_in", err.in().name());
        System.out.printf("[ifc] %d commands (%d opcodes paired by name, %d of them without command headers %s; %d by the kernel's other names)%n",
                model.commands().size(), paired, skipped.size(), skipped, model.commands().size() - paired + skipped.size());
    }

    /** Structures made from named inline unions (each reported by a note). */
    private static long synthesized() {
        return imported.notes().stream().filter(n -> n.message().startsWith("inline ")).count();
    }

    @Test
    void everyMemberOffsetAndWidthAndEveryStructureSizeEqualsGcc() throws Exception {
        GccLayout.Result r = GccLayout.compare(dir, List.of("mlx5_ifc_fpga.h", "mlx5_ifc.h"), List.of("mlx5_ifc.h"), model,
                Path.of("target", "ifc-gcc").toAbsolutePath());
        assertEquals(List.of(), r.mismatches().subList(0, Math.min(20, r.mismatches().size())), r.mismatches().size() + " mismatches");
        System.out.printf("[ifc] gcc agrees on %d structure sizes, %d member offsets and widths, %d enum values and constants%n",
                r.structures(), r.members(), r.values());
    }

    // ---- a revision made by editing a copy of the real header ---------------------------------------

    private static String edit(String text, String from, String to) {
        int first = text.indexOf(from);
        assertTrue(first >= 0 && text.indexOf(from, first + 1) < 0, () -> "expected exactly one '" + from + "' in the header");
        return text.replace(from, to);
    }

    @Test
    void diffOfAnEditedRevisionReportsExactlyTheEdits() throws IOException {
        String fpga = Files.readString(dir.resolve("mlx5_ifc_fpga.h"));
        String old = Files.readString(dir.resolve("mlx5_ifc.h"));
        String cqc = "struct mlx5_ifc_cqc_bits {";
        int at = old.indexOf(cqc);
        int end = old.indexOf("\n};\n", at);
        String body = old.substring(at, end);
        String edited = body;
        edited = edit(edited, "u8         st[0x4];", "u8         reserved_at_14[0x4];");
        edited = edit(edited, "u8         reserved_at_20[0x20];", "u8         new_dword_20[0x20];");
        edited = edit(edited, "u8         reserved_at_5a[0x6];", "u8         new_flag[0x1];\n\tu8         reserved_at_5b[0x5];");
        edited = edit(edited, "u8         reserved_at_80[0x4];\n\tu8         cq_period[0xc];",
                "u8         cq_period[0xc];\n\tu8         reserved_at_8c[0x4];");
        edited = edit(edited, "u8         log_page_size[0x5];\n\tu8         reserved_at_c8[0x18];",
                "u8         log_page_size[0x6];\n\tu8         reserved_at_c9[0x17];");
        String newer = old.substring(0, at) + edited + old.substring(end);
        newer = edit(newer, "MLX5_CQC_STATUS_CQ_WRITE_FAIL  = 0xa,\n", "MLX5_CQC_STATUS_CQ_WRITE_FAIL  = 0xa,\n\tMLX5_CQC_STATUS_CQ_NEW = 0xb,\n");

        DiffReport report = LayoutDiff.diff(compile(fpga, old), compile(fpga, newer));
        assertEquals("""
                Added fields (2):
                  mlx5.cqc.new_dword_20: added at 0x04 [31:0], 32 bits (was reserved_at_20)
                  mlx5.cqc.new_flag: added at 0x08 [5], 1 bit

                Added enums, values and constants (1):
                  mlx5.cqc_status.MLX5_CQC_STATUS_CQ_NEW: value added: 0xb

                Breaking changes (3):
                  mlx5.cqc.st: removed from 0x00 [11:8], 4 bits
                  mlx5.cqc.cq_period: moved from 0x10 [27:16] to 0x10 [31:20]
                  mlx5.cqc.log_page_size: resized from 5 to 6 bits

                6 changes: 3 breaking, 3 additive
                """, DiffRenderer.text(report));
        assertTrue(report.isBreaking());
    }

    @Test
    void diffOfTheHeaderWithItselfIsEmpty() throws IOException {
        String fpga = Files.readString(dir.resolve("mlx5_ifc_fpga.h"));
        String text = Files.readString(dir.resolve("mlx5_ifc.h"));
        DiffReport r = LayoutDiff.diff(compile(fpga, text), model);
        assertTrue(r.isEmpty(), () -> DiffRenderer.text(r));
    }

    private static LayoutModel compile(String fpga, String ifc) {
        ImportResult r = IfcImporter.importSources(List.of(new SourceFile("mlx5_ifc_fpga.h", fpga), new SourceFile("mlx5_ifc.h", ifc)),
                ImportOptions.DEFAULTS);
        assertFalse(r.hasErrors(), r.notes()::toString);
        CompileResult c = PrmCompiler.compile(r.dslFiles());
        return c.model().orElseThrow(() -> new AssertionError(c.diagnostics().toString()));
    }
}

package io.prmkit.dsl.importer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.prmkit.dsl.Child;
import io.prmkit.dsl.CompileResult;
import io.prmkit.dsl.Diagnostic;
import io.prmkit.dsl.HostTools;
import io.prmkit.dsl.PrmCompiler;
import io.prmkit.dsl.Severity;
import io.prmkit.dsl.SourceFile;
import io.prmkit.dsl.diff.DiffRenderer;
import io.prmkit.dsl.diff.DiffReport;
import io.prmkit.dsl.diff.LayoutDiff;
import io.prmkit.dsl.importer.CModel.Aggregate;
import io.prmkit.dsl.importer.CModel.BitField;
import io.prmkit.dsl.importer.CModel.Decl;
import io.prmkit.dsl.importer.CModel.Inline;
import io.prmkit.dsl.importer.CModel.Member;
import io.prmkit.dsl.importer.CModel.TypeRef;
import io.prmkit.dsl.ir.LayoutModel;
import io.prmkit.dsl.ir.MemberType;
import io.prmkit.dsl.ir.StructLayout;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
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

    /** C type and member path of every IR structure, from the header's own declarations. */
    private record CSide(String cType, String prefix, List<String> members) {}

    private static Map<String, CSide> cSides() throws IOException {
        Map<String, CSide> out = new HashMap<>();
        for (String h : List.of("mlx5_ifc_fpga.h", "mlx5_ifc.h")) {
            for (Decl d : IfcParser.parse(h, Files.readString(dir.resolve(h))).decls()) {
                if (d instanceof Aggregate a) {
                    String name = IfcImporter.structName(a.tag());
                    String cType = (a.union() ? "union " : "struct ") + a.tag();
                    out.put(name, new CSide(cType, "", flatten(a, "", name, cType, out)));
                }
            }
        }
        return out;
    }

    /** Member designators in IR order: anonymous aggregates flattened, named inline ones recorded as their own type. */
    private static List<String> flatten(Aggregate a, String prefix, String owner, String cType, Map<String, CSide> out) {
        List<String> names = new ArrayList<>();
        for (Member m : a.members()) {
            if (m instanceof BitField f) names.add(prefix + f.name());
            else if (m instanceof TypeRef r) names.add(prefix + r.name());
            else if (m instanceof Inline in && in.name() == null) names.addAll(flatten(in.body(), prefix, owner, cType, out));
            else if (m instanceof Inline in) {
                String synth = owner + "_" + in.name();
                String p = prefix + in.name() + ".";
                out.put(synth, new CSide(cType, p, flatten(in.body(), p, synth, cType, out)));
                names.add(prefix + in.name());
            }
        }
        return names;
    }

    /** Structures made from named inline unions (each reported by a note). */
    private static long synthesized() {
        return imported.notes().stream().filter(n -> n.message().startsWith("inline ")).count();
    }

    @Test
    void everyMemberOffsetAndWidthAndEveryStructureSizeEqualsGcc() throws Exception {
        Map<String, CSide> c = cSides();
        StringBuilder prog = new StringBuilder("""
                #include <stddef.h>
                #include <stdio.h>
                typedef unsigned char u8;
                typedef unsigned short u16;
                typedef unsigned int u32;
                typedef unsigned long long u64;
                #define BIT(n) (1UL << (n))
                #define BIT_ULL(n) (1ULL << (n))
                #define DECLARE_FLEX_ARRAY(T, N) struct { struct { } __empty_ ## N; T N[]; }
                """);
        prog.append("#include \"").append(dir.resolve("mlx5_ifc.h").toAbsolutePath()).append("\"\n");
        prog.append("#define M(T, P, D) printf(\"%zu %zu\\n\", offsetof(T, D) - (P), sizeof(((T *) 0)->D))\n");
        prog.append("#define F(T, P, D) printf(\"%zu 0\\n\", offsetof(T, D) - (P))\n");
        prog.append("int main(void) {\n");
        List<String> expected = new ArrayList<>();
        int members = 0;
        for (StructLayout s : model.structs()) {
            CSide side = c.get(s.name().name());
            if (side == null) fail("no C declaration for " + s.name());
            assertEquals(side.members().size(), s.members().size(), () -> "member count of " + s.name());
            String base = side.prefix().isEmpty() ? "0"
                    : "offsetof(" + side.cType() + ", " + side.prefix().substring(0, side.prefix().length() - 1) + ")";
            prog.append(side.prefix().isEmpty() ? "printf(\"%zu\\n\", sizeof(" + side.cType() + "));\n"
                    : "printf(\"%zu\\n\", sizeof(((" + side.cType() + " *) 0)->" + side.prefix().substring(0, side.prefix().length() - 1) + "));\n");
            expected.add(s.name() + " size " + s.sizeBits());
            for (int i = 0; i < s.members().size(); i++) {
                io.prmkit.dsl.ir.Member m = s.members().get(i);
                String d = side.members().get(i);
                String leaf = d.substring(d.lastIndexOf('.') + 1);
                assertTrue(leaf.equals(m.name()) || (m.reserved() && leaf.startsWith("reserved")),
                        () -> s.name() + " member " + m.name() + " pairs with C member " + d);
                boolean flexible = m.type() instanceof MemberType.Array a && a.flexible();
                prog.append(flexible ? "F(" : "M(").append(side.cType()).append(", ").append(base).append(", ").append(d).append(");\n");
                expected.add(s.name() + "." + m.name() + " " + m.bitOffset() + " " + m.bitWidth());
                members++;
            }
        }
        prog.append("return 0;\n}\n");

        Path work = Path.of("target", "ifc-gcc").toAbsolutePath();
        Files.createDirectories(work);
        Path src = work.resolve("layout.c"), exe = work.resolve("layout");
        Files.writeString(src, prog.toString(), StandardCharsets.UTF_8);
        run(work, HostTools.gcc(), "-std=gnu11", "-w", "-O0", "-o", exe.toString(), src.toString());
        List<String> got = run(work, exe.toAbsolutePath().toString()).lines().toList();

        assertEquals(expected.size(), got.size(), "one gcc line per structure and member");
        List<String> mismatches = new ArrayList<>();
        for (int i = 0; i < expected.size(); i++) {
            String e = expected.get(i);
            String[] parts = e.split(" ");
            String actual = parts[1].equals("size") ? parts[0] + " size " + got.get(i) : parts[0] + " " + got.get(i);
            if (!actual.equals(e)) mismatches.add("IR " + e + " / gcc " + actual);
        }
        assertEquals(List.of(), mismatches.subList(0, Math.min(20, mismatches.size())), mismatches.size() + " mismatches");
        System.out.printf("[ifc] gcc agrees on %d structure sizes and %d member offsets and widths%n", model.structs().size(), members);
    }

    private static String run(Path work, String... cmd) throws Exception {
        Child.Result r = Child.run(new ProcessBuilder(cmd).directory(work.toFile()).redirectErrorStream(true), Duration.ofMinutes(2));
        assertEquals(0, r.exit(), () -> String.join(" ", cmd) + " failed:\n" + r.stdout().lines().limit(30).reduce("", (a, b) -> a + b + "\n"));
        return r.stdout();
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
                BREAKING  mlx5.cqc.st: removed from 0x00 [11:8], 4 bits
                BREAKING  mlx5.cqc.cq_period: moved from 0x10 [27:16] to 0x10 [31:20]
                BREAKING  mlx5.cqc.log_page_size: resized from 5 to 6 bits
                additive  mlx5.cqc.reserved_at_20: renamed to new_dword_20 at 0x04 [31:0], 32 bits
                additive  mlx5.cqc.new_flag: added at 0x08 [5], 1 bit
                additive  mlx5.cqc_status.MLX5_CQC_STATUS_CQ_NEW: value added: 0xb
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

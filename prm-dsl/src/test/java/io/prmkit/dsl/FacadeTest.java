package io.prmkit.dsl;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.prmkit.dsl.ir.Member;
import io.prmkit.dsl.ir.StructLayout;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** SpecLoader, DiagnosticPrinter and what the IR carries from the spec. */
class FacadeTest {
    @TempDir
    Path dir;

    @Test
    void loaderWalksDirectoriesSortedAndNamesFilesAsGiven() throws Exception {
        Files.createDirectories(dir.resolve("specs/mlx5"));
        Files.writeString(dir.resolve("specs/mlx5/b.prm"), "package b;");
        Files.writeString(dir.resolve("specs/a.prm"), "package a;");
        Files.writeString(dir.resolve("specs/notes.txt"), "not a spec");
        Files.writeString(dir.resolve("single.prm"), "package s;");
        List<SourceFile> files = SpecLoader.load(List.of(dir.resolve("specs"), dir.resolve("single.prm")));
        assertEquals(List.of(dir.resolve("specs/a.prm").toString(), dir.resolve("specs/mlx5/b.prm").toString(),
                dir.resolve("single.prm").toString()), files.stream().map(SourceFile::name).toList());
        assertEquals("package b;", files.get(1).text());
    }

    @Test
    void printerShowsLineCaretAndNotesAndKeepsTabs() {
        SourceFile f = new SourceFile("x.prm", "package p;\nstruct a {\n\t0x00 [31:16] x;\n\t0x00 [20:0] y;\n}\n");
        CompileResult r = PrmCompiler.compile(List.of(f));
        assertEquals("""
                x.prm:4:14: error: 'y' overlaps 'x' at 0x00 [20:16]
                \t0x00 [20:0] y;
                \t            ^
                x.prm:3:15: note: 'x' is declared here
                \t0x00 [31:16] x;
                \t             ^
                """, DiagnosticPrinter.render(r.diagnostics().get(0), Map.of("x.prm", f)));
    }

    @Test
    void irCarriesDocsRefsSinceOrderConstraintsAndLocations() {
        StructLayout s = Specs.struct("""
                package p;
                /// A little-endian thing.
                struct le order little since "rev 2" {
                    0x00 [31:26] log_sz log2 range 0..17 mbz ref "Table 9" since "rev 3" "log2 of the size";
                    0x00 [25:0] n pow2 wo;
                }
                """, "le");
        assertEquals(ByteOrder.LITTLE_ENDIAN, s.byteOrder());
        assertEquals("rev 2", s.doc().since());
        assertEquals("A little-endian thing.", s.doc().text());
        Member m = s.member("log_sz").orElseThrow();
        assertEquals("log2 of the size", m.doc().text());
        assertEquals("Table 9", m.doc().prmRef());
        assertEquals("rev 3", m.doc().since());
        assertEquals(17, m.constraints().max().getAsLong());
        assertEquals(true, m.constraints().log2() && m.constraints().mustBeZero() && !m.constraints().powerOfTwo());
        assertEquals(true, s.member("n").orElseThrow().constraints().powerOfTwo());
        assertEquals("t.prm:4:18", m.location().toString());
        assertEquals("dword 0x00 [31:26]", m.prmPosition());
    }

    @Test
    void modelIsIndependentOfFileOrder() {
        SourceFile a = new SourceFile("a.prm", "package p;\nstruct b { 0x00 x : a; }\n");
        SourceFile b = new SourceFile("b.prm", "package p;\nstruct a { 0x00 [31:0] y; }\nenum e { A = 1; }\nconst K = 2;\n");
        assertEquals(PrmCompiler.compile(List.of(a, b)).model(), PrmCompiler.compile(List.of(b, a)).model());
        assertEquals(List.of("p.a", "p.b"),
                PrmCompiler.compile(List.of(a, b)).model().orElseThrow().structs().stream().map(x -> x.name().toString()).toList());
    }
}

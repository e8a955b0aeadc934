package io.prmkit.dsl.passes;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.prmkit.dsl.CompileResult;
import io.prmkit.dsl.PrmCompiler;
import io.prmkit.dsl.SourceFile;
import io.prmkit.dsl.Specs;
import java.util.List;
import org.junit.jupiter.api.Test;

class PackagesPassTest {
    static String diags(CompileResult r) {
        return r.diagnostics().stream().map(d -> d.toString()).reduce((a, b) -> a + "\n" + b).orElse("");
    }

    @Test
    void duplicateDeclarationNamesBothPlaces() {
        CompileResult r = Specs.compileUpTo("packages", "package p;\nstruct a { 0x00 [31:0] x; }\nenum a { X = 1; }\n");
        assertEquals("3:6: error: duplicate declaration 'a' in package p", Specs.diags(r));
        assertEquals("t.prm:2:8", r.diagnostics().get(0).related().get(0).location().toString());
    }

    @Test
    void unknownImport() {
        assertEquals("2:8: error: unknown package 'q'",
                Specs.diags(Specs.compileUpTo("packages", "package p;\nimport q;\nstruct a { 0x00 [31:0] x; }\n")));
    }

    @Test
    void importCycle() {
        CompileResult r = Specs.compileFiles("a.prm", "package a;\nimport b;\nconst X = 1;\n",
                "b.prm", "package b;\nimport c;\nconst Y = 1;\n", "c.prm", "package c;\nimport a;\nconst Z = 1;\n");
        assertEquals("c.prm:2:8: error: import cycle: a -> b -> c -> a", diags(r));
        assertEquals(2, r.diagnostics().get(0).related().size());
    }

    @Test
    void qualifiedAndImportedNames() {
        CompileResult r = Specs.compileFiles(
                "caps.prm", "package mlx5.caps;\nstruct hca_cap { 0x00 [31] swp; 0x00 [30:0] reserved; }\n",
                "q.prm", "package mlx5;\nimport mlx5.caps;\nstruct a { 0x00 x : hca_cap; 0x04 [31] y cap mlx5.caps.hca_cap.swp; 0x04 [30:0] reserved; }\n");
        assertEquals("", diags(r));
        assertEquals("mlx5.caps.hca_cap.swp",
                r.model().get().struct("a").get().member("y").get().capability().get().toString());
    }

    @Test
    void ambiguousUnqualifiedName() {
        CompileResult r = Specs.compileFiles(
                "a.prm", "package a;\nstruct s { 0x00 [31:0] x; }\n",
                "b.prm", "package b;\nstruct s { 0x00 [31:0] x; }\n",
                "c.prm", "package c;\nimport a;\nimport b;\nstruct t { 0x00 y : s; }\n");
        assertEquals("c.prm:4:21: error: 's' is ambiguous: it is declared in a and b; qualify it", diags(r));
    }

    @Test
    void stopAfterUnknownPassIsRejected() {
        assertThrows(IllegalArgumentException.class, () -> PrmCompiler.compile(List.of(new SourceFile("t", "package p;")), "nope"));
        assertEquals(List.of("packages", "enums", "types", "layout", "coverage", "members", "rules", "joins", "commands", "wqes", "ir"), Passes.names());
    }
}

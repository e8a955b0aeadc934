package io.prmkit.dsl.passes;

import static io.prmkit.dsl.Specs.assertError;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.prmkit.dsl.CompileResult;
import io.prmkit.dsl.Specs;
import io.prmkit.dsl.ir.StructLayout;
import org.junit.jupiter.api.Test;

class CoveragePassTest {
    @Test
    void gapNamesBothNeighbours() {
        CompileResult r = Specs.compile("package p;\nstruct a {\n    0x00 [31:16] x;\n    0x04 [31:0] y;\n}\n");
        assertEquals("4:17: error: bits 0x00 [15:0] are not covered (between 'x' and 'y'); if they are reserved, write '0x00 [15:0] reserved;'",
                Specs.diags(r));
        assertEquals("t.prm:3:18", r.diagnostics().get(0).related().get(0).location().toString());
    }

    @Test
    void overlapNamesBothMembers() {
        CompileResult r = Specs.compile("package p;\nstruct a {\n    0x00 [31:16] x;\n    0x00 [20:0] y;\n}\n");
        assertEquals("4:17: error: 'y' overlaps 'x' at 0x00 [20:16]", Specs.diags(r));
        assertEquals("'x' is declared here", r.diagnostics().get(0).related().get(0).message());
    }

    @Test
    void tailGapUpToDeclaredSize() {
        assertError("2:8: error: bits 0x04 [31:0] are not covered (after 'x', up to the size of struct 'a'); if they are reserved, write '0x04 [31:0] reserved;'",
                "package p;\nstruct a size 8 { 0x00 [31:0] x; }\n");
    }

    @Test
    void gapsReservedFillsGapsWithKernelNames() {
        StructLayout s = Specs.struct("package p;\nstruct a gaps reserved size 0x10 {\n  0x04 [15:0] x;\n  0x0c [31:0] y;\n}\n", "a");
        assertEquals("reserved_at_0 x reserved_at_40 y", String.join(" ", s.members().stream().map(m -> m.name()).toList()));
        assertEquals(48, s.member("reserved_at_0").get().bitWidth());
        assertTrue(s.member("reserved_at_40").get().reserved());
    }

    @Test
    void overlapInsideAUnionAlternative() {
        assertError("4:43: error: 'q' overlaps 'p' at 0x00 [15:0]",
                "package p;\nstruct a {\n  0x00 union {\n    struct g { 0x00 [31:0] p; 0x00 [15:0] q; }\n  }\n}\n");
    }

    @Test
    void alternativesOverlapEachOtherByDesign() {
        StructLayout s = Specs.struct("package p;\nstruct a {\n  union { x : 32; y : 32; }\n  z : 32;\n}\n", "a");
        assertEquals(8, s.sizeBytes());
    }
}

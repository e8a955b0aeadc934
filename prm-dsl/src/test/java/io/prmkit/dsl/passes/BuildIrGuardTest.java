package io.prmkit.dsl.passes;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.prmkit.dsl.Diagnostic;
import io.prmkit.dsl.SourceFile;
import io.prmkit.dsl.parser.SpecParser;
import java.util.List;
import org.junit.jupiter.api.Test;

/** No IR is built from a spec with errors: the IR's records may assume what the passes checked. */
class BuildIrGuardTest {
    private static Compilation compilation(String text) {
        return new Compilation(List.of(SpecParser.parse(new SourceFile("t.prm", text)).ast().orElseThrow()));
    }

    @Test
    void aSpecWithErrorsGetsNoIr() {
        Compilation c = compilation("package p;\nstruct s { 0x00 [31:0] x; 0x00 [15:0] y; }\nstruct t { 0x00 [31:0] z; }\n");
        Passes.Outcome out = Passes.run(c, null);
        assertEquals(List.of("'y' overlaps 'x' at 0x00 [15:0]"),
                out.diagnostics().stream().filter(Diagnostic::isError).map(Diagnostic::message).toList());
        assertTrue(out.model().isEmpty());
        assertNull(c.model, "the ir pass did not run, not even for the valid struct t");
    }

    @Test
    void aValidSpecGetsItsIr() {
        Compilation c = compilation("package p;\nstruct t { 0x00 [31:0] z; }\n");
        Passes.Outcome out = Passes.run(c, null);
        assertNotNull(c.model);
        assertEquals(c.model, out.model().orElseThrow());
    }

    @Test
    void onlyTheIrPassWaitsForAnErrorFreeSpec() {
        assertEquals(List.of("ir"), Passes.all().stream().filter(p -> !p.runsAfterErrors()).map(Pass::name).toList());
    }
}

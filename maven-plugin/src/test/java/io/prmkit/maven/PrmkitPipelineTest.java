package io.prmkit.maven;

import io.prmkit.pipeline.OutputFile;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.prmkit.dsl.Diagnostic;
import io.prmkit.dsl.SourceFile;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The real compiler and generator behind the plugin's seam. */
class PrmkitPipelineTest {
    private final PrmkitPipeline pipeline = new PrmkitPipeline();

    private static final SourceFile GOOD = new SourceFile("src/main/prm/acme/doorbell.prm", """
            package acme;

            struct doorbell size 0x8 {
                0x00 [31:16] counter;
                0x00 [15:0]  reserved;
                0x04         key : u32;
            }
            """);

    @Test
    void specErrorsComeBackAsDiagnosticsUnderTheGivenNames() {
        SourceFile bad = new SourceFile("src/main/prm/acme/bad.prm", """
                package acme;

                struct broken size 0x4 {
                    0x00 [31:16] high;
                    0x00 [19:0]  low;
                }
                """);
        SpecPipeline.Result r = pipeline.run(List.of(GOOD, bad), List.of(), "com.example");

        assertTrue(r.files().isEmpty());
        List<Diagnostic> errors = r.diagnostics().stream().filter(Diagnostic::isError).toList();
        assertFalse(errors.isEmpty());
        assertEquals("src/main/prm/acme/bad.prm", errors.get(0).location().file());
        assertEquals(5, errors.get(0).location().line());

        String rendered = pipeline.render(errors.get(0), Map.of(bad.name(), bad, GOOD.name(), GOOD));
        assertTrue(rendered.startsWith("src/main/prm/acme/bad.prm:5:"), rendered);
        assertTrue(rendered.contains("    0x00 [19:0]  low;\n"), rendered);
    }

    @Test
    void validSpecsBecomeJavaFilesUnderThePrefix() {
        SpecPipeline.Result r = pipeline.run(List.of(GOOD), List.of(), "com.example");

        assertEquals(List.of(), r.problems());
        assertTrue(r.diagnostics().stream().noneMatch(Diagnostic::isError), r.diagnostics().toString());
        OutputFile doorbell = r.files().stream()
                .filter(f -> f.relativePath().equals("com/example/acme/Doorbell.java")).findFirst().orElseThrow();
        assertTrue(doorbell.content().startsWith("package com.example.acme;"), doorbell.content());
        assertTrue(doorbell.content().contains("public final class Doorbell"), doorbell.content());
    }

    @Test
    void invalidPrefixIsAProblemNotACrash() {
        SpecPipeline.Result r = pipeline.run(List.of(GOOD), List.of(), "com.class");
        assertEquals(1, r.problems().size());
        assertTrue(r.problems().get(0).startsWith("packagePrefix: "), r.problems().get(0));
        assertTrue(r.problems().get(0).contains("com.class"), r.problems().get(0));
        assertTrue(r.files().isEmpty());
    }

    @Test
    void javaNameCollisionsAreProblems() {
        SourceFile twins = new SourceFile("src/main/prm/acme/twins.prm", """
                package acme;

                struct foo_bar size 0x4 {
                    0x00 [31:0] a;
                }

                struct foo__bar size 0x4 {
                    0x00 [31:0] b;
                }
                """);
        SpecPipeline.Result r = pipeline.run(List.of(twins), List.of(), "");
        assertTrue(r.files().isEmpty());
        List<Diagnostic> errors = r.diagnostics().stream().filter(Diagnostic::isError).toList();
        assertEquals(1, errors.size(), errors.toString());
        assertTrue(errors.get(0).message().contains("FooBar"), errors.get(0).toString());
        assertEquals(3, errors.get(0).location().line(), "the generator's diagnostic points at the second declaration");
    }

    private static final SourceFile HEADER = new SourceFile("headers/mlx5_ifc.h", """
            struct mlx5_ifc_ring_db_bits {
            	u8         counter[0x10];
            	u8         reserved_at_10[0xc];
            	u8         ring[0x4];
            };
            """);

    @Test
    void headersAreImportedIntoPackageMlx5AndGeneratedWithTheSpecs() {
        SpecPipeline.Result r = pipeline.run(List.of(GOOD), List.of(HEADER), "com.example");
        assertTrue(r.diagnostics().stream().noneMatch(Diagnostic::isError), r.diagnostics().toString());
        List<String> paths = r.files().stream().map(OutputFile::relativePath).toList();
        assertTrue(paths.contains("com/example/acme/Doorbell.java"), paths.toString());
        assertTrue(paths.contains("com/example/mlx5/RingDb.java"), paths.toString());
    }

    @Test
    void untranslatableHeaderLinesAreErrorsAtTheirLine() {
        SourceFile bad = new SourceFile("headers/bad_ifc.h", """
                struct mlx5_ifc_x_bits {
                	u32        wrong_type;
                };
                """);
        SpecPipeline.Result r = pipeline.run(List.of(GOOD), List.of(bad), "com.example");
        assertTrue(r.files().isEmpty());
        Diagnostic first = r.diagnostics().stream().filter(Diagnostic::isError).findFirst().orElseThrow();
        assertEquals("headers/bad_ifc.h", first.location().file());
        assertEquals(2, first.location().line());
    }
}

package io.prmkit.maven;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.prmkit.doc.DocSite;
import io.prmkit.dsl.PrmCompiler;
import io.prmkit.dsl.SourceFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DocTaskTest {
    static final String SPEC = """
            package acme;
            /// Doorbell register
            struct doorbell size 0x8 {
                0x00 [31:16] counter "Producer counter";
                0x00 [15:0]  reserved;
                0x04         qpn : u32 "Queue number";
            }
            """;

    @TempDir
    Path project;

    final RecordingReporter log = new RecordingReporter();

    private DocTask.Request request(boolean explicit) {
        return new DocTask.Request(project, project.resolve("src/main/prm"), project.resolve("target/prm-doc"), null, null, List.of(),
                "acme registers", false, explicit);
    }

    @Test
    void writesTheSameSiteAsTheCli() throws Exception {
        Path spec = project.resolve("src/main/prm/acme/regs.prm");
        Files.createDirectories(spec.getParent());
        Files.writeString(spec, SPEC);
        int files = new DocTask(log).run(request(false));
        Path out = project.resolve("target/prm-doc");
        // The same renderer over the same model: byte-identical pages (names are as the plugin shows them).
        var expected = DocSite.render(PrmCompiler.compile(List.of(new SourceFile("src/main/prm/acme/regs.prm", SPEC))).model().orElseThrow(),
                "acme registers");
        assertEquals(expected.size(), files);
        for (var e : expected.entrySet()) assertEquals(e.getValue(), Files.readString(out.resolve(e.getKey())), e.getKey());
        assertEquals(List.of("Wrote the PRM reference of 1 structure (" + files + " files) to target/prm-doc; open target/prm-doc/index.html"),
                log.at("INFO"));
    }

    @Test
    void specErrorsAreReportedAndNothingIsWritten() throws Exception {
        Path spec = project.resolve("src/main/prm/bad.prm");
        Files.createDirectories(spec.getParent());
        Files.writeString(spec, "package acme;\nstruct r size 0x4 {\n    0x00 [31:0] a;\n    0x00 [7:0] b;\n}\n");
        GenerationException e = assertThrows(GenerationException.class, () -> new DocTask(log).run(request(false)));
        assertEquals("1 error in prm specs", e.getMessage());
        assertTrue(log.at("ERROR").get(0).startsWith("src/main/prm/bad.prm:4:"), log.lines::toString);
        assertFalse(Files.exists(project.resolve("target/prm-doc")));
    }

    @Test
    void noSpecsIsFineUnlessTheDirectoryWasConfigured() throws Exception {
        assertEquals(0, new DocTask(log).run(request(false)));
        assertEquals(List.of("No prm specs found in src/main/prm; no PRM reference written"), log.at("INFO"));
        GenerationException e = assertThrows(GenerationException.class, () -> new DocTask(log).run(request(true)));
        assertEquals("sourceDirectory src/main/prm does not exist", e.getMessage());
    }
}

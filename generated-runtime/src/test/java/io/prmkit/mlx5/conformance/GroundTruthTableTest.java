package io.prmkit.mlx5.conformance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.prmkit.dsl.Child;
import io.prmkit.dsl.CompileResult;
import io.prmkit.dsl.HostTools;
import io.prmkit.dsl.PrmCompiler;
import io.prmkit.dsl.SourceFile;
import io.prmkit.dsl.ir.LayoutModel;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The bundled spec against the committed ground truth ({@link GroundTruthTable}): in every build, with
 * or without the headers; and the table against the headers, where they are installed.
 */
class GroundTruthTableTest {

    /** Runs in every build: no headers, no gcc; the numbers come from the committed table. */
    @Test
    void everyFieldOfEveryBundledStructureMatchesTheCommittedTable() {
        GroundTruthTable.Table table = GroundTruthTable.read(GroundTruthTable.FILE);
        GroundTruthTable.Report r = GroundTruthTable.check(BundledSpec.model(), table);
        long inNoHeader = table.facts().stream().filter(f -> f.kind() == GroundTruthTable.Kind.UNCHECKED && f.field().equals("*")).count();
        System.out.printf("[ground truth] %d structures (%d in no header), %d named fields: %d checked against %d gcc facts from %s and %s,"
                        + " %d in no header%n", r.structs(), inNoHeader, r.fields(), r.fields() - r.unchecked(), r.facts(),
                table.sources().getOrDefault("kernel", "?").split(",")[0], table.sources().getOrDefault("rdma-core", "?").split(",")[0],
                r.unchecked());
        if (!r.problems().isEmpty()) {
            fail(r.problems().size() + " differences between the bundled spec and the ground truth of " + GroundTruthTable.FILE
                    + " (if the spec is right and the table old, regenerate it where the headers are: " + GroundTruthTable.REGENERATE + "):\n  "
                    + String.join("\n  ", r.problems().subList(0, Math.min(60, r.problems().size()))));
        }
        assertTrue(r.fields() - r.unchecked() > 0 && r.facts() > 0, "the table checked nothing");
    }

    /**
     * Where the headers are, the table is made again from them and must be the committed one, so it
     * cannot go stale silently. {@code -Dprmkit.groundTruth=write} writes it instead.
     */
    @Test
    void theCommittedTableIsWhatGccSaysAboutTheseHeaders() throws IOException {
        Conformance c = Conformance.get(); // skips without the headers and gcc (fails in CI)
        GroundTruthTable.Table fresh = c.groundTruth(sources(c.truth));
        if ("write".equals(System.getProperty(GroundTruthTable.WRITE_PROPERTY))) {
            Files.createDirectories(GroundTruthTable.FILE.getParent());
            Files.writeString(GroundTruthTable.FILE, GroundTruthTable.format(fresh), StandardCharsets.UTF_8);
            System.out.println("[ground truth] wrote " + fresh.facts().size() + " rows to " + GroundTruthTable.FILE.toAbsolutePath());
            return;
        }
        GroundTruthTable.Table committed = GroundTruthTable.read(GroundTruthTable.FILE);
        if (fresh.factLines().equals(committed.factLines())) {
            if (!fresh.sources().equals(committed.sources())) {
                System.out.println("[ground truth] same facts from other headers: table " + committed.sources() + ", here " + fresh.sources());
            }
            return;
        }
        Set<String> was = new LinkedHashSet<>(committed.factLines().lines().toList());
        Set<String> now = new LinkedHashSet<>(fresh.factLines().lines().toList());
        List<String> diff = new ArrayList<>();
        for (String l : was) if (!now.contains(l)) diff.add("- " + l);
        for (String l : now) if (!was.contains(l)) diff.add("+ " + l);
        fail("the committed ground-truth table " + GroundTruthTable.FILE + " is not what gcc says about these headers ("
                + diff.size() + " rows differ; '-' committed, '+' now). Table made from " + committed.sources() + ", headers here "
                + fresh.sources() + ". If the spec changed on purpose, regenerate it and commit the result: " + GroundTruthTable.REGENERATE
                + "\n  " + String.join("\n  ", diff.subList(0, Math.min(60, diff.size()))));
    }

    /** The check finds a wrong bit position in a spec file: eqc's ec and oi swapped, as a transcription slip would. */
    @Test
    void aWrongOffsetInASpecFileFailsTheCheck() {
        List<SourceFile> files = new ArrayList<>();
        int edits = 0;
        for (SourceFile f : BundledSpec.sources()) {
            String text = f.text();
            if (f.name().equals("mlx5/eq_cq.prm")) {
                String swapped = text.replace("0x00 [18]     ec ", "0x00 [17]     ec ").replaceFirst("0x00 \\[17\\]     oi ", "0x00 [18]     oi ");
                assertTrue(!swapped.equals(text), "eq_cq.prm no longer has eqc's ec at [18] and oi at [17]: pick another field");
                text = swapped;
                edits++;
            }
            files.add(new SourceFile(f.name(), text));
        }
        assertEquals(1, edits);
        CompileResult compiled = PrmCompiler.compile(files);
        LayoutModel wrong = compiled.model().orElseThrow(() -> new AssertionError("the edited spec does not compile: " + compiled.diagnostics()));
        GroundTruthTable.Report r = GroundTruthTable.check(wrong, GroundTruthTable.read(GroundTruthTable.FILE));
        assertTrue(r.problems().stream().anyMatch(p -> p.startsWith("mlx5.eqc.ec (") && p.contains("spec bits 0xe+1")), r.problems().toString());
        assertTrue(r.problems().stream().anyMatch(p -> p.startsWith("mlx5.eqc.oi (") && p.contains("spec bits 0xd+1")), r.problems().toString());
    }

    /** A structure added to the spec but not to the table fails, and says how to regenerate the table. */
    @Test
    void aStructureMissingFromTheTableFailsWithTheCommandThatRegeneratesIt() {
        GroundTruthTable.Table t = GroundTruthTable.read(GroundTruthTable.FILE);
        GroundTruthTable.Table without = new GroundTruthTable.Table(t.sources(),
                t.facts().stream().filter(f -> !f.struct().equals("mlx5.eqc")).toList());
        assertTrue(without.facts().size() < t.facts().size(), "the table has no row for mlx5.eqc");
        List<String> problems = GroundTruthTable.check(BundledSpec.model(), without).problems();
        assertEquals(List.of("structure mlx5.eqc is not in the ground-truth table " + GroundTruthTable.FILE
                + "; regenerate it where the headers are: " + GroundTruthTable.REGENERATE), problems);
    }

    /** So do a field the table does not know and a row naming a field the spec does not have. */
    @Test
    void aFieldMissingFromTheTableOrOnlyInItFails() {
        GroundTruthTable.Table t = GroundTruthTable.read(GroundTruthTable.FILE);
        List<GroundTruthTable.Fact> facts = new ArrayList<>(t.facts().stream()
                .filter(f -> !(f.struct().equals("mlx5.eqc") && f.field().equals("oi"))).toList());
        facts.add(new GroundTruthTable.Fact(GroundTruthTable.Kind.FIELD, "mlx5.eqc", "no_such_field", -1, -1, 0, 1, "test"));
        List<String> problems = GroundTruthTable.check(BundledSpec.model(), new GroundTruthTable.Table(t.sources(), facts)).problems();
        assertEquals(2, problems.size(), problems.toString());
        assertTrue(problems.stream().anyMatch(p -> p.startsWith("mlx5.eqc.oi (") && p.contains("is not in the ground-truth table")
                && p.endsWith(GroundTruthTable.REGENERATE)), problems.toString());
        assertTrue(problems.contains("mlx5.eqc.no_such_field (test): the table has this field, the spec does not"), problems.toString());
    }

    /** The table's text reads back as the same table. */
    @Test
    void theTableFormatReadsBack() {
        GroundTruthTable.Table t = GroundTruthTable.read(GroundTruthTable.FILE);
        GroundTruthTable.Table again = GroundTruthTable.parse(GroundTruthTable.format(t), "formatted");
        assertEquals(t.factLines(), again.factLines());
        assertEquals(t.sources(), again.sources());
    }

    /** What the table is made from: the header packages with their versions and digests, and gcc's version. */
    static Map<String, String> sources(GroundTruth truth) {
        Map<String, String> m = new LinkedHashMap<>();
        Path dpkg = Path.of("/var/lib/dpkg/status");
        String kernel = HostTools.kernelPackage(truth.mlx5Dir());
        m.put("kernel", kernel + HostTools.debianVersion(dpkg, kernel).map(v -> " " + v).orElse("")
                + ", mlx5_ifc.h sha256 " + sha256(truth.header("mlx5_ifc.h")));
        m.put("rdma-core", "libibverbs-dev" + HostTools.debianVersion(dpkg, "libibverbs-dev").map(v -> " " + v).orElse("")
                + ", mlx5dv.h sha256 " + sha256(truth.mlx5dvHeader()));
        try {
            m.put("gcc", Child.run(Duration.ofMinutes(1), truth.gcc(), "--version").assertSuccess().stdout().lines().findFirst().orElse("?"));
        } catch (IOException e) {
            throw new AssertionError("cannot run " + truth.gcc() + ": " + e.getMessage(), e);
        }
        return m;
    }

    private static String sha256(Path file) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(file)));
        } catch (IOException | NoSuchAlgorithmException e) {
            throw new AssertionError("cannot digest " + file + ": " + e.getMessage(), e);
        }
    }
}

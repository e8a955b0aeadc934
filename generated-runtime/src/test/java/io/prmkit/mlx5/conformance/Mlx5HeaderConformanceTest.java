package io.prmkit.mlx5.conformance;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The bundled mlx5 spec against the headers it was transcribed from (Debian linux-headers-*-common
 * and libibverbs-dev), with gcc computing every offset and size. Without the headers it is skipped
 * with one line naming the packages to install, and fails in CI (HostTools); what gcc printed is
 * committed as the ground-truth table, which every build checks the spec against (GroundTruthTableTest).
 */
class Mlx5HeaderConformanceTest {

    @Test
    void mlx5IfcStructuresMatchTheSpec() {
        Conformance c = Conformance.get();
        Conformance.Report r = c.compareIfcStructures();
        print(r);
        // these three are declared in both; if they were not compared, the name mapping is broken
        List<String> compared = c.comparedIfc().stream().map(IfcHeader.Decl::specName).toList();
        assertTrue(compared.containsAll(List.of("health_buffer", "cmd_queue_entry", "eqe")), "compared: " + compared);
        assertNoMismatch(r);
    }

    @Test
    void cStructsAndConstantsMatchTheSpec() {
        Conformance c = Conformance.get();
        Conformance.Report r = c.compareMappingTable();
        print(r);
        assertTrue(r.fields() > 0, "the mapping table compared nothing");
        assertNoMismatch(r);
    }

    @Test
    void commandOpcodesMatchMlx5Ifc() {
        Conformance.Report r = Conformance.get().compareCommandOpcodes();
        print(r);
        assertTrue(r.fields() > 0, "no command opcode compared");
        assertNoMismatch(r);
    }

    /**
     * Every command the bundled spec declares pairs the same opcode with the same input and output
     * structures as the importer finds in mlx5_ifc.h (MLX5_CMD_OP_* and the kernel's *_in/_out
     * pairs), so the spec's relation is the kernel's; the structures themselves are compared above.
     */
    @Test
    void commandDeclarationsMatchTheImportedHeader() throws java.io.IOException {
        GroundTruth truth = GroundTruth.locateKernel();
        io.prmkit.dsl.importer.ImportResult imported = io.prmkit.dsl.importer.IfcImporter.importHeaders(
                List.of(truth.header("mlx5_ifc.h")), io.prmkit.dsl.importer.ImportOptions.DEFAULTS);
        assertTrue(!imported.hasErrors(), () -> "import errors: " + imported.notes());
        io.prmkit.dsl.ir.LayoutModel kernel = io.prmkit.dsl.PrmCompiler.compile(imported.dslFiles()).model().orElseThrow();
        io.prmkit.dsl.ir.LayoutModel spec = BundledSpec.model();
        List<String> mismatches = new java.util.ArrayList<>();
        for (io.prmkit.dsl.ir.CommandLayout c : spec.commands()) {
            var k = kernel.command("mlx5", c.opcode());
            if (k.isEmpty()) {
                mismatches.add(c.name() + " (0x" + Long.toHexString(c.opcode()) + "): the header pairs no structures with this opcode");
            } else if (!k.get().in().name().equals(c.in().name()) || !k.get().out().name().equals(c.out().name())) {
                mismatches.add(c.name() + ": spec " + c.in().name() + "/" + c.out().name() + ", header " + k.get().in().name() + "/" + k.get().out().name());
            }
        }
        System.out.printf("commands: compared %d bundled command declarations with the %d the importer finds in %s%n",
                spec.commands().size(), kernel.commands().size(), truth.header("mlx5_ifc.h"));
        assertTrue(spec.commands().size() > 60, "bundled commands: " + spec.commands().size());
        if (!mismatches.isEmpty()) fail(String.join("\n  ", mismatches));
    }

    private static void print(Conformance.Report r) {
        System.out.println(r.summary());
        r.notes().forEach(n -> System.out.println("  note: " + n));
        r.mismatches().forEach(m -> System.out.println("  MISMATCH: " + m));
    }

    private static void assertNoMismatch(Conformance.Report r) {
        if (!r.mismatches().isEmpty()) {
            fail(r.summary() + "\n  " + String.join("\n  ", r.mismatches()));
        }
    }
}

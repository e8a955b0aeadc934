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

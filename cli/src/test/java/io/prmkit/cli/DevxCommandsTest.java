package io.prmkit.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.prmkit.dsl.Child;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@code prmkit demo --device devx:NAME}: rdma-core's DEVX. On these machines there is no card (and
 * here no VFIO stand-in): whatever rdma-core is installed or not, the demo says why in at most three
 * lines on standard error, exits non-zero and prints no stack trace.
 */
class DevxCommandsTest {

    @Test
    void demoOnAnRdmaDeviceThatIsNotThereSaysWhyInAtMostThreeLines() throws Exception {
        ProcessBuilder pb = new ProcessBuilder(CliProcessTest.javaCommand(List.of("demo", "--device", "devx:mlx5_0", "--packets", "64")));
        pb.environment().remove("LD_PRELOAD");
        Child.Result r = Child.run(pb, Duration.ofMinutes(2));
        assertEquals(1, r.exit(), r.output());
        assertEquals("", r.stdout());
        String[] lines = r.stderr().strip().split("\n");
        assertTrue(lines.length <= 3, r.stderr());
        assertTrue(lines[0].startsWith("prmkit demo: "), r.stderr());
        // rdma-core installed without a device: it says so; without rdma-core: what to install
        assertTrue(lines[0].startsWith("prmkit demo: there is no RDMA device mlx5_0: rdma-core lists ")
                || lines[0].startsWith("prmkit demo: libibverbs.so.1 is not installed: install rdma-core's libraries"), r.stderr());
        assertFalse(r.stderr().contains("Exception") || r.stderr().contains("\tat "), r.stderr());
    }

    @Test
    void aDevxDeviceWithoutANameIsAUsageError() throws Exception {
        ProcessBuilder pb = new ProcessBuilder(CliProcessTest.javaCommand(List.of("demo", "--device", "devx:", "--packets", "64")));
        Child.Result r = Child.run(pb, Duration.ofMinutes(2));
        assertEquals(2, r.exit(), r.output());
        assertEquals("prmkit demo: --device devx:: give soft-hca, vfio:PCI (e.g. vfio:0000:03:00.0) or devx:NAME (e.g. devx:mlx5_0); prmkit devices lists them",
                r.stderr().strip());
    }
}

package io.prmkit.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.prmkit.dsl.Child;
import io.prmkit.softhca.vfio.StandInBuild;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@code prmkit demo --device devx:NAME}: rdma-core's DEVX. On these machines there is no card: with
 * the VFIO stand-in preloaded the demo runs over DEVX on a soft HCA that rdma-core's mlx5_vfio brings
 * up; without it, whatever rdma-core is installed or not, the demo says why in at most three lines on
 * standard error, exits non-zero and prints no stack trace.
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
    void demoThroughDevxOnMlx5VfioWithTheStandInPreloaded() throws Exception {
        io.prmkit.dsl.HostTools.libmlx5();
        Path lib = StandInBuild.library();
        ProcessBuilder pb = new ProcessBuilder(CliProcessTest.javaCommand(List.of("demo", "--device", "devx:0000:5e:00.0", "--packets", "20000")));
        pb.environment().put("LD_PRELOAD", lib.toString());
        Child.Result r = Child.run(pb, Duration.ofMinutes(3));
        String out = r.stdout();
        assertEquals(0, r.exit(), r.output());
        assertTrue(out.startsWith("devx: the VFIO stand-in is preloaded (" + lib + "): 0000:5e:00.0 is a soft HCA in this process, "
                + "brought up by rdma-core's mlx5_vfio and reached through DEVX\n"), out);
        assertTrue(out.contains("\nbring-up: vfio:0000:5e:00.0 through DEVX, device 6 commands"), out);
        assertTrue(out.contains("  device      RX dropped 0, DMA faults 0\n"), out);
        String last = out.strip().substring(out.strip().lastIndexOf('\n') + 1);
        assertTrue(last.matches("demo: tx \\d+ frames, rx \\d+ frames, lost 0, corrupt 0, tx errors recovered 1, [0-9.]+ Mpps"), last);
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

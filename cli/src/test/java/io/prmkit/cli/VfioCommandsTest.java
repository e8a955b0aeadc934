package io.prmkit.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.prmkit.dsl.Child;
import io.prmkit.softhca.vfio.StandInBuild;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code prmkit devices} on sysfs trees of our making, and {@code prmkit demo --device vfio:PCI}
 * through the VFIO back end with the VFIO stand-in preloaded (LD_PRELOAD) into the CLI's JVM.
 */
class VfioCommandsTest {
    @TempDir
    Path sys;

    private String[] devices(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cl = PrmkitCli.commandLine();
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        List<String> a = new ArrayList<>(List.of("devices", "--sysfs", sys.toString()));
        a.addAll(List.of(args));
        int code = cl.execute(a.toArray(String[]::new));
        return new String[] {Integer.toString(code), out.toString(), err.toString()};
    }

    private void function(String pci, String vendor, String device, String driver, int group) throws Exception {
        Path d = Files.createDirectories(sys.resolve("bus/pci/devices").resolve(pci));
        Files.writeString(d.resolve("vendor"), vendor + "\n");
        Files.writeString(d.resolve("device"), device + "\n");
        if (driver != null) Files.createSymbolicLink(d.resolve("driver"), Path.of("../../../bus/pci/drivers/" + driver));
        if (group >= 0) Files.createSymbolicLink(d.resolve("iommu_group"), Path.of("../../../kernel/iommu_groups/" + group));
    }

    @Test
    void noCardIsOneSentence() throws Exception {
        function("0000:00:1f.0", "0x8086", "0x1234", "e1000e", 3); // not a Mellanox function
        String[] r = devices();
        assertEquals("0", r[0]);
        assertEquals("No Mellanox/NVIDIA (15b3) PCI function under " + sys.resolve("bus/pci/devices")
                + ": put a ConnectX card in this machine (docs/hardware.md says how to give it to prmkit), or run prmkit demo on the soft HCA.\n", r[1]);
    }

    @Test
    void listsEachFunctionWithWhatVfioAndDevxCanDo() throws Exception {
        function("0000:03:00.0", "0x15b3", "0x1013", "mlx5_core", 12);
        Files.createDirectories(sys.resolve("bus/pci/devices/0000:03:00.0/infiniband/mlx5_0"));
        function("0000:03:00.1", "0x15b3", "0x1013", "vfio-pci", 13);
        function("0000:81:00.0", "0x15b3", "0x101d", "vfio-pci", -1);
        String[] r = devices();
        assertEquals("0", r[0], r[2]);
        String[] lines = r[1].split("\n");
        assertEquals(4, lines.length, r[1]);
        assertTrue(lines[1].startsWith("0000:03:00.0  15b3:1013 mlx5_core  12     vfio: no: 0000:03:00.0 is bound to mlx5_core, not vfio-pci"), lines[1]);
        assertTrue(lines[1].endsWith("; devx: yes (prmkit demo --device devx:mlx5_0)"), lines[1]);
        assertTrue(lines[2].startsWith("0000:03:00.1  15b3:1013 vfio-pci   13     vfio: yes (prmkit demo --device vfio:0000:03:00.1); "
                + "devx: yes, through rdma-core's mlx5_vfio (prmkit demo --device devx:0000:03:00.1)"), lines[2]);
        assertTrue(lines[3].contains("vfio: no: 0000:81:00.0 is in no IOMMU group: enable the IOMMU"), lines[3]);
        assertTrue(lines[3].endsWith("; devx: no RDMA device (load mlx5_ib for the kernel's, or bind the function to vfio-pci for rdma-core's mlx5_vfio)"), lines[3]);
        String[] one = devices("0000:03:00.1", "0000:09:00.0");
        assertEquals("1", one[0]);
        assertEquals(2, one[1].split("\n").length, one[1]);
        assertTrue(one[2].startsWith("prmkit devices: there is no PCI function 0000:09:00.0"), one[2]);
    }

    @Test
    void demoThroughVfioWithTheStandInPreloaded() throws Exception {
        Path lib = StandInBuild.library();
        ProcessBuilder pb = new ProcessBuilder(CliProcessTest.javaCommand(List.of("demo", "--device", "vfio:0000:5e:00.0", "--packets", "20000")));
        pb.environment().put("LD_PRELOAD", lib.toString());
        Child.Result r = Child.run(pb, Duration.ofMinutes(3));
        String out = r.stdout();
        assertEquals(0, r.exit(), r.output());
        assertTrue(out.startsWith("vfio: the VFIO stand-in is preloaded (" + lib + "): 0000:5e:00.0 is a soft HCA in this process, reached through VFIO\n"), out);
        assertTrue(out.contains("\nbring-up: 0000:5e:00.0, device "), out);
        assertTrue(out.contains("  device      RX dropped 0, DMA faults 0\n"), out);
        String last = out.strip().substring(out.strip().lastIndexOf('\n') + 1);
        assertTrue(last.matches("demo: tx \\d+ frames, rx \\d+ frames, lost 0, corrupt 0, tx errors recovered 1, [0-9.]+ Mpps"), last);
    }

    @Test
    void demoOnAFunctionThatIsNotThereSaysSoInOneLine() throws Exception {
        ProcessBuilder pb = new ProcessBuilder(CliProcessTest.javaCommand(List.of("demo", "--device", "vfio:0000:fe:1f.7", "--packets", "64")));
        Child.Result r = Child.run(pb, Duration.ofMinutes(2));
        assertEquals(1, r.exit(), r.output());
        assertEquals("", r.stdout());
        assertTrue(r.stderr().startsWith("prmkit demo: there is no PCI function 0000:fe:1f.7"), r.stderr());
        assertFalse(r.stderr().contains("Exception"), r.stderr());
        assertEquals(1, r.stderr().strip().split("\n").length, r.stderr());
    }
}

package io.prmkit.platform.vfio;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.prmkit.softhca.SoftHca;
import io.prmkit.softhca.vfio.StandInBuild;
import io.prmkit.softhca.vfio.VfioStandIn;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every way opening a function can be refused, through the back end's real system calls answered by
 * the VFIO stand-in: each is one sentence (no line break, one full stop at the end) that names the
 * function and says what to do.
 */
class VfioRefusalTest {
    @TempDir
    Path root;

    private String refusal(VfioStandIn.SysfsFunction f, String pci) {
        Path lib = StandInBuild.library();
        try (VfioStandIn s = VfioStandIn.attach(lib, root, f, new SoftHca.Options(), null)) {
            VfioException e = assertThrows(VfioException.class, () -> Vfio.open(pci, lib).close());
            String m = e.getMessage();
            assertFalse(m.contains("\n"), m);
            assertTrue(m.endsWith("."), m);
            assertFalse(java.util.regex.Pattern.compile("[.!?]\\s+[A-Z]").matcher(m).find(), "one sentence: " + m);
            return m;
        }
    }

    @Test
    void noSuchFunction() {
        String m = refusal(VfioStandIn.SysfsFunction.connectX4(), "0000:fe:1f.7");
        assertTrue(m.startsWith("there is no PCI function 0000:fe:1f.7"), m);
        assertTrue(m.contains("lspci -D -d 15b3:"), m);
    }

    @Test
    void notAPciAddress() {
        String m = refusal(VfioStandIn.SysfsFunction.connectX4(), "5e:00.0");
        assertTrue(m.startsWith("'5e:00.0' is not a PCI address"), m);
    }

    @Test
    void boundToTheKernelDriver() {
        VfioStandIn.SysfsFunction f = VfioStandIn.SysfsFunction.connectX4().withDriver("mlx5_core");
        String m = refusal(f, f.pci());
        assertTrue(m.startsWith(f.pci() + " is bound to mlx5_core, not vfio-pci: unbind it and bind it to vfio-pci"), m);
    }

    @Test
    void boundToNoDriver() {
        VfioStandIn.SysfsFunction f = VfioStandIn.SysfsFunction.connectX4().withDriver("");
        assertTrue(refusal(f, f.pci()).startsWith(f.pci() + " is bound to no driver: bind it to vfio-pci"));
    }

    @Test
    void noIommuGroup() {
        VfioStandIn.SysfsFunction f = VfioStandIn.SysfsFunction.connectX4().withGroup(-1);
        String m = refusal(f, f.pci());
        assertTrue(m.startsWith(f.pci() + " is in no IOMMU group: enable the IOMMU"), m);
    }

    @Test
    void noPermissionOnTheGroup() {
        VfioStandIn.SysfsFunction f = VfioStandIn.SysfsFunction.connectX4().withDenyGroup(true);
        String m = refusal(f, f.pci());
        assertTrue(m.startsWith("no permission to open /dev/vfio/42 for " + f.pci() + ": run as root"), m);
    }

    @Test
    void probeSaysWhatSysfsSays() {
        Path lib = StandInBuild.library();
        VfioStandIn.SysfsFunction f = VfioStandIn.SysfsFunction.connectX4().withDriver("mlx5_core");
        try (VfioStandIn s = VfioStandIn.attach(lib, root, f, new SoftHca.Options(), null)) {
            Vfio.Probe p = Vfio.probe(f.pci(), new Vfio.Host(Path.of("/sys"), Path.of("/dev"), Posix.library(lib)));
            assertEquals(0x15b3, p.vendor());
            assertEquals(0x1013, p.device());
            assertEquals(Optional.of("mlx5_core"), p.driver());
            assertEquals(42, p.iommuGroup());
            assertTrue(p.refusal().orElseThrow().contains("not vfio-pci"));
        }
    }
}

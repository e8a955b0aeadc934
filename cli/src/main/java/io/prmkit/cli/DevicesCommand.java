package io.prmkit.cli;

import io.prmkit.platform.vfio.Vfio;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code prmkit devices}: the mlx5 PCI functions of this machine and whether prmkit can drive them. */
@Command(
        name = "devices",
        mixinStandardHelpOptions = true,
        description = {
            "Lists the Mellanox/NVIDIA (vendor 15b3) PCI functions under /sys/bus/pci/devices: PCI address, device id, "
                    + "bound driver, IOMMU group, whether prmkit's VFIO back end can open it (or what to do so that it can), "
                    + "and whether rdma-core's DEVX can open it (the kernel's RDMA device, or rdma-core's mlx5_vfio on a function bound to vfio-pci). With addresses, only those. docs/hardware.md says how to "
                    + "give a card to prmkit."
        },
        exitCodeList = {"0:listed (also when there are none)", "1:an address given does not exist"})
final class DevicesCommand implements Callable<Integer> {
    static final int MELLANOX = 0x15b3;

    @Spec
    CommandSpec spec;

    @Parameters(paramLabel = "PCI", arity = "0..*", description = "PCI addresses to show (default: every function of vendor 15b3).")
    List<String> addresses = new ArrayList<>();

    @Option(names = "--sysfs", paramLabel = "DIR", defaultValue = "/sys", hidden = true, description = "Where sysfs is (for tests).")
    Path sysfs;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        List<Vfio.Probe> found = new ArrayList<>();
        int status = PrmkitCli.OK;
        if (addresses.isEmpty()) {
            found.addAll(Vfio.list(MELLANOX, sysfs));
        } else {
            for (String a : addresses) {
                Vfio.Probe p = Vfio.probe(a, sysfs);
                if (p.vendor() < 0) {
                    spec.commandLine().getErr().println("prmkit devices: " + p.refusal().orElse("there is no PCI function " + a + "."));
                    status = PrmkitCli.INPUT_ERROR;
                } else {
                    found.add(p);
                }
            }
        }
        if (found.isEmpty()) {
            if (addresses.isEmpty()) {
                out.println("No Mellanox/NVIDIA (15b3) PCI function under " + sysfs.resolve("bus/pci/devices")
                        + ": put a ConnectX card in this machine (docs/hardware.md says how to give it to prmkit), or run prmkit demo on the soft HCA.");
            }
            return status;
        }
        out.printf(Locale.ROOT, "%-13s %-9s %-10s %-6s %s%n", "PCI", "ID", "DRIVER", "GROUP", "PRMKIT");
        for (Vfio.Probe p : found) {
            List<String> rdma = Vfio.rdmaDevices(p.pci(), sysfs);
            String vfio = p.refusal().map(r -> "vfio: no: " + r).orElse("vfio: yes (prmkit demo --device vfio:" + p.pci() + ")");
            String devx;
            if (!rdma.isEmpty()) devx = "devx: yes (prmkit demo --device devx:" + rdma.get(0) + ")";
            else if (p.driver().orElse("").equals("vfio-pci") && p.refusal().isEmpty()) devx = "devx: yes, through rdma-core's mlx5_vfio (prmkit demo --device devx:" + p.pci() + ")";
            else devx = "devx: no RDMA device (load mlx5_ib for the kernel's, or bind the function to vfio-pci for rdma-core's mlx5_vfio)";
            out.printf(Locale.ROOT, "%-13s %04x:%04x %-10s %-6s %s; %s%n", p.pci(), p.vendor(), p.device(), p.driver().orElse("-"),
                    p.iommuGroup() < 0 ? "-" : Integer.toString(p.iommuGroup()), vfio, devx);
        }
        return status;
    }
}

package io.prmkit.driver.devx;

import io.prmkit.driver.cmd.CommandTrace;
import io.prmkit.softhca.CapsProfile;
import io.prmkit.softhca.SoftHca;
import io.prmkit.softhca.vfio.VfioStandIn;
import java.io.PrintStream;
import java.nio.file.Path;

/**
 * Runs in a JVM of its own with the VFIO stand-in preloaded (DevxBackEndTest starts it): serves a
 * soft HCA behind the stand-in, lets rdma-core's mlx5_vfio provider (the system's libmlx5) bring it
 * up, opens it with {@link DevxDevice} and runs {@link PortScenario} over DEVX. Prints one fact per
 * line for the test: {@code CMD <line>} for every command the driver sent through DEVX, {@code
 * RESULT ...}, {@code OBJECTS <map>} while the port was open, {@code LIVE <map>} after everything was
 * closed, {@code FAULTS}, {@code ERROR <device error>}, and {@code PASSED} or {@code FAILED <why>}.
 */
public final class DevxBackEndMain {
    public static void main(String[] args) {
        PrintStream out = new PrintStream(System.out, true);
        Path library = Path.of(args[0]);
        Path root = Path.of(args[1]);
        long frames = Long.parseLong(args[2]);
        VfioStandIn.Function fn = VfioStandIn.Function.connectX4();
        // The ConnectX-4 whose capabilities the soft HCA reports, with DEVX: user contexts, umems, and umems of
        // uid 0, which mlx5_vfio requires of a function.
        SoftHca.Options options = new SoftHca.Options().caps(CapsProfile.connectX4().withDevx());
        int exit = 1;
        try (VfioStandIn standIn = VfioStandIn.attach(library, root, fn, options, null)) {
            SoftHca hca = standIn.device();
            try {
                PortScenario.Result r;
                try (DevxDevice dev = DevxDevice.open("vfio:" + fn.pci(),
                        DevxDevice.Options.defaults().withMemory(16L << 20).withTrace(CommandTrace.lines(l -> out.println("CMD " + l), false)))) {
                    r = PortScenario.run(dev, hca::liveObjects, frames);
                    out.println("MEMORY " + dev.dma().allocatedBytes());
                }
                out.println("RESULT sent=" + r.sent() + " received=" + r.received() + " tx=" + r.txPackets() + " rx=" + r.rxPackets());
                out.println("OBJECTS " + r.objectsWhileOpen());
                out.println("PASSED");
                exit = 0;
            } catch (Throwable t) {
                out.println("FAILED " + t);
                t.printStackTrace(out);
            }
            out.println("LIVE " + hca.liveObjects());
            out.println("FAULTS " + hca.iommu().faults() + " mappings " + hca.iommu().mappings());
            out.println("ERROR " + hca.error());
        }
        out.println("DONE");
        System.exit(exit);
    }
}

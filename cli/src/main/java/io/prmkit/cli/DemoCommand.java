package io.prmkit.cli;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code prmkit demo}: the driver and its datapath on a soft HCA cabled to itself. */
@Command(
        name = "demo",
        mixinStandardHelpOptions = true,
        description = {
            "Brings up a soft ConnectX HCA with the driver, opens an Ethernet port cabled to itself, sends a traffic mix "
                    + "(UDP, VLAN insertion, TCP/UDP checksum offload over IPv4 and IPv6, short frames, an LSO send, frames "
                    + "from a UMR-registered region, one bad WQE that must be recovered from), compares every received frame "
                    + "byte for byte with what the wire must carry, and tears everything down.",
            "The last line is:",
            "  demo: tx N frames, rx N frames, lost L, corrupt C,",
            "        tx errors recovered E, X Mpps   (one line)",
            "where tx counts the frames that reached the wire, lost is tx - rx, and X is the frame rate of the traffic phase."
        },
        exitCodeList = {
            "0:nothing was lost or corrupt, and the bad WQE was recovered from",
            "1:frames were lost or corrupt, the bad WQE was not recovered from, or the --pcap FILE cannot be written"
        })
final class DemoCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(names = "--packets", paramLabel = "N", defaultValue = "2000000", description = "Packets to send (default: ${DEFAULT-VALUE}).")
    int packets;

    @Option(names = "--queues", paramLabel = "Q", defaultValue = "1", description = "Queue pairs, one thread each, RSS spreading the flows (default: ${DEFAULT-VALUE}).")
    int queues;

    @Option(names = "--size", paramLabel = "BYTES", defaultValue = "64", description = "Length of the plain frames without FCS, 64..1514 (default: ${DEFAULT-VALUE}).")
    int size;

    @Option(names = "--pcap", paramLabel = "FILE", description = "Write every frame on the wire to FILE (pcap, for tshark/Wireshark); "
            + "- writes it to standard output and the report to standard error (prmkit demo --pcap - | tshark -r -).")
    Path pcap;

    @Option(names = "--trace", description = "Print every command of bring-up and teardown.")
    boolean trace;

    @Option(names = "--device", paramLabel = "DEVICE", defaultValue = "soft-hca",
            description = "soft-hca (default); vfio:PCI: a function bound to vfio-pci, e.g. vfio:0000:03:00.0; or devx:NAME: a function "
                    + "the kernel keeps, through rdma-core's DEVX, NAME its RDMA device (devx:mlx5_0) or PCI address (a function bound to "
                    + "vfio-pci is then brought up by rdma-core's mlx5_vfio). A card's port must be cabled to itself. With the VFIO stand-in "
                    + "preloaded (LD_PRELOAD, docs/hardware.md) vfio:PCI and devx:PCI are a soft HCA behind it.")
    String device;

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        if (packets < 32 || packets > 100_000_000) return usage(err, "--packets " + packets + " outside 32..100000000");
        if (queues < 1 || queues > 16) return usage(err, "--queues " + queues + " outside 1..16");
        if (size < 64 || size > 1514) return usage(err, "--size " + size + " outside 64..1514");
        String vfioPci = null, devx = null;
        if (device.startsWith("vfio:")) {
            vfioPci = device.substring("vfio:".length());
        } else if (device.startsWith("devx:") && device.length() > "devx:".length()) {
            devx = device.substring("devx:".length());
        } else if (!device.equals("soft-hca")) {
            return usage(err, "--device " + device + ": give soft-hca, vfio:PCI (e.g. vfio:0000:03:00.0) or devx:NAME (e.g. devx:mlx5_0); prmkit devices lists them");
        }
        boolean captureOnStdout = pcap != null && Demo.toStandardOutput(pcap);
        if (captureOnStdout && System.console() != null && System.console().isTerminal())
            return usage(err, "--pcap - writes binary pcap to standard output, which is a terminal here; pipe it (--pcap - | tshark -r -) or name a FILE");
        // With the capture on standard output, everything else goes to standard error.
        PrintWriter report = captureOnStdout ? err : out;
        Demo.Result r;
        try {
            r = new Demo(packets, queues, size, pcap, trace, report, vfioPci, devx).run();
        } catch (Demo.CannotCapture e) {
            err.println(e.getMessage());
            return PrmkitCli.INPUT_ERROR;
        }
        if (pcap != null && !captureOnStdout && r.pcapProblem().isEmpty()) report.println("pcap: " + pcap + " (tshark -r " + pcap + ")");
        report.println(r.line());
        report.flush();
        if (!r.pcapProblem().isEmpty()) {
            err.println(r.pcapProblem());
            return PrmkitCli.INPUT_ERROR;
        }
        if (r.lost() != 0 || r.corrupt() != 0 || r.recovered() != 1) return PrmkitCli.INPUT_ERROR;
        // --pcap - | tshark -c N: the capture's reader stopped early, as for any command whose reader goes away
        return r.captureReaderGone() ? StandardOutput.READER_GONE : PrmkitCli.OK;
    }

    private static int usage(PrintWriter err, String what) {
        err.println("prmkit demo: " + what);
        return 2;
    }
}

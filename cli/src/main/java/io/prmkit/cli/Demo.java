package io.prmkit.cli;

import io.prmkit.demo.LoopbackRun;
import io.prmkit.demo.TrafficMix;
import io.prmkit.demo.WireCheck;
import io.prmkit.driver.cmd.CommandTrace;
import io.prmkit.driver.core.DeviceOptions;
import io.prmkit.driver.core.Mlx5Device;
import io.prmkit.driver.core.Mlx5Function;
import io.prmkit.driver.devx.DevxDevice;
import io.prmkit.driver.dp.PacketPool;
import io.prmkit.driver.dp.RxQueue;
import io.prmkit.driver.dp.TxQueue;
import io.prmkit.driver.eth.EthPort;
import io.prmkit.driver.eth.EthPortConfig;
import io.prmkit.driver.eth.PortStats;
import io.prmkit.dsl.Words;
import io.prmkit.pipeline.Inputs;
import io.prmkit.softhca.CapsProfile;
import io.prmkit.platform.DmaMemory;
import io.prmkit.platform.PciFunction;
import io.prmkit.platform.devx.DevxException;
import io.prmkit.platform.vfio.Vfio;
import io.prmkit.platform.vfio.VfioException;
import io.prmkit.softhca.SoftHca;
import io.prmkit.softhca.vfio.VfioStandIn;
import io.prmkit.softhca.wire.PcapWriter;
import io.prmkit.softhca.wire.Wire;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What {@code prmkit demo} does: a soft HCA whose port is cabled to itself, brought up by the driver;
 * an Ethernet port with {@code queues} queue pairs; the {@link TrafficMix} sent on every queue (one
 * thread each) with a UMR-registered region and one bad WQE on queue 0, every received frame checked
 * byte for byte; then teardown. Prints as it goes; {@link #run} returns the result.
 */
final class Demo {
    /** RQ and window sizes: no RQ can run dry however RSS spreads the flows. */
    private static final int WINDOW = 512;
    private static final int UMR_FRAMES = 64;

    /**
     * What happened; {@code pcapProblem} is empty, or why the {@code --pcap} capture is incomplete;
     * {@code captureReaderGone}: the reader of a capture on standard output stopped reading (| tshark -c N).
     */
    record Result(long tx, long rx, long lost, long corrupt, long recovered, double mpps, String pcapProblem, boolean captureReaderGone) {
        String line() {
            return String.format(Locale.ROOT, "demo: tx %d frames, rx %d frames, lost %d, corrupt %d, tx errors recovered %d, %.2f Mpps",
                    tx, rx, lost, corrupt, recovered, mpps);
        }
    }

    private final int packets;
    private final int queues;
    private final int size;
    private final Path pcap;
    private boolean captureReaderGone;
    private final boolean trace;
    private final PrintWriter out;
    /** null: the soft HCA; else the PCI address of a function to open through VFIO. */
    private final String vfioPci;
    /** null, or what to open through rdma-core's DEVX: an RDMA device name or a PCI address. */
    private final String devx;

    Demo(int packets, int queues, int size, Path pcap, boolean trace, PrintWriter out) {
        this(packets, queues, size, pcap, trace, out, null);
    }

    Demo(int packets, int queues, int size, Path pcap, boolean trace, PrintWriter out, String vfioPci) {
        this(packets, queues, size, pcap, trace, out, vfioPci, null);
    }

    Demo(int packets, int queues, int size, Path pcap, boolean trace, PrintWriter out, String vfioPci, String devx) {
        this.vfioPci = vfioPci;
        this.devx = devx;
        this.packets = packets;
        this.queues = queues;
        this.size = size;
        this.pcap = pcap;
        this.trace = trace;
        this.out = out;
    }

    Result run() throws InterruptedException, CannotCapture {
        try {
            return runCapturing();
        } finally {
            synchronized (captureEnd) {
                // a run that failed before finishCapture: no note at the JVM's exit
                captureFinished = true;
                if (signalNote != null && !interrupted) {
                    try {
                        Runtime.getRuntime().removeShutdownHook(signalNote);
                    } catch (IllegalStateException shuttingDown) {
                        // the hook finds the capture finished
                    }
                }
            }
        }
    }

    private Result runCapturing() throws InterruptedException, CannotCapture {
        TrafficMix mix = new TrafficMix(size, queues); // its flows each leave from one queue
        // Opened before bring-up: a capture that cannot even start fails the demo before it begins. It taps
        // the soft HCA's wire (its port cabled to itself) once the device exists.
        PcapWriter tap = null;
        if (pcap != null) {
            try {
                // FileOutputStream.getChannel: a FileChannel over fd 1 writes the direct buffer with no copy (Channels.newChannel allocates)
                tap = toStandardOutput(pcap) ? new PcapWriter(new FileOutputStream(FileDescriptor.out).getChannel(), PcapWriter.WALL_CLOCK)
                        : new PcapWriter(pcap);
            } catch (IOException e) {
                throw new CannotCapture(cannotWrite(e));
            }
            noteOnSignal(tap);
        }
        List<String> commands = new ArrayList<>();
        long t0 = System.nanoTime();
        SoftHca.Options options = new SoftHca.Options()
                .caps(CapsProfile.defaults().with(1, "reg_umr_sq", 1, true, true))
                .loopback(true);
        SoftHca hca = null;
        VfioStandIn standIn = null;
        PciFunction function = null;
        DevxDevice devxDevice = null;
        if (devx != null) {
            // rdma-core's DEVX: with the VFIO stand-in preloaded, a soft HCA of this process that rdma-core's own
            // mlx5_vfio brings up; else the kernel's device (mlx5_ib), or mlx5_vfio on a function bound to vfio-pci.
            java.util.Optional<Path> lib = VfioStandIn.preloaded();
            boolean viaVfio = lib.isPresent() || boundToVfioPci(devx);
            if (lib.isPresent()) {
                if (!io.prmkit.platform.devx.Devx.isPciAddress(devx)) {
                    closeQuietly(tap);
                    throw new CannotCapture("prmkit demo: with the VFIO stand-in preloaded give devx:PCI (a PCI address such as 0000:5e:00.0), not " + devx);
                }
                try {
                    standIn = VfioStandIn.attach(lib.get(), Files.createTempDirectory("prmkit-vfio-standin-"),
                            VfioStandIn.SysfsFunction.connectX4().withPci(devx), options.caps(CapsProfile.defaults().with(1, "reg_umr_sq", 1, true, true).withDevx()), null);
                } catch (IOException e) {
                    closeQuietly(tap);
                    throw new CannotCapture("prmkit demo: cannot make the VFIO stand-in's sysfs tree: " + e.getMessage());
                }
                out.println("devx: the VFIO stand-in is preloaded (" + lib.get() + "): " + devx
                        + " is a soft HCA in this process, brought up by rdma-core's mlx5_vfio and reached through DEVX");
            }
            if (standIn == null && pcap != null) {
                closeQuietly(tap);
                throw new CannotCapture("prmkit demo: --pcap taps the soft HCA's wire; a card's frames are on its own cable (capture them there)");
            }
            try {
                devxDevice = DevxDevice.open(viaVfio ? "vfio:" + devx : devx,
                        DevxDevice.Options.defaults().withTrace(CommandTrace.lines(commands::add, false)));
            } catch (DevxException e) {
                if (standIn != null) standIn.close();
                closeQuietly(tap);
                throw new CannotCapture("prmkit demo: " + e.getMessage());
            }
        } else if (vfioPci == null) {
            hca = SoftHca.create(options);
            function = hca.function();
        } else {
            // With the VFIO stand-in preloaded, the function it serves is a soft HCA of this process; else a real card.
            java.util.Optional<Path> lib = VfioStandIn.preloaded();
            if (lib.isPresent()) {
                try {
                    standIn = VfioStandIn.attach(lib.get(), Files.createTempDirectory("prmkit-vfio-standin-"),
                            VfioStandIn.SysfsFunction.connectX4().withPci(vfioPci), options, null);
                } catch (IOException e) {
                    closeQuietly(tap);
                    throw new CannotCapture("prmkit demo: cannot make the VFIO stand-in's sysfs tree: " + e.getMessage());
                }
                out.println("vfio: the VFIO stand-in is preloaded (" + lib.get() + "): " + vfioPci + " is a soft HCA in this process, reached through VFIO");
            }
            if (standIn == null && pcap != null) {
                closeQuietly(tap);
                throw new CannotCapture("prmkit demo: --pcap taps the soft HCA's wire; a card's frames are on its own cable (capture them there)");
            }
            try {
                function = Vfio.open(vfioPci);
            } catch (VfioException e) {
                if (standIn != null) standIn.close();
                closeQuietly(tap);
                throw new CannotCapture("prmkit demo: " + e.getMessage());
            }
        }
        SoftHca device = hca != null ? hca : standIn != null ? standIn.device() : null; // null: a card
        Wire wire = device != null ? device.port().wire() : null;
        if (tap != null) {
            try {
                wire.tap(tap);
            } catch (IOException e) {
                throw new AssertionError("a wire without a tap has no capture to complete", e);
            }
        }
        PacketPool badPool = null; // not the port's: its lkey names no mkey
        Mlx5Function dev = devxDevice;
        DmaMemory dma = devxDevice != null ? devxDevice.dma() : null;
        EthPort eth = null;
        try {
            if (dev == null) {
                Mlx5Device d = Mlx5Device.open(function, DeviceOptions.defaults()
                        .withCommandTimeout(Duration.ofSeconds(10))
                        .withHealth(Duration.ofSeconds(1), 0)
                        .withTrace(CommandTrace.lines(commands::add, false)));
                dev = d;
                dma = d.dma();
            }
            long tDev = System.nanoTime();
            int devCommands = commands.size();
            // On a card the kernel keeps, promiscuous mode is the kernel's (ip link set dev <netdev> promisc on; docs/hardware.md).
            boolean ownVport = devxDevice == null || !devxDevice.kernelKeepsSteering();
            eth = EthPort.open(dev, EthPortConfig.defaults().withQueuePairs(queues).withPromiscuous(ownVport));
            long tPort = System.nanoTime();
            out.printf(Locale.ROOT, "bring-up: %s, device %d commands in %.1f ms, Ethernet port (%s, RSS) %d commands in %.1f ms%n",
                    devxDevice != null ? devxDevice.context().name() + " through DEVX" : function.name(), devCommands, ms(tDev - t0), Words.plural(queues, "queue pair"), commands.size() - devCommands, ms(tPort - tDev));
            if (trace) for (String c : commands) out.println("  " + c);
            out.flush();

            // Traffic: ids i*queues + q go out on queue q.
            WireCheck[] checks = new WireCheck[queues];
            LoopbackRun[] runs = new LoopbackRun[queues];
            TxQueue[] txs = new TxQueue[queues];
            RxQueue[] rxs = new RxQueue[queues];
            AtomicLong progress = new AtomicLong();
            AtomicLong sent = new AtomicLong();
            long expected = 0;
            for (int q = 0; q < queues; q++) {
                checks[q] = new WireCheck(mix, packets);
                LoopbackRun.expect(checks[q], q, queues, count(q));
                expected += checks[q].expectedFrames();
            }
            int umrMkey = 0;
            for (int q = 0; q < queues; q++) {
                // The port owns its pools and queues: it closes them after the traffic, in its order.
                PacketPool txPool = PacketPool.open(eth, 2048, 2048);
                PacketPool rxPool = PacketPool.open(eth, 2048, 2048);
                txs[q] = TxQueue.open(eth, q, txPool);
                rxs[q] = RxQueue.open(eth, q, rxPool);
                runs[q] = new LoopbackRun(txs[q], rxs[q], txPool, mix, checks[q], q, queues, count(q), progress, expected,
                        Duration.ofSeconds(5).toNanos()).withWindow(sent, WINDOW).withAllocationWindow(count(q) / 2);
                if (q == 0) {
                    PacketPool region = PacketPool.open(eth, UMR_FRAMES, 2048);
                    umrMkey = eth.umrMkey(4);
                    if (!txs[0].registerUmr(umrMkey, 0x4000_0000L, region, 4)) throw new IllegalStateException("the UMR WQE found no room on SQ 0");
                    runs[0].withUmrPool(region, Math.min(UMR_FRAMES, count(0)));
                    // An lkey no mkey has: the first WQE through it must fail.
                    badPool = new PacketPool(dma, 1, 2048, eth.lkey() ^ 0x7fff00);
                    runs[0].withBadWqe(badPool);
                }
            }
            // The driver warns of the first error CQE on each SQ; on queue 0's SQ that is the bad WQE sent on
            // purpose, which the report states as expected: hold that one warning back, let any other through.
            holdBackWarning("SQ 0x" + Integer.toHexString(txs[0].sqn()) + ": ");
            Thread[] threads = new Thread[queues];
            long tStart = System.nanoTime();
            for (int q = 0; q < queues; q++) {
                threads[q] = new Thread(runs[q], "demo-queue-" + q);
                threads[q].start();
            }
            long frames = expected;
            try (Progress p = Progress.start("demo", () -> String.format(Locale.ROOT, "%,d of %,d frames checked (%d%%)",
                    progress.get(), frames, frames == 0 ? 100 : progress.get() * 100 / frames))) {
                for (Thread t : threads) t.join();
            }
            long trafficNanos = 0;
            for (int q = 0; q < queues; q++) {
                if (runs[q].failure() != null) throw new IllegalStateException("queue " + q + ": " + runs[q].failure(), runs[q].failure());
                trafficNanos = Math.max(trafficNanos, runs[q].nanos());
            }
            for (int q = 1; q < queues; q++) checks[0].merge(checks[q]);
            WireCheck all = checks[0];
            String pcapProblem = pcap == null ? "" : finishCapture(wire);

            // Counted in an array: a boxed count per packet would be the run's only per-packet garbage.
            TrafficMix.Kind[] kindList = TrafficMix.Kind.values();
            long[] kinds = new long[kindList.length];
            for (int id = 0; id < packets; id++) kinds[mix.kind(id).ordinal()]++;
            out.printf(Locale.ROOT, "traffic: %d packets of %d bytes on %s, bursts of %d, every received frame compared byte for byte with the expected wire frame%n",
                    packets, size, Words.plural(queues, "queue"), LoopbackRun.BURST);
            for (TrafficMix.Kind k : kindList) {
                if (kinds[k.ordinal()] > 0) out.printf(Locale.ROOT, "  %-11s %9d%s%n", k, kinds[k.ordinal()], describe(k));
            }
            out.printf(Locale.ROOT, "  UMR: %d frames sent from a region registered behind mkey 0x%x (4 KLM entries)%n", Math.min(UMR_FRAMES, count(0)), umrMkey);
            long errors = 0, recovered = 0, nops = 0, doorbells = 0, completions = 0, rxErrors = 0, rxPackets = 0, shortfalls = 0;
            long sessions = 0, sessionCompletions = 0;
            for (int q = 0; q < queues; q++) {
                errors += txs[q].errors();
                recovered += txs[q].recoveries();
                nops += txs[q].nops();
                doorbells += txs[q].doorbells();
                completions += txs[q].completions();
                rxErrors += rxs[q].errors();
                rxPackets += rxs[q].packets();
                shortfalls += rxs[q].refillShortfalls();
                sessions += rxs[q].compressedSessions();
                sessionCompletions += rxs[q].compressedCompletions();
            }
            // The one error the mix provokes, said once as the expected event it is (the driver's warning for it was held back).
            String bad = txs[0].lastError();
            out.printf(Locale.ROOT, "  bad WQE     sent on purpose through an lkey no mkey has: %s%n", bad.isEmpty() ? "did not fail (it should have)"
                    : bad + "; as expected, the SQ moved ERR->RST->RDY and sending went on");
            if (!all.firstProblem().isEmpty()) out.println("  first corrupt frame: " + all.firstProblem());

            PortStats st = eth.queryStats();
            out.println("counters:");
            out.printf(Locale.ROOT, "  vport       tx %d frames %d bytes, rx %d frames %d bytes, rx out of buffer %d%n",
                    st.txVportUnicastPackets(), st.txVportUnicastBytes(), st.rxVportUnicastPackets(), st.rxVportUnicastBytes(), st.rxOutOfBuffer());
            out.printf(Locale.ROOT, "  phy (PPCNT) tx %d frames, rx %d frames, FCS errors %d%n", st.txPacketsPhy(), st.rxPacketsPhy(), st.rxCrcErrorsPhy());
            out.printf(Locale.ROOT, "  driver      TX %d WQEs completed, %d NOP pads, %d doorbells, %d error CQEs; RX %d packets, %d error CQEs, %d refill shortfalls%n",
                    completions, nops, doorbells, errors, rxPackets, rxErrors, shortfalls);
            out.printf(Locale.ROOT, "  RX CQEs     CQE compression %s: %d compressed sessions held %d of the completions%n",
                    eth.cqeCompression() ? "on" : "off", sessions, sessionCompletions);
            if (device != null) out.printf(Locale.ROOT, "  device      RX dropped %d, DMA faults %d%n", device.rxDropped(), device.dmaFaults());
            // The first half of each queue's frames is the warm-up (the JIT compiles the loops); what the queue
            // threads allocate while sending the second half is what a packet costs in garbage once compiled.
            long allocBytes = 0, allocSent = 0, allocReceived = 0;
            int measured = 0;
            for (LoopbackRun run : runs) {
                if (run.allocatedBytes() < 0) continue;
                measured++;
                allocBytes += run.allocatedBytes();
                allocSent += run.allocationWindowSent();
                allocReceived += run.allocationWindowReceived();
            }
            if (measured == 0) {
                out.printf(Locale.ROOT, "  allocation  not measured: no queue's measuring window (the second half of its sends) opened and closed in so short a run%n");
            } else {
                out.printf(Locale.ROOT, "  allocation  queue threads allocated %d bytes while sending %d and receiving %d packets (the second half of %s sends)%n",
                        allocBytes, allocSent, allocReceived, measured == queues ? "each queue's" : measured + " of the " + queues + " queues'");
            }
            // The last line's rate includes the JIT compiling the datapath, most of a short run on two
            // cores; the second half of the sends shows what the compiled code does.
            double mpps = all.good() / (trafficNanos / 1e9) / 1e6;
            long windowFrames = 0, windowNanos = 0;
            for (LoopbackRun run : runs) {
                windowFrames += run.windowFrames();
                windowNanos = Math.max(windowNanos, run.windowNanos());
            }
            if (windowNanos > 0) {
                out.printf(Locale.ROOT, "  rate        %.2f Mpps over all the traffic, %.2f Mpps over the second half of each queue's sends"
                        + " (the first half includes the JIT compiling the datapath)%n",
                        mpps, windowFrames / (windowNanos / 1e9) / 1e6);
            }
            out.flush();

            long tDown = System.nanoTime();
            int before = commands.size();
            eth.close();
            eth = null;
            badPool.close(); // its one buffer came back when the bad WQE's error was recovered
            badPool = null;
            dev.close();
            dev = null;
            out.printf(Locale.ROOT, "teardown: %d commands in %.1f ms%n", commands.size() - before, ms(System.nanoTime() - tDown));
            if (trace) for (String c : commands.subList(before, commands.size())) out.println("  " + c);
            return new Result(all.expectedFrames(), all.good(), all.lost(), all.corrupt(), recovered, mpps, pcapProblem, captureReaderGone);
        } finally {
            if (eth != null) closeQuietly(eth);
            if (badPool != null) closeQuietly(badPool);
            if (dev != null) closeQuietly(dev);
            if (hca != null) closeQuietly(hca);
            if (function != null && vfioPci != null) closeQuietly(function);
            if (standIn != null) closeQuietly(standIn);
            if (wire != null) closeQuietly(wire);
            else closeQuietly(tap);
            TX_LOG.setFilter(null);
        }
    }

    /** Whether {@code pci} is a PCI function bound to vfio-pci (then rdma-core's mlx5_vfio opens it for DEVX). */
    private static boolean boundToVfioPci(String pci) {
        if (!io.prmkit.platform.devx.Devx.isPciAddress(pci)) return false;
        try {
            return Files.readSymbolicLink(Path.of("/sys/bus/pci/devices", pci, "driver")).getFileName().toString().equals("vfio-pci");
        } catch (IOException | UnsupportedOperationException e) {
            return false;
        }
    }

    /** The driver's transmit queue logger, through java.util.logging (System.Logger's default back end). */
    private static final java.util.logging.Logger TX_LOG = java.util.logging.Logger.getLogger(TxQueue.class.getName());

    /** Drops the first warning of the TX queue logger that starts with {@code prefix}; later ones pass. */
    private static void holdBackWarning(String prefix) {
        boolean[] held = {false};
        TX_LOG.setFilter(r -> {
            if (held[0] || r.getMessage() == null || !r.getMessage().startsWith(prefix)) return true;
            held[0] = true;
            return false;
        });
    }

    /**
     * Completes the capture. One that failed part way (disk full, a pipe's reader gone) is not left
     * behind as a file that looks whole: a regular file is removed, and the problem is returned.
     */
    private String finishCapture(Wire wire) {
        synchronized (captureEnd) {
            if (interrupted) return ""; // the signal's note said what the capture holds; the JVM is going down
            try {
                Runtime.getRuntime().removeShutdownHook(signalNote);
            } catch (IllegalStateException shuttingDown) {
                // the hook runs once this lock is free, and finds the capture finished
            }
            try {
                return finishCaptureLocked(wire);
            } finally {
                captureFinished = true;
            }
        }
    }

    /** Guards the end of the capture: the run's own end, or a signal's (see {@link #noteOnSignal}). */
    private final Object captureEnd = new Object();
    private boolean captureFinished;
    private boolean interrupted;
    private Thread signalNote;

    /**
     * A run stopped by a signal (Ctrl-C, kill) while capturing: the JVM's shutdown hook closes the
     * capture under the writer's lock, which waits out a record being written and writes the
     * buffered records whole (frames sent after it are dropped), so the file ends at a record
     * boundary; standard error then says so and how many frames it holds. A run that finished its
     * capture has nothing to add.
     */
    private void noteOnSignal(PcapWriter w) {
        signalNote = new Thread(() -> {
            synchronized (captureEnd) {
                if (captureFinished) return;
                interrupted = true;
                String what = toStandardOutput(pcap) ? "the capture on standard output" : "the capture " + pcap;
                try {
                    w.close();
                    System.err.println("prmkit demo: interrupted: " + what + " holds the " + w.frames()
                            + " frames written before the signal and ends at a record boundary (tshark reads it)");
                } catch (IOException e) {
                    System.err.println("prmkit demo: interrupted: " + what + " is incomplete (" + e.getMessage() + ")");
                }
                System.err.flush();
            }
        }, "prmkit-demo-signal");
        Runtime.getRuntime().addShutdownHook(signalNote);
    }

    private String finishCaptureLocked(Wire wire) {
        try {
            wire.untap();
            return "";
        } catch (IOException e) {
            if (toStandardOutput(pcap) && StandardOutput.brokenPipe(e)) {
                captureReaderGone = true; // the reader has what it wanted: not a failure to report
                return "";
            }
            String why = cannotWrite(e);
            try {
                if (!toStandardOutput(pcap) && Files.isRegularFile(pcap) && Files.deleteIfExists(pcap)) return why + "; the incomplete capture was removed";
            } catch (IOException ignored) {
                // fall through: say it is incomplete
            }
            return why + "; the capture is incomplete";
        }
    }

    private String cannotWrite(IOException e) {
        if (toStandardOutput(pcap)) return "prmkit demo: --pcap -: cannot write to standard output: " + e.getMessage();
        Path folder = pcap.getParent();
        String why = e instanceof NoSuchFileException && folder != null && !Files.isDirectory(folder)
                ? "no such folder " + folder
                : Inputs.reason(pcap, e);
        return pcap + ": error: cannot write: " + why;
    }

    /** {@code --pcap -}: the capture goes to standard output (for {@code | tshark -r -}), as tcpdump's {@code -w -}. */
    static boolean toStandardOutput(Path pcap) {
        return pcap.toString().equals("-");
    }

    /** The {@code --pcap} file cannot be opened: bad input, reported before anything ran. */
    static final class CannotCapture extends Exception {
        CannotCapture(String message) {
            super(message);
        }
    }

    private int count(int q) {
        return (packets - q + queues - 1) / queues;
    }

    private static String describe(TrafficMix.Kind k) {
        return switch (k) {
            case UDP4 -> "  plain UDP/IPv4";
            case VLAN_UDP4 -> "  UDP/IPv4, 802.1Q tag inserted by the device";
            case TCP4_CSUM -> "  TCP/IPv4, IPv4 and TCP checksums by the device";
            case UDP4_CSUM -> "  UDP/IPv4, IPv4 and UDP checksums by the device";
            case TCP6_CSUM -> "  TCP/IPv6, TCP checksum by the device";
            case UDP6_CSUM -> "  UDP/IPv6, UDP checksum by the device";
            case SHORT_UDP4 -> "  46..59-byte UDP/IPv4, padded to 60 by the device";
            case LSO_TCP4 -> "  LSO: " + TrafficMix.LSO_PAYLOAD + " TCP bytes cut into " + TrafficMix.LSO_MSS + "-byte segments";
        };
    }

    private static double ms(long nanos) {
        return nanos / 1e6;
    }

    private static void closeQuietly(AutoCloseable c) {
        if (c == null) return;
        try {
            c.close();
        } catch (Exception ignored) {
            // teardown after a failure: the first error is the one reported
        }
    }
}

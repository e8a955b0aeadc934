package io.prmkit.softhca;

import io.prmkit.mlx5.CmdHcaCap;
import io.prmkit.mlx5.EqDoorbell;
import io.prmkit.mlx5.Eqe;
import io.prmkit.mlx5.EqeType;
import io.prmkit.mlx5.HealthSyndrome;
import io.prmkit.mlx5.InitSeg;
import io.prmkit.mlx5.PortChangeSubtype;
import io.prmkit.platform.DmaMemory;
import io.prmkit.platform.Interrupts;
import io.prmkit.platform.Mmio;
import io.prmkit.platform.PciFunction;
import io.prmkit.softhca.cmd.Commands;
import io.prmkit.softhca.cmd.HcaState;
import io.prmkit.softhca.datapath.SoftDatapath;
import io.prmkit.softhca.device.Datapath;
import io.prmkit.softhca.device.DeviceContext;
import io.prmkit.softhca.device.DeviceObjects;
import io.prmkit.softhca.device.Events;
import io.prmkit.softhca.device.Iommu;
import java.lang.foreign.MemorySegment;
import java.util.Objects;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;

/**
 * An embedded ConnectX (mlx5) device: one PCI function ({@link #function()}) with BAR 0 (the
 * initialization segment and UAR pages), DMA memory behind an {@link Iommu}, and MSI-X vectors.
 * A driver talks to it exactly as to hardware. By default it reports the capabilities of a real
 * ConnectX-4 and runs on a device thread of its own ({@link ExecutionMode#THREAD}); in
 * {@link ExecutionMode#STEP} nothing happens until the caller runs {@link #step()} or
 * {@link #runUntilIdle()}, so every run is the same.
 *
 * <pre>{@code
 * try (SoftHca hca = SoftHca.create(new SoftHca.Options().mode(ExecutionMode.STEP))) {
 *     PciFunction f = hca.function();
 *     ... ring the command doorbell through f.bar0() ...
 *     hca.runUntilIdle();
 * }
 * }</pre>
 */
public final class SoftHca implements AutoCloseable {

    /** Device options; every setter returns {@code this}. */
    public static final class Options {
        CapsProfile caps;
        ExecutionMode mode = ExecutionMode.THREAD;
        /** null: the caps profile's page requests. */
        int[] pages;
        int logCmdqSize = 5;
        int logCmdqStride = 6;
        int initializingPolls = 2;
        int vectors = 32;
        int uars = 256;
        long dmaLimit = 1L << 30;
        Consumer<String> trace;
        boolean loopback = true;
        String name = "soft-hca:0";
        MemorySegment busBar;
        java.util.function.IntConsumer busMsi;

        /** What the device reports (default {@link CapsProfile#defaults()}: the ConnectX-4 asking for fewer pages). */
        public Options caps(CapsProfile caps) {
            this.caps = Objects.requireNonNull(caps);
            return this;
        }

        public Options mode(ExecutionMode mode) {
            this.mode = Objects.requireNonNull(mode);
            return this;
        }

        /** Pages QUERY_PAGES asks for: boot, init (both needed before INIT_HCA), regular; overrides the profile's. */
        public Options pages(int boot, int init, int regular) {
            if (boot < 0 || init < 0 || regular < 0) throw new IllegalArgumentException("page counts must be >= 0");
            this.pages = new int[] {boot, init, regular};
            return this;
        }

        /** The command queue geometry the init segment reports (log2 entries 0..5, log2 stride 6..12, fitting one 4 KiB page). */
        public Options cmdq(int logSize, int logStride) {
            if (logSize < 0 || logSize > 5 || logStride < 6 || logStride > 12 || logSize + logStride > 12) {
                throw new IllegalArgumentException("command queue of 2^" + logSize + " entries of 2^" + logStride
                        + " bytes: need log size 0..5, log stride 6..12 and one 4 KiB page at most");
            }
            this.logCmdqSize = logSize;
            this.logCmdqStride = logStride;
            return this;
        }

        /** Reads of the {@code initializing} dword that still see 1 (firmware start; bounded and deterministic). */
        public Options initializingPolls(int polls) {
            this.initializingPolls = Math.max(0, polls);
            return this;
        }

        /** UAR pages in BAR 0 after the init segment (ALLOC_UAR hands them out). */
        public Options uars(int count) {
            if (count < 1 || count > 8192) throw new IllegalArgumentException("UAR pages 1..8192: " + count);
            this.uars = count;
            return this;
        }

        /** MSI-X vectors the function has. */
        public int vectorCount() {
            return vectors;
        }

        public Options vectors(int count) {
            if (count < 1 || count > 2048) throw new IllegalArgumentException("MSI-X vectors 1..2048: " + count);
            this.vectors = count;
            return this;
        }

        public Options dmaLimit(long bytes) {
            this.dmaLimit = bytes;
            return this;
        }

        /** Every command in and out, decoded and as a hexdump, to {@code sink} (device thread). */
        public Options trace(Consumer<String> sink) {
            this.trace = sink;
            return this;
        }

        /**
         * Whether port 1 starts plugged into a loopback wire (default true: what the port sends comes
         * back to it, link up; {@code hca.port().wire()} is that wire, to tap or to fault). False: no
         * cable, link down, until the caller plugs {@link SoftHca#port()} into a wire:
         * {@code Wire.join(a.port(), b.port())} cables two devices, {@code Wire.join(hca.port(), peer)}
         * cables the device to a {@code new Port(1)} the caller drives (its {@code transmit} is a frame
         * from the far end; its sink sees what the device sends).
         */
        public Options loopback(boolean on) {
            this.loopback = on;
            return this;
        }

        public Options name(String name) {
            this.name = Objects.requireNonNull(name);
            return this;
        }

        /**
         * The device sits on a bus it does not trap: BAR 0 is {@code memory} (shared memory the host
         * maps, such as the VFIO stand-in's), which the device polls for the host's stores as hardware
         * sees bus writes ({@code PolledBar}), and MSI-X vector {@code n} is signalled by
         * {@code msi.accept(n)} instead of a bound handler. {@link SoftHca#function()} is then not
         * available (the host reaches the device through the bus). Thread mode only.
         */
        public Options bus(MemorySegment memory, java.util.function.IntConsumer msi) {
            this.busBar = Objects.requireNonNull(memory);
            this.busMsi = Objects.requireNonNull(msi);
            return this;
        }
    }

    private static final AtomicInteger THREADS = new AtomicInteger();
    private static final long HEARTBEAT_NANOS = TimeUnit.MILLISECONDS.toNanos(100);
    /**
     * How long the device thread keeps polling after its last work before it parks (system property
     * {@code prmkit.softhca.spinMicros}, default 1000): a parked thread costs a wake-up per doorbell.
     */
    private static final long SPIN_NANOS = TimeUnit.MICROSECONDS.toNanos(Long.getLong("prmkit.softhca.spinMicros", 1000));
    /**
     * The first UAR index ALLOC_UAR hands out, as the ConnectX-4 did (0x10: firmware keeps the low
     * ones); UAR index n is BAR 0 page n, so pages 1..0xf after the init segment are a gap.
     */
    static final int FIRST_UAR = 0x10;
    private static final long POLLED_PARK_NANOS = TimeUnit.MICROSECONDS.toNanos(20);

    private final ExecutionMode mode;
    private final Iommu iommu = new Iommu();
    private final DeviceObjects objects = new DeviceObjects();
    private final SoftInterrupts interrupts;
    private final SoftDma dma;
    private final Events events;
    private final SoftInitSegment initSeg;
    private final HcaState hca;
    private final CommandQueue queue;
    private final SoftDatapath datapath;
    private final io.prmkit.softhca.wire.Port port = new io.prmkit.softhca.wire.Port(1);
    private final Faults faults = new Faults(this);
    private final Bar0 bar0;
    private final PolledBar polled;
    /** How long an idle device thread parks: a polled BAR gets no wake-up from the host's stores. */
    private final long idleParkNanos;
    private final SoftFunction function;
    private final ConcurrentLinkedQueue<Runnable> tasks = new ConcurrentLinkedQueue<>();
    private final ConcurrentLinkedQueue<int[]> eqDoorbells = new ConcurrentLinkedQueue<>();
    private final Thread thread;
    private volatile boolean running = true;
    /** The device thread is about to park or parked: a doorbell must unpark it. */
    private volatile boolean sleeping;
    private volatile boolean fatal;
    private volatile Throwable error;
    private long lastBeat = System.nanoTime();

    private SoftHca(Options o) {
        CapsProfile caps = o.caps != null ? o.caps : CapsProfile.defaults();
        if (o.pages != null) caps = caps.withPages(o.pages[0], o.pages[1], o.pages[2]);
        mode = o.mode;
        if (o.busBar != null && o.mode != ExecutionMode.THREAD) throw new IllegalArgumentException("a device on a polled bus runs its own thread (ExecutionMode.THREAD)");
        interrupts = new SoftInterrupts(o.vectors, o.busMsi);
        dma = new SoftDma(iommu, o.dmaLimit);
        events = new Events(objects, iommu, interrupts::raise);
        MemorySegment general = MemorySegment.ofArray(caps.current(0));
        initSeg = new SoftInitSegment(14, 12, 1220, o.logCmdqSize, o.logCmdqStride, o.initializingPolls, CmdHcaCap.device_frequency_mhz(general));
        hca = new HcaState(iommu, objects, events, caps::max, caps::current, caps.adapter(), caps.bootPages(), caps.initPages(), caps.regularPages(), FIRST_UAR, o.uars);
        Tracer tracer = new Tracer(o.trace);
        Commands commands = new Commands(hca, o.vectors);
        tracer.commands(commands);
        queue = new CommandQueue(iommu, commands, hca, initSeg, faults, tracer, o.logCmdqSize, o.logCmdqStride);
        DeviceContext dctx = new DeviceContext(iommu, objects, events, hca.capsCurrent::get, this::wake);
        datapath = new SoftDatapath(dctx, port);
        if (o.trace != null) datapath.trace(o.trace);
        if (o.loopback) io.prmkit.softhca.wire.Wire.loopback(port);
        bar0 = new Bar0(this, FIRST_UAR, o.uars);
        polled = o.busBar != null ? new PolledBar(o.busBar, bar0, initSeg, hca.uars) : null;
        idleParkNanos = polled != null ? POLLED_PARK_NANOS : HEARTBEAT_NANOS;
        function = new SoftFunction(o.name);
        if (mode == ExecutionMode.THREAD) {
            thread = new Thread(this::loop, "soft-hca-" + THREADS.incrementAndGet());
            thread.setDaemon(true);
            thread.start();
        } else {
            thread = null;
        }
    }

    /** A new device; close it (or its function) when done. */
    public static SoftHca create(Options options) {
        return new SoftHca(options);
    }

    /** A new device with the default options (ConnectX-4 caps, device thread). */
    public static SoftHca create() {
        return new SoftHca(new Options());
    }

    /** The PCI function the driver uses. */
    public PciFunction function() {
        if (polled != null) throw new IllegalStateException("this device sits on a polled bus (Options.bus): the host reaches it through that bus, not function()");
        return function;
    }

    public Faults faults() {
        return faults;
    }

    /**
     * Port 1 as the wire sees it: plug it into a {@link io.prmkit.softhca.wire.Wire} (loopback by
     * default), tap the wire into a pcap file, read its frame counters.
     */
    public io.prmkit.softhca.wire.Port port() {
        return port;
    }

    /** Bytes of BAR 0: the init segment and the UAR pages (what a bus's BAR memory must hold at least). */
    public static long barSize(Options o) {
        return (FIRST_UAR + (long) o.uars) * Bar0.PAGE;
    }

    /**
     * The device's IOMMU, for soft-hca's own tests (mapping host memory for a harness). A user of the
     * device reads {@link #dmaFaults()}, {@link #lastDmaFaultAddress()} and {@link #dmaMappings()}.
     */
    public Iommu iommu() {
        return iommu;
    }

    /** DMA the device attempted to bus addresses nobody mapped (or past a mapping's end), as an IOMMU counts faults. */
    public long dmaFaults() {
        return iommu.faults();
    }

    /** The bus address of the last DMA fault, or -1 when there was none. */
    public long lastDmaFaultAddress() {
        return iommu.lastFaultAddress();
    }

    /** DMA mappings the host holds now (0 after a driver freed everything). */
    public int dmaMappings() {
        return iommu.mappings();
    }

    /**
     * Frames from a peer (a port joined to {@link #port()} with {@code Wire.join}) that the device has
     * taken in, each steered and then written to a receive buffer or dropped. Such frames reach the
     * device from the peer's thread and wait in an inbox until the device thread takes them, so a test
     * that sends from the far end waits for this count before it looks. (Frames on a loopback wire are
     * taken at once by the device thread that sent them and are not counted here.)
     */
    public long peerFramesTaken() {
        return datapath.peerFramesTaken();
    }

    /** Frames received on the wire that the device dropped: no steering match, no TIR or RQ, no receive WQE posted. Read after traffic stopped. */
    public long rxDropped() {
        return datapath.rxDropped();
    }

    /** Frames the vport did not take (not to its MAC addresses, promiscuous mode off for them). Read after traffic stopped. */
    public long vportFiltered() {
        return datapath.vportFiltered();
    }

    /**
     * Objects the function holds now, by kind (eq, cq, sq, rq, qp, mkey, tis, tir, rqt, flow_table,
     * flow_counter, q_counter, pd, transport_domain, uar, umem, uctx), only the kinds with any: for leak checks. Read it while
     * no command is running.
     */
    public synchronized java.util.Map<String, Integer> liveObjects() {
        java.util.Map<String, Integer> m = new java.util.TreeMap<>();
        java.util.function.BiConsumer<String, Integer> put = (k, n) -> {
            if (n > 0) m.put(k, n);
        };
        for (DeviceObjects.Kind k : DeviceObjects.Kind.values()) put.accept(k.label(), objects.count(k));
        put.accept("uar", hca.uars.size());
        return m;
    }

    /** Commands completed so far (delivery status written and ownership returned). */
    public long commandsCompleted() {
        return queue.completed();
    }

    /** Doorbells that named no posted entry (no queue, software-owned entry, slot out of range). */
    public long doorbellsIgnored() {
        return queue.ignored();
    }

    /** MSI-X interrupts raised, and those dropped because no handler was bound. */
    public long interruptsRaised() {
        return interrupts.raised();
    }

    /** The exception that stopped the device (a bug in the model), or null. */
    public Throwable error() {
        return error;
    }

    /** Whether the device is dead (fatal health syndrome). */
    public boolean isFatal() {
        return fatal;
    }

    /**
     * Does one unit of device work (a task, an EQ doorbell, a command, datapath work); false when
     * there was nothing to do. Step mode only.
     */
    public boolean step() {
        if (mode != ExecutionMode.STEP) throw new IllegalStateException("step() needs ExecutionMode.STEP; this device runs its own thread");
        if (!fatal) initSeg.heartbeat();
        return work();
    }

    /** Steps until nothing is left to do; returns the number of steps that did work. */
    public int runUntilIdle() {
        for (int n = 0; n < 10_000_000; n++) {
            if (!step()) return n;
        }
        throw new IllegalStateException("soft-hca did not go idle after 10,000,000 steps");
    }

    /**
     * The device thread: polls while there is work and for {@code spinMicros} after the last, then
     * parks until a doorbell wakes it. While it polls it never yields: with two cores and a driver
     * thread that is busy too, a yield hands the core to whatever else runs (a build, another JVM) for
     * a whole time slice, and the driver's next doorbell waits for it. Before parking it says so
     * ({@link #sleeping}) and polls once more, so a doorbell rung in between is never missed (both
     * sides write one volatile and then read the other's).
     */
    private void loop() {
        long lastWork = System.nanoTime();
        while (running) {
            boolean did = work();
            long now = System.nanoTime();
            if (did) lastWork = now;
            if (now - lastBeat >= HEARTBEAT_NANOS) {
                lastBeat = now;
                if (!fatal) initSeg.heartbeat();
            }
            if (did) continue;
            if (now - lastWork <= SPIN_NANOS) {
                Thread.onSpinWait();
                continue;
            }
            sleeping = true;
            if (work()) {
                sleeping = false;
                lastWork = System.nanoTime();
                continue;
            }
            LockSupport.parkNanos(idleParkNanos);
            sleeping = false; // a doorbell that woke us is work in the next round, which starts the spin again
        }
    }

    private boolean work() {
        try {
            boolean did = false;
            for (Runnable t; (t = tasks.poll()) != null; ) {
                t.run();
                did = true;
            }
            if (fatal) return did;
            if (polled != null) did |= polled.poll();
            for (int[] db; (db = eqDoorbells.poll()) != null; ) {
                MemorySegment word = MemorySegment.ofArray(new int[1]);
                word.set(io.prmkit.layout.PrmLayout.BE_INT, 0, db[1]);
                events.doorbell(EqDoorbell.eqn(word), EqDoorbell.consumer_index(word), db[2] != 0);
                did = true;
            }
            did |= queue.processOne();
            did |= datapath.poll();
            return did;
        } catch (Throwable t) {
            // A bug in the model: keep it for the tests, and die like firmware does.
            error = t;
            fatal(HealthSyndrome.FW_INTERNAL_ERR$VALUE, SoftInitSegment.EXT_SYND_DEVICE_EXCEPTION);
            return false;
        }
    }

    /** Wakes the device thread if it parked (an unpark per doorbell would cost the driver a lock and a signal). */
    void wake() {
        if (thread != null && sleeping) LockSupport.unpark(thread);
    }

    void submit(Runnable task) {
        tasks.add(task);
        wake();
    }

    void eqDoorbell(int uar, int word, boolean arm) {
        eqDoorbells.add(new int[] {uar, word, arm ? 1 : 0});
        wake();
    }

    void fatal(int syndrome, int ext) {
        fatal = true;
        initSeg.raiseHealth(syndrome, ext);
    }

    void pageRequest(int pages) {
        hca.requestPages(pages);
        events.post(EqeType.PAGE_REQUEST$VALUE, 0, e -> {
            Eqe.Device.func_id$set(e, 0);
            Eqe.Device.num_pages$set(e, pages);
        });
    }

    void link(boolean up) {
        if (datapath.setCarrier(up)) return; // the datapath's link listener posts the port change event
        objects.port.setLinkUp(up);
        PortChangeSubtype sub = up ? PortChangeSubtype.ACTIVE : PortChangeSubtype.DOWN;
        events.post(EqeType.PORT_CHANGE$VALUE, (int) sub.value, e -> Eqe.Device.port_num$set(e, 1));
    }

    SoftInitSegment initSegment() {
        return initSeg;
    }

    CommandQueue commandQueue() {
        return queue;
    }

    Datapath datapath() {
        return datapath;
    }

    @Override
    public void close() {
        running = false;
        if (thread != null) {
            LockSupport.unpark(thread);
            try {
                thread.join(TimeUnit.SECONDS.toMillis(5));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private final class SoftFunction implements PciFunction {
        private final String name;

        SoftFunction(String name) {
            this.name = name;
        }

        @Override
        public String name() {
            return name;
        }

        @Override
        public Mmio bar0() {
            return bar0;
        }

        @Override
        public DmaMemory dma() {
            return dma;
        }

        @Override
        public Interrupts interrupts() {
            return interrupts;
        }

        @Override
        public void close() {
            SoftHca.this.close();
        }
    }
}

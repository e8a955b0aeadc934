package io.prmkit.driver.core;

import io.prmkit.driver.Mlx5Exception;
import io.prmkit.driver.cmd.CommandException;
import io.prmkit.driver.cmd.CommandInterface;
import io.prmkit.driver.cmd.DeviceFatalException;
import io.prmkit.driver.cmd.InitSegment;
import io.prmkit.mlx5.AccessRegisterOpMod;
import io.prmkit.mlx5.CmdHcaCap;
import io.prmkit.mlx5.CmdifChecksum;
import io.prmkit.mlx5.EnableHcaIn;
import io.prmkit.mlx5.Eqe;
import io.prmkit.mlx5.EqeType;
import io.prmkit.mlx5.HcaCapUnion;
import io.prmkit.mlx5.QueryIssiOut;
import io.prmkit.mlx5.QueryPagesOpMod;
import io.prmkit.mlx5.RegisterHostEndianness;
import io.prmkit.mlx5.SetDriverVersionIn;
import io.prmkit.mlx5.SetHcaCapIn;
import io.prmkit.mlx5.SetHcaCapOpMod;
import io.prmkit.mlx5.SetIssiIn;
import io.prmkit.mlx5.TeardownHcaIn;
import io.prmkit.mlx5.TeardownHcaProfile;
import io.prmkit.mlx5.PrmCommands;
import io.prmkit.mlx5.PrmRegisters;
import io.prmkit.platform.DmaMemory;
import io.prmkit.platform.Interrupts;
import io.prmkit.platform.Mmio;
import io.prmkit.platform.PciFunction;
import java.lang.foreign.MemorySegment;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.EnumSet;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * One mlx5 function, brought up in the order of PRM "HCA Initialization" (the order of Linux's
 * {@code mlx5_function_setup}) and torn down in reverse by {@link #close()}; see docs/driver.md
 * for the table of steps.
 *
 * <pre>
 * try (Mlx5Device dev = Mlx5Device.open(pci, DeviceOptions.defaults())) { ... }
 * </pre>
 *
 * After INIT_HCA the device has an async EQ on vector 0 for page requests, port changes, command
 * completions and errors. Page requests are answered on the page thread (never on the interrupt
 * thread, which must stay short and may deliver the command completions a MANAGE_PAGES waits for).
 */
public final class Mlx5Device implements Mlx5Function {

    /** Issued to every {@link #addEventListener listener} for each async EQE (on the interrupt thread). */
    @FunctionalInterface
    public interface AsyncEventListener {
        void event(int type, MemorySegment eqe);
    }

    /** The ISSI this driver speaks (Linux and Snabb use 1). */
    static final int ISSI = 1;
    static final int ASYNC_VECTOR = 0;

    private final PciFunction pci;
    private final DeviceOptions options;
    private final InitSegment iseg;
    private final List<AsyncEventListener> listeners = new CopyOnWriteArrayList<>();
    private final OwnedObjects children = new OwnedObjects();
    private CommandInterface cmd;
    private FirmwarePages pages;
    private PageWorker pageWorker;
    private HealthMonitor health;
    private Caps caps;
    private Uar uar;
    private Eq asyncEq;
    private int issi;
    private boolean enabled, initialized, closed;

    private Mlx5Device(PciFunction pci, DeviceOptions options) {
        this.pci = pci;
        this.options = options;
        this.iseg = new InitSegment(pci.bar0());
    }

    /**
     * Brings the function up. On failure everything done so far is undone and the error says which
     * step failed and why.
     */
    public static Mlx5Device open(PciFunction pci, DeviceOptions options) {
        return Unwind.finishOrClose(new Mlx5Device(pci, options), Mlx5Device::bringUp);
    }

    private void bringUp() {
        // 1-3. Command interface: wait for firmware, program the queue, wait again.
        cmd = CommandInterface.open(iseg, pci.dma(), options.commands());
        pages = new FirmwarePages(cmd, pci.dma(), options.pageLimit());
        // 4. ENABLE_HCA.
        var en = PrmCommands.ENABLE_HCA.input();
        EnableHcaIn.function_id$set(en, 0);
        cmd.execute(PrmCommands.ENABLE_HCA, en);
        enabled = true;
        // 5. QUERY_ISSI / SET_ISSI.
        issi = negotiateIssi();
        // 6. Boot pages.
        pages.satisfy(QueryPagesOpMod.BOOT_PAGES);
        // 7. HOST_ENDIANNESS (ACCESS_REG write).
        setHostEndianness();
        // 8. Capabilities: query current and maximum, set what the driver needs, query again.
        setGeneralCaps(Caps.query(cmd, io.prmkit.mlx5.QueryHcaCapOpMod.GENERAL_DEVICE_CUR),
                Caps.query(cmd, io.prmkit.mlx5.QueryHcaCapOpMod.GENERAL_DEVICE_MAX));
        caps = Caps.query(cmd);
        // 9. Init pages.
        pages.satisfy(QueryPagesOpMod.INIT_PAGES);
        // 10. INIT_HCA.
        var init = PrmCommands.INIT_HCA.input();
        cmd.execute(PrmCommands.INIT_HCA, init);
        initialized = true;
        // 11. SET_DRIVER_VERSION, when the device takes it.
        if (CmdHcaCap.driver_version(caps.general())) setDriverVersion();
        // 12. Health polling.
        health = new HealthMonitor(pci.name(), iseg, options.healthInterval(), options.heartbeatMisses(), this::fatal);
        health.start();
        // 13. Regular pages.
        pages.satisfy(QueryPagesOpMod.REGULAR_PAGES);
        // 14. UAR and async EQ: page requests, port changes, errors and command completions.
        pageWorker = new PageWorker(pci.name(), pages);
        if (options.asyncEqLogSize() == 0) return;
        uar = Uar.allocate(cmd, pci.bar0());
        asyncEq = Eq.create(cmd, pci.dma(), pci.interrupts(), uar, ASYNC_VECTOR, options.asyncEqLogSize(),
                EnumSet.of(EqeType.PAGE_REQUEST, EqeType.PORT_CHANGE, EqeType.CMD, EqeType.CQ_ERROR, EqeType.INTERNAL_ERROR,
                        EqeType.WQ_CATAS_ERROR, EqeType.NIC_VPORT_CHANGE),
                CmdHcaCap.log_max_eq_sz(caps.general()), this::asyncEvent);
        if (options.commandEvents()) cmd.useEvents(true);
    }

    /** QUERY_ISSI, then SET_ISSI(1) when the firmware supports it; ISSI 0 when QUERY_ISSI is refused (as Linux). */
    private int negotiateIssi() {
        var in = PrmCommands.QUERY_ISSI.input();
        MemorySegment out;
        try {
            out = cmd.execute(PrmCommands.QUERY_ISSI, in);
        } catch (CommandException e) {
            if (e.deliveryStatus() == 0 && e.status() > 0) return 0;
            throw e;
        }
        int supported = QueryIssiOut.supported_issi_dw0(out);
        if ((supported & (1 << ISSI)) != 0) {
            var set = PrmCommands.SET_ISSI.input();
            SetIssiIn.current_issi$set(set, ISSI);
            cmd.execute(PrmCommands.SET_ISSI, set);
            return ISSI;
        }
        if ((supported & 1) != 0 || supported == 0) return 0;
        throw new Mlx5Exception("QUERY_ISSI: firmware supports ISSI mask 0x" + Integer.toHexString(supported)
                + ", neither 0 nor 1 that this driver speaks");
    }

    private void setHostEndianness() {
        cmd.accessRegister(PrmRegisters.HOST_ENDIANNESS, AccessRegisterOpMod.WRITE.value,
                reg -> RegisterHostEndianness.he$set(reg, ByteOrder.nativeOrder() == ByteOrder.BIG_ENDIAN));
    }

    /**
     * SET_HCA_CAP on the general page: start from the current values and change only what this
     * driver needs (Linux's handle_hca_cap does the same): command checksums off, 4 KiB UARs when
     * the device can, UAR pages of 4 KiB.
     */
    private void setGeneralCaps(MemorySegment cur, MemorySegment max) {
        var in = PrmCommands.SET_HCA_CAP.input();
        SetHcaCapIn.op_mod$set(in, SetHcaCapOpMod.GENERAL_DEVICE);
        MemorySegment set = HcaCapUnion.cmd_hca_cap(SetHcaCapIn.capability(in));
        set.copyFrom(HcaCapUnion.cmd_hca_cap(cur));
        CmdHcaCap.cmdif_checksum$set(set, CmdifChecksum.DISABLED);
        if (CmdHcaCap.uar_4k(HcaCapUnion.cmd_hca_cap(max))) CmdHcaCap.uar_4k$set(set, true);
        CmdHcaCap.log_uar_page_sz$set(set, 0);
        cmd.execute(PrmCommands.SET_HCA_CAP, in);
    }

    private void setDriverVersion() {
        var in = PrmCommands.SET_DRIVER_VERSION.input();
        SetDriverVersionIn.driver_version$copyFrom(in, options.driverVersion().getBytes(StandardCharsets.US_ASCII));
        cmd.execute(PrmCommands.SET_DRIVER_VERSION, in);
    }

    /** Async EQ handler (interrupt thread): short work only. */
    private void asyncEvent(MemorySegment eqe) {
        int type = Eqe.event_type(eqe);
        switch (type) {
            case EqeType.CMD$VALUE -> cmd.completed(Eqe.cmd_vector(eqe));
            case EqeType.PAGE_REQUEST$VALUE -> pageWorker.request(Eqe.num_pages(eqe));
            case EqeType.INTERNAL_ERROR$VALUE -> fatal(new DeviceFatalException("device fatal: INTERNAL_ERROR event"));
            default -> { }
        }
        for (AsyncEventListener l : listeners) l.event(type, eqe);
    }

    /** The device is dead: fail every pending and later command (the first report wins). */
    private void fatal(DeviceFatalException e) {
        cmd.fail(e);
    }

    /**
     * Builds an object on this function with {@code factory}, which gets what such an object needs of
     * the device ({@link DeviceAccess}: commands, caps, DMA, UAR, async EQ, events), and owns it: the
     * device's {@link #close()} closes it first. An Ethernet port is made this way ({@code EthPort.open}).
     */
    public <T extends AutoCloseable> T attach(java.util.function.Function<DeviceAccess, T> factory) {
        synchronized (this) {
            if (closed) throw new IllegalStateException("the device is closed");
        }
        T child = factory.apply(access);
        own(child);
        return child;
    }

    private final DeviceAccess access = new DeviceAccess() {
        @Override
        public CommandInterface commands() {
            return cmd;
        }

        @Override
        public Caps caps() {
            return caps;
        }

        @Override
        public DmaMemory dma() {
            return pci.dma();
        }

        @Override
        public Mmio bar() {
            return pci.bar0();
        }

        @Override
        public Uar uar() {
            return uar;
        }

        @Override
        public int asyncEqn() {
            return asyncEq.eqn();
        }

        @Override
        public void addEventListener(AsyncEventListener l) {
            Mlx5Device.this.addEventListener(l);
        }

        @Override
        public void removeEventListener(AsyncEventListener l) {
            Mlx5Device.this.removeEventListener(l);
        }

        @Override
        public DeviceFatalException fatalError() {
            return Mlx5Device.this.fatalError();
        }

        @Override
        public void detach(AutoCloseable child) {
            disown(child);
        }
    };

    public void addEventListener(AsyncEventListener l) {
        listeners.add(l);
    }

    public void removeEventListener(AsyncEventListener l) {
        listeners.remove(l);
    }

    /** Registers an object (a port) that {@link #close()} closes first, in reverse order of registration. */
    void own(AutoCloseable child) {
        children.add(child);
    }

    void disown(AutoCloseable child) {
        children.remove(child);
    }

    CommandInterface commands() {
        return cmd;
    }

    public Caps caps() {
        return caps;
    }

    FirmwarePages pages() {
        return pages;
    }

    PageWorker pageWorker() {
        return pageWorker;
    }

    Uar uar() {
        return uar;
    }

    Eq asyncEq() {
        return asyncEq;
    }

    public int issi() {
        return issi;
    }

    public PciFunction pci() {
        return pci;
    }

    public DmaMemory dma() {
        return pci.dma();
    }

    public Mmio bar() {
        return pci.bar0();
    }

    public Interrupts interrupts() {
        return pci.interrupts();
    }

    InitSegment initSegment() {
        return iseg;
    }

    public DeviceOptions options() {
        return options;
    }

    /** The fatal error the device is in, or null while it is healthy. */
    public DeviceFatalException fatalError() {
        return cmd == null ? null : cmd.fatal();
    }

    /** Runs one health poll now (the poller does this every interval); returns the fatal finding or null. */
    public DeviceFatalException checkHealth() {
        DeviceFatalException f = health.check();
        if (f != null) fatal(f);
        return f;
    }

    /**
     * Teardown, the reverse of bring-up: owned objects (ports), async EQ and UAR, health poller,
     * TEARDOWN_HCA, reclaim of every page, DISABLE_HCA, the command queue. On a dead device the
     * commands fail fast and the host memory is freed anyway. Throws the first error of a live
     * device after finishing every step.
     */
    @Override
    public void close() {
        synchronized (this) {
            if (closed) return;
            closed = true;
        }
        Mlx5Exception first = null;
        for (AutoCloseable c; (c = children.poll()) != null; ) {
            AutoCloseable child = c;
            first = step(first, () -> OwnedObjects.close(child));
        }
        if (cmd != null) cmd.useEvents(false);
        if (asyncEq != null) first = step(first, asyncEq::close);
        if (uar != null) first = step(first, uar::close);
        if (pageWorker != null) pageWorker.close();
        if (health != null) health.close();
        if (initialized) {
            first = step(first, () -> {
                var in = PrmCommands.TEARDOWN_HCA.input();
                TeardownHcaIn.profile$set(in, TeardownHcaProfile.GRACEFUL_CLOSE);
                cmd.execute(PrmCommands.TEARDOWN_HCA, in);
            });
        }
        if (pages != null && enabled) {
            first = step(first, () -> {
                long left = pages.reclaimAll();
                if (left != 0) throw new Mlx5Exception("teardown: firmware kept " + left + " pages after MANAGE_PAGES HCA_RETURN_PAGES");
            });
        }
        if (enabled) {
            first = step(first, () -> {
                var in = PrmCommands.DISABLE_HCA.input();
                cmd.execute(PrmCommands.DISABLE_HCA, in);
            });
        }
        if (pages != null) pages.forget();
        if (cmd != null) cmd.close();
        if (first != null && fatalError() == null) throw first;
    }

    private Mlx5Exception step(Mlx5Exception first, Runnable r) {
        try {
            r.run();
            return first;
        } catch (Mlx5Exception e) {
            if (first == null) return e;
            first.addSuppressed(e);
            return first;
        }
    }

    @Override
    public String toString() {
        return "mlx5 " + pci.name();
    }
}

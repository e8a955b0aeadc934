package io.prmkit.driver.devx;

import io.prmkit.driver.Mlx5Exception;
import io.prmkit.driver.cmd.CommandTrace;
import io.prmkit.driver.cmd.CommandTransport;
import io.prmkit.driver.cmd.DeviceFatalException;
import io.prmkit.driver.core.Caps;
import io.prmkit.driver.core.DeviceAccess;
import io.prmkit.driver.core.KernelSteering;
import io.prmkit.driver.core.Mlx5Device;
import io.prmkit.driver.core.Mlx5Function;
import io.prmkit.driver.core.OwnedObjects;
import io.prmkit.driver.core.Uar;
import io.prmkit.driver.core.Unwind;
import io.prmkit.platform.DmaMemory;
import io.prmkit.platform.Mmio;
import io.prmkit.platform.devx.Devx;
import io.prmkit.platform.devx.DevxContext;
import io.prmkit.platform.devx.DevxException;
import io.prmkit.platform.devx.DevxFlow;
import io.prmkit.platform.devx.DevxFlowMatcher;
import io.prmkit.platform.devx.DevxUar;
import io.prmkit.devx.PrmConstants;
import java.lang.foreign.MemorySegment;
import java.util.Optional;
import java.util.function.Function;

/**
 * An mlx5 function reached through rdma-core's DEVX: someone else brought it up and keeps it (the
 * kernel's mlx5_core and mlx5_ib, or rdma-core's mlx5_vfio provider on a function bound to vfio-pci),
 * and this driver's objects are built on it with the same command bytes as over its own command queue
 * ({@link DevxTransport}). What our bring-up would set up comes from rdma-core instead: the
 * capabilities by QUERY_HCA_CAP through {@code mlx5dv_devx_general_cmd}, a UAR page from {@code
 * mlx5dv_devx_alloc_uar}, the EQ CQs report to from {@code mlx5dv_devx_query_eqn}, and the DMA memory
 * as one registered umem ({@link UmemArena}).
 *
 * <pre>{@code
 * try (DevxDevice dev = DevxDevice.open("mlx5_0", DevxDevice.Options.defaults());
 *      EthPort port = EthPort.open(dev, EthPortConfig.defaults())) { ... }
 * }</pre>
 *
 * <p>Receive steering depends on who keeps the function ({@link #kernelKeepsSteering}): the kernel
 * refuses a DEVX context SET_FLOW_TABLE_ROOT and MODIFY_NIC_VPORT_CONTEXT, so on a card bound to
 * mlx5_core a port's rule goes into the kernel's tables through {@code mlx5dv_create_flow_matcher} and
 * {@code mlx5dv_create_flow} (destination the port's TIR, as DPDK's mlx5 PMD does); through mlx5_vfio,
 * the function's only driver, which allows every command and has no such tables (it refuses the
 * matcher), the port makes the PRM's flow tables and their root itself, as over the command queue.
 *
 * <p>No events reach the driver: the datapath polls its CQs, link state is asked for (QUERY_VPORT_STATE),
 * and the kernel answers page requests and watches the function's health; mlx5_vfio does both when its
 * events are processed, which a thread of this device does ({@link Options#eventPoll}).
 */
public final class DevxDevice implements Mlx5Function {

    /**
     * @param memoryBytes the DMA memory registered as one umem (rings, doorbell records, packet buffers);
     *     pinned, so within the locked-memory limit ({@code ulimit -l})
     * @param trace every command, as over the command queue (with {@code via=devx} for the slot)
     * @param eventPoll how often a function mlx5_vfio keeps has its events processed
     *     ({@code mlx5dv_vfio_process_events}: the firmware's page requests, mlx5_vfio's health check);
     *     zero: never (the caller calls {@link #processEvents}). Not used on a kernel context, whose
     *     events the kernel handles.
     */
    public record Options(long memoryBytes, CommandTrace trace, java.time.Duration eventPoll) {
        public Options {
            if (memoryBytes < 4096 || memoryBytes % 4096 != 0) throw new IllegalArgumentException("DEVX memory must be whole 4 KiB pages, not " + memoryBytes);
            if (trace == null) trace = CommandTrace.OFF;
            if (eventPoll == null || eventPoll.isNegative()) throw new IllegalArgumentException("eventPoll must be zero or positive");
        }

        /** 64 MiB of DMA memory, no trace, mlx5_vfio's events processed every 10 ms. */
        public static Options defaults() {
            return new Options(64L << 20, CommandTrace.OFF, java.time.Duration.ofMillis(10));
        }

        public Options withMemory(long bytes) {
            return new Options(bytes, trace, eventPoll);
        }

        public Options withTrace(CommandTrace t) {
            return new Options(memoryBytes, t, eventPoll);
        }

        public Options withEventPoll(java.time.Duration every) {
            return new Options(memoryBytes, trace, every);
        }
    }

    private final DevxContext ctx;
    private final DevxTransport transport;
    private final OwnedObjects children = new OwnedObjects();
    private Caps caps;
    private Uar uar;
    private DevxUar devxUar;
    private UmemArena memory;
    private int eqn;
    private Thread events;
    private volatile boolean closed;

    private DevxDevice(DevxContext ctx, Options options) {
        this.ctx = ctx;
        this.transport = new DevxTransport(ctx, options.trace());
    }

    /**
     * Opens {@code which}: an RDMA device name ({@code mlx5_0}) or a PCI address through the kernel's
     * mlx5_ib, or {@code vfio:PCI} for a function bound to vfio-pci through rdma-core's mlx5_vfio.
     *
     * @throws DevxException (one sentence) when rdma-core cannot open it
     */
    public static DevxDevice open(String which, Options options) {
        DevxContext ctx = which.startsWith("vfio:") ? Devx.openVfio(which.substring(5)) : Devx.open(which);
        return open(ctx, options);
    }

    /** Builds on {@code ctx}, an open DEVX context, which the device owns from now on (its close closes it). */
    public static DevxDevice open(DevxContext ctx, Options options) {
        return Unwind.finishOrClose(new DevxDevice(ctx, options), d -> d.setUp(options));
    }

    private void setUp(Options options) {
        caps = Caps.query(transport);
        devxUar = allocateUar();
        uar = Uar.mapped(devxUar.page(), devxUar.pageId(), devxUar.doorbellOffset(), devxUar::close);
        eqn = ctx.queryEqn(0);
        memory = new UmemArena(ctx, options.memoryBytes());
        if (ctx.vfio() && !options.eventPoll().isZero()) {
            long nanos = options.eventPoll().toNanos();
            events = Thread.ofPlatform().daemon().name("prmkit-devx-events " + ctx.name()).start(() -> pollEvents(nanos));
        }
    }

    /**
     * mlx5_vfio is the function's only driver, and handles its events only when asked: the firmware's
     * page requests (MANAGE_PAGES) and its health check run in {@code mlx5dv_vfio_process_events}, which
     * this thread calls every {@code nanos} until the device closes, never during another call into
     * rdma-core (the transport's lock). A kernel context needs none: the kernel answers page requests
     * and watches health itself.
     */
    private void pollEvents(long nanos) {
        while (!closed) {
            synchronized (transport.calls) {
                if (closed) return;
                try {
                    ctx.processEvents();
                } catch (RuntimeException e) {
                    eventError = e;
                    return;
                }
            }
            java.util.concurrent.locks.LockSupport.parkNanos(nanos);
        }
    }

    private volatile RuntimeException eventError;

    /**
     * Processes mlx5_vfio's pending events now ({@code mlx5dv_vfio_process_events}); a no-op on a kernel
     * context. The event thread ({@link Options#eventPoll}) does this on its own.
     */
    public void processEvents() {
        synchronized (transport.calls) {
            if (closed) throw new IllegalStateException("the DEVX device is closed");
            ctx.processEvents();
        }
    }

    /** Why mlx5_vfio's event processing stopped (its call failed), or null. */
    public RuntimeException eventError() {
        return eventError;
    }

    /**
     * A non-cached UAR page (what mlx5_vfio hands out), else a write-combining one (the kernel's
     * classic BlueFlame page): both take the same 8-byte doorbell stores.
     */
    private DevxUar allocateUar() {
        try {
            return ctx.allocateUar((int) PrmConstants.MLX5DV_UAR_ALLOC_TYPE_NC);
        } catch (DevxException nc) {
            try {
                return ctx.allocateUar((int) PrmConstants.MLX5DV_UAR_ALLOC_TYPE_BF);
            } catch (DevxException bf) {
                bf.addSuppressed(nc);
                throw bf;
            }
        }
    }

    /** The DEVX context (its name, and for mlx5_vfio its event processing). */
    public DevxContext context() {
        return ctx;
    }

    @Override
    public Caps caps() {
        return caps;
    }

    /** The registered DMA memory (for leak checks: {@code allocatedBytes()}). */
    public DmaMemory dma() {
        return memory;
    }

    @Override
    public <T extends AutoCloseable> T attach(Function<DeviceAccess, T> factory) {
        synchronized (this) {
            if (closed) throw new IllegalStateException("the DEVX device is closed");
        }
        T child = factory.apply(access);
        children.add(child);
        return child;
    }

    /**
     * Whether the kernel keeps this function's NIC receive tables (a kernel context: the function is
     * mlx5_core's), so that ports steer through rdma-core's flow API; false through mlx5_vfio.
     */
    public boolean kernelKeepsSteering() {
        return !ctx.vfio();
    }

    /** A matcher's priority in the kernel's tables (mlx5_ib's bypass namespace, in front of its netdev's rules): the first. */
    static final int RULE_PRIORITY = 0;

    private final KernelSteering kernelSteering = new KernelSteering() {
        @Override
        public String name() {
            return ctx.name();
        }

        @Override
        public KernelSteering.Rule forwardToTir(int matchCriteriaEnable, MemorySegment mask, MemorySegment value, int tirn, CommandTransport.ObjectHandle tir) {
            DevxFlowMatcher matcher;
            try {
                matcher = ctx.createFlowMatcher(RULE_PRIORITY, matchCriteriaEnable, mask);
            } catch (DevxException e) {
                throw new Mlx5Exception("receive steering through the kernel of " + ctx.name() + ": " + e.getMessage(), e);
            }
            DevxFlow flow;
            try {
                flow = matcher.forwardTo(value, DevxTransport.objectOf(tir));
            } catch (RuntimeException e) {
                try {
                    matcher.close();
                } catch (RuntimeException s) {
                    e.addSuppressed(s);
                }
                throw e instanceof DevxException d
                        ? new Mlx5Exception("receive steering through the kernel of " + ctx.name() + ": " + d.getMessage(), d) : e;
            }
            return () -> {
                try {
                    flow.close();
                } finally {
                    matcher.close();
                }
            };
        }
    };

    private final DeviceAccess access = new DeviceAccess() {
        @Override
        public Optional<KernelSteering> kernelSteering() {
            return kernelKeepsSteering() ? Optional.of(kernelSteering) : Optional.empty();
        }

        @Override
        public CommandTransport commands() {
            return transport;
        }

        @Override
        public Caps caps() {
            return caps;
        }

        @Override
        public DmaMemory dma() {
            return memory;
        }

        @Override
        public Mmio bar() {
            return uar.bar();
        }

        @Override
        public Uar uar() {
            return uar;
        }

        @Override
        public int asyncEqn() {
            return eqn;
        }

        @Override
        public void addEventListener(Mlx5Device.AsyncEventListener l) {
            // DEVX delivers no device events to this driver (see the class comment).
        }

        @Override
        public void removeEventListener(Mlx5Device.AsyncEventListener l) {
        }

        @Override
        public DeviceFatalException fatalError() {
            return null;
        }

        @Override
        public void detach(AutoCloseable child) {
            children.remove(child);
        }
    };

    /**
     * Closes what was attached (ports: their objects through {@code mlx5dv_devx_obj_destroy}), then the
     * umem, the UAR page and the context; goes on past failures and throws the first.
     */
    @Override
    public void close() {
        synchronized (this) {
            if (closed) return;
            closed = true;
        }
        if (events != null) {
            java.util.concurrent.locks.LockSupport.unpark(events);
            try {
                events.join(5_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        RuntimeException first = null;
        for (AutoCloseable c; (c = children.poll()) != null; ) {
            AutoCloseable child = c;
            first = step(first, () -> OwnedObjects.close(child));
        }
        if (memory != null) first = step(first, memory::close);
        if (uar != null) first = step(first, uar::close);
        first = step(first, ctx::close);
        transport.closed();
        if (first != null) throw first;
    }

    private static RuntimeException step(RuntimeException first, Runnable r) {
        try {
            r.run();
            return first;
        } catch (RuntimeException e) {
            if (first == null) return e;
            first.addSuppressed(e);
            return first;
        }
    }

    @Override
    public String toString() {
        return "mlx5 " + ctx.name() + " (DEVX)";
    }
}

package io.prmkit.driver.eth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.prmkit.driver.Mlx5Exception;
import io.prmkit.driver.cmd.CommandTrace;
import io.prmkit.driver.cmd.CommandTransport;
import io.prmkit.driver.cmd.DeviceFatalException;
import io.prmkit.driver.core.Caps;
import io.prmkit.driver.core.DeviceAccess;
import io.prmkit.driver.core.DeviceOptions;
import io.prmkit.driver.core.KernelSteering;
import io.prmkit.driver.core.Mlx5Device;
import io.prmkit.driver.core.Mlx5Function;
import io.prmkit.driver.core.Uar;
import io.prmkit.driver.dp.PacketPool;
import io.prmkit.driver.dp.RxQueue;
import io.prmkit.driver.dp.TestFrames;
import io.prmkit.driver.dp.TxQueue;
import io.prmkit.driver.res.FlowEntry;
import io.prmkit.driver.res.FlowGroup;
import io.prmkit.driver.res.FlowTable;
import io.prmkit.mlx5.FteMatchParam;
import io.prmkit.platform.DmaMemory;
import io.prmkit.platform.Mmio;
import io.prmkit.softhca.SoftHca;
import java.lang.foreign.MemorySegment;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * A port on a function whose NIC receive tables the kernel keeps (a card bound to mlx5_core, reached
 * through DEVX; {@link KernelSteering}), up to the kernel: the function here is our command queue on a
 * soft HCA, reporting a kernel whose steering is a stand-in that records what the port hands to
 * rdma-core's {@code mlx5dv_create_flow_matcher} / {@code mlx5dv_create_flow} and then does what the
 * kernel would do with it: a NIC RX table of its own, made root, whose rule (that mask, that value)
 * forwards to the port's TIR. What only a real card shows: mlx5_ib's own tables and priorities, and
 * the kernel's acceptance of the rule (docs/hardware.md).
 */
class KernelSteeringTest {
    static final int N = 16;

    private final List<String> trace = new CopyOnWriteArrayList<>();

    /** One rule as the port handed it to the kernel. */
    record Handed(int criteriaEnable, byte[] mask, byte[] value, int tirn, List<String> commandsBefore) {}

    /** The kernel stand-in: records each rule, and steers it with a root table of its own through the function's commands. */
    final class Kernel implements KernelSteering {
        final List<Handed> rules = new ArrayList<>();
        final List<String> events = new ArrayList<>();
        CommandTransport cmd;
        Caps caps;
        SoftHca hca;

        @Override
        public String name() {
            return "mlx5_7";
        }

        @Override
        public KernelSteering.Rule forwardToTir(int criteriaEnable, MemorySegment mask, MemorySegment value, int tirn, CommandTransport.ObjectHandle tir) {
            rules.add(new Handed(criteriaEnable, mask.toArray(java.lang.foreign.ValueLayout.JAVA_BYTE), value.toArray(java.lang.foreign.ValueLayout.JAVA_BYTE),
                    tirn, List.copyOf(trace)));
            FlowTable table = FlowTable.nicRx(cmd, caps, 0, 1);
            FlowGroup group = FlowGroup.create(table, 0, 0, criteriaEnable, m -> m.copyFrom(mask));
            FlowEntry entry = FlowEntry.forwardToTir(group, 0, v -> v.copyFrom(value), tirn);
            table.setRoot();
            return () -> {
                events.add("rule removed with " + hca.liveObjects().getOrDefault("tir", 0) + " TIR on the device");
                entry.close();
                group.close();
                table.close();
            };
        }
    }

    /** {@code dev}, seen by the port as a function the kernel keeps. */
    static Mlx5Function kernelKept(Mlx5Device dev, Kernel kernel) {
        return new Mlx5Function() {
            @Override
            public <T extends AutoCloseable> T attach(Function<DeviceAccess, T> factory) {
                return dev.attach(a -> {
                    kernel.cmd = a.commands();
                    kernel.caps = a.caps();
                    return factory.apply(new DeviceAccess() {
                        public CommandTransport commands() { return a.commands(); }
                        public Caps caps() { return a.caps(); }
                        public DmaMemory dma() { return a.dma(); }
                        public Mmio bar() { return a.bar(); }
                        public Uar uar() { return a.uar(); }
                        public int asyncEqn() { return a.asyncEqn(); }
                        public void addEventListener(Mlx5Device.AsyncEventListener l) { a.addEventListener(l); }
                        public void removeEventListener(Mlx5Device.AsyncEventListener l) { a.removeEventListener(l); }
                        public DeviceFatalException fatalError() { return a.fatalError(); }
                        public void detach(AutoCloseable child) { a.detach(child); }
                        public Optional<KernelSteering> kernelSteering() { return Optional.of(kernel); }
                    });
                });
            }

            @Override
            public Caps caps() {
                return dev.caps();
            }

            @Override
            public void close() {
                dev.close();
            }
        };
    }

    private DeviceOptions options() {
        return DeviceOptions.defaults().withCommandTimeout(Duration.ofSeconds(10)).withTrace(CommandTrace.lines(trace::add, false));
    }

    private static boolean await(BooleanSupplier done) {
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (!done.getAsBoolean()) {
            if (System.nanoTime() - deadline > 0) return false;
            LockSupport.parkNanos(1_000_000);
        }
        return true;
    }

    private List<String> opcodes() {
        return trace.stream().map(l -> l.substring(0, l.indexOf(" ("))).toList();
    }

    @Test
    void thePortsRuleGoesToTheKernelItsVportSettingsStayTheKernelsAndFramesArriveThroughIt() {
        Kernel kernel = new Kernel();
        try (SoftHca hca = SoftHca.create(new SoftHca.Options().loopback(true));
             Mlx5Device dev = Mlx5Device.open(hca.function(), options())) {
            kernel.hca = hca;
            Map<String, Integer> base = hca.liveObjects();
            trace.clear();
            try (EthPort port = EthPort.open(kernelKept(dev, kernel), EthPortConfig.defaults().withSizes(6, 6))) {
                assertEquals(1, kernel.rules.size(), "one rule, the port's catch-all");
                Handed r = kernel.rules.get(0);
                assertEquals(0, r.criteriaEnable(), "no criteria: every packet");
                assertEquals(FteMatchParam.SIZE, r.mask().length, "mask: an fte_match_param");
                assertEquals(FteMatchParam.SIZE, r.value().length, "value: an fte_match_param");
                assertEquals(new String(new byte[(int) FteMatchParam.SIZE]), new String(r.mask()), "a catch-all masks nothing");
                List<String> before = r.commandsBefore().stream().map(l -> l.substring(0, l.indexOf(" ("))).toList();
                assertEquals("CREATE_TIR", before.get(before.size() - 1), "the rule names the TIR just made: " + before);
                assertTrue(r.tirn() > 0, "TIR number " + r.tirn());
                for (String refused : List.of("SET_FLOW_TABLE_ROOT", "MODIFY_NIC_VPORT_CONTEXT", "CREATE_FLOW_TABLE", "SET_FLOW_TABLE_ENTRY"))
                    assertTrue(!before.contains(refused), "the port itself sent " + refused + ": " + before);
                assertTrue(r.commandsBefore().stream().noneMatch(l -> l.startsWith("ACCESS_REG (0x805) op_mod 0x0")), "no PMTU write: " + before);

                // Frames to the port's MAC come back on the loopback wire and arrive through the kernel's rule.
                PacketPool txPool = PacketPool.open(port, 64, 2048);
                PacketPool rxPool = PacketPool.open(port, 64, 2048);
                TxQueue tx = TxQueue.open(port, 0, txPool);
                RxQueue rx = RxQueue.open(port, 0, rxPool);
                int[] frames = new int[N];
                assertEquals(N, txPool.alloc(frames, N));
                for (int i = 0; i < N; i++) {
                    TestFrames.build(txPool.memory(), txPool.offset(frames[i]), 128, false, false, i);
                    io.prmkit.net.Ethhdr.h_dest$copyFrom(txPool.buffer(frames[i]), port.macAddress()); // the vport is not promiscuous
                    txPool.setLength(frames[i], 128);
                }
                assertEquals(N, tx.send(frames, N));
                int[] got = new int[N];
                int[] received = {0};
                assertTrue(await(() -> {
                    tx.reap();
                    int k = rx.receive(got, N);
                    rxPool.free(got, 0, k);
                    received[0] += k;
                    return received[0] == N;
                }), "frames through the kernel's rule: " + received[0] + " of " + N);

                // The vport is the kernel's: refused before any command, saying what to run instead.
                trace.clear();
                Mlx5Exception p = assertThrows(Mlx5Exception.class, () -> port.setPromiscuous(true));
                assertEquals("the kernel keeps mlx5_7, and promiscuous mode is its own (it refuses MODIFY_NIC_VPORT_CONTEXT from DEVX): "
                        + "set it with ip link set dev <its netdev> promisc on.", p.getMessage());
                assertTrue(assertThrows(Mlx5Exception.class, () -> port.setMtu(9000)).getMessage().endsWith("ip link set dev <its netdev> mtu 9000."));
                assertTrue(assertThrows(Mlx5Exception.class, () -> port.setMacAddress(new byte[] {2, 0, 0, 0, 0, 9})).getMessage()
                        .endsWith("ip link set dev <its netdev> address 02:00:00:00:00:09."));
                assertEquals(List.of(), trace, "no command for a refused setting");
            }
            assertEquals(List.of("rule removed with 1 TIR on the device"), kernel.events, "the rule goes before the TIR");
            assertEquals(base, hca.liveObjects(), "everything destroyed");
            List<String> ops = opcodes();
            assertTrue(ops.indexOf("DESTROY_TIR") > ops.lastIndexOf("DESTROY_FLOW_TABLE"), ops.toString());
        }
    }

    /**
     * A narrower rule, to the port's MAC: the kernel gets match_criteria_enable = outer headers, and
     * fte_match_param bytes as mlx5_ifc.h lays them out (fte_match_set_lyr_2_4 first; its dmac_47_16 and
     * dmac_15_0 at bytes 8..13): a mask of ones there, the MAC as the value, zero everywhere else.
     */
    @Test
    void aRuleToTheCardsMacHandsTheKernelItsMatchBytes() {
        Kernel kernel = new Kernel();
        byte[] mac = {0x02, 0, 0, 0, 0, 0x01};
        try (SoftHca hca = SoftHca.create();
             Mlx5Device dev = Mlx5Device.open(hca.function(), options())) {
            kernel.hca = hca;
            try (EthPort port = EthPort.open(kernelKept(dev, kernel), EthPortConfig.defaults().withSizes(6, 6).withRxMatch(RxMatch.destinationMac(mac)))) {
                Handed r = kernel.rules.get(0);
                assertEquals(1, r.criteriaEnable(), "match_criteria_enable: outer headers");
                byte[] mask = new byte[(int) FteMatchParam.SIZE];
                byte[] value = new byte[(int) FteMatchParam.SIZE];
                for (int i = 0; i < 6; i++) {
                    mask[8 + i] = (byte) 0xff;
                    value[8 + i] = mac[i];
                }
                org.junit.jupiter.api.Assertions.assertArrayEquals(mask, r.mask(), "mask");
                org.junit.jupiter.api.Assertions.assertArrayEquals(value, r.value(), "value");
            }
        }
    }

    @Test
    void promiscuousModeOrAnMtuAskedForOnAKernelKeptFunctionIsRefusedBeforeAnyCommand() {
        Kernel kernel = new Kernel();
        try (SoftHca hca = SoftHca.create();
             Mlx5Device dev = Mlx5Device.open(hca.function(), options())) {
            kernel.hca = hca;
            Map<String, Integer> base = hca.liveObjects();
            trace.clear();
            Mlx5Function f = kernelKept(dev, kernel);
            Mlx5Exception p = assertThrows(Mlx5Exception.class, () -> EthPort.open(f, EthPortConfig.defaults().withPromiscuous(true)));
            assertEquals("the kernel keeps mlx5_7, and promiscuous mode is its own (it refuses MODIFY_NIC_VPORT_CONTEXT from DEVX): "
                    + "set it with ip link set dev <its netdev> promisc on.", p.getMessage());
            Mlx5Exception m = assertThrows(Mlx5Exception.class, () -> EthPort.open(f, EthPortConfig.defaults().withMtu(9000)));
            assertEquals("the kernel keeps mlx5_7, and the MTU is its own (it refuses MODIFY_NIC_VPORT_CONTEXT from DEVX): "
                    + "set it with ip link set dev <its netdev> mtu 9000.", m.getMessage());
            assertEquals(List.of(), trace, "refused before any command");
            assertEquals(List.of(), kernel.rules);
            assertEquals(base, hca.liveObjects());
        }
    }
}

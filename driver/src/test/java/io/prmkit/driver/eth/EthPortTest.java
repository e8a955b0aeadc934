package io.prmkit.driver.eth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.prmkit.driver.Mlx5Exception;
import io.prmkit.driver.cmd.CommandTrace;
import io.prmkit.driver.core.DeviceOptions;
import io.prmkit.driver.core.Mlx5Device;
import io.prmkit.driver.devx.BothTransports;
import io.prmkit.driver.devx.CommandQueueOnly;
import io.prmkit.driver.devx.TestDevice;
import io.prmkit.driver.devx.Transport;
import io.prmkit.mlx5.SqState;
import io.prmkit.softhca.CapsProfile;
import io.prmkit.softhca.SoftHca;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.Parameter;

/** An Ethernet port's objects, state changes, settings, statistics and failures, on both command transports. */
@BothTransports
class EthPortTest {
    @Parameter
    Transport transport;

    private final List<String> trace = new CopyOnWriteArrayList<>();

    private DeviceOptions options() {
        return DeviceOptions.defaults().withCommandTimeout(Duration.ofSeconds(5)).withHealth(Duration.ofMillis(20), 0)
                .withTrace(CommandTrace.lines(trace::add, false));
    }

    private static boolean await(BooleanSupplier done) {
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (!done.getAsBoolean()) {
            if (System.nanoTime() - deadline > 0) return false;
            LockSupport.parkNanos(1_000_000);
        }
        return true;
    }

    @Test
    void aPortWithFourQueuePairsCreatesItsObjectsAndCloseDestroysThemAll() {
        try (TestDevice d = TestDevice.open(transport, new SoftHca.Options(), options())) {
            SoftHca hca = d.hca();
            var dev = d.function();
            Map<String, Integer> base = hca.liveObjects();
            assertEquals(d.functionObjects(), base, "the device itself holds what the function's driver made (its EQ and UAR; over DEVX our umem)");
            try (EthPort port = EthPort.open(dev, EthPortConfig.defaults().withQueuePairs(4).withSizes(6, 6))) {
                Map<String, Integer> live = hca.liveObjects();
                assertEquals(8, live.get("cq"));
                assertEquals(4, live.get("sq"));
                assertEquals(4, live.get("rq"));
                assertEquals(1, live.get("tir"));
                assertEquals(1, live.get("rqt"));
                assertEquals(1, live.get("flow_table"));
                for (int i = 0; i < 4; i++) {
                    assertEquals(SqState.RDY, port.sendQueue(i).state());
                    SqResources tx = port.txResources(i);
                    RqResources rx = port.rxResources(i);
                    assertEquals(6, tx.logWqebbs());
                    assertEquals(port.sendQueue(i).sqn(), tx.sqn());
                    assertEquals(64, rx.entries());
                }
                assertTrue(port.linkUp());
                assertEquals(6, port.macAddress().length);
            }
            assertEquals(base, hca.liveObjects(), "the port's objects are all destroyed");
        }
    }

    @Test
    @CommandQueueOnly("PORT_CHANGE events arrive on our async EQ; over DEVX no event reaches the driver (the EQ is mlx5_vfio's or the "
            + "kernel's, and the datapath polls): there the link state is asked for (linkStateIsAskedForWithQueryVportState)")
    void linkFlapFollowsPortChangeEvents() {
        try (TestDevice d = TestDevice.open(transport, new SoftHca.Options(), options());
             EthPort port = EthPort.open(d.function(), EthPortConfig.defaults())) {
            SoftHca hca = d.hca();
            assertTrue(port.linkUp());
            hca.faults().link(false);
            assertTrue(await(() -> !port.linkUp()), "link went down");
            assertFalse(port.refreshLinkState(), "QUERY_VPORT_STATE agrees");
            hca.faults().link(true);
            assertTrue(await(port::linkUp), "link came back");
            assertEquals(2, port.linkChanges());
        }
    }

    @Test
    void linkStateIsAskedForWithQueryVportState() {
        try (TestDevice d = TestDevice.open(transport, new SoftHca.Options(), options());
             EthPort port = EthPort.open(d.function(), EthPortConfig.defaults())) {
            assertTrue(port.refreshLinkState());
            d.hca().faults().link(false); // the carrier drops on the device's own thread
            assertTrue(await(() -> !port.refreshLinkState()), "QUERY_VPORT_STATE: down");
            assertFalse(port.linkUp());
            d.hca().faults().link(true);
            assertTrue(await(port::refreshLinkState), "QUERY_VPORT_STATE: up again");
            assertTrue(port.linkUp());
        }
    }

    /**
     * On a function we brought up, or that rdma-core's mlx5_vfio keeps, the port's steering is the PRM's
     * own: a NIC RX table made root (a card the kernel keeps steers through rdma-core's flow API instead:
     * KernelSteeringTest). mlx5_vfio, which has no kernel tables, refuses a flow matcher.
     */
    @Test
    void receiveSteeringIsThePortsOwnRootTableWhereNoKernelKeepsTheFunction() {
        try (TestDevice d = TestDevice.open(transport, new SoftHca.Options(), options());
             EthPort port = EthPort.open(d.function(), EthPortConfig.defaults())) {
            assertEquals(1, d.hca().liveObjects().get("flow_table"));
            assertTrue(trace.stream().anyMatch(l -> l.startsWith("SET_FLOW_TABLE_ROOT (0x92f)") && l.contains("status=OK")), trace.toString());
            if (d.function() instanceof io.prmkit.driver.devx.DevxDevice devx) {
                assertFalse(devx.kernelKeepsSteering(), "mlx5_vfio is the function's only driver");
                var e = assertThrows(io.prmkit.platform.devx.DevxException.class,
                        () -> devx.context().createFlowMatcher(0, 0, java.lang.foreign.MemorySegment.ofArray(new byte[(int) io.prmkit.mlx5.FteMatchParam.SIZE])));
                assertTrue(e.getMessage().startsWith("mlx5dv_create_flow_matcher(vfio:0000:5e:00.0, NIC RX, priority 0): errno 95 "), e.getMessage()); // EOPNOTSUPP
            }
        }
    }

    /** An RxMatch narrows the port's rule: of frames of two ethertypes looped back, only those of the one it names arrive. */
    @Test
    void anRxMatchTakesOnlyTheFramesItNames() {
        try (TestDevice d = TestDevice.open(transport, new SoftHca.Options(), options());
             EthPort port = EthPort.open(d.function(), EthPortConfig.defaults().withSizes(6, 6).withPromiscuous(true)
                     .withRxMatch(RxMatch.etherType(0x88b5)))) {
            var txPool = io.prmkit.driver.dp.PacketPool.open(port, 64, 2048);
            var rxPool = io.prmkit.driver.dp.PacketPool.open(port, 64, 2048);
            var tx = io.prmkit.driver.dp.TxQueue.open(port, 0, txPool);
            var rx = io.prmkit.driver.dp.RxQueue.open(port, 0, rxPool);
            int n = 8;
            int[] frames = new int[2 * n];
            assertEquals(2 * n, txPool.alloc(frames, 2 * n));
            for (int i = 0; i < 2 * n; i++) {
                var f = txPool.buffer(frames[i]);
                f.asSlice(0, 128).fill((byte) i);
                io.prmkit.net.Ethhdr.h_dest$copyFrom(f, new byte[] {2, 0, 0, 0, 0, 2});
                io.prmkit.net.Ethhdr.h_source$copyFrom(f, new byte[] {2, 0, 0, 0, 0, 1});
                io.prmkit.net.Ethhdr.h_proto$set(f, i % 2 == 0 ? 0x88b5 : 0x88b6);
                txPool.setLength(frames[i], 128);
            }
            assertEquals(2 * n, tx.send(frames, 2 * n));
            int[] got = new int[2 * n];
            List<Integer> types = new java.util.ArrayList<>();
            assertTrue(await(() -> {
                tx.reap();
                int k = rx.receive(got, 2 * n);
                for (int i = 0; i < k; i++) types.add(io.prmkit.net.Ethhdr.h_proto(rxPool.buffer(got[i])));
                rxPool.free(got, 0, k);
                return tx.inFlight() == 0 && types.size() >= n;
            }), "the 0x88b5 frames arrive: " + types);
            LockSupport.parkNanos(200_000_000); // and nothing more comes
            int k = rx.receive(got, 2 * n);
            for (int i = 0; i < k; i++) types.add(io.prmkit.net.Ethhdr.h_proto(rxPool.buffer(got[i])));
            assertEquals(java.util.Collections.nCopies(n, 0x88b5), types, "only the frames the rule names");
        }
    }

    @Test
    void sqStateChangesForErrorRecovery() {
        try (TestDevice d = TestDevice.open(transport, new SoftHca.Options(), options());
             EthPort port = EthPort.open(d.function(), EthPortConfig.defaults())) {
            SoftHca hca = d.hca();
            var sq = port.sendQueue(0);
            sq.modify(SqState.RDY, SqState.ERR);
            assertEquals(SqState.ERR, sq.state());
            port.txResources(0).control().modifySq(sq.sqn(), SqState.ERR, SqState.RST);
            assertEquals(SqState.RST, sq.state());
            sq.modify(SqState.RST, SqState.RDY);
            assertEquals(SqState.RDY, sq.state());
        }
    }

    @Test
    void macMtuAndPromiscuousReachTheVportContext() {
        try (TestDevice d = TestDevice.open(transport, new SoftHca.Options(), options());
             EthPort port = EthPort.open(d.function(), EthPortConfig.defaults().withMtu(9000).withPromiscuous(true))) {
            var ctx = port.vportContext();
            assertEquals(9000 + EthPort.HW_MTU_OVERHEAD, io.prmkit.mlx5.NicVportContext.mtu(ctx), "the hardware MTU, as Linux writes it");
            assertEquals(9000, port.mtu());
            Mlx5Exception tooBig = assertThrows(Mlx5Exception.class, () -> port.setMtu(9970));
            assertTrue(tooBig.getMessage().contains("(PMTU max_mtu)"), tooBig.getMessage());
            assertEquals(9000, port.mtu(), "a refused MTU changes nothing");
            assertTrue(io.prmkit.mlx5.NicVportContext.promisc_all(ctx));
            byte[] mac = {0x02, 0x11, 0x22, 0x33, 0x44, (byte) 0x55};
            port.setMacAddress(mac);
            org.junit.jupiter.api.Assertions.assertArrayEquals(mac, port.macAddress());
            port.setPromiscuous(false);
            assertFalse(io.prmkit.mlx5.NicVportContext.promisc_all(port.vportContext()));
        }
    }

    @Test
    void statsReadVportCountersQCounterAndPpcnt() {
        try (TestDevice d = TestDevice.open(transport, new SoftHca.Options(), options());
             EthPort port = EthPort.open(d.function(), EthPortConfig.defaults())) {
            SoftHca hca = d.hca();
            PortStats s = port.queryStats();
            assertEquals(0, s.rxOutOfBuffer());
            assertEquals(0, s.txPacketsPhy());
            assertTrue(trace.stream().anyMatch(l -> l.startsWith("QUERY_VPORT_COUNTER") && l.contains("status=OK")));
            assertTrue(trace.stream().anyMatch(l -> l.startsWith("QUERY_Q_COUNTER") && l.contains("status=OK")));
            assertTrue(trace.stream().anyMatch(l -> l.startsWith("ACCESS_REG (0x805) op_mod 0x1") && l.contains("status=OK")));
        }
    }

    @Test
    void aCommandFailingHalfwayThroughTheBuildUndoesWhatWasBuilt() {
        try (TestDevice d = TestDevice.open(transport, new SoftHca.Options(), options())) {
            SoftHca hca = d.hca();
            var dev = d.function();
            Map<String, Integer> base = hca.liveObjects();
            hca.faults().failNext(io.prmkit.mlx5.CmdOpcode.CREATE_TIR, io.prmkit.mlx5.CmdStatus.LIM_ERR, 0x77);
            var e = assertThrows(io.prmkit.driver.cmd.CommandException.class,
                    () -> EthPort.open(dev, EthPortConfig.defaults().withQueuePairs(2).withSizes(4, 4)));
            assertTrue(e.getMessage().startsWith("CREATE_TIR (0x900) op_mod 0x0"), e.getMessage());
            assertTrue(e.getMessage().contains("LIM_ERR (0x8): Limits exceeded"), e.getMessage());
            assertEquals(base, hca.liveObjects(), "RQT, RQs, SQs, CQs, TIS, mkey, TD, PD destroyed again");
            EthPort.open(dev, EthPortConfig.defaults()).close(); // and the device still builds ports
        }
    }

    /**
     * A queue whose CREATE fails leaves no ring mapped; one whose RST-to-RDY MODIFY fails is
     * destroyed again, its ring with it. Through our command queue the device's DMA bytes are back
     * where they were; over DEVX the rings are in the driver's umem, and the objects tell.
     */
    @Test
    void aQueueThatFailsToBeCreatedOrReadiedLeavesNoObjectAndNoRingMapped() {
        try (TestDevice d = TestDevice.open(transport, new SoftHca.Options(), options())) {
            SoftHca hca = d.hca();
            Map<String, Integer> base = hca.liveObjects();
            boolean ourQueue = transport == Transport.COMMAND_QUEUE; // over DEVX the soft HCA sits on the stand-in's bus
            long dmaBefore = ourQueue ? hca.function().dma().allocatedBytes() : 0;
            for (var op : List.of(io.prmkit.mlx5.CmdOpcode.CREATE_CQ, io.prmkit.mlx5.CmdOpcode.CREATE_SQ, io.prmkit.mlx5.CmdOpcode.MODIFY_SQ,
                    io.prmkit.mlx5.CmdOpcode.CREATE_RQ, io.prmkit.mlx5.CmdOpcode.MODIFY_RQ)) {
                hca.faults().failNext(op, io.prmkit.mlx5.CmdStatus.BAD_RES_STATE_ERR, 0x51);
                var e = assertThrows(io.prmkit.driver.cmd.CommandException.class,
                        () -> EthPort.open(d.function(), EthPortConfig.defaults().withSizes(4, 4)));
                assertTrue(e.getMessage().startsWith(op.name()), e.getMessage());
                assertEquals(base, hca.liveObjects(), op + ": every object the port made is destroyed");
                if (ourQueue)
                    assertEquals(dmaBefore, hca.function().dma().allocatedBytes(), op + ": every ring and doorbell record unmapped");
            }
        }
    }

    @Test
    @CommandQueueOnly("the command timeout, and keeping a CQ's rings while the device may still write them, are our command queue's; "
            + "over DEVX rdma-core waits for the command and the kernel (or mlx5_vfio) owns the teardown after it")
    void aDestroyThatTimesOutKeepsTheRingsUntilTheDeviceIsGoneAndCloseGoesOn() {
        try (SoftHca hca = SoftHca.create()) {
            long before = hca.function().dma().allocatedBytes();
            // 2 s, not less: every command of the bring-up and the port runs under it too, on a machine that may be loaded
            Mlx5Device dev = Mlx5Device.open(hca.function(), options().withCommandTimeout(Duration.ofSeconds(2)));
            Map<String, Integer> base = hca.liveObjects();
            EthPort port = EthPort.open(dev, EthPortConfig.defaults().withSizes(4, 4));
            hca.faults().neverComplete(io.prmkit.mlx5.CmdOpcode.DESTROY_CQ, true);
            long withPort = hca.function().dma().allocatedBytes();
            var e = assertThrows(io.prmkit.driver.cmd.CommandTimeoutException.class, port::close);
            assertTrue(e.getMessage().startsWith("DESTROY_CQ (0x401)"), e.getMessage());
            Map<String, Integer> left = new java.util.TreeMap<>(base);
            left.put("cq", 2);
            assertEquals(left, hca.liveObjects(), "everything but the two CQs was destroyed");
            assertTrue(hca.function().dma().allocatedBytes() < withPort, "the other objects' memory is freed");
            assertTrue(hca.function().dma().allocatedBytes() > before, "the CQ rings are kept while the device may write them");
            hca.faults().neverComplete(io.prmkit.mlx5.CmdOpcode.DESTROY_CQ, false);
            // The device still has the CQs, so it refuses DESTROY_EQ; close goes on through every step
            // (TEARDOWN_HCA, pages, DISABLE_HCA) and then reports that first error.
            var busy = assertThrows(io.prmkit.driver.cmd.CommandException.class, dev::close);
            assertTrue(busy.getMessage().startsWith("DESTROY_EQ (0x302)"), busy.getMessage());
            assertEquals(Map.of(), hca.liveObjects());
            assertEquals(before, hca.function().dma().allocatedBytes(), "everything freed after DISABLE_HCA");
        }
    }

    @Test
    void aDeviceWithoutNicFlowTablesIsRefusedNamingTheCapability() {
        try (TestDevice d = TestDevice.open(transport, CapsProfile.defaults().withGeneral("nic_flow_table", 0), new SoftHca.Options(), options())) {
            SoftHca hca = d.hca();
            var dev = d.function();
            Map<String, Integer> base = hca.liveObjects();
            trace.clear();
            Mlx5Exception e = assertThrows(Mlx5Exception.class, () -> EthPort.open(dev, EthPortConfig.defaults()));
            assertEquals("Ethernet port receive steering: the device does not support it (capability cmd_hca_cap.nic_flow_table is 0)",
                    e.getMessage());
            assertEquals(List.of(), trace, "refused before any command");
            assertEquals(base, hca.liveObjects());
        }
    }

    @Test
    void aQueueLargerThanTheCapsAllowIsRefusedBeforeAnyCommandNamingTheCap() {
        try (TestDevice d = TestDevice.open(transport, CapsProfile.defaults().withGeneral("log_max_wq_sz", 8), new SoftHca.Options(), options())) {
            SoftHca hca = d.hca();
            var dev = d.function();
            Map<String, Integer> base = hca.liveObjects();
            int log = io.prmkit.mlx5.CmdHcaCap.log_max_wq_sz(dev.caps().general());
            assertEquals(8, log);
            Mlx5Exception e = assertThrows(Mlx5Exception.class,
                    () -> EthPort.open(dev, EthPortConfig.defaults().withSizes(log + 1, 6)));
            assertTrue(e.getMessage().startsWith("CREATE_SQ WQEBBs: asked for 512, the device allows at most 2^8 = 256 (capability cmd_hca_cap.log_max_wq_sz)"), e.getMessage());
            assertEquals(base, hca.liveObjects(), "what the port built before the refusal is gone again");
        }
    }
}

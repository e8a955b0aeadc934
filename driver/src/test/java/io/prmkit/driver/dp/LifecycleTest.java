package io.prmkit.driver.dp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.prmkit.driver.core.DeviceOptions;
import io.prmkit.driver.core.Mlx5Function;
import io.prmkit.driver.devx.BothTransports;
import io.prmkit.driver.devx.TestDevice;
import io.prmkit.driver.devx.Transport;
import io.prmkit.driver.eth.EthPort;
import io.prmkit.driver.eth.EthPortConfig;
import io.prmkit.softhca.SoftHca;
import io.prmkit.softhca.wire.Port;
import io.prmkit.softhca.wire.Wire;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.Parameter;

/**
 * Closing a device with a port, a pool, a TX queue with frames in flight and an RX queue with buffers
 * posted, in every order a user could write the five closes: the soft HCA (behind its IOMMU) sees no
 * DMA to unmapped memory and is left with no object and no mapping. After each close a frame arrives
 * from the wire's far end: while the RQ lives it is written into a posted buffer, which must still be
 * mapped (a pool freed before its RQ is destroyed faults here).
 *
 * <p>On both command transports; over DEVX (where the device's close is the DEVX context's, and then
 * mlx5_vfio's teardown) each order costs an mlx5_vfio bring-up on a polled BAR, about a second here,
 * so it runs the 20 orders that differ in their first two closes (every part closed first, and after
 * each other part).
 */
@BothTransports
class LifecycleTest {
    enum Part { DEVICE, PORT, POOL, TX, RX }

    @Parameter
    Transport transport;

    @Test
    void everyCloseOrderLeavesNoDmaFaultNoObjectAndNoMapping() {
        List<List<Part>> orders = new ArrayList<>();
        permutations(new ArrayList<>(List.of(Part.values())), new ArrayList<>(), orders);
        assertEquals(120, orders.size());
        if (transport == Transport.DEVX) orders = onePerLeadingPair(orders);
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment frame = arena.allocate(64);
            frame.fill((byte) 0xff); // broadcast, then 0xff bytes: any vport takes it
            for (List<Part> order : orders) closeIn(order, frame);
        }
    }

    private static List<List<Part>> onePerLeadingPair(List<List<Part>> orders) {
        Map<List<Part>, List<Part>> first = new java.util.LinkedHashMap<>();
        for (List<Part> o : orders) first.putIfAbsent(o.subList(0, 2), o);
        assertEquals(20, first.size());
        return List.copyOf(first.values());
    }

    private void closeIn(List<Part> order, MemorySegment frame) {
        Port peer = new Port(1); // the far end of the device's cable
        try (TestDevice d = TestDevice.open(transport, new SoftHca.Options().loopback(false),
                DeviceOptions.defaults().withCommandTimeout(Duration.ofSeconds(20)))) {
            SoftHca hca = d.hca();
            Wire.join(hca.port(), peer);
            Mlx5Function dev = d.function();
            EthPort port = EthPort.open(dev, EthPortConfig.defaults().withPromiscuous(true).withSizes(6, 6));
            PacketPool pool = PacketPool.open(port, 256, 2048);
            TxQueue tx = TxQueue.open(port, 0, pool);
            RxQueue rx = RxQueue.open(port, 0, pool); // 64 buffers posted
            int[] burst = new int[8];
            int n = pool.alloc(burst, burst.length);
            for (int i = 0; i < n; i++) {
                TestFrames.build(pool.memory(), pool.offset(burst[i]), 128, false, false, i);
                pool.setLength(burst[i], 128);
            }
            assertEquals(n, tx.send(burst, n), "frames in flight, never reaped");
            for (Part p : order) {
                switch (p) {
                    case DEVICE -> dev.close();
                    case PORT -> port.close();
                    case POOL -> pool.close();
                    case TX -> tx.close();
                    case RX -> rx.close();
                }
                if (p == Part.DEVICE) break; // the device's owner is gone: the rest only mark things closed
                arrive(peer, hca, frame);
            }
            for (Part p : order.subList(order.indexOf(Part.DEVICE) + 1, order.size())) {
                switch (p) {
                    case PORT -> port.close();
                    case POOL -> pool.close();
                    case TX -> tx.close();
                    case RX -> rx.close();
                    case DEVICE -> throw new AssertionError();
                }
            }
            assertEquals(0, hca.dmaFaults(), order + ": DMA faults (last at 0x" + Long.toHexString(hca.lastDmaFaultAddress()) + ")");
            assertEquals(Map.of(), hca.liveObjects(), order + ": objects left");
            assertEquals(0, hca.dmaMappings(), order + ": DMA mappings left");
        }
    }

    /** A frame from the far end of the cable, and the wait until the device has taken it in (delivered or dropped it). */
    private static void arrive(Port peer, SoftHca device, MemorySegment frame) {
        long before = device.peerFramesTaken();
        assertTrue(peer.transmit(frame, 0, (int) frame.byteSize()), "the wire carries the frame");
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (device.peerFramesTaken() == before) {
            assertTrue(System.nanoTime() < deadline, "the device took the frame in");
            LockSupport.parkNanos(100_000);
        }
    }

    private static void permutations(List<Part> left, List<Part> prefix, List<List<Part>> out) {
        if (left.isEmpty()) {
            out.add(List.copyOf(prefix));
            return;
        }
        for (int i = 0; i < left.size(); i++) {
            Part p = left.remove(i);
            prefix.add(p);
            permutations(left, prefix, out);
            prefix.remove(prefix.size() - 1);
            left.add(i, p);
        }
    }
}

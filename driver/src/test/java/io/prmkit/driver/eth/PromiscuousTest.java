package io.prmkit.driver.eth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.prmkit.driver.core.DeviceOptions;
import io.prmkit.driver.devx.BothTransports;
import io.prmkit.driver.devx.TestDevice;
import io.prmkit.driver.devx.Transport;
import io.prmkit.driver.dp.PacketPool;
import io.prmkit.driver.dp.RxQueue;
import io.prmkit.driver.dp.TestFrames;
import io.prmkit.driver.dp.TxQueue;
import io.prmkit.softhca.SoftHca;
import java.time.Duration;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.Parameter;

/**
 * {@code EthPortConfig.withPromiscuous} and {@code EthPort.setPromiscuous} change what the port
 * receives: frames to another MAC (02:00:00:00:00:02; the soft HCA's port is 02:00:00:00:00:01) sent
 * on a port cabled to itself are dropped by the vport, and counted ({@code rx_discards_phy}), until
 * promiscuous mode is on; then they arrive. On both command transports.
 */
@BothTransports
class PromiscuousTest {
    @Parameter
    Transport transport;

    static final int N = 16;
    static final int LEN = 128;

    private static boolean await(BooleanSupplier done) {
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (!done.getAsBoolean()) {
            if (System.nanoTime() - deadline > 0) return false;
            LockSupport.parkNanos(1_000_000);
        }
        return true;
    }

    /** Sends N frames to 02:00:00:00:00:02 and waits for their send completions. */
    private static void send(TxQueue tx, PacketPool txPool) {
        int[] frames = new int[N];
        assertEquals(N, txPool.alloc(frames, N));
        for (int i = 0; i < N; i++) {
            TestFrames.build(txPool.memory(), txPool.offset(frames[i]), LEN, false, false, i);
            txPool.setLength(frames[i], LEN);
        }
        assertEquals(N, tx.send(frames, N));
        assertTrue(await(() -> {
            tx.reap();
            return tx.inFlight() == 0;
        }), "all sends completed");
    }

    @Test
    void framesToAnotherMacArriveOnlyInPromiscuousMode() {
        try (TestDevice d = TestDevice.open(transport, new SoftHca.Options().loopback(true), DeviceOptions.defaults().withCommandTimeout(Duration.ofSeconds(10)));
             EthPort port = EthPort.open(d.function(), EthPortConfig.defaults().withSizes(6, 6))) {
            PacketPool txPool = PacketPool.open(port, 64, 2048);
            PacketPool rxPool = PacketPool.open(port, 64, 2048);
            TxQueue tx = TxQueue.open(port, 0, txPool);
            RxQueue rx = RxQueue.open(port, 0, rxPool);
            PortStats before = port.queryStats();

            send(tx, txPool);
            assertTrue(await(() -> port.queryStats().rxDiscardsPhy() - before.rxDiscardsPhy() == N),
                    "not promiscuous: the vport drops every frame to another MAC, each an inbound discard");
            int[] got = new int[N];
            assertEquals(0, rx.receive(got, N), "nothing arrived");
            assertEquals(0, port.queryStats().rxOutOfBuffer() - before.rxOutOfBuffer(), "dropped by the vport, not for lack of buffers");

            port.setPromiscuous(true);
            send(tx, txPool);
            int[] received = {0};
            assertTrue(await(() -> {
                int k = rx.receive(got, N);
                rxPool.free(got, 0, k);
                received[0] += k;
                return received[0] == N;
            }), "promiscuous: every frame arrives (" + received[0] + " of " + N + ")");
            PortStats after = port.queryStats();
            assertEquals(N, after.rxDiscardsPhy() - before.rxDiscardsPhy(), "no more discards");
            assertEquals(N, after.rxVportUnicastPackets() - before.rxVportUnicastPackets(), "the vport counts what it took");
        }
    }
}

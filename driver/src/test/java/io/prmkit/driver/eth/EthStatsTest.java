package io.prmkit.driver.eth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.prmkit.driver.core.DeviceOptions;
import io.prmkit.driver.devx.BothTransports;
import io.prmkit.driver.devx.TestDevice;
import io.prmkit.driver.devx.Transport;
import io.prmkit.driver.dp.PacketPool;
import io.prmkit.driver.dp.TestFrames;
import io.prmkit.driver.dp.TxQueue;
import io.prmkit.softhca.SoftHca;
import java.time.Duration;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.Parameter;

/** Statistics with traffic: frames sent on a port cabled to itself, with no receive buffers posted (both command transports). */
@BothTransports
class EthStatsTest {
    @Parameter
    Transport transport;

    private static boolean await(BooleanSupplier done) {
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (!done.getAsBoolean()) {
            if (System.nanoTime() - deadline > 0) return false;
            LockSupport.parkNanos(1_000_000);
        }
        return true;
    }

    @Test
    void sentFramesCountOnThePortAndLoopedBackFramesWithoutReceiveBuffersCountAsOutOfBuffer() {
        // the device's port starts on a loopback cable (SoftHca.Options.loopback, the default)
        try (TestDevice d = TestDevice.open(transport, new SoftHca.Options().loopback(true),
                     DeviceOptions.defaults().withCommandTimeout(Duration.ofSeconds(10)).withHealth(Duration.ofMillis(100), 0));
             EthPort port = EthPort.open(d.function(), EthPortConfig.defaults().withPromiscuous(true).withSizes(6, 6));
             PacketPool pool = PacketPool.open(port, 64, 2048)) {
            PortStats before = port.queryStats();
            TxQueue tx = TxQueue.open(port, 0, pool);
            int n = 16, len = 128;
            int[] frames = new int[n];
            for (int i = 0; i < n; i++) {
                frames[i] = pool.alloc();
                TestFrames.build(pool.memory(), pool.offset(frames[i]), len, false, false, i);
                pool.setLength(frames[i], len);
            }
            assertEquals(n, tx.send(frames, n));
            assertTrue(await(() -> {
                tx.reap();
                return tx.inFlight() == 0;
            }), "all sends completed");
            assertEquals(0, tx.errors());
            // No RQ WQE was posted: every looped-back frame is dropped and counted by the RQ's Q counter.
            assertTrue(await(() -> port.queryStats().rxOutOfBuffer() - before.rxOutOfBuffer() == n), "out_of_buffer counts the drops");
            PortStats after = port.queryStats();
            assertEquals(n, after.txPacketsPhy() - before.txPacketsPhy(), "PPCNT a_frames_transmitted_ok");
            assertEquals((long) n * len, after.txBytesPhy() - before.txBytesPhy(), "PPCNT a_octets_transmitted_ok");
            assertEquals(n, after.rxPacketsPhy() - before.rxPacketsPhy(), "PPCNT a_frames_received_ok (the frames came back)");
        }
    }
}

package io.prmkit.driver.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.prmkit.driver.cmd.CommandInterface;
import io.prmkit.driver.cmd.DeviceFatalException;
import io.prmkit.mlx5.CmdOpcode;
import io.prmkit.mlx5.NopIn;
import io.prmkit.mlx5.NopOut;
import io.prmkit.softhca.ExecutionMode;
import io.prmkit.softhca.SoftHca;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A firmware that stops without a syndrome: soft-hca in step mode advances its health counter only
 * when stepped, so the test steps it from a thread of its own and then stops.
 */
@Tag("timing") // a 300 ms stall of the stepper thread during bring-up trips the heartbeat (docs/testing.md)
class HeartbeatTest {

    @Test
    void aHealthCounterThatStopsMovingMakesTheDeviceFatal() throws Exception {
        try (SoftHca hca = SoftHca.create(new SoftHca.Options().mode(ExecutionMode.STEP))) {
            AtomicBoolean run = new AtomicBoolean(true);
            Thread stepper = new Thread(() -> {
                while (run.get()) {
                    if (!hca.step()) Thread.onSpinWait();
                }
            }, "test-stepper");
            stepper.start();
            long before = hca.function().dma().allocatedBytes();
            // Ten unchanged polls 30 ms apart: the stepper would have to stall 300 ms during bring-up to trip it.
            DeviceOptions o = new SoftHcaFixture().options().withHealth(Duration.ofMillis(30), 10)
                    .withCommandTimeout(Duration.ofSeconds(60));
            Mlx5Device dev = Mlx5Device.open(hca.function(), o);
            try {
                run.set(false);
                stepper.join();
                assertTrue(SoftHcaFixture.await(() -> dev.fatalError() != null, 10), "the poller noticed the stuck counter");
                assertTrue(dev.fatalError().getMessage().contains("health counter stuck"), dev.fatalError().getMessage());
                var in = CommandInterface.input(NopIn.SIZE);
                NopIn.opcode$set(in, CmdOpcode.NOP);
                // Fails at once with the heartbeat report, not after the 60 s timeout.
                DeviceFatalException e = assertThrows(DeviceFatalException.class,
                        () -> dev.commands().execute(in, NopIn.layout(), NopOut.SIZE, NopOut.layout()));
                assertTrue(e.getMessage().contains("firmware heartbeat stopped"), e.getMessage());
            } finally {
                run.set(false);
                dev.close();
            }
            assertEquals(before, hca.function().dma().allocatedBytes());
        }
    }
}

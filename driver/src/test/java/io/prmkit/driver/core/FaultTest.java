package io.prmkit.driver.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.prmkit.driver.Mlx5Exception;
import io.prmkit.driver.cmd.CommandException;
import io.prmkit.driver.cmd.CommandInterface;
import io.prmkit.driver.cmd.CommandTimeoutException;
import io.prmkit.driver.cmd.DeviceFatalException;
import io.prmkit.mlx5.CmdOpcode;
import io.prmkit.mlx5.CmdStatus;
import io.prmkit.mlx5.HealthSyndrome;
import io.prmkit.mlx5.NopIn;
import io.prmkit.mlx5.NopOut;
import io.prmkit.softhca.SoftHca;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** soft-hca's fault list, each with the driver's documented answer; none may hang. */
class FaultTest {

    private final SoftHcaFixture fx = new SoftHcaFixture();

    private static void nop(Mlx5Device dev) {
        var in = CommandInterface.input(NopIn.SIZE);
        NopIn.opcode$set(in, CmdOpcode.NOP);
        dev.commands().execute(in, NopIn.LAYOUT, NopOut.SIZE, NopOut.LAYOUT);
    }

    @Test
    void aFailedCommandNamesCommandStatusAndSyndromeAndOpenUndoesEverything() {
        try (SoftHca hca = SoftHca.create(SoftHcaFixture.device())) {
            long before = hca.function().dma().allocatedBytes();
            hca.faults().failNext(CmdOpcode.INIT_HCA, CmdStatus.BAD_PARAM_ERR, 0x00c0ffee);
            CommandException e = assertThrows(CommandException.class, () -> Mlx5Device.open(hca.function(), fx.options()));
            assertEquals(CmdOpcode.INIT_HCA$VALUE, e.opcode());
            assertEquals(CmdStatus.BAD_PARAM_ERR$VALUE, e.status());
            assertEquals(0x00c0ffee, e.syndrome());
            assertTrue(e.getMessage().startsWith("INIT_HCA (0x102) op_mod 0x0 on slot "), e.getMessage());
            assertTrue(e.getMessage().contains("status BAD_PARAM_ERR (0x3): Bad parameter"), e.getMessage());
            assertTrue(e.getMessage().contains("syndrome 0xc0ffee"), e.getMessage());
            // The failed open gave the pages back and disabled the HCA.
            assertTrue(fx.trace.get(fx.trace.size() - 1).startsWith("DISABLE_HCA"), fx.trace.toString());
            assertEquals(before, hca.function().dma().allocatedBytes());
            // The device is usable again.
            Mlx5Device.open(hca.function(), fx.options()).close();
        }
    }

    @Test
    void aCommandThatNeverCompletesTimesOutNamingCommandAndSlot() {
        try (SoftHca hca = SoftHca.create(SoftHcaFixture.device());
             Mlx5Device dev = Mlx5Device.open(hca.function(), fx.options().withCommandTimeout(Duration.ofMillis(300)))) {
            hca.faults().neverComplete(CmdOpcode.NOP, true);
            long t0 = System.nanoTime();
            CommandTimeoutException e = assertThrows(CommandTimeoutException.class, () -> nop(dev));
            long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
            assertTrue(ms >= 300, "waited the timeout: " + ms);
            assertTrue(e.getMessage().startsWith("NOP (0x80d) op_mod 0x0 on slot "), e.getMessage());
            assertTrue(e.getMessage().contains("no completion within 300 ms"), e.getMessage());
            assertEquals(1, dev.commands().retiredSlots(), "the slot stays with the firmware");
            hca.faults().neverComplete(CmdOpcode.NOP, false);
            nop(dev); // other slots still work
        }
    }

    @Test
    void fatalHealthFailsPendingAndLaterCommandsFastWithTheDecodedSyndrome() throws Exception {
        try (SoftHca hca = SoftHca.create(SoftHcaFixture.device())) {
            long before = hca.function().dma().allocatedBytes();
            Mlx5Device dev = Mlx5Device.open(hca.function(), fx.options().withCommandTimeout(Duration.ofSeconds(60)));
            hca.faults().neverComplete(CmdOpcode.NOP, true);
            CompletableFuture<Void> pending = CompletableFuture.runAsync(() -> nop(dev));
            hca.faults().fatal(HealthSyndrome.HW_FATAL_ERR);
            ExecutionException ee = assertThrows(ExecutionException.class, () -> pending.get(10, TimeUnit.SECONDS));
            DeviceFatalException f = assertInstanceOf(DeviceFatalException.class, ee.getCause());
            assertTrue(f.getMessage().contains("health syndrome HW_FATAL_ERR (0x8)"), f.getMessage());
            assertNotNull(dev.fatalError());
            // A later command fails at once instead of waiting its 60 s timeout.
            DeviceFatalException later = assertThrows(DeviceFatalException.class, () -> nop(dev));
            assertTrue(later.getMessage().startsWith("NOP (0x80d) op_mod 0x0: device fatal: health syndrome HW_FATAL_ERR"), later.getMessage());
            dev.close(); // no hang, no exception: host memory is freed without the device
            assertEquals(before, hca.function().dma().allocatedBytes());
        }
    }
}

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
import io.prmkit.driver.eth.EthPort;
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
        dev.commands().execute(in, NopIn.layout(), NopOut.SIZE, NopOut.layout());
    }

    @Test
    void aFailedCommandNamesCommandStatusAndSyndromeAndOpenUndoesEverything() {
        try (SoftHca hca = SoftHca.create(SoftHcaFixture.device())) {
            long before = hca.function().dma().allocatedBytes();
            hca.faults().failNext(CmdOpcode.SET_ISSI, CmdStatus.BAD_PARAM_ERR, 0x00c0ffee);
            CommandException e = assertThrows(CommandException.class, () -> Mlx5Device.open(hca.function(), fx.options()));
            assertEquals(CmdOpcode.SET_ISSI$VALUE, e.opcode());
            assertEquals(CmdStatus.BAD_PARAM_ERR$VALUE, e.status());
            assertEquals(0x00c0ffee, e.syndrome());
            assertTrue(e.getMessage().startsWith("SET_ISSI (0x10b) op_mod 0x0 on slot "), e.getMessage());
            assertTrue(e.getMessage().contains("status BAD_PARAM_ERR (0x3): Bad parameter"), e.getMessage());
            assertTrue(e.getMessage().contains("syndrome 0xc0ffee"), e.getMessage());
            // The failed open disabled the HCA and freed the queue.
            assertTrue(fx.trace.get(fx.trace.size() - 1).startsWith("DISABLE_HCA"), fx.trace.toString());
            assertTrue(fx.trace.get(fx.trace.size() - 1).contains("status=OK"), String.join("\n", fx.trace));
            assertEquals(0, e.getSuppressed().length, java.util.Arrays.toString(e.getSuppressed()));
            assertEquals(before, hca.function().dma().allocatedBytes());
            // The device is usable again.
            Mlx5Device.open(hca.function(), fx.options()).close();
        }
    }

    /** Linux's unwinding when INIT_HCA fails: the startup pages come back without TEARDOWN_HCA, then DISABLE_HCA. */
    @Test
    void aFailedInitHcaGetsEveryPageBackAndDisables() {
        try (SoftHca hca = SoftHca.create(SoftHcaFixture.device())) {
            long before = hca.function().dma().allocatedBytes();
            hca.faults().failNext(CmdOpcode.INIT_HCA, CmdStatus.INT_ERR, 0x1717);
            CommandException e = assertThrows(CommandException.class, () -> Mlx5Device.open(hca.function(), fx.options()));
            assertEquals(CmdOpcode.INIT_HCA$VALUE, e.opcode());
            assertEquals(0, e.getSuppressed().length, java.util.Arrays.toString(e.getSuppressed()));
            assertTrue(fx.trace.stream().noneMatch(t -> t.startsWith("TEARDOWN_HCA")), String.join("\n", fx.trace));
            assertTrue(fx.trace.get(fx.trace.size() - 1).startsWith("DISABLE_HCA"), fx.trace.toString());
            assertTrue(fx.trace.get(fx.trace.size() - 1).contains("status=OK"), String.join("\n", fx.trace));
            assertEquals(before, hca.function().dma().allocatedBytes());
            Mlx5Device.open(hca.function(), fx.options()).close();
        }
    }

    @Test
    void aCommandThatNeverCompletesTimesOutNamingCommandAndSlot() {
        try (SoftHca hca = SoftHca.create(SoftHcaFixture.device());
             // 2 s, not less: every command of the bring-up runs under it too, on a machine that may be loaded
             Mlx5Device dev = Mlx5Device.open(hca.function(), fx.options().withCommandTimeout(Duration.ofSeconds(2)))) {
            hca.faults().neverComplete(CmdOpcode.NOP, true);
            long t0 = System.nanoTime();
            CommandTimeoutException e = assertThrows(CommandTimeoutException.class, () -> nop(dev));
            long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
            assertTrue(ms >= 2000, "waited the timeout: " + ms);
            assertTrue(e.getMessage().startsWith("NOP (0x80d) op_mod 0x0 on slot "), e.getMessage());
            assertTrue(e.getMessage().contains("no completion within 2000 ms"), e.getMessage());
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

    @Test
    void fatalHealthWithAnOpenPortStillClosesEverythingWithoutHanging() {
        try (SoftHca hca = SoftHca.create(SoftHcaFixture.device())) {
            long before = hca.function().dma().allocatedBytes();
            Mlx5Device dev = Mlx5Device.open(hca.function(), fx.options());
            EthPort.open(dev, io.prmkit.driver.eth.EthPortConfig.defaults().withSizes(4, 4));
            hca.faults().fatal(HealthSyndrome.FW_INTERNAL_ERR);
            assertTrue(SoftHcaFixture.await(() -> dev.fatalError() != null, 10), "health poll saw the syndrome");
            dev.close(); // the port's destroys fail fast; host memory is freed anyway
            assertEquals(before, hca.function().dma().allocatedBytes());
        }
    }

    @Test
    void firmwareThatNeverFinishesInitializingIsABoundedClearError() {
        try (SoftHca hca = SoftHca.create(SoftHcaFixture.device().initializingPolls(Integer.MAX_VALUE))) {
            long before = hca.function().dma().allocatedBytes();
            DeviceOptions o = fx.options().withCommands(new CommandInterface.Options(Duration.ofMillis(200), Duration.ofSeconds(5),
                    io.prmkit.driver.cmd.CommandTrace.OFF));
            Mlx5Exception e = assertThrows(Mlx5Exception.class, () -> Mlx5Device.open(hca.function(), o));
            assertEquals("firmware still initializing 200 ms before the command queue address was set (init_seg.initializing stayed 1)",
                    e.getMessage());
            assertEquals(before, hca.function().dma().allocatedBytes());
        }
    }

    @Test
    void aQueueOfOneSlotCarriesEverythingIncludingPages() {
        try (SoftHca hca = SoftHca.create(SoftHcaFixture.device().cmdq(0, 6));
             Mlx5Device dev = Mlx5Device.open(hca.function(), fx.options())) {
            assertEquals(1, dev.commands().slots());
            long lent = dev.pages().lent();
            hca.faults().requestPages(10);
            assertTrue(SoftHcaFixture.await(() -> dev.pages().lent() == lent + 10, 10));
            nop(dev);
        }
    }

    @Test
    void pagesRequestedAndReturnedAtRunTime() {
        try (SoftHca hca = SoftHca.create(SoftHcaFixture.device());
             Mlx5Device dev = Mlx5Device.open(hca.function(), fx.options())) {
            long lent = dev.pages().lent();
            hca.faults().requestPages(700); // more than one MANAGE_PAGES command carries
            assertTrue(SoftHcaFixture.await(() -> dev.pages().lent() == lent + 700, 10), "gave 700 pages: " + dev.pages().lent());
            hca.faults().requestPages(-300);
            assertTrue(SoftHcaFixture.await(() -> dev.pages().lent() == lent + 400, 10), "took 300 back: " + dev.pages().lent());
            assertEquals(null, dev.pageWorker().lastError());
        }
    }

    @Test
    void aPageRequestBeyondTheLimitIsAnsweredWithAllocationFail() {
        try (SoftHca hca = SoftHca.create(SoftHcaFixture.device().pages(8, 32, 0));
             Mlx5Device dev = Mlx5Device.open(hca.function(), fx.options().withPageLimit(50))) {
            hca.faults().requestPages(100);
            assertTrue(SoftHcaFixture.await(() -> dev.pageWorker().lastError() != null, 10));
            Mlx5Exception e = dev.pageWorker().lastError();
            assertTrue(e.getMessage().contains("answered MANAGE_PAGES ALLOCATION_FAIL"), e.getMessage());
            assertEquals(1, dev.pages().allocationFailures());
            assertEquals(40, dev.pages().lent());
            nop(dev); // the device carries on
        }
    }
}

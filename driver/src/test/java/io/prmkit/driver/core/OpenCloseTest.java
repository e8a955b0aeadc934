package io.prmkit.driver.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.prmkit.driver.cmd.CommandInterface;
import io.prmkit.driver.eth.EthPort;
import io.prmkit.driver.eth.EthPortConfig;
import io.prmkit.mlx5.CmdOpcode;
import io.prmkit.mlx5.NopIn;
import io.prmkit.mlx5.NopOut;
import io.prmkit.softhca.SoftHca;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class OpenCloseTest {

    private final SoftHcaFixture fx = new SoftHcaFixture();

    private static long driverThreads() {
        return Thread.getAllStackTraces().keySet().stream().filter(t -> t.getName().startsWith("mlx5-") && t.isAlive()).count();
    }

    @Test
    void openAndClose100TimesLeaksNoObjectsPagesMemoryOrThreads() {
        try (SoftHca hca = SoftHca.create(SoftHcaFixture.device().pages(8, 32, 8))) {
            long before = hca.function().dma().allocatedBytes();
            long threadsBefore = driverThreads();
            for (int i = 0; i < 100; i++) {
                try (Mlx5Device dev = Mlx5Device.open(hca.function(), fx.options())) {
                    assertEquals(48, dev.pages().lent());
                    Map<String, Integer> base = hca.liveObjects();
                    if (i % 10 == 0) {
                        // Every tenth run also builds and closes an Ethernet port: its objects must all go.
                        try (EthPort port = EthPort.open(dev, EthPortConfig.defaults().withQueuePairs(2).withSizes(4, 4))) {
                            assertTrue(hca.liveObjects().get("sq") == 2);
                        }
                        assertEquals(base, hca.liveObjects(), "run " + i + ": port objects destroyed");
                    }
                    // close() throws if the firmware keeps any page after TEARDOWN_HCA
                }
                assertEquals(Map.of(), hca.liveObjects(), "run " + i + ": the device holds no objects");
                assertEquals(before, hca.function().dma().allocatedBytes(), "run " + i + ": DMA memory back");
                assertEquals(threadsBefore, driverThreads(), "run " + i + ": driver threads stopped");
            }
        }
    }

    @Test
    void severalThreadsIssueCommandsAtOnceEachInItsOwnSlot() throws Exception {
        try (SoftHca hca = SoftHca.create(SoftHcaFixture.device());
             Mlx5Device dev = Mlx5Device.open(hca.function(), fx.options())) {
            int threads = 8, each = 50;
            Set<String> slots = ConcurrentHashMap.newKeySet();
            CountDownLatch start = new CountDownLatch(1);
            List<Thread> ts = new ArrayList<>();
            List<Throwable> errors = new ArrayList<>();
            fx.trace.clear();
            for (int t = 0; t < threads; t++) {
                Thread th = new Thread(() -> {
                    try {
                        start.await();
                        for (int i = 0; i < each; i++) {
                            var in = CommandInterface.input(NopIn.SIZE);
                            NopIn.opcode$set(in, CmdOpcode.NOP);
                            dev.commands().execute(in, NopIn.layout(), NopOut.SIZE, NopOut.layout());
                        }
                    } catch (Throwable e) {
                        synchronized (errors) {
                            errors.add(e);
                        }
                    }
                });
                th.start();
                ts.add(th);
            }
            start.countDown();
            for (Thread th : ts) th.join(TimeUnit.SECONDS.toMillis(60));
            assertEquals(List.of(), errors);
            long nops = fx.trace.stream().filter(l -> l.startsWith("NOP")).peek(l -> slots.add(l.replaceAll(".*slot=(\\d+).*", "$1"))).count();
            assertEquals(threads * each, nops);
            assertTrue(slots.size() > 1, "commands ran in several slots: " + slots);
            assertTrue(!slots.contains(String.valueOf(dev.commands().slots() - 1)), "the last slot is kept for MANAGE_PAGES");
        }
    }
}

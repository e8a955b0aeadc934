package io.prmkit.driver.dp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.prmkit.driver.core.DeviceOptions;
import io.prmkit.driver.core.Mlx5Function;
import io.prmkit.driver.devx.BothTransports;
import io.prmkit.driver.devx.CommandQueueOnly;
import io.prmkit.driver.devx.TestDevice;
import io.prmkit.driver.devx.Transport;
import io.prmkit.driver.eth.EthPort;
import io.prmkit.driver.eth.EthPortConfig;
import io.prmkit.driver.eth.SqResources;
import io.prmkit.mlx5.InlineMode;
import io.prmkit.platform.Mmio;
import io.prmkit.softhca.SoftHca;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.Parameter;

/** Each misuse of the datapath's queues and pools is refused with an exception that says what and why (both command transports). */
@BothTransports
class MisuseTest {
    @Parameter
    Transport transport;

    private TestDevice open() {
        return TestDevice.open(transport, new SoftHca.Options(), DeviceOptions.defaults().withCommandTimeout(Duration.ofSeconds(20)));
    }

    private static EthPortConfig config() {
        return EthPortConfig.defaults().withPromiscuous(true).withSizes(6, 6).withQueuePairs(2);
    }

    @Test
    void aSecondTxQueueOnOneSqIsRefusedAndTheFirstStillSends() {
        try (TestDevice d = open(); EthPort port = EthPort.open(d.function(), config())) {
            PacketPool pool = PacketPool.open(port, 64, 2048);
            TxQueue first = TxQueue.open(port, 0, pool);
            IllegalStateException e = assertThrows(IllegalStateException.class, () -> TxQueue.open(port, 0, pool));
            assertTrue(e.getMessage().contains("SQ 0") && e.getMessage().contains("already has a TX queue"), e.getMessage());
            TxQueue.open(port, 1, pool); // another SQ is free
            int h = pool.alloc();
            TestFrames.build(pool.memory(), pool.offset(h), 100, false, false, 1);
            pool.setLength(h, 100);
            assertEquals(1, first.send(new int[] {h}, 1));
        }
    }

    @Test
    void aSecondRxQueueOnOneRqIsRefusedBeforeItPostsAnything() {
        try (TestDevice d = open(); EthPort port = EthPort.open(d.function(), config())) {
            PacketPool pool = PacketPool.open(port, 256, 2048);
            RxQueue first = RxQueue.open(port, 0, pool);
            int posted = first.postedWqes();
            int free = pool.available();
            IllegalStateException e = assertThrows(IllegalStateException.class, () -> RxQueue.open(port, 0, pool));
            assertTrue(e.getMessage().contains("RQ 0") && e.getMessage().contains("already has an RX queue"), e.getMessage());
            assertEquals(free, pool.available(), "the refused queue took no buffer");
            assertEquals(posted, first.postedWqes());
        }
    }

    @Test
    void queuesPoolsAndPortsRefuseUseAfterClose() {
        try (TestDevice d = open()) {
            Mlx5Function dev = d.function();
            EthPort port = EthPort.open(dev, config());
            PacketPool pool = PacketPool.open(port, 256, 2048);
            TxQueue tx = TxQueue.open(port, 0, pool);
            RxQueue rx = RxQueue.open(port, 0, pool);
            int[] b = new int[4];

            tx.close();
            assertTrue(assertThrows(IllegalStateException.class, () -> tx.send(b, 0)).getMessage().contains("TX queue on SQ 0 is closed"));
            assertThrows(IllegalStateException.class, tx::reap);
            rx.close();
            assertTrue(assertThrows(IllegalStateException.class, () -> rx.receive(b, 4)).getMessage().contains("RX queue on RQ 0 is closed"));
            assertThrows(IllegalStateException.class, rx::refill);

            // Closing the port stops the queues it owns.
            TxQueue tx1 = TxQueue.open(port, 1, pool);
            RxQueue rx1 = RxQueue.open(port, 1, pool);
            port.close();
            assertTrue(tx1.isClosed() && rx1.isClosed(), "the port's close stopped its queues");
            assertThrows(IllegalStateException.class, () -> tx1.send(b, 0));
            assertThrows(IllegalStateException.class, () -> rx1.receive(b, 4));
            assertTrue(pool.isClosed(), "the port's close freed its pool");
            assertTrue(assertThrows(IllegalStateException.class, pool::alloc).getMessage().contains("pool is closed"));
            assertTrue(assertThrows(IllegalStateException.class, () -> PacketPool.open(port, 4, 2048)).getMessage().contains("port is closed"));
            assertThrows(IllegalStateException.class, () -> TxQueue.open(port, 0, pool));
        }
    }

    @Test
    void aClosedPoolRefusesAndItsQueuesRefuseToUseIt() {
        try (TestDevice d = open(); EthPort port = EthPort.open(d.function(), config())) {
            PacketPool pool = PacketPool.open(port, 256, 2048);
            TxQueue tx = TxQueue.open(port, 0, pool);
            RxQueue rx = RxQueue.open(port, 0, pool);
            int[] b = new int[4];
            pool.close();
            assertThrows(IllegalStateException.class, () -> pool.alloc(b, 4));
            assertThrows(IllegalStateException.class, () -> pool.free(0));
            assertThrows(IllegalStateException.class, () -> tx.send(b, 0));
            assertThrows(IllegalStateException.class, () -> rx.receive(b, 4));
            assertThrows(IllegalStateException.class, () -> RxQueue.open(port, 1, pool));
        }
    }

    /** The doorbell of thread A's send blocks on a latch: while A is inside send, another thread's call is refused. */
    @Test
    @CommandQueueOnly("a white-box test (rings in host memory, a doorbell page of its own): no device, so no transport, to run it over")
    void aQueueUsedByASecondThreadWhileTheFirstIsInsideACallRefuses() throws Exception {
        try (HostMemory host = new HostMemory()) {
            Rings.Tx t = new Rings.Tx(host, 6, 6, InlineMode.L2);
            CountDownLatch inside = new CountDownLatch(1);
            CountDownLatch release = new CountDownLatch(1);
            Mmio blocking = new Mmio() {
                @Override
                public long size() {
                    return t.uar.size();
                }

                @Override
                public int read32(long offset) {
                    return t.uar.read32(offset);
                }

                @Override
                public long read64(long offset) {
                    return t.uar.read64(offset);
                }

                @Override
                public void write32(long offset, int value) {
                    t.uar.write32(offset, value);
                }

                @Override
                public void write64(long offset, long value) {
                    inside.countDown();
                    try {
                        release.await(10, TimeUnit.SECONDS);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                    t.uar.write64(offset, value);
                }
            };
            SqResources r = t.res;
            TxQueue tx = new TxQueue(new SqResources(r.ring(), r.logWqebbs(), r.sqn(), r.doorbellRecord(), blocking, r.doorbellOffset(),
                    r.bfHalfSize(), r.cq(), r.minInlineMode(), r.control()), new PacketPool(host, 64, 2048, Rings.LKEY));
            PacketPool pool = new PacketPool(host, 64, 2048, Rings.LKEY);
            int h = pool.alloc();
            TestFrames.build(pool.memory(), pool.offset(h), 100, false, false, 1);
            pool.setLength(h, 100);
            AtomicReference<Object> a = new AtomicReference<>();
            Thread sender = new Thread(() -> a.set(tx.send(pool, new int[] {h}, 0, 1)), "sender-A");
            sender.start();
            assertTrue(inside.await(10, TimeUnit.SECONDS), "thread A reached the doorbell");
            IllegalStateException e = assertThrows(IllegalStateException.class, tx::reap);
            assertTrue(e.getMessage().contains("in use by thread 'sender-A'"), e.getMessage());
            release.countDown();
            sender.join(10_000);
            assertEquals(1, a.get(), "A's send went through");
            assertEquals(0, tx.reap(), "free again once A left (no CQE yet)");
        }
    }
}

package com.example.downstream;

import com.example.gen.acme.Doorbell;
import io.prmkit.driver.core.DeviceOptions;
import io.prmkit.driver.core.Mlx5Device;
import io.prmkit.driver.dp.PacketPool;
import io.prmkit.driver.dp.RxQueue;
import io.prmkit.driver.dp.TxQueue;
import io.prmkit.driver.eth.EthPort;
import io.prmkit.driver.eth.EthPortConfig;
import io.prmkit.driver.eth.PortStats;
import io.prmkit.mlx5.WqeCtrlSeg;
import io.prmkit.net.Ethhdr;
import io.prmkit.softhca.SoftHca;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;

/**
 * A user's program on prmkit's published jars: its own generated accessor ({@code acme.doorbell},
 * from src/main/prm by prmkit-maven-plugin), a bundled one ({@code wqe_ctrl_seg}), and 32 frames out
 * of the driver's port and back through the soft HCA's loopback wire. Prints one line that
 * release/check compares.
 */
public final class Main {
    private Main() {
    }

    /**
     * Runs the three checks and prints their results on one line.
     *
     * @param args ignored
     */
    public static void main(String[] args) {
        ValueLayout.OfInt beDword = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN);
        int doorbellWord;
        int ctrlOpcode;
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment db = arena.allocate(Doorbell.SIZE, 8);
            Doorbell.counter$set(db, 0x1234);
            Doorbell.ring$set(db, 0x5);
            doorbellWord = db.get(beDword, 0);

            MemorySegment ctrl = arena.allocate(WqeCtrlSeg.SIZE, 8);
            WqeCtrlSeg.opcode$set(ctrl, 0x0a);
            ctrlOpcode = WqeCtrlSeg.opcode(ctrl);
        }

        try (SoftHca hca = SoftHca.create();
             Mlx5Device dev = Mlx5Device.open(hca.function(), DeviceOptions.defaults());
             EthPort port = EthPort.open(dev, EthPortConfig.defaults().withPromiscuous(true))) {
            PacketPool txPool = PacketPool.open(port, 256, 2048);
            PacketPool rxPool = PacketPool.open(port, 256, 2048);
            TxQueue tx = TxQueue.open(port, 0, txPool);
            RxQueue rx = RxQueue.open(port, 0, rxPool);

            int[] burst = new int[32];
            int n = txPool.alloc(burst, burst.length);
            for (int i = 0; i < n; i++) {
                MemorySegment frame = txPool.buffer(burst[i]);
                frame.fill((byte) i);
                Ethhdr.h_dest$copyFrom(frame, new byte[] {2, 0, 0, 0, 0, 2});
                Ethhdr.h_source$copyFrom(frame, new byte[] {2, 0, 0, 0, 0, 1});
                Ethhdr.h_proto$set(frame, 0x88b5);
                txPool.setLength(burst[i], 128);
            }
            int sent = 0;
            long deadline = System.nanoTime() + 30_000_000_000L;
            while (sent < n && System.nanoTime() < deadline) {
                sent += tx.send(burst, sent, n - sent);
            }
            txPool.free(burst, sent, n - sent);

            int[] got = new int[32];
            int received = 0;
            while (received < sent && System.nanoTime() < deadline) {
                int k = rx.receive(got, got.length);
                rxPool.free(got, 0, k);
                received += k;
            }
            tx.reap();
            PortStats s = port.queryStats();
            System.out.printf("doorbell 0x%08x, wqe_ctrl_seg opcode 0x%02x, sent %d, received %d, vport rx %d%n",
                    doorbellWord, ctrlOpcode, sent, received, s.rxVportUnicastPackets());
        }
    }
}

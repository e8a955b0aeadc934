package io.prmkit.driver.devx;

import io.prmkit.driver.cmd.CommandException;
import io.prmkit.driver.core.Mlx5Function;
import io.prmkit.driver.dp.PacketPool;
import io.prmkit.driver.dp.RxQueue;
import io.prmkit.driver.dp.TxQueue;
import io.prmkit.driver.eth.EthPort;
import io.prmkit.driver.eth.EthPortConfig;
import io.prmkit.driver.eth.PortStats;
import io.prmkit.mlx5.CmdStatus;
import io.prmkit.mlx5.SqState;
import io.prmkit.net.Ethhdr;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Map;
import java.util.function.Supplier;

/**
 * What DevxBackEndTest runs on each transport (the command queue after our bring-up, and rdma-core's
 * DEVX): everything above {@code cmd}, the same code on both. It checks as it goes and throws an
 * {@code AssertionError} saying what was wrong (DEVX: in the child JVM {@link BothTransports} starts).
 * <ol>
 *   <li>An Ethernet port: PD, transport domain, mkey, TIS, Q counter, a CQ and SQ, a CQ and RQ, RQT,
 *       TIR, a NIC RX flow table with a catch-all rule to the TIR; the device holds them.</li>
 *   <li>A command the device refuses (MODIFY_SQ from the wrong state) comes back as a {@link CommandException} with its status.</li>
 *   <li>{@code frames} frames out of the SQ and back into the RQ through the rule, each checked in
 *       order, none lost; the vport counters agree.</li>
 *   <li>The port closes: every object it made is gone from the device.</li>
 * </ol>
 */
final class PortScenario {
    record Result(long sent, long received, long txPackets, long rxPackets, Map<String, Integer> objectsWhileOpen) {}

    private PortScenario() {}

    static void check(boolean ok, String what) {
        if (!ok) throw new AssertionError(what);
    }

    static Result run(Mlx5Function dev, Supplier<Map<String, Integer>> liveObjects, long frames) {
        Map<String, Integer> before = liveObjects.get();
        Map<String, Integer> open;
        long sent = 0, received = 0;
        PortStats stats;
        try (EthPort port = EthPort.open(dev, EthPortConfig.defaults().withPromiscuous(true))) {
            open = liveObjects.get();
            for (String kind : new String[] {"pd", "transport_domain", "mkey", "tis", "cq", "sq", "rq", "rqt", "tir", "flow_table"}) {
                int made = open.getOrDefault(kind, 0) - before.getOrDefault(kind, 0);
                check(made >= (kind.equals("cq") ? 2 : 1), "the port made " + made + " " + kind + " (device holds " + open + ")");
            }
            refusedCommandIsACommandException(port);

            PacketPool txPool = PacketPool.open(port, 256, 2048);
            PacketPool rxPool = PacketPool.open(port, 512, 2048);
            TxQueue tx = TxQueue.open(port, 0, txPool);
            RxQueue rx = RxQueue.open(port, 0, rxPool);
            int[] burst = new int[32];
            int[] got = new int[64];
            long deadline = System.nanoTime() + 180_000_000_000L;
            while (received < frames && System.nanoTime() < deadline) {
                if (sent < frames && sent - received <= 256 - burst.length) {
                    tx.reap();
                    int n = txPool.alloc(burst, (int) Math.min(burst.length, frames - sent));
                    for (int i = 0; i < n; i++) {
                        MemorySegment frame = txPool.buffer(burst[i]);
                        frame.asSlice(0, 128).fill((byte) (sent + i));
                        Ethhdr.h_dest$copyFrom(frame, new byte[] {2, 0, 0, 0, 0, 2});
                        Ethhdr.h_source$copyFrom(frame, new byte[] {2, 0, 0, 0, 0, 1});
                        Ethhdr.h_proto$set(frame, 0x88b5);
                        frame.set(ValueLayout.JAVA_LONG_UNALIGNED, Ethhdr.SIZE, sent + i); // the frame's number
                        txPool.setLength(burst[i], 128);
                    }
                    int s = tx.send(burst, 0, n);
                    if (s < n) txPool.free(burst, s, n - s);
                    sent += s;
                }
                int k = rx.receive(got, got.length);
                for (int i = 0; i < k; i++) {
                    check(rxPool.length(got[i]) == 128, "frame " + (received + i) + " is " + rxPool.length(got[i]) + " bytes, sent 128");
                    long number = rxPool.buffer(got[i]).get(ValueLayout.JAVA_LONG_UNALIGNED, Ethhdr.SIZE);
                    check(number == received + i, "frame " + number + " arrived where " + (received + i) + " was due: lost or reordered");
                }
                rxPool.free(got, 0, k);
                received += k;
                if (k == 0) Thread.onSpinWait();
            }
            tx.reap();
            stats = port.queryStats();
        }
        check(sent == frames, "sent " + sent + " of " + frames);
        check(received == frames, "received " + received + " of " + frames + " (lost " + (frames - received) + ")");
        check(stats.txVportUnicastPackets() == frames, "vport counted " + stats.txVportUnicastPackets() + " frames sent");
        check(stats.rxVportUnicastPackets() == frames, "vport counted " + stats.rxVportUnicastPackets() + " frames received");
        Map<String, Integer> after = liveObjects.get();
        check(after.equals(before), "the port left objects: before " + before + ", after " + after);
        return new Result(sent, received, stats.txVportUnicastPackets(), stats.rxVportUnicastPackets(), open);
    }

    /**
     * MODIFY_SQ from a state the SQ is not in (it is RDY): the device refuses, and its status comes back
     * as a CommandException (over DEVX through mlx5dv_devx_obj_modify on the SQ's handle).
     */
    private static void refusedCommandIsACommandException(EthPort port) {
        try {
            port.modifySq(0, SqState.RST, SqState.RDY);
        } catch (CommandException e) {
            check(e.status() != 0 && e.statusEnum() != CmdStatus.OK && e.getMessage().startsWith("MODIFY_SQ (0x"),
                    "refused MODIFY_SQ: " + e.getMessage());
            check(port.sendQueue(0).state() == SqState.RDY, "the SQ's state after a refused MODIFY_SQ: " + port.sendQueue(0).state());
            return;
        }
        throw new AssertionError("MODIFY_SQ RST to RDY of an SQ in RDY succeeded");
    }
}

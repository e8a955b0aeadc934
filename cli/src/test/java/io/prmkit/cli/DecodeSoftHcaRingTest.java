package io.prmkit.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.prmkit.cli.PrmkitCliTest.Run;
import io.prmkit.demo.Frames;
import io.prmkit.driver.core.DeviceOptions;
import io.prmkit.driver.core.Mlx5Device;
import io.prmkit.driver.dp.PacketPool;
import io.prmkit.driver.dp.RxQueue;
import io.prmkit.driver.dp.TxQueue;
import io.prmkit.driver.eth.EthPort;
import io.prmkit.driver.eth.EthPortConfig;
import io.prmkit.softhca.CapsProfile;
import io.prmkit.softhca.SoftHca;
import io.prmkit.softhca.wire.Wire;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code decode --cqe} on a receive CQ the soft HCA really wrote, compressed sessions and all:
 * the completions it lists are the frames that were sent, in order, with their lengths, and the
 * driver's own receive of the same ring agrees.
 */
class DecodeSoftHcaRingTest {
    private static final Pattern PLAIN = Pattern.compile("(?m)^  dword 0x2c \\[31:0\\]\\s+byte_cnt = 0x([0-9a-f]+)$");
    private static final Pattern MINI = Pattern.compile("(?m)^  mini \\d+: completion \\d+, wqe_counter 0x[0-9a-f]+, byte_cnt (\\d+), ");

    @Test
    void theCompletionsOfARealRingAreTheFramesSent(@TempDir Path dir) throws Exception {
        final int frames = 40;
        Run run;
        List<Integer> decoded;
        List<Integer> received = new ArrayList<>();
        SoftHca hca = SoftHca.create(new SoftHca.Options().caps(CapsProfile.defaults()).loopback(true));
        Wire wire = hca.port().wire();
        try (hca; wire;
                Mlx5Device dev = Mlx5Device.open(hca.function(), DeviceOptions.defaults().withCommandTimeout(Duration.ofSeconds(10)));
                EthPort eth = EthPort.open(dev, EthPortConfig.defaults().withQueuePairs(1).withPromiscuous(true));
                PacketPool txPool = PacketPool.open(eth, 64, 2048);
                PacketPool rxPool = PacketPool.open(eth, 256, 2048)) {
            assertTrue(eth.cqeCompression(), "the receive CQ compresses on these caps");
            TxQueue tx = TxQueue.open(eth, 0, txPool);
            RxQueue rx = RxQueue.open(eth, 0, rxPool);
            int[] bufs = new int[frames];
            assertEquals(frames, txPool.alloc(bufs, frames));
            for (int i = 0; i < frames; i++) {
                Frames.build(txPool.memory(), txPool.offset(bufs[i]), 100 + i, false, false, i, 0, false); // one flow: one RQ
                txPool.setLength(bufs[i], 100 + i);
            }
            assertEquals(frames, tx.send(bufs, frames));
            // The device's thread delivers; its sessions are written out by the end of the pass that held
            // them. Snapshots of the ring are decoded until they hold every completion (no fixed sleep).
            long until = System.nanoTime() + Duration.ofSeconds(20).toNanos();
            do {
                run = decode(eth.rxResources(0).cq().ring().segment().toArray(ValueLayout.JAVA_BYTE), dir);
                decoded = completions(run.out());
                if (decoded.size() >= frames) break;
                Thread.sleep(5);
            } while (System.nanoTime() < until);
            int[] got = new int[64];
            for (int n; received.size() < frames && System.nanoTime() < until; ) {
                n = rx.receive(got, 64);
                for (int i = 0; i < n; i++) received.add(rxPool.length(got[i]));
                rxPool.free(got, 0, n);
            }
        }
        List<Integer> sent = new ArrayList<>();
        for (int i = 0; i < frames; i++) sent.add(100 + i);
        assertEquals(sent, received, "the driver's receive");

        assertEquals(0, run.exitCode(), run.err());
        assertTrue(run.out().contains("compressed session title"), "the ring holds a compressed session:\n" + run.out());
        assertEquals(sent, decoded, "decode --cqe's completions:\n" + run.out());
    }

    /** {@code prmkit decode --cqe} of a ring snapshot. */
    private static Run decode(byte[] ring, Path dir) throws java.io.IOException {
        StringBuilder hex = new StringBuilder();
        for (int i = 0; i < ring.length; i++) hex.append(String.format("%02x", ring[i])).append(i % 16 == 15 ? '\n' : ' ');
        Path dump = Files.writeString(dir.resolve("cq.hex"), hex);
        return PrmkitCliTest.run("decode", "--cqe", dump.toString());
    }

    /** The completions decode listed, in ring order: a plain CQE's byte_cnt, or a session's mini CQEs. */
    private static List<Integer> completions(String out) {
        List<Integer> decoded = new ArrayList<>();
        for (String entry : out.split("\n\n")) {
            if (entry.contains("CQE opcode RESP_SEND") && !entry.contains("compressed session title")) {
                Matcher m = PLAIN.matcher(entry);
                assertTrue(m.find(), entry);
                decoded.add(Integer.parseInt(m.group(1), 16));
            }
            Matcher mini = MINI.matcher(entry);
            while (mini.find()) decoded.add(Integer.parseInt(mini.group(1)));
        }
        return decoded;
    }
}

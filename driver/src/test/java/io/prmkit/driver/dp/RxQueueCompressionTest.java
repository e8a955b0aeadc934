package io.prmkit.driver.dp;

import io.prmkit.driver.eth.RqResources;

import static org.junit.jupiter.api.Assertions.*;

import io.prmkit.mlx5.CqDoorbellRecord;
import io.prmkit.mlx5.Cqe64;
import io.prmkit.mlx5.WqDoorbellRecord;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * CQE compression on receive: the test plays the device with {@link FakeRq#deliverSession} (title and
 * mini CQE arrays written by the generated device setters) and checks that {@link RxQueue#receive}
 * hands out the same buffers and metadata a plain CQE per frame would, in order, across calls, across
 * the ring end, with the session slots' owner bytes rewritten.
 */
class RxQueueCompressionTest {
    private final HostMemory host = new HostMemory();

    @AfterEach
    void close() {
        host.close();
    }

    private static byte[] frame(int seq) {
        byte[] f = new byte[60 + seq % 200];
        for (int i = 0; i < f.length; i++) f[i] = (byte) (seq * 7 + i);
        return f;
    }

    /** Delivers frames seq .. seq + n - 1: plain when n is 1, a session otherwise; hash = seq of the frame. */
    private static void deliver(FakeRq dev, int seq, int n, int vlan) {
        if (n == 1) {
            assertTrue(dev.deliver(frame(seq), seq, vlan, false));
            return;
        }
        byte[][] frames = new byte[n][];
        int[] hashes = new int[n];
        for (int i = 0; i < n; i++) {
            frames[i] = frame(seq + i);
            hashes[i] = seq + i;
        }
        assertTrue(dev.deliverSession(frames, hashes, vlan));
    }

    /** Checks buffers {@code got[0..n)} are frames seq.. in order with their metadata, frees them; returns the next seq. */
    private static int check(PacketPool pool, int[] got, int n, int seq, int vlan) {
        for (int i = 0; i < n; i++, seq++) {
            int h = got[i];
            byte[] want = frame(seq);
            assertEquals(seq, pool.rssHash(h), "frame order (RSS hash is the frame number)");
            assertEquals(want.length, pool.length(h), "length of frame " + seq);
            assertArrayEquals(want, pool.memory().asSlice(pool.offset(h), want.length).toArray(ValueLayout.JAVA_BYTE), "bytes of frame " + seq);
            int f = pool.flags(h);
            int all = PacketFlags.RX_L2_OK | PacketFlags.RX_L3_OK | PacketFlags.RX_L4_OK | PacketFlags.RX_IPV4 | PacketFlags.RX_UDP;
            assertEquals(all | (vlan >= 0 ? PacketFlags.RX_VLAN_STRIPPED : 0), f, "flags of frame " + seq);
            if (vlan >= 0) assertEquals(vlan, pool.vlanTci(h));
            pool.free(h);
        }
        return seq;
    }

    @Test
    void sessionsOf2To64CompletionsDecodeAsPlainCqesWould() {
        RqResources res = Rings.rq(host, 7, 7);
        PacketPool pool = new PacketPool(host, 256, 2048, Rings.LKEY);
        RxQueue rx = new RxQueue(res, pool);
        FakeRq dev = new FakeRq(host, res);
        int[] got = new int[128];
        int seq = 0;
        for (int n = 2; n <= 64; n++) {
            int vlan = n % 3 == 0 ? 0x0100 + n : -1;
            deliver(dev, seq, n, vlan);
            assertEquals(n, rx.receive(got, 128), "session of " + n);
            seq = check(pool, got, n, seq, vlan);
            assertEquals(seq, CqDoorbellRecord.consumer_index(res.cq().doorbellRecord()), "consumer index after the session of " + n);
        }
        assertEquals(63, rx.compressedSessions());
        assertEquals(seq, rx.compressedCompletions());
        assertEquals(seq, rx.packets());
        assertEquals(0, rx.errors());
        assertEquals(List.of(), dev.violations);
    }

    @Test
    void aSessionLargerThanOneCallCarriesOverToTheNextCalls() {
        RqResources res = Rings.rq(host, 7, 7);
        PacketPool pool = new PacketPool(host, 256, 2048, Rings.LKEY);
        RxQueue rx = new RxQueue(res, pool);
        FakeRq dev = new FakeRq(host, res);
        int[] got = new int[64];
        int seq = 0;
        for (int max = 1; max <= 9; max++) {
            deliver(dev, seq, 37, -1);
            deliver(dev, seq + 37, 1, -1); // a plain CQE right after the session
            int left = 38;
            while (left > 0) {
                int n = rx.receive(got, max);
                assertEquals(Math.min(max, left), n, "max " + max + ", " + left + " left");
                seq = check(pool, got, n, seq, -1);
                left -= n;
            }
            assertEquals(0, rx.receive(got, max), "nothing more after the session and its plain CQE (max " + max + ")");
        }
        assertEquals(9 * 38, seq);
        assertEquals(9, rx.compressedSessions());
        assertEquals(List.of(), dev.violations);
    }

    @Test
    void sessionsAcrossTheRingEndTitleAndMiniArraysWrapping() {
        RqResources res = Rings.rq(host, 4, 4); // 16 CQ slots
        PacketPool pool = new PacketPool(host, 64, 2048, Rings.LKEY);
        RxQueue rx = new RxQueue(res, pool);
        FakeRq dev = new FakeRq(host, res);
        int[] got = new int[16];
        int seq = 0;
        // Sessions of 11 then 13 then 9... starting at every slot of the ring over many passes: titles at
        // the last slot (first mini array in slot 0), mini arrays at k*8 past the end, and so on.
        int[] lengths = {11, 13, 9, 16, 2, 15, 7, 10, 14, 3, 12};
        for (int round = 0; round < 40; round++) {
            int n = lengths[round % lengths.length];
            deliver(dev, seq, n, -1);
            int got1 = rx.receive(got, 16);
            assertEquals(n, got1, "round " + round + ", session of " + n + " from CQ slot " + (seq & 15));
            seq = check(pool, got, got1, seq, -1);
        }
        assertEquals(40, rx.compressedSessions());
        assertEquals(List.of(), dev.violations);
    }

    @Test
    void afterAFullPassEverySessionSlotHoldsOnlyItsPassOwnerBitAndNoStaleMiniArrayIsTakenForACqe() {
        RqResources res = Rings.rq(host, 4, 4); // 16 CQ slots, 16 RQ WQEs
        PacketPool pool = new PacketPool(host, 64, 2048, Rings.LKEY);
        RxQueue rx = new RxQueue(res, pool);
        FakeRq dev = new FakeRq(host, res);
        MemorySegment cq = res.cq().ring().segment();
        int[] got = new int[16];
        // Frames of 0x121 bytes: each mini's byte_cnt ends in 0x21, so the last byte of a mini CQE array
        // (where a CQE's op_own is) reads as opcode RESP_SEND, owner 1: an owned CQE on the second pass
        // unless the driver rewrote it.
        byte[][] frames = new byte[16][];
        int[] hashes = new int[16];
        for (int i = 0; i < 16; i++) {
            frames[i] = new byte[0x121];
            frames[i][0] = (byte) i;
            hashes[i] = 0x5000 + i;
        }
        assertTrue(dev.deliverSession(frames, hashes, -1));
        assertEquals(16, rx.receive(got, 16));
        for (int i = 0; i < 16; i++) {
            assertEquals(0x5000 + i, pool.rssHash(got[i]));
            assertEquals(0x121, pool.length(got[i]));
        }
        pool.free(got, 0, 16);
        // Byte by byte: every slot's op_own is the first pass's owner bit (0) and nothing else, as the
        // kernel's mlx5e_cqes_update_owner leaves it; the other 63 bytes are as the device wrote them.
        for (int s = 0; s < 16; s++) {
            long at = (long) s * Cqe64.SIZE;
            assertEquals(0, Cqe64.op_own(cq, at), "slot " + s + " op_own after the session");
            assertFalse(Cqe64.owner(cq, at));
        }
        assertEquals(0x01, cq.get(ValueLayout.JAVA_BYTE, Cqe64.SIZE + 62) & 0xff, "the mini array's other bytes are untouched (byte_cnt 0x121 of mini 7)");
        // Second pass: one plain CQE in slot 0. Slot 1 (a stale mini array) must not be decoded.
        assertTrue(dev.deliver(new byte[64], 0x77, -1, false));
        assertEquals(1, rx.receive(got, 16), "only the new CQE; the stale mini arrays are the device's");
        assertEquals(0x77, pool.rssHash(got[0]));
        pool.free(got[0]);
        assertEquals(0, rx.receive(got, 16));
        assertEquals(0, rx.errors());
        // And a second session over the second pass's slots leaves the odd pass's owner bit.
        for (int i = 0; i < 15; i++) hashes[i] = 0x6000 + i;
        assertTrue(dev.deliverSession(java.util.Arrays.copyOf(frames, 15), java.util.Arrays.copyOf(hashes, 15), -1));
        assertEquals(15, rx.receive(got, 16));
        for (int i = 0; i < 15; i++) assertEquals(0x6000 + i, pool.rssHash(got[i]));
        for (int s = 1; s < 16; s++) {
            assertTrue(Cqe64.owner(cq, (long) s * Cqe64.SIZE), "slot " + s + " has the second pass's owner bit");
            assertEquals(Cqe64.op_own(cq, 0) & ~0xf0 & ~0x0c, Cqe64.op_own(cq, (long) s * Cqe64.SIZE), "slot " + s);
        }
        assertEquals(List.of(), dev.violations);
    }

    @Test
    void mixedPlainCqesSessionsAndErrorsInOneStreamWithRandomBurstSizes() {
        RqResources res = Rings.rq(host, 6, 6);
        PacketPool pool = new PacketPool(host, 192, 2048, Rings.LKEY);
        RxQueue rx = new RxQueue(res, pool);
        FakeRq dev = new FakeRq(host, res);
        Random r = new Random(0x13c0ffeeL);
        int[] got = new int[64];
        int sent = 0;
        int next = 0;
        int errorsSent = 0;
        List<Integer> pendingErrors = new ArrayList<>(); // frame numbers delivered as error CQEs
        for (int round = 0; round < 2000; round++) {
            // The device: a plain CQE, a session of 2..17 or an error CQE, when the RQ has the WQEs for it.
            int room = (WqDoorbellRecord.receive_counter(res.doorbellRecord()) - dev.consumed) & 0xffff;
            int kind = r.nextInt(10);
            int n = kind < 3 ? 1 : kind < 9 ? 2 + r.nextInt(16) : 0;
            if (n > 0 && n <= room) {
                deliver(dev, sent, n, -1);
                sent += n;
            } else if (n == 0 && room > 0) {
                assertTrue(dev.deliver(frame(sent), sent, -1, true));
                pendingErrors.add(sent);
                sent++;
                errorsSent++;
            }
            next = take(rx, pool, got, 1 + r.nextInt(40), next, pendingErrors);
        }
        int before;
        do {
            before = next;
            next = take(rx, pool, got, 64, next, pendingErrors);
        } while (next != before);
        while (pendingErrors.contains(next)) pendingErrors.remove((Integer) next++);
        assertEquals(sent, next, "every frame received once, in order");
        assertEquals(errorsSent, rx.errors());
        assertTrue(rx.compressedSessions() > 100, "sessions were part of the stream: " + rx.compressedSessions());
        assertEquals(List.of(), dev.violations);
    }

    /** One receive of up to max; checks what came against the frames expected next (error frames skipped); returns the next expected. */
    private static int take(RxQueue rx, PacketPool pool, int[] got, int max, int next, List<Integer> errorFrames) {
        int n = rx.receive(got, max);
        for (int i = 0; i < n; i++) {
            while (errorFrames.remove((Integer) next)) next++;
            next = check(pool, new int[] {got[i]}, 1, next, -1);
        }
        return next;
    }

    @Test
    void anErrorCqeRightAfterASessionIsCountedAndItsBufferRecycled() {
        RqResources res = Rings.rq(host, 4, 4);
        PacketPool pool = new PacketPool(host, 32, 2048, Rings.LKEY);
        RxQueue rx = new RxQueue(res, pool);
        FakeRq dev = new FakeRq(host, res);
        int[] got = new int[16];
        deliver(dev, 0, 5, -1);
        assertTrue(dev.deliver(frame(5), 5, -1, true));
        deliver(dev, 6, 1, -1);
        assertEquals(6, rx.receive(got, 16));
        assertEquals(1, rx.errors());
        int[] plain = {got[5]};
        check(pool, got, 5, 0, -1);
        check(pool, plain, 1, 6, -1);
        assertEquals(7, CqDoorbellRecord.consumer_index(res.cq().doorbellRecord()));
        assertEquals(16, rx.postedWqes(), "the errored buffer went back on the RQ with the refill");
        assertEquals(List.of(), dev.violations);
    }
}

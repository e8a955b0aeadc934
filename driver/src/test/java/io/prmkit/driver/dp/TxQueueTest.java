package io.prmkit.driver.dp;

import static org.junit.jupiter.api.Assertions.*;

import io.prmkit.mlx5.CompletionMode;
import io.prmkit.mlx5.EthCsFlags;
import io.prmkit.mlx5.InlineMode;
import io.prmkit.mlx5.SendWqeOpcode;
import io.prmkit.mlx5.WqDoorbellRecord;
import io.prmkit.mlx5.WqeCtrlSeg;
import io.prmkit.mlx5.WqeEthSeg;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class TxQueueTest {
    private final HostMemory host = new HostMemory();

    @AfterEach
    void close() {
        host.close();
    }

    private static int frame(PacketPool pool, int len, boolean ipv6, boolean tcp, int seq) {
        int h = pool.alloc();
        TestFrames.build(pool.memory(), pool.offset(h), len, ipv6, tcp, seq);
        pool.setLength(h, len);
        return h;
    }

    /** A frame of experimental ethertype 0x88b5 (not IP): bytes i = seq + i. */
    static int rawFrame(PacketPool pool, int len, int seq) {
        int h = pool.alloc();
        for (int i = 0; i < len; i++) pool.memory().set(ValueLayout.JAVA_BYTE, pool.offset(h) + i, (byte) (seq + i));
        pool.memory().set(ValueLayout.JAVA_BYTE, pool.offset(h) + 12, (byte) 0x88);
        pool.memory().set(ValueLayout.JAVA_BYTE, pool.offset(h) + 13, (byte) 0xb5);
        pool.setLength(h, len);
        return h;
    }

    private static byte[] bytes(PacketPool pool, int h) {
        return pool.memory().asSlice(pool.offset(h), pool.length(h)).toArray(ValueLayout.JAVA_BYTE);
    }

    /** A range past the array's end is refused before any WQE is written. */
    @Test
    void aRangeOutsideTheArrayIsRefusedBeforeAnythingIsPosted() {
        Rings.Tx t = new Rings.Tx(host, 6, 6, InlineMode.L2);
        PacketPool pool = new PacketPool(host, 64, 2048, Rings.LKEY);
        TxQueue tx = new TxQueue(t.res, pool);
        int[] b = new int[4];
        for (int i = 0; i < 4; i++) b[i] = frame(pool, 128, false, false, i);
        assertThrows(IndexOutOfBoundsException.class, () -> tx.send(pool, b, 2, 4));
        assertThrows(IndexOutOfBoundsException.class, () -> tx.send(b, 5));
        assertEquals(0, tx.producerCounter(), "nothing posted");
        assertEquals(4, tx.send(b, 4));
    }

    @Test
    void aBurstIsOneWqePerPacketWithTheL2HeaderInlineAndOneDoorbell() {
        Rings.Tx t = new Rings.Tx(host, 6, 6, InlineMode.L2);
        PacketPool pool = new PacketPool(host, 64, 2048, Rings.LKEY);
        TxQueue tx = new TxQueue(t.res, pool);
        int[] b = new int[4];
        byte[][] expected = new byte[4][];
        for (int i = 0; i < 4; i++) {
            b[i] = frame(pool, 128 + i, false, false, i);
            expected[i] = bytes(pool, b[i]);
        }
        assertEquals(4, tx.send(b, 4));
        assertEquals(1, t.uar.stores.size(), "one doorbell per burst");
        RecordingMmio.Store db = t.uar.stores.get(0);
        assertEquals(Rings.UAR_BF, db.offset());
        long lastCtrl = t.res.ring().segment().get(ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN), 3 * 64);
        assertEquals(lastCtrl, db.value(), "the doorbell carries the first 8 bytes of the last WQE");
        assertEquals(4, WqDoorbellRecord.send_counter(t.res.doorbellRecord()));
        assertEquals(4, t.device.process());
        List<FakeSq.Wqe> w = t.device.wqes;
        for (int i = 0; i < 4; i++) {
            assertEquals(SendWqeOpcode.SEND$VALUE, w.get(i).opcode());
            assertEquals(4, w.get(i).ds(), "ctrl + eth with 18 inline bytes + one data segment");
            assertEquals(18, w.get(i).inlineSize());
            assertArrayEquals(expected[i], w.get(i).frame());
            assertEquals(i == 3 ? CompletionMode.CQE_ALWAYS$VALUE : CompletionMode.CQE_ON_ERROR$VALUE, w.get(i).ce());
        }
        assertEquals(60, pool.available(), "buffers stay with the queue until their completion");
        assertEquals(1, tx.reap());
        assertEquals(64, pool.available());
        assertEquals(0, tx.inFlight());
        assertEquals(List.of(), t.device.violations);
    }

    @Test
    void aCqeIsRequestedEvery32WqesAndAtTheEndOfTheBurst() {
        Rings.Tx t = new Rings.Tx(host, 7, 6, InlineMode.L2);
        PacketPool pool = new PacketPool(host, 128, 2048, Rings.LKEY);
        TxQueue tx = new TxQueue(t.res, pool);
        int[] b = new int[70];
        for (int i = 0; i < 70; i++) b[i] = frame(pool, 100, false, true, i);
        assertEquals(70, tx.send(b, 70));
        t.device.process();
        for (int i = 0; i < 70; i++) {
            boolean signalled = i == 31 || i == 63 || i == 69;
            assertEquals(signalled ? CompletionMode.CQE_ALWAYS$VALUE : CompletionMode.CQE_ON_ERROR$VALUE, t.device.wqes.get(i).ce(), "WQE " + i);
        }
        assertEquals(3, tx.reap());
        assertEquals(128, pool.available());
        assertEquals(70, tx.completions());
    }

    @Test
    void aWqeThatWouldCrossTheRingEndIsPrecededByNops() {
        // IPv6 with IP inline mode: 54 inline bytes -> ds 7 -> 2 WQEBBs per WQE.
        Rings.Tx t = new Rings.Tx(host, 4, 6, InlineMode.IP);
        PacketPool pool = new PacketPool(host, 64, 2048, Rings.LKEY);
        TxQueue tx = new TxQueue(t.res, pool);
        int[] b = new int[16];
        for (int round = 0; round < 5; round++) {
            // 16-WQEBB ring, rounds of 2 + 2 + 1 WQEBBs: the fourth round starts at slot 15.
            b[0] = frame(pool, 200, true, true, round);
            b[1] = frame(pool, 200, true, true, round + 1);
            b[2] = rawFrame(pool, 100, round); // not IP: 18 inline bytes, 1 WQEBB
            byte[][] expected = {bytes(pool, b[0]), bytes(pool, b[1]), bytes(pool, b[2])};
            int before = t.device.wqes.size();
            assertEquals(3, tx.send(b, 3));
            t.device.process();
            List<byte[]> frames = t.device.frames();
            for (int i = 0; i < 3; i++) assertArrayEquals(expected[i], frames.get(frames.size() - 3 + i));
            assertTrue(t.device.wqes.size() >= before + 3);
            tx.reap();
        }
        assertTrue(tx.nops() > 0, "NOP padding was needed");
        long nopWqes = t.device.wqes.stream().filter(w -> w.opcode() == SendWqeOpcode.NOP$VALUE).count();
        assertEquals(tx.nops(), nopWqes);
        for (FakeSq.Wqe w : t.device.wqes) {
            if (w.opcode() == SendWqeOpcode.NOP$VALUE) assertEquals(1, w.ds());
            else assertTrue(w.ds() == 4 || w.ds() == 7, "ds " + w.ds());
        }
        assertEquals(List.of(), t.device.violations, "no WQE crossed the ring end");
        assertEquals(64, pool.available());
    }

    /**
     * Completion walks the WQEBB slots up to the end of the completed WQE: a WQE's later WQEBBs must not
     * still name the buffers of the one-WQEBB WQEs that used those slots on the ring's previous lap, or
     * those buffers would be freed a second time. Laps of plain frames (one WQEBB each) alternate with
     * laps of VLAN frames whose inline tag makes two WQEBBs, over a 16-WQEBB ring; every buffer comes back
     * exactly once and every WQE is counted once.
     */
    @Test
    void multiWqebbWqesOverSlotsOfAnEarlierLapFreeEachBufferOnce() {
        Rings.Tx t = new Rings.Tx(host, 4, 6, InlineMode.L2);
        PacketPool pool = new PacketPool(host, 32, 2048, Rings.LKEY);
        TxQueue tx = new TxQueue(t.res, pool);
        int[] b = new int[16];
        long wqes = 0;
        for (int lap = 0; lap < 6; lap++) {
            boolean tagged = lap % 2 == 1;
            int n = tagged ? 8 : 16; // a whole ring each lap
            for (int i = 0; i < n; i++) {
                b[i] = frame(pool, 200, false, true, lap * 16 + i);
                if (tagged) {
                    pool.setFlags(b[i], PacketFlags.TX_VLAN);
                    pool.setVlanTci(b[i], 7);
                }
            }
            assertEquals(n, tx.send(b, n), "lap " + lap);
            t.device.process();
            assertTrue(tx.reap() > 0);
            wqes += n;
            assertEquals(0, tx.inFlight(), "lap " + lap);
            assertEquals(32, pool.available(), "lap " + lap + ": every buffer back once");
            assertEquals(wqes, tx.completions(), "lap " + lap);
        }
        assertEquals(0, tx.nops(), "laps fill the ring exactly");
        assertTrue(t.device.wqes.stream().anyMatch(w -> w.ds() == 5), "the tagged frames took two WQEBBs (ds 5)");
        assertEquals(List.of(), t.device.violations);
    }

    @Test
    void aFullCqStopsTheBurstAndSendingResumesAfterReaping() {
        Rings.Tx t = new Rings.Tx(host, 6, 1, InlineMode.L2); // a CQ of 2 entries
        PacketPool pool = new PacketPool(host, 64, 2048, Rings.LKEY);
        TxQueue tx = new TxQueue(t.res, pool);
        int[] one = new int[1];
        int sent = 0;
        for (int i = 0; i < 5; i++) {
            one[0] = frame(pool, 80, false, false, i);
            int n = tx.send(one, 1);
            if (n == 0) pool.free(one[0]);
            sent += n;
        }
        assertEquals(2, sent, "two one-packet bursts, each asking for a CQE, fill a 2-entry CQ");
        assertEquals(2, tx.cqeOutstanding());
        t.device.process();
        one[0] = frame(pool, 80, false, false, 9);
        assertEquals(1, tx.send(one, 1), "reaping at the start of send makes room");
        t.device.process();
        tx.reap();
        assertEquals(64, pool.available());
        assertEquals(List.of(), t.device.violations, "the device never overran the CQ");
    }

    /**
     * sendPlain works out once per call how many frames the ring and the CQ have room for; this checks
     * it against the rule written out per frame (stop when the ring or the CQ is full; a CQE every 32
     * WQEs and for a burst's last): random ring and CQ sizes, burst lengths, VLAN frames (sendOne, 2
     * WQEBBs, NOP padding) between plain ones, and the device running only now and then.
     */
    @Test
    void burstsStopExactlyWhenTheRingOrTheCqIsFullAndAskForCqesByTheRule() {
        for (int trial = 0; trial < 60; trial++) {
            long seed = 0x5eed0000L + trial;
            SplittableRandom r = new SplittableRandom(seed);
            int logWqebbs = 4 + r.nextInt(4);
            int logCq = 1 + r.nextInt(6);
            int size = 1 << logWqebbs;
            int cqEntries = 1 << logCq;
            try (HostMemory mem = new HostMemory()) {
                Rings.Tx t = new Rings.Tx(mem, logWqebbs, logCq, InlineMode.L2);
                PacketPool pool = new PacketPool(mem, 2 * size + 80, 512, Rings.LKEY);
                TxQueue tx = new TxQueue(t.res, pool);
                List<Integer> expectedCe = new ArrayList<>();
                // the model: free WQEBBs, CQEs asked for and not reaped, WQEs since the last that asked
                int pc = 0, free = size, outstanding = 0, since = 0;
                for (int burst = 0; burst < 40; burst++) {
                    String where = "seed " + Long.toHexString(seed) + ", ring " + size + ", CQ " + cqEntries + ", burst " + burst;
                    if (r.nextInt(3) == 0) {
                        t.device.process(); // every WQE runs; the next send reaps all of them
                        free = size;
                        outstanding = 0;
                    }
                    int n = 1 + r.nextInt(r.nextBoolean() ? 8 : 80);
                    int[] b = new int[n];
                    boolean[] vlan = new boolean[n];
                    for (int i = 0; i < n; i++) {
                        b[i] = frame(pool, 100 + r.nextInt(300), false, r.nextBoolean(), i);
                        vlan[i] = r.nextInt(6) == 0;
                        if (vlan[i]) {
                            pool.setFlags(b[i], PacketFlags.TX_VLAN);
                            pool.setVlanTci(b[i], 7);
                        }
                    }
                    int expectSent = 0;
                    boolean lastSignalled = false;
                    for (int i = 0; i < n; i++) {
                        int wqebbs = vlan[i] ? 2 : 1; // ctrl, eth, 22 inline bytes, data: 80 bytes
                        int slot = pc & (size - 1);
                        int pad = slot + wqebbs > size ? size - slot : 0;
                        if (outstanding == cqEntries || free < wqebbs + pad) break;
                        pc += pad + wqebbs;
                        free -= pad + wqebbs;
                        boolean signal = ++since >= TxQueue.COMPLETION_BATCH || i == n - 1;
                        if (signal) {
                            since = 0;
                            outstanding++;
                        }
                        expectedCe.add(signal ? CompletionMode.CQE_ALWAYS$VALUE : CompletionMode.CQE_ON_ERROR$VALUE);
                        lastSignalled = signal;
                        expectSent++;
                    }
                    if (expectSent > 0 && !lastSignalled) {
                        expectedCe.set(expectedCe.size() - 1, CompletionMode.CQE_ALWAYS$VALUE);
                        since = 0;
                        outstanding++;
                    }
                    assertEquals(expectSent, tx.send(b, n), where);
                    assertEquals(outstanding, tx.cqeOutstanding(), where);
                    for (int i = expectSent; i < n; i++) pool.free(b[i]);
                }
                t.device.process();
                List<Integer> ce = t.device.wqes.stream().filter(w -> w.opcode() == SendWqeOpcode.SEND$VALUE).map(FakeSq.Wqe::ce).toList();
                assertEquals(expectedCe, ce, "seed " + Long.toHexString(seed));
                assertEquals(List.of(), t.device.violations, "seed " + Long.toHexString(seed));
            }
        }
    }

    /** The failed WQE is checked against the spec: the driver's error names each rule it breaks, with the values read. */
    @Test
    void anErrorCqeNamesTheSpecsRulesTheFailedWqeBreaks() {
        Rings.Tx t = new Rings.Tx(host, 5, 5, InlineMode.L2);
        PacketPool pool = new PacketPool(host, 64, 2048, Rings.LKEY);
        PacketPool bad = new PacketPool(host, 4, 2048, 0xbad00);
        TxQueue tx = new TxQueue(t.res, pool);
        int[] x = {frame(bad, 300, false, false, 7)};
        assertEquals(1, tx.send(bad, x, 0, 1));
        // the WQE as posted breaks no rule; spoil it as a buggy builder would: mss on a SEND, a short inline header
        MemorySegment ring = t.res.ring().segment();
        WqeEthSeg.mss$set(ring, WqeCtrlSeg.SIZE, 1400);
        WqeEthSeg.inline_hdr_sz$set(ring, WqeCtrlSeg.SIZE, 12);
        t.device.process(); // fails on the bad lkey
        assertEquals(1, tx.reap());
        String e = tx.lastError();
        assertTrue(e.startsWith("SQ 0x42: WQE 0 failed: LOCAL_PROT_ERR"), e);
        assertTrue(e.contains("; it breaks the spec's tx_wqe rules mss_only_for_lso: mss must be 0 unless the opcode is LSO"), e);
        assertTrue(e.contains("eth.mss = 0x578"), e);
        assertTrue(e.contains("min_inline: the inline headers must reach the end of the headers min_wqe_inline_mode asks for"), e);
    }

    @Test
    void anErrorCqeIsDecodedTheSqIsResetAndSendingContinues() {
        Rings.Tx t = new Rings.Tx(host, 5, 5, InlineMode.L2);
        PacketPool pool = new PacketPool(host, 64, 2048, Rings.LKEY);
        PacketPool bad = new PacketPool(host, 4, 2048, 0xbad00);
        TxQueue tx = new TxQueue(t.res, pool);
        int[] b = new int[3];
        for (int i = 0; i < 3; i++) b[i] = frame(pool, 300, false, false, i);
        assertEquals(3, tx.send(b, 3));
        t.device.process();
        int[] x = {frame(bad, 300, false, false, 7)};
        assertEquals(1, tx.send(bad, x, 0, 1));
        b[0] = frame(pool, 300, false, false, 8);
        assertEquals(1, tx.send(b, 1));
        t.device.process(); // fails on the bad lkey, stops
        assertEquals(1, tx.reap());
        assertEquals(1, tx.errors());
        assertEquals(1, tx.recoveries());
        assertTrue(tx.lastError().contains("LOCAL_PROT_ERR"), tx.lastError());
        assertTrue(tx.lastError().endsWith("it breaks none of the spec's tx_wqe rules"), tx.lastError()); // the key is the device's to judge
        assertEquals(List.of("ERR->RST", "RST->RDY"), t.device.transitions);
        assertEquals(64, pool.available(), "in-flight buffers returned");
        assertEquals(4, bad.available());
        assertEquals(0, tx.producerCounter(), "counters restart at 0");
        assertEquals(0, WqDoorbellRecord.send_counter(t.res.doorbellRecord()));
        int before = t.device.wqes.size();
        b[0] = frame(pool, 300, false, false, 10);
        byte[] expected = bytes(pool, b[0]);
        assertEquals(1, tx.send(b, 1));
        t.device.process();
        assertEquals(before + 1, t.device.wqes.size());
        FakeSq.Wqe w = t.device.wqes.get(before);
        assertEquals(0, w.index(), "the first WQE after recovery has wqe_index 0");
        assertArrayEquals(expected, w.frame());
        tx.reap();
        assertEquals(64, pool.available());
        assertEquals(List.of(), t.device.violations);
    }

    @Test
    void offloadsVlanChecksumsLsoAndWholeFrameInline() {
        Rings.Tx t = new Rings.Tx(host, 6, 6, InlineMode.L2);
        PacketPool pool = new PacketPool(host, 64, 8192, Rings.LKEY);
        TxQueue tx = new TxQueue(t.res, pool);
        int[] b = new int[4];
        b[0] = frame(pool, 200, false, false, 1);
        pool.setFlags(b[0], PacketFlags.TX_VLAN | PacketFlags.TX_IP_CSUM | PacketFlags.TX_L4_CSUM);
        pool.setVlanTci(b[0], 0x6007);
        b[1] = frame(pool, 300, true, true, 2);
        pool.setFlags(b[1], PacketFlags.TX_L4_CSUM);
        b[2] = frame(pool, 4000, false, true, 3);
        pool.setFlags(b[2], PacketFlags.TX_LSO);
        pool.setMss(b[2], 1000);
        b[3] = frame(pool, 42 + 8 - 8, false, false, 4); // 42 bytes: UDP over IPv4 with no payload
        byte[][] expected = new byte[4][];
        for (int i = 0; i < 4; i++) expected[i] = bytes(pool, b[i]);
        assertEquals(4, tx.send(b, 4));
        assertEquals(61, pool.available(), "the whole-inline frame's buffer is free at once");
        t.device.process();
        List<FakeSq.Wqe> w = t.device.wqes;
        int l3l4 = (int) (EthCsFlags.L3_CSUM.mask | EthCsFlags.L4_CSUM.mask);
        assertArrayEquals(FakeSq.insertTag(expected[0], 0x6007), w.get(0).frame(), "tag inserted into the inline copy");
        assertEquals(22, w.get(0).inlineSize());
        assertEquals(l3l4, w.get(0).csFlags());
        assertEquals(EthCsFlags.L4_CSUM$MASK, w.get(1).csFlags(), "IPv6 has no header checksum");
        assertEquals(SendWqeOpcode.LSO$VALUE, w.get(2).opcode());
        assertEquals(1000, w.get(2).mss());
        assertEquals(14 + 20 + 20, w.get(2).inlineSize(), "LSO inlines all L2-L4 headers");
        assertEquals(l3l4, w.get(2).csFlags());
        assertArrayEquals(expected[2], w.get(2).frame());
        assertEquals(42, w.get(3).inlineSize());
        assertEquals(2 + 3, w.get(3).ds(), "no data segment");
        assertArrayEquals(expected[3], w.get(3).frame());
        assertEquals(List.of(), t.device.violations);
    }

    @Test
    void withoutInlineHeadersTheDeviceInsertsTheVlanTag() {
        Rings.Tx t = new Rings.Tx(host, 6, 6, InlineMode.NONE);
        PacketPool pool = new PacketPool(host, 8, 2048, Rings.LKEY);
        TxQueue tx = new TxQueue(t.res, pool);
        int[] b = {frame(pool, 500, false, false, 1)};
        pool.setFlags(b[0], PacketFlags.TX_VLAN);
        pool.setVlanTci(b[0], 0x0123);
        byte[] expected = bytes(pool, b[0]);
        tx.send(b, 1);
        t.device.process();
        FakeSq.Wqe w = t.device.wqes.get(0);
        assertEquals(0x0123, w.insertedVlan());
        assertEquals(3, w.ds(), "ctrl + eth + data");
        assertArrayEquals(FakeSq.insertTag(expected, 0x0123), w.frame());
        // the WQE itself is valid by the spec's own rules
        MemorySegment ring = t.res.ring().segment();
        assertEquals(List.of(), WqeCtrlSeg.validate(ring.asSlice(0, WqeCtrlSeg.SIZE)));
    }

    @Test
    void aUmrRegistersARegionAndSendsGoThroughTheNewMkey() {
        Rings.Tx t = new Rings.Tx(host, 6, 6, InlineMode.L2);
        PacketPool pool = new PacketPool(host, 8, 2048, Rings.LKEY);
        PacketPool region = new PacketPool(host, 8, 2048, Rings.LKEY);
        TxQueue tx = new TxQueue(t.res, pool);
        // A lap of plain frames first: the UMR WQE's later WQEBBs then take slots that named buffers.
        int[] lap = new int[8];
        for (int burst = 0; burst < 8; burst++) {
            for (int i = 0; i < 8; i++) lap[i] = frame(pool, 128, false, false, burst * 8 + i);
            assertEquals(8, tx.send(lap, 8));
            t.device.process();
            tx.reap();
        }
        assertEquals(0, tx.producerCounter() & 63, "the UMR WQE starts a lap");
        int mkey = 0x3377;
        assertTrue(tx.registerUmr(mkey, 0, region, 4));
        assertEquals(mkey, region.lkey());
        assertEquals(2048 * 5, region.deviceAddress(5), "addresses are offsets in the new mkey");
        int[] b = new int[3];
        byte[][] expected = new byte[3][];
        for (int i = 0; i < 3; i++) {
            b[i] = region.alloc();
            region.alloc(); // skip one: frames land in different KLM pieces
            TestFrames.build(region.memory(), region.offset(b[i]), 700, false, false, i);
            region.setLength(b[i], 700);
            expected[i] = region.memory().asSlice(region.offset(b[i]), 700).toArray(ValueLayout.JAVA_BYTE);
        }
        assertEquals(3, tx.send(region, b, 0, 3));
        t.device.process();
        FakeSq.Wqe umr = t.device.wqes.get(64);
        assertEquals(SendWqeOpcode.UMR$VALUE, umr.opcode());
        assertEquals(8 + 4, umr.ds(), "ctrl + umr ctrl + mkey seg + 4 KLMs");
        List<byte[]> frames = t.device.frames();
        for (int i = 0; i < 3; i++) assertArrayEquals(expected[i], frames.get(frames.size() - 3 + i));
        for (int i = 0; i < 3; i++) assertEquals(mkey, io.prmkit.mlx5.WqeDataSeg.lkey(t.res.ring().segment(), (3 + i) * 64L + WqeCtrlSeg.SIZE + io.prmkit.mlx5.WqeEthSeg.SIZE + 16), "data segment lkey (after 16 more inline bytes)");
        assertEquals(2, tx.reap());
        assertEquals(8, pool.available(), "each buffer of the first lap freed once");
        assertEquals(8 - 3, region.available(), "the 3 sent frames' buffers are back; the 3 skipped ones were never sent");
        assertEquals(List.of(), t.device.violations);
    }
}

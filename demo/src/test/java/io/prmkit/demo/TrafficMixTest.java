package io.prmkit.demo;

import io.prmkit.driver.dp.FrameHeaders;
import io.prmkit.driver.dp.PacketFlags;
import io.prmkit.driver.dp.PacketPool;
import io.prmkit.platform.DmaMemory;
import io.prmkit.platform.DmaRegion;

import static org.junit.jupiter.api.Assertions.*;

import java.io.ByteArrayOutputStream;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.EnumSet;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class TrafficMixTest {
    private final Arena arena = Arena.ofConfined();
    /** Pools in this test's arena (no device reads them: bus address = native address). */
    private final DmaMemory host = new DmaMemory() {
        @Override
        public DmaRegion allocate(long size, long alignment) {
            MemorySegment s = arena.allocate(size, alignment);
            return new DmaRegion() {
                @Override
                public MemorySegment segment() {
                    return s;
                }

                @Override
                public long busAddress() {
                    return s.address();
                }

                @Override
                public void close() {}
            };
        }

        @Override
        public long allocatedBytes() {
            return 0;
        }
    };

    @AfterEach
    void close() {
        arena.close();
    }

    /** Ones' complement sum over a range: 0xffff when the range holds its own correct checksum. */
    private static int verify(MemorySegment s, long off, int len, long extra) {
        long acc = extra;
        for (int i = 0; i + 1 < len; i += 2) acc += s.get(Frames.BE16, off + i) & 0xffff;
        if ((len & 1) != 0) acc += (s.get(ValueLayout.JAVA_BYTE, off + len - 1) & 0xff) << 8;
        while ((acc >>> 16) != 0) acc = (acc & 0xffff) + (acc >>> 16);
        return (int) acc;
    }

    private static void assertChecksumsGood(MemorySegment s, long off, int len, String what) {
        int l3 = FrameHeaders.l3Offset(s, off, len);
        int l4 = FrameHeaders.l4Offset(s, off, len);
        boolean v4 = FrameHeaders.etherType(s, off, len) == FrameHeaders.ETHERTYPE_IPV4;
        int l4len;
        long pseudo;
        if (v4) {
            assertEquals(0xffff, verify(s, off + l3, 20, 0), what + ": IPv4 header checksum");
            l4len = (s.get(Frames.BE16, off + l3 + 2) & 0xffff) - 20;
            pseudo = verify(s, off + l3 + 12, 8, 0);
        } else {
            l4len = s.get(Frames.BE16, off + l3 + 4) & 0xffff;
            pseudo = verify(s, off + l3 + 8, 32, 0);
        }
        pseudo += FrameHeaders.ipProtocol(s, off, len) + l4len;
        assertEquals(0xffff, verify(s, off + l4, l4len, pseudo), what + ": L4 checksum");
    }

    @Test
    void theExpectedWireFramesCarryTheOffloadsResults() {
        TrafficMix mix = new TrafficMix(64);
        MemorySegment out = arena.allocate(32768, 64);
        Set<TrafficMix.Kind> kinds = EnumSet.noneOf(TrafficMix.Kind.class);
        for (int id = 0; id < 64; id++) {
            TrafficMix.Kind k = mix.kind(id);
            kinds.add(k);
            int frames = mix.wireFrames(id);
            ByteArrayOutputStream payload = new ByteArrayOutputStream();
            for (int seg = 0; seg < frames; seg++) {
                int len = mix.expected(id, seg, out, 0);
                assertTrue(len >= 60, "at least the minimum frame");
                assertEquals(((long) id << 8) | seg, TrafficMix.identify(out, 0, len), "id " + id + " seg " + seg);
                assertChecksumsGood(out, 0, len, k + " id " + id);
                if (k == TrafficMix.Kind.VLAN_UDP4) {
                    assertEquals(0x8100, out.get(Frames.BE16, 12) & 0xffff);
                    assertEquals(TrafficMix.vlanTci(id), out.get(Frames.BE16, 14) & 0xffff);
                    assertEquals(mix.length(id) + 4, len);
                }
                if (k == TrafficMix.Kind.SHORT_UDP4) {
                    int real = mix.length(id);
                    assertTrue(real < 60);
                    assertEquals(60, len);
                    for (int i = real; i < 60; i++) assertEquals(0, out.get(ValueLayout.JAVA_BYTE, i), "padding is zeros");
                }
                if (k == TrafficMix.Kind.LSO_TCP4) {
                    assertEquals(54 + (seg < 3 ? TrafficMix.LSO_MSS : TrafficMix.LSO_PAYLOAD - 3 * TrafficMix.LSO_MSS), len);
                    assertEquals(seg == frames - 1, (out.get(ValueLayout.JAVA_BYTE, 14 + 20 + 13) & 0x08) != 0, "PSH only on the last");
                    payload.writeBytes(out.asSlice(54, len - 54).toArray(ValueLayout.JAVA_BYTE));
                }
            }
            if (k == TrafficMix.Kind.LSO_TCP4) {
                assertEquals(4, frames);
                PacketPool pool = new PacketPool(host, 1, 8192, 1);
                mix.build(pool, 0, id);
                byte[] whole = pool.memory().asSlice(54, mix.length(id) - 54).toArray(ValueLayout.JAVA_BYTE);
                assertArrayEquals(whole, payload.toByteArray(), "the segments' payloads are the send's payload, in order");
                assertEquals(PacketFlags.TX_LSO, pool.flags(0));
            }
        }
        assertEquals(EnumSet.allOf(TrafficMix.Kind.class), kinds, "64 ids cover every kind");
        for (int id : new int[] {65_536 + 7, 1_000_007, 99_999_993}) {
            int len = mix.expected(id, 0, out, 0);
            assertEquals((long) id << 8, TrafficMix.identify(out, 0, len), "large ids name themselves too (" + mix.kind(id) + ")");
        }
    }

    /** Each plain TCP flow is one stream to Wireshark: the next frame of a source port starts where the last one's payload ended. */
    @Test
    void aTcpFlowsFramesFollowEachOtherWithoutGaps() {
        TrafficMix mix = new TrafficMix(64);
        MemorySegment out = arena.allocate(4096, 64);
        for (int first : new int[] {7, 9, 7 + 16 * 100}) {
            long seq = -1;
            int port = -1;
            for (int k = 0; k < 5; k++) {
                int id = first + k * (Frames.SOURCE_PORT_MASK + 1);
                int len = mix.expected(id, 0, out, 0);
                int l4 = FrameHeaders.l4Offset(out, 0, len);
                int p = out.get(Frames.BE16, l4) & 0xffff;
                long s = out.get(Frames.BE32, l4 + 4) & 0xffffffffL;
                int payload = len - l4 - Frames.TCP_HLEN;
                if (k == 0) {
                    assertEquals(1, s, mix.kind(id) + ": a flow's first frame is its byte 1");
                } else {
                    assertEquals(port, p, "one flow, one source port");
                    assertEquals(seq, s, mix.kind(id) + " id " + id + " starts where the flow's last frame ended");
                }
                port = p;
                seq = s + payload;
            }
        }
    }

    /**
     * With any queue count (queue q sends the ids congruent to q), a flow's frames leave from one queue and
     * are of one kind, and its TCP frames still follow each other: the wire carries each flow in order.
     */
    @Test
    void aFlowLeavesFromOneQueueWhateverTheQueueCount() {
        MemorySegment out = arena.allocate(4096, 64);
        for (int queues = 1; queues <= 16; queues++) {
            TrafficMix mix = new TrafficMix(64, queues);
            java.util.Map<Integer, Integer> queueOfPort = new java.util.HashMap<>();
            java.util.Map<Integer, TrafficMix.Kind> kindOfPort = new java.util.HashMap<>();
            java.util.Map<Integer, Long> nextSeq = new java.util.HashMap<>();
            for (int id = 0; id < 20_000; id++) {
                int len = mix.expected(id, 0, out, 0);
                int l4 = FrameHeaders.l4Offset(out, 0, len);
                int port = out.get(Frames.BE16, l4) & 0xffff;
                assertEquals(Frames.sourcePort(mix.flow(id)), port, "id " + id);
                int q = id % queues;
                assertEquals(q, queueOfPort.computeIfAbsent(port, x -> q), queues + " queues: port " + port + " from one queue (id " + id + ")");
                TrafficMix.Kind k = mix.kind(id);
                if (id != TrafficMix.LSO_ID) assertEquals(k, kindOfPort.computeIfAbsent(port, x -> k), queues + " queues: port " + port + " of one kind (id " + id + ")");
                if (k == TrafficMix.Kind.TCP4_CSUM || k == TrafficMix.Kind.TCP6_CSUM) {
                    long seq = out.get(Frames.BE32, l4 + 4) & 0xffffffffL;
                    assertEquals(nextSeq.getOrDefault(port, 1L), seq, queues + " queues: id " + id + " follows its flow's last frame");
                    nextSeq.put(port, seq + len - l4 - Frames.TCP_HLEN);
                }
            }
            assertTrue(queueOfPort.size() > 3900, queues + " queues: the flows use nearly every port (" + queueOfPort.size() + ")");
            assertEquals((long) TrafficMix.LSO_ID << 8, TrafficMix.identify(out, 0, mix.expected(TrafficMix.LSO_ID, 0, out, 0)), "the LSO send still names itself");
        }
    }

    @Test
    void idsOutsideTheTagsRoomAreRefused() {
        TrafficMix mix = new TrafficMix(64);
        MemorySegment out = arena.allocate(4096, 64);
        var e = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class, () -> mix.expected(1 << 28, 0, out, 0));
        assertEquals("frame id 268435456 outside 0..268435455", e.getMessage());
    }

    @Test
    void theCheckerFindsCorruptDuplicateAndLostFrames() {
        TrafficMix mix = new TrafficMix(128);
        WireCheck check = new WireCheck(mix, 32);
        MemorySegment f = arena.allocate(32768, 64);
        long total = 0;
        for (int id = 0; id < 32; id++) {
            check.sent(id);
            total += mix.wireFrames(id);
        }
        assertEquals(total, check.expectedFrames());
        for (int id = 0; id < 32; id++) {
            for (int seg = 0; seg < mix.wireFrames(id); seg++) {
                if (id == 3) continue; // lost
                int len = mix.expected(id, seg, f, 0);
                if (mix.kind(id) == TrafficMix.Kind.VLAN_UDP4) {
                    // as an RQ that strips tags hands it over
                    int tci = f.get(Frames.BE16, 14) & 0xffff;
                    MemorySegment.copy(f, 16, f, 12, len - 16);
                    assertTrue(check.check(f, 0, len - 4, tci));
                } else {
                    assertTrue(check.check(f, 0, len, -1), "id " + id);
                }
            }
        }
        int len = mix.expected(1, 0, f, 0);
        assertFalse(check.check(f, 0, len, -1), "a second copy");
        assertEquals(1, check.duplicate());
        len = mix.expected(3, 0, f, 0);
        f.set(ValueLayout.JAVA_BYTE, len - 1, (byte) (f.get(ValueLayout.JAVA_BYTE, len - 1) ^ 1));
        assertFalse(check.check(f, 0, len, -1), "one flipped bit");
        assertEquals(1, check.corrupt());
        assertEquals(1, check.lost(), "id 3 never arrived intact");
    }
}

package io.prmkit.demo;

import io.prmkit.driver.dp.FrameHeaders;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Random;
import org.junit.jupiter.api.Test;

class FramesTest {
    /** RFC 1071's definition, one 16-bit word at a time, an odd last byte as the high byte of a word. */
    private static int reference(byte[] b, int from, int len) {
        long acc = 0;
        for (int i = 0; i + 1 < len; i += 2) acc += ((b[from + i] & 0xff) << 8) | (b[from + i + 1] & 0xff);
        if ((len & 1) != 0) acc += (b[from + len - 1] & 0xff) << 8;
        while ((acc >>> 16) != 0) acc = (acc & 0xffff) + (acc >>> 16);
        return (int) acc;
    }

    @Test
    void theSumOfWideWordsFoldsToTheSixteenBitSum() {
        Random r = new Random(1071);
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment s = arena.allocate(10_000);
            for (int round = 0; round < 5000; round++) {
                byte[] b = new byte[10_000];
                // all ones now and then: the sums where carries pile up
                if (round % 7 == 0) java.util.Arrays.fill(b, (byte) 0xff);
                else r.nextBytes(b);
                MemorySegment.copy(b, 0, s, ValueLayout.JAVA_BYTE, 0, b.length);
                int len = round < 100 ? round : r.nextInt(round % 3 == 0 ? 9000 : 80);
                int from = r.nextInt(b.length - len + 1); // any alignment
                assertEquals(reference(b, from, len), Frames.fold(Frames.sum(s, from, len)), "round " + round + ": " + len + " bytes at " + from);
            }
        }
    }

    /** The payload pattern (seq + i) & 0xff holds past the bulk copy's 4096-byte chunks, and the checksums cover it. */
    @Test
    void aJumboFramesPayloadFollowsThePatternAndItsChecksumsVerify() {
        try (Arena arena = Arena.ofConfined()) {
            int len = 9014;
            MemorySegment s = arena.allocate(len + 100);
            for (int seq : new int[] {0, 1, 255, 1000}) {
                Frames.build(s, 3, len, false, false, seq, 7, false);
                long payload = 3 + FrameHeaders.ETH_HLEN + Frames.IPV4_HLEN + Frames.UDP_HLEN;
                for (long p = payload; p < 3 + len; p++) {
                    assertEquals((byte) (seq + (p - payload)), s.get(ValueLayout.JAVA_BYTE, p), "seq " + seq + " payload byte " + (p - payload));
                }
                byte[] b = s.asSlice(3, len).toArray(ValueLayout.JAVA_BYTE);
                int l3 = FrameHeaders.ETH_HLEN, l4 = l3 + Frames.IPV4_HLEN;
                assertEquals(0xffff, reference(b, l3, Frames.IPV4_HLEN), "the IPv4 header sums to 0xffff");
                long pseudo = reference(b, l3 + 12, 8) + FrameHeaders.IPPROTO_UDP + (len - l4);
                pseudo = (pseudo & 0xffff) + (pseudo >>> 16);
                long all = pseudo + reference(b, l4, len - l4);
                all = (all & 0xffff) + (all >>> 16);
                assertEquals(0xffff, (int) all, "seq " + seq + ": the UDP checksum verifies");
            }
        }
    }
}

package io.prmkit.driver.dp;

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
}

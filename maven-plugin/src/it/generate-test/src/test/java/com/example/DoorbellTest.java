package com.example;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.example.gen.acme.Doorbell;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import org.junit.jupiter.api.Test;

/** Uses the accessors generated from src/test/prm/acme/doorbell.prm. */
class DoorbellTest {
    private static final ValueLayout.OfInt BE_DWORD = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN);

    @Test
    void accessorsFollowThePrmBitLayout() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment s = arena.allocate(Doorbell.SIZE, 8);
            Doorbell.counter$set(s, 0x1234);
            Doorbell.ring$set(s, 0x5);
            Doorbell.key$set(s, 0xCAFEBABE);

            // Dword 0 is big-endian: counter in bits 31..16, reserved 15..4, ring 3..0.
            assertEquals(0x12340005, s.get(BE_DWORD, 0));
            assertEquals(0xCAFEBABE, s.get(BE_DWORD, 4));
            assertEquals(0x1234, Doorbell.counter(s));
            assertEquals(0x5, Doorbell.ring(s));
            assertEquals(0xCAFEBABE, Doorbell.key(s));
        }
    }
}

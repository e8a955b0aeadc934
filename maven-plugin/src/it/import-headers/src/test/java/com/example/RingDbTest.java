package com.example;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.example.gen.mlx5.DbKey;
import com.example.gen.mlx5.RingDb;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import org.junit.jupiter.api.Test;

/** Uses accessors generated from headers/mlx5_ifc.h and the header it includes. */
class RingDbTest {
    private static final ValueLayout.OfInt BE_DWORD = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN);

    @Test
    void importedLayoutMatchesTheHeader() {
        assertEquals(8, RingDb.SIZE);
        assertEquals(4, DbKey.SIZE);
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment s = arena.allocate(RingDb.SIZE, 8);
            RingDb.counter$set(s, 0xBEEF);
            RingDb.ring$set(s, 0x3);
            DbKey.key$set(s.asSlice(4), 0x01020304);
            assertEquals(0xBEEF0003, s.get(BE_DWORD, 0));
            assertEquals(0x01020304, s.get(BE_DWORD, 4));
        }
    }
}

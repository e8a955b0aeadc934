package io.prmkit.driver.dp;

import static org.junit.jupiter.api.Assertions.*;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class PacketPoolTest {
    private final HostMemory host = new HostMemory();

    @AfterEach
    void close() {
        host.close();
    }

    @Test
    void bulkAllocTakesFromTheStackClearsMetadataAndBulkFreeGivesBack() {
        PacketPool pool = new PacketPool(host, 8, 64, Rings.LKEY);
        int[] got = new int[8];
        assertEquals(3, pool.alloc(got, 3));
        assertArrayEquals(new int[] {0, 1, 2}, java.util.Arrays.copyOf(got, 3), "handle 0 is on top");
        pool.setLength(1, 99);
        pool.setFlags(1, PacketFlags.TX_VLAN);
        pool.free(got, 1, 1);
        assertEquals(6, pool.available());
        assertEquals(1, pool.alloc(), "the last freed comes back first");
        assertEquals(0, pool.length(1));
        assertEquals(0, pool.flags(1));
        assertEquals(5, pool.alloc(got, 8), "no more than the pool holds");
        assertEquals(0, pool.available());
        assertEquals(0, pool.alloc(got, 1));
        assertEquals(-1, pool.alloc());
    }

    @Test
    void freeingMoreThanTheRoomLeftThrowsAndChangesNothing() {
        PacketPool pool = new PacketPool(host, 4, 64, Rings.LKEY);
        int[] got = new int[4];
        assertEquals(2, pool.alloc(got, 2));
        int[] three = {got[0], got[1], got[0]};
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> pool.free(three, 0, 3));
        assertTrue(e.getMessage().contains("freed twice"), e.getMessage());
        assertEquals(2, pool.available(), "nothing was pushed");
        pool.free(got, 0, 2);
        assertEquals(4, pool.available());
        assertThrows(IllegalStateException.class, () -> pool.free(got[0]));
    }
}

package io.prmkit.driver.dp;

import io.prmkit.driver.eth.RqResources;

import static org.junit.jupiter.api.Assertions.*;

import io.prmkit.mlx5.CqDoorbellRecord;
import io.prmkit.mlx5.WqDoorbellRecord;
import java.lang.foreign.ValueLayout;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class RxQueueTest {
    private final HostMemory host = new HostMemory();

    @AfterEach
    void close() {
        host.close();
    }

    private static byte[] frame(int len, int seq) {
        byte[] f = new byte[len];
        for (int i = 0; i < len; i++) f[i] = (byte) (seq * 7 + i);
        return f;
    }

    @Test
    void receivesWithMetadataAndRefillsTheRqInBulk() {
        RqResources res = Rings.rq(host, 3, 3);
        PacketPool pool = new PacketPool(host, 32, 2048, Rings.LKEY);
        RxQueue rx = new RxQueue(res, pool);
        assertEquals(8, WqDoorbellRecord.receive_counter(res.doorbellRecord()), "all 8 WQEs posted at start");
        assertEquals(24, pool.available());
        FakeRq dev = new FakeRq(host, res);
        for (int i = 0; i < 3; i++) assertTrue(dev.deliver(frame(60 + i, i), 0x1000 + i, i == 1 ? 0x0abc : -1, false));
        int[] got = new int[16];
        assertEquals(3, rx.receive(got, 16));
        for (int i = 0; i < 3; i++) {
            int h = got[i];
            assertEquals(60 + i, pool.length(h));
            assertArrayEquals(frame(60 + i, i), pool.memory().asSlice(pool.offset(h), 60 + i).toArray(ValueLayout.JAVA_BYTE));
            assertEquals(0x1000 + i, pool.rssHash(h));
            int f = pool.flags(h);
            assertTrue((f & PacketFlags.RX_L3_OK) != 0 && (f & PacketFlags.RX_L4_OK) != 0 && (f & PacketFlags.RX_IPV4) != 0 && (f & PacketFlags.RX_UDP) != 0);
            assertEquals(i == 1, (f & PacketFlags.RX_VLAN_STRIPPED) != 0);
        }
        assertEquals(0x0abc, pool.vlanTci(got[1]));
        assertEquals(11, WqDoorbellRecord.receive_counter(res.doorbellRecord()), "3 refilled");
        assertEquals(3, CqDoorbellRecord.consumer_index(res.cq().doorbellRecord()));
        assertEquals(0, rx.receive(got, 16), "nothing more");
        pool.free(got, 0, 3);
        assertEquals(24, pool.available());
        assertEquals(List.of(), dev.violations);
    }

    /** An array shorter than max is refused before any completion is consumed: nothing is lost, the next call gets every packet. */
    @Test
    void anArrayShorterThanMaxIsRefusedBeforeAnythingIsConsumed() {
        RqResources res = Rings.rq(host, 3, 3);
        PacketPool pool = new PacketPool(host, 32, 2048, Rings.LKEY);
        RxQueue rx = new RxQueue(res, pool);
        FakeRq dev = new FakeRq(host, res);
        for (int i = 0; i < 6; i++) assertTrue(dev.deliver(frame(60, i), i, -1, false));
        var e = assertThrows(IllegalArgumentException.class, () -> rx.receive(new int[4], 8));
        assertEquals("max 8 is more than the 4 buffers the array holds", e.getMessage());
        assertEquals(0, CqDoorbellRecord.consumer_index(res.cq().doorbellRecord()), "no CQE consumed");
        int[] got = new int[8];
        assertEquals(6, rx.receive(got, 8));
        for (int i = 0; i < 6; i++) assertEquals(i, pool.rssHash(got[i]));
        assertEquals(0, rx.errors(), "no completion was taken for an error");
    }

    /** Every combination of checksum bits, L3 and L4 header type and VLAN stripping the CQE can report. */
    @Test
    void decodesEveryChecksumAndHeaderTypeCombination() {
        RqResources res = Rings.rq(host, 4, 4);
        PacketPool pool = new PacketPool(host, 64, 2048, Rings.LKEY);
        RxQueue rx = new RxQueue(res, pool);
        FakeRq dev = new FakeRq(host, res);
        int[] got = new int[4];
        int seq = 0;
        for (int checks = 0; checks < 256; checks++) {
            for (int l3 = 0; l3 < 4; l3++) {
                for (int l4 = 0; l4 < 8; l4++) {
                    int tci = (checks * 31 + l3 * 7 + l4) % 3 == 0 ? (seq * 13) & 0xffff : -1;
                    assertTrue(dev.deliver(frame(64, seq), seq, tci, false, checks, l3, l4));
                    assertEquals(1, rx.receive(got, 4));
                    int h = got[0];
                    int want = 0;
                    // hds_ip_ext: bit 0 L2 ok, bit 1 L3 ok, bit 2 L4 ok (mlx5dv.h MLX5_CQE_L2_OK etc.); the rest is ignored
                    if ((checks & 1) != 0) want |= PacketFlags.RX_L2_OK;
                    if ((checks & 2) != 0) want |= PacketFlags.RX_L3_OK;
                    if ((checks & 4) != 0) want |= PacketFlags.RX_L4_OK;
                    // l3_hdr_type: 1 IPv6, 2 IPv4; l4_hdr_type: 2 UDP, any other non-zero value a TCP kind
                    if (l3 == 2) want |= PacketFlags.RX_IPV4;
                    if (l3 == 1) want |= PacketFlags.RX_IPV6;
                    if (l4 == 2) want |= PacketFlags.RX_UDP;
                    else if (l4 != 0) want |= PacketFlags.RX_TCP;
                    if (tci >= 0) want |= PacketFlags.RX_VLAN_STRIPPED;
                    String what = "checks " + checks + ", l3 " + l3 + ", l4 " + l4 + ", tci " + tci;
                    assertEquals(want, pool.flags(h), what);
                    if (tci >= 0) assertEquals(tci, pool.vlanTci(h), what);
                    assertEquals(64, pool.length(h), what);
                    assertEquals(seq, pool.rssHash(h), what);
                    pool.free(h);
                    seq++;
                }
            }
        }
        assertEquals(List.of(), dev.violations);
    }

    @Test
    void theCqWrapsManyTimesWithoutLosingAPacket() {
        RqResources res = Rings.rq(host, 4, 4);
        PacketPool pool = new PacketPool(host, 64, 2048, Rings.LKEY);
        RxQueue rx = new RxQueue(res, pool);
        FakeRq dev = new FakeRq(host, res);
        int[] got = new int[16];
        int seq = 0;
        for (int round = 0; round < 50; round++) {
            int burst = 1 + round % 16;
            for (int i = 0; i < burst; i++) assertTrue(dev.deliver(frame(64, seq + i), seq + i, -1, false));
            int n = rx.receive(got, 16);
            assertEquals(burst, n);
            for (int i = 0; i < n; i++) {
                assertEquals(seq + i, pool.rssHash(got[i]), "order kept");
                assertArrayEquals(frame(64, seq + i), pool.memory().asSlice(pool.offset(got[i]), 64).toArray(ValueLayout.JAVA_BYTE));
            }
            seq += n;
            pool.free(got, 0, n);
        }
        assertEquals(seq, rx.packets());
        assertEquals(List.of(), dev.violations);
    }

    @Test
    void anEmptyRqDropsAtTheDeviceAndRefillsWhenBuffersComeBack() {
        RqResources res = Rings.rq(host, 3, 3);
        PacketPool pool = new PacketPool(host, 4, 2048, Rings.LKEY);
        RxQueue rx = new RxQueue(res, pool);
        assertEquals(4, rx.postedWqes(), "the pool had only 4 buffers");
        assertEquals(1, rx.refillShortfalls());
        FakeRq dev = new FakeRq(host, res);
        int delivered = 0;
        for (int i = 0; i < 6; i++) if (dev.deliver(frame(100, i), i, -1, false)) delivered++;
        assertEquals(4, delivered);
        assertEquals(2, dev.outOfBuffer, "drops counted by the device");
        int[] got = new int[8];
        assertEquals(4, rx.receive(got, 8));
        assertEquals(0, rx.postedWqes(), "the caller holds every buffer: the RQ is empty");
        assertFalse(dev.deliver(frame(100, 9), 9, -1, false));
        pool.free(got, 0, 4);
        assertEquals(4, rx.refill());
        assertTrue(dev.deliver(frame(100, 10), 10, -1, false));
        assertEquals(1, rx.receive(got, 8));
        assertEquals(10, pool.rssHash(got[0]));
        assertEquals(List.of(), dev.violations);
    }

    @Test
    void anErrorCqeIsCountedAndItsBufferRecycled() {
        RqResources res = Rings.rq(host, 3, 3);
        PacketPool pool = new PacketPool(host, 8, 2048, Rings.LKEY);
        RxQueue rx = new RxQueue(res, pool);
        FakeRq dev = new FakeRq(host, res);
        dev.deliver(frame(70, 1), 1, -1, false);
        dev.deliver(frame(70, 2), 2, -1, true);
        dev.deliver(frame(70, 3), 3, -1, false);
        int[] got = new int[8];
        assertEquals(2, rx.receive(got, 8));
        assertEquals(1, rx.errors());
        assertEquals(1, pool.rssHash(got[0]));
        assertEquals(3, pool.rssHash(got[1]));
        assertEquals(6, rx.postedWqes(), "the errored buffer went back on the RQ; the two handed out are missing");
        pool.free(got, 0, 2);
        rx.refill();
        assertEquals(8, rx.postedWqes());
        assertEquals(0, pool.available());
    }
}

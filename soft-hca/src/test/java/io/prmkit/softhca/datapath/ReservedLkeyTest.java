package io.prmkit.softhca.datapath;

import static org.junit.jupiter.api.Assertions.*;

import io.prmkit.mlx5.Cqe64;
import io.prmkit.mlx5.CqeErrorSyndrome;
import io.prmkit.mlx5.CqeOpcode;
import io.prmkit.mlx5.EqeType;
import io.prmkit.mlx5.ErrCqe;
import io.prmkit.mlx5.InlineMode;
import io.prmkit.mlx5.Mkc;
import io.prmkit.mlx5.MkcAccessMode;
import io.prmkit.mlx5.Sqc;
import io.prmkit.softhca.device.Resources;
import io.prmkit.softhca.wire.Ethernet;
import io.prmkit.softhca.wire.TestFrames;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The reserved lkey (physical addressing) and the mkey with index 1 and key byte 0 (key 0x100) are different keys. */
class ReservedLkeyTest {
    final Harness h = new Harness();
    final Harness.Eq eq = h.new Eq(1, 4, 7, EqeType.COMP.value);
    final Harness.Cq txCq = h.new Cq(10, 4, 1);
    final Harness.Cq rxCq = h.new Cq(11, 4, 1);
    final Harness.Sq sq = h.new Sq(20, 4, 10, InlineMode.L2$VALUE);
    final Harness.Rq rq = h.new Rq(30, 4, 11, 2048, 2, true);
    final int rxKey = h.paKey(2, true, true);
    final Harness.Mem tx = h.dma(4096);
    final byte[] frame = TestFrames.ipv4(Ethernet.PROTO_UDP, 7, 8, TestFrames.payload(64, 1));

    ReservedLkeyTest() {
        h.objects.qCounters.put(2, new Resources.QCounter(2));
        h.directTir(40, 30);
        h.catchAll(50, 40);
        MemorySegment.copy(frame, 0, tx.seg(), ValueLayout.JAVA_BYTE, 0, frame.length);
    }

    /** A PA mkey at index 1 with key byte 0, as CREATE_MKEY would make it: key 0x100. */
    int keyIndex1Byte0(boolean lr) {
        MemorySegment mkc = MemorySegment.ofArray(new byte[(int) Mkc.SIZE]);
        Mkc.access_mode_1_0$set(mkc, MkcAccessMode.PA$VALUE);
        Mkc.lr$set(mkc, lr);
        Mkc.lw$set(mkc, true);
        Mkc.length64$set(mkc, true);
        Mkc.pd$set(mkc, Harness.PD);
        Mkc.mkey_7_0$set(mkc, 0);
        int key = 1 << Mkc.mkey_7_0$BIT_WIDTH;
        h.objects.mkeys.put(1, new Resources.Mkey(key, mkc, null));
        return key;
    }

    /** Sends the frame through {@code lkey} and returns the send-side CQE. */
    MemorySegment send(int lkey) {
        rq.post(1, rxKey);
        return sq.sendOne(txCq, lkey, tx.bus(), frame.length, tx.seg());
    }

    @Test
    void mkeyWithIndexOneAndKeyByteZeroIsNotTheReservedLkey() {
        int key = keyIndex1Byte0(true);
        assertEquals(0x100, key);
        assertNotEquals(key, h.objects.reservedLkey);
        assertEquals(0, h.objects.reservedLkey >>> Mkc.mkey_7_0$BIT_WIDTH, "the reserved lkey's index is one CREATE_MKEY never hands out");
        // a queue without rlky may use it: it is an ordinary key
        MemorySegment c = send(key);
        assertEquals(CqeOpcode.REQ.value, Cqe64.opcode(c));
        List<MemorySegment> r = rxCq.drain();
        assertEquals(1, r.size());
        assertArrayEquals(frame, rq.buffer(0, frame.length));
    }

    @Test
    void keyOneHundredHexFollowsItsMkeysRightsEvenWhereTheReservedLkeyIsAllowed() {
        Sqc.rlky$set(sq.sq.sqc, true);
        int key = keyIndex1Byte0(false); // no local read
        assertEquals(CqeErrorSyndrome.LOCAL_PROT_ERR.value, ErrCqe.syndrome(send(key)));
    }

    @Test
    void reservedLkeyStillMeansPhysicalAddressingForRlkyQueuesOnly() {
        keyIndex1Byte0(true);
        assertEquals(CqeErrorSyndrome.LOCAL_PROT_ERR.value, ErrCqe.syndrome(send(h.objects.reservedLkey)), "no rlky: refused");
    }

    @Test
    void reservedLkeyReadsBusAddressesOnAnRlkyQueue() {
        Sqc.rlky$set(sq.sq.sqc, true);
        MemorySegment c = send(h.objects.reservedLkey);
        assertEquals(CqeOpcode.REQ.value, Cqe64.opcode(c));
        assertEquals(1, rxCq.drain().size());
        assertArrayEquals(frame, rq.buffer(0, frame.length));
        assertEquals(0, h.iommu.faults());
    }
}

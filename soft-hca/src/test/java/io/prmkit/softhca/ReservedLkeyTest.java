package io.prmkit.softhca;

import static org.junit.jupiter.api.Assertions.*;

import io.prmkit.mlx5.Cqe64;
import io.prmkit.mlx5.CqeErrorSyndrome;
import io.prmkit.mlx5.CqeOpcode;
import io.prmkit.mlx5.ErrCqe;
import io.prmkit.mlx5.InlineMode;
import io.prmkit.mlx5.Mkc;
import io.prmkit.mlx5.Sqc;
import io.prmkit.softhca.wire.Ethernet;
import io.prmkit.softhca.wire.TestFrames;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The reserved lkey (QUERY_SPECIAL_CONTEXTS resd_lkey: physical addressing, for queues created with
 * {@code rlky}) and the mkey with index 1 and variant byte 0 (key 0x100, the first CREATE_MKEY of a
 * driver that leaves the byte 0) are different keys. Driven through commands, the SQ and the UAR; seen
 * in the send CQE and the looped-back frame.
 */
class ReservedLkeyTest {
    final Nic n = new Nic();
    final byte[] frame = TestFrames.ipv4(Ethernet.PROTO_UDP, 7, 8, TestFrames.payload(64, 1));
    Nic.Cq txCq, rxCq;
    Nic.Sq sq;
    Nic.Rq rq;
    int rxKey;
    Nic.Mem tx;

    /** The first CREATE_MKEY (index 1), variant byte 0, with local read {@code lr}; then the queues, an RQ key, steering. */
    int setUp(boolean lr, boolean rlky) {
        int key = n.paKey(lr, true, 0);
        txCq = n.new Cq(4);
        rxCq = n.new Cq(4);
        sq = n.new Sq(4, txCq, InlineMode.L2$VALUE, (in, ctx) -> Sqc.rlky$set(in, ctx, rlky));
        rq = n.new Rq(4, rxCq, 2048, true, true);
        rxKey = n.paKey(true, true);
        n.catchAll(n.directTir(rq));
        tx = n.dma(4096);
        MemorySegment.copy(frame, 0, tx.seg(), ValueLayout.JAVA_BYTE, 0, frame.length);
        return key;
    }

    @AfterEach
    void close() {
        n.close();
    }

    /** Sends the frame through {@code lkey} and returns the send-side CQE. */
    MemorySegment send(int lkey) {
        rq.post(1, rxKey);
        return sq.sendOne(txCq, lkey, tx.bus(), frame.length, tx.seg());
    }

    @Test
    void mkeyWithIndexOneAndKeyByteZeroIsNotTheReservedLkey() {
        int key = setUp(true, false);
        assertEquals(0x100, key, "the first mkey index CREATE_MKEY hands out is 1");
        int reserved = n.reservedLkey();
        assertNotEquals(key, reserved);
        assertEquals(0, reserved >>> Mkc.mkey_7_0$BIT_WIDTH, "the reserved lkey's index is one CREATE_MKEY never hands out");
        // a queue without rlky may use it: it is an ordinary key
        MemorySegment c = send(key);
        assertEquals(CqeOpcode.REQ.value, Cqe64.opcode(c), () -> "syndrome " + ErrCqe.syndrome(c));
        List<MemorySegment> r = rxCq.drain();
        assertEquals(1, r.size());
        assertArrayEquals(frame, rq.buffer(0, frame.length));
    }

    @Test
    void keyOneHundredHexFollowsItsMkeysRightsEvenWhereTheReservedLkeyIsAllowed() {
        int key = setUp(false, true); // no local read
        assertEquals(0x100, key);
        assertEquals(CqeErrorSyndrome.LOCAL_PROT_ERR.value, ErrCqe.syndrome(send(key)));
        assertTrue(rxCq.drain().isEmpty(), "nothing was sent");
    }

    @Test
    void reservedLkeyStillMeansPhysicalAddressingForRlkyQueuesOnly() {
        setUp(true, false);
        assertEquals(CqeErrorSyndrome.LOCAL_PROT_ERR.value, ErrCqe.syndrome(send(n.reservedLkey())), "no rlky: refused");
    }

    @Test
    void reservedLkeyReadsBusAddressesOnAnRlkyQueue() {
        setUp(true, true);
        MemorySegment c = send(n.reservedLkey());
        assertEquals(CqeOpcode.REQ.value, Cqe64.opcode(c), () -> "syndrome " + ErrCqe.syndrome(c));
        assertEquals(1, rxCq.drain().size());
        assertArrayEquals(frame, rq.buffer(0, frame.length));
        assertEquals(0, n.h.hca.iommu().faults(), "no DMA fault");
    }
}

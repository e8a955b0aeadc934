package io.prmkit.softhca.datapath;

import static org.junit.jupiter.api.Assertions.*;

import io.prmkit.mlx5.Cqe64;
import io.prmkit.mlx5.CqeErrorSyndrome;
import io.prmkit.mlx5.CqeOpcode;
import io.prmkit.mlx5.EqeType;
import io.prmkit.mlx5.ErrCqe;
import io.prmkit.mlx5.InlineMode;
import io.prmkit.softhca.device.Resources;
import io.prmkit.softhca.wire.Ethernet;
import io.prmkit.softhca.wire.TestFrames;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.List;
import org.junit.jupiter.api.Test;

/** PMTU admin_mtu is the hardware MTU (frame with Ethernet header, VLAN tags and FCS): what the SQ may send. */
class MtuTest {
    final Harness h = new Harness();
    final Harness.Eq eq = h.new Eq(1, 4, 7, EqeType.COMP.value);
    final Harness.Cq txCq = h.new Cq(10, 4, 1);
    final Harness.Cq rxCq = h.new Cq(11, 4, 1);
    final Harness.Sq sq = h.new Sq(20, 4, 10, InlineMode.L2$VALUE);
    final Harness.Rq rq = h.new Rq(30, 4, 11, 16384, 2, true);
    final int lkey = h.paKey(1, true, true);
    final Harness.Mem tx = h.dma(16384);

    MtuTest() {
        h.objects.qCounters.put(2, new Resources.QCounter(2));
        h.directTir(40, 30);
        h.catchAll(50, 40);
    }

    /** Sends a UDP frame of {@code len} bytes (no FCS) and returns the send-side CQE. */
    MemorySegment send(int len) {
        byte[] f = TestFrames.ipv4(Ethernet.PROTO_UDP, 1, 2, new byte[len - 42]);
        assertEquals(len, f.length);
        MemorySegment.copy(f, 0, tx.seg(), ValueLayout.JAVA_BYTE, 0, f.length);
        rq.post(1, lkey);
        return sq.sendOne(txCq, lkey, tx.bus(), f.length, tx.seg());
    }

    @Test
    void linuxsDefaultHardwareMtuCarriesFullSizeFramesAndNotOneByteMore() {
        assertEquals(1500 + 22, h.objects.port.adminMtu, "what Linux writes for IP MTU 1500");
        MemorySegment ok = send(1518);
        assertEquals(CqeOpcode.REQ.value, Cqe64.opcode(ok), () -> "syndrome " + ErrCqe.syndrome(ok));
        List<MemorySegment> r = rxCq.drain();
        assertEquals(1, r.size());
        assertEquals(1518, Cqe64.byte_cnt(r.get(0)));
        MemorySegment bad = send(1519);
        assertEquals(CqeOpcode.REQ_ERR.value, ErrCqe.opcode(bad));
        assertEquals(CqeErrorSyndrome.LOCAL_LENGTH_ERR.value, ErrCqe.syndrome(bad));
        assertEquals(1, h.port.counters().txFrames, "the refused frame never reached the wire");
    }

    @Test
    void thePortFollowsAdminMtuAsAHardwareMtu() {
        h.objects.port.adminMtu = 9000 + 22;
        MemorySegment ok = send(9018);
        assertEquals(CqeOpcode.REQ.value, Cqe64.opcode(ok), () -> "syndrome " + ErrCqe.syndrome(ok));
        assertEquals(9022, h.port.mtu());
        assertEquals(1, rxCq.drain().size());
        assertEquals(CqeErrorSyndrome.LOCAL_LENGTH_ERR.value, ErrCqe.syndrome(send(9019)));
    }
}

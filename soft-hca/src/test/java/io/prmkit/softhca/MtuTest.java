package io.prmkit.softhca;

import static org.junit.jupiter.api.Assertions.*;

import io.prmkit.mlx5.Cqe64;
import io.prmkit.mlx5.CqeErrorSyndrome;
import io.prmkit.mlx5.CqeOpcode;
import io.prmkit.mlx5.ErrCqe;
import io.prmkit.softhca.EthernetDatapathTest.Eth;
import io.prmkit.softhca.wire.Ethernet;
import io.prmkit.softhca.wire.TestFrames;
import java.lang.foreign.MemorySegment;
import org.junit.jupiter.api.Test;

/**
 * PMTU admin_mtu is the hardware MTU (the frame with Ethernet header, VLAN tags and FCS): what the SQ
 * may send. Driven as a driver does: PMTU through ACCESS_REG, frames on the SQ, completions in the CQ
 * rings, PPCNT for what reached the wire.
 */
class MtuTest {
    static int adminMtu(Eth e) {
        return Nic.adminMtu(e.h);
    }

    static void setAdminMtu(Eth e, int mtu) {
        Nic.setAdminMtu(e.h, mtu);
    }

    /** Sends a UDP frame of {@code len} bytes (no FCS) and returns its send completion. */
    static MemorySegment send(Eth e, int len) {
        byte[] f = TestFrames.ipv4(Ethernet.PROTO_UDP, 1, 2, new byte[len - 42]);
        assertEquals(len, f.length);
        e.postRx(1);
        e.send(f);
        e.settle(() -> false);
        MemorySegment t = e.txCqe();
        assertNotNull(t, "TX CQE");
        return t;
    }

    static long framesSent(Eth e) {
        return Nic.framesTransmitted(e.h);
    }

    @Test
    void linuxsDefaultHardwareMtuCarriesFullSizeFramesAndNotOneByteMore() {
        try (Eth e = new Eth(new SoftHca.Options(), ExecutionMode.STEP)) {
            assertEquals(1500 + 22, adminMtu(e), "what Linux writes for IP MTU 1500");
            MemorySegment ok = send(e, 1518);
            assertEquals(CqeOpcode.REQ.value, Cqe64.opcode(ok), () -> "syndrome " + ErrCqe.syndrome(ok));
            MemorySegment r = e.rxCqe();
            assertNotNull(r, "the frame came back");
            assertEquals(1518, Cqe64.byte_cnt(r));
            MemorySegment bad = send(e, 1519);
            assertEquals(CqeOpcode.REQ_ERR.value, ErrCqe.opcode(bad));
            assertEquals(CqeErrorSyndrome.LOCAL_LENGTH_ERR.value, ErrCqe.syndrome(bad));
            assertEquals(1, framesSent(e), "the refused frame never reached the wire");
        }
    }

    @Test
    void thePortFollowsAdminMtuAsAHardwareMtu() {
        try (Eth e = new Eth(new SoftHca.Options(), ExecutionMode.STEP)) {
            setAdminMtu(e, 9000 + 22);
            assertEquals(9022, adminMtu(e));
            MemorySegment ok = send(e, 9018);
            assertEquals(CqeOpcode.REQ.value, Cqe64.opcode(ok), () -> "syndrome " + ErrCqe.syndrome(ok));
            assertNotNull(e.rxCqe(), "the frame reached the RQ (its 2 KiB buffer is too small: an error CQE, but a CQE)");
            assertEquals(CqeErrorSyndrome.LOCAL_LENGTH_ERR.value, ErrCqe.syndrome(send(e, 9019)));
            assertEquals(1, framesSent(e));
        }
    }
}

package io.prmkit.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.prmkit.driver.eth.EthPortConfig;
import io.prmkit.driver.eth.PortStats;
import org.junit.jupiter.api.Test;

/** The bench's loopback rounds share one device: each round must move exactly its frames and leave nothing behind. */
class LoopbackRigTest {

    @Test
    void roundsOnOneDeviceMoveExactlyTheirFramesAndEndWithNothingInFlight() {
        try (LoopbackRig rig = new LoopbackRig(EthPortConfig.CqeCompression.ON)) {
            assertTrue(rig.cqeCompression());
            long[] frames = {5_000, 1, 12_345};
            long total = 0;
            for (long n : frames) {
                assertTrue(rig.round(n) > 0);
                total += n;
                assertEquals(4096, rig.freeTxBuffers(), "every send completed before the round returned");
                PortStats st = rig.stats();
                assertEquals(total, st.txPacketsPhy(), "frames on the wire after " + total);
                assertEquals(total, st.rxPacketsPhy());
                assertEquals(total, st.rxVportUnicastPackets(), "frames delivered to the RQ");
                assertEquals(0, st.rxOutOfBuffer());
                assertEquals(0, st.rxErrors() + st.txErrors());
            }
        }
    }

    @Test
    void compressionOffIsHonoured() {
        try (LoopbackRig rig = new LoopbackRig(EthPortConfig.CqeCompression.OFF)) {
            assertEquals(false, rig.cqeCompression());
            rig.round(1_000);
            assertEquals(1_000, rig.stats().rxPacketsPhy());
        }
    }
}

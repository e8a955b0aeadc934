package io.prmkit.demo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.prmkit.driver.eth.EthPortConfig;
import io.prmkit.driver.eth.PortStats;
import java.lang.management.ManagementFactory;
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

    /**
     * Nothing per frame: a round of 200,000 frames allocates well under one byte per 100 frames on
     * the driver's thread (what the JIT's tier changes allocate in the first rounds, a few hundred
     * bytes once, is allowed; one object per frame would be megabytes).
     */
    @Test
    void roundsAllocateNothingPerFrameOnTheDriverThread() {
        var mx = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        int frames = 200_000;
        try (LoopbackRig rig = new LoopbackRig(EthPortConfig.CqeCompression.AUTO)) {
            rig.round(frames);
            for (int i = 0; i < 3; i++) {
                long before = mx.getCurrentThreadAllocatedBytes();
                rig.round(frames);
                long bytes = mx.getCurrentThreadAllocatedBytes() - before;
                assertTrue(bytes < frames / 100, bytes + " bytes allocated by the driver thread in a round of " + frames + " frames");
            }
        }
    }
}

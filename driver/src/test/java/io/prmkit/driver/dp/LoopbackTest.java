package io.prmkit.driver.dp;

import static org.junit.jupiter.api.Assertions.*;

import org.junit.jupiter.api.Test;

/** The datapath on the soft HCA through the driver's Ethernet port, its port cabled to itself. */
class LoopbackTest {

    @Test
    void theTrafficMixComesBackByteForByteWithUmrAndARecoveredBadWqe() throws Exception {
        try (SoftLoopback lb = new SoftLoopback(1)) {
            TrafficMix mix = new TrafficMix(128);
            long[] errors = new long[2];
            WireCheck check = lb.run(mix, 2000, true, errors);
            assertEquals(0, check.corrupt(), check.firstProblem());
            assertEquals(0, check.duplicate(), "duplicated");
            assertEquals(0, check.lost(), "lost");
            assertEquals(check.expectedFrames(), check.good());
            assertEquals(1, errors[0], "the bad WQE failed once");
            assertEquals(1, errors[1], "and was recovered from");
            var stats = lb.eth.stats();
            assertEquals(check.expectedFrames(), stats.txVportUnicastPackets(), "the vport counted every wire frame once");
            assertEquals(check.expectedFrames(), stats.rxVportUnicastPackets());
        }
    }

    @Test
    void fourQueuePairsWithRssOneThreadEach() throws Exception {
        try (SoftLoopback lb = new SoftLoopback(4)) {
            TrafficMix mix = new TrafficMix(64);
            long[] errors = new long[2];
            WireCheck check = lb.run(mix, 20_000, false, errors);
            assertEquals(0, check.corrupt(), check.firstProblem());
            assertEquals(0, check.duplicate());
            assertEquals(0, check.lost());
            assertEquals(0, errors[0]);
            var stats = lb.eth.stats();
            assertEquals(check.expectedFrames(), stats.txVportUnicastPackets());
            assertEquals(check.expectedFrames(), stats.rxVportUnicastPackets());
            assertEquals(0, stats.rxOutOfBuffer());
        }
    }

    /**
     * The soak: 4 queue pairs, one thread each, frames spread by RSS; nothing lost, duplicated or
     * corrupted, counters exact: the 10 million frames over the 4 queues, in every build (about
     * 8 s on 2 cores; {@code -Dprmkit.soak.frames=N} runs another count).
     */
    @Test
    void soakFourQueuesCountersExact() throws Exception {
        int frames = Integer.getInteger("prmkit.soak.frames", 10_000_000);
        try (SoftLoopback lb = new SoftLoopback(4)) {
            TrafficMix mix = new TrafficMix(64);
            long[] errors = new long[2];
            WireCheck check = lb.run(mix, frames, false, errors);
            assertEquals(frames + TrafficMix.MAX_WIRE_FRAMES - 1, check.expectedFrames(), "every id once, the LSO send as its segments");
            assertEquals(0, check.corrupt(), check.firstProblem());
            assertEquals(0, check.duplicate(), "duplicated");
            assertEquals(0, check.lost(), "lost");
            assertEquals(0, errors[0]);
            var stats = lb.eth.stats();
            assertEquals(check.expectedFrames(), stats.txVportUnicastPackets());
            assertEquals(check.expectedFrames(), stats.rxVportUnicastPackets());
            assertEquals(stats.txVportUnicastBytes(), stats.rxVportUnicastBytes());
            assertEquals(0, stats.rxOutOfBuffer());
            assertEquals(0, stats.rxErrors());
        }
    }
}

package io.prmkit.bench;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import org.junit.jupiter.api.Test;

/**
 * tx-burst's hand-written form ({@link HandTx}, raw stores) does the driver's work byte for byte:
 * after the same bursts (the last one reaping the completions of the ones before) its SQ ring, doorbell
 * record, BlueFlame page and CQ doorbell record hold what {@code TxQueue}'s hold, so the two timings
 * compare the same algorithm.
 */
class HandTxEquivalenceTest {
    private static byte[] bytes(MemorySegment s) {
        return s.toArray(ValueLayout.JAVA_BYTE);
    }

    @Test
    void theHandWrittenTxWritesWhatTheDriverWrites() {
        TxBurstBench b = new TxBurstBench();
        b.setup(new DpRings(true)); // every region at one bus address: the data segments' addresses compare
        try {
            for (int r = 0; r < 40; r++) { // past the ring's end (40 bursts of 32 in 1,024 WQEBBs)
                assertEquals(b.generated(), b.handWritten(), "burst " + r);
            }
            assertEquals(b.tx.producerCounter(), b.hand.producerCounter());
            assertArrayEquals(bytes(b.sq.ring().segment()), bytes(b.handSq.ring().segment()), "SQ ring");
            assertArrayEquals(bytes(b.sq.doorbellRecord()), bytes(b.handSq.doorbellRecord()), "WQ doorbell record");
            assertArrayEquals(bytes(b.sq.cq().doorbellRecord()), bytes(b.handSq.cq().doorbellRecord()), "CQ doorbell record");
            assertArrayEquals(bytes(((DpRings.Uar) b.sq.uar()).page), bytes(((DpRings.Uar) b.handSq.uar()).page), "BlueFlame stores");
            assertEquals(b.tx.packets(), b.hand.packets);
            assertEquals(b.tx.bytes(), b.hand.bytes);
        } finally {
            b.tearDown();
        }
    }
}

package io.prmkit.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The driver's datapath allocates nothing per packet: after a warm-up, a million packets through
 * TxQueue.send and as many through RxQueue.receive (the tx-burst and rx-burst loops, benchmark device
 * included) add 0 bytes to this thread's allocation counter.
 *
 * <p>The counter (HotSpot's per-thread allocated bytes, TLAB use included) counts every object the
 * thread allocates, whatever the heap size or collector, so the test does not depend on how much
 * interpreter and C1 garbage the warm-up leaves. The warm-up runs windows of 100,000 packets each way
 * until {@link #QUIET_WINDOWS} in a row allocated nothing (at most {@link #WARM_UP_WINDOWS} windows):
 * besides the interpreted and C1-compiled first rounds, the JDK allocates a few hundred bytes once or
 * twice a little later (JFR without TLABs shows them under the doorbell records' int setters: the
 * JDK's method-handle machinery behind {@code MemorySegment.set} generating code as the JIT tiers
 * change), not per packet. The measured run comes after that; as such a one-time allocation was once
 * seen inside it, it is made up to three times and one run must allocate nothing.
 */
@Tag("timing") // exactly 0 bytes depends on the JIT having settled (docs/testing.md)
class DatapathNoAllocTest {
    static final int WINDOW = 100_000;
    static final int WARM_UP_WINDOWS = 300;
    static final int QUIET_WINDOWS = 10;
    static final int MEASURED = 1_000_000;
    static final int MEASURED_TRIES = 3;

    @Test
    void aMillionPacketsEachWayAllocateNothingAfterWarmUp() {
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        assertTrue(threads.isThreadAllocatedMemorySupported() && threads.isThreadAllocatedMemoryEnabled(), "this JVM does not count allocated bytes per thread");
        TxBurstBench tx = new TxBurstBench();
        tx.setup();
        RxBurstBench rx = new RxBurstBench();
        rx.setup();
        try {
            // The counter itself: two reads in a row must differ by nothing, or the windows below would count it.
            long a = threads.getCurrentThreadAllocatedBytes();
            long b = threads.getCurrentThreadAllocatedBytes();
            assertEquals(a, b, "reading the allocation counter allocates");

            long lastBytes = -1;
            int windows = 0, quiet = 0;
            while (quiet < QUIET_WINDOWS && windows < WARM_UP_WINDOWS) {
                lastBytes = allocatedBy(threads, tx, rx, WINDOW);
                quiet = lastBytes == 0 ? quiet + 1 : 0;
                windows++;
            }
            assertEquals(QUIET_WINDOWS, quiet, "still allocating after " + windows + " warm-up windows of " + WINDOW
                    + " packets each way (the last one " + lastBytes + " bytes)");

            // The measured run: a million packets each way must allocate 0 bytes. A JIT tier change can still
            // land in it once (280 bytes seen, once in four runs on a loaded machine), so up to MEASURED_TRIES
            // runs are made and one of them must be clean; anything allocated per packet, or per burst, shows
            // in every run.
            long[] moved = new long[2];
            StringBuilder seen = new StringBuilder();
            long bytes = -1;
            for (int attempt = 0; attempt < MEASURED_TRIES && bytes != 0; attempt++) {
                long before = threads.getCurrentThreadAllocatedBytes();
                run(tx, rx, MEASURED, moved);
                bytes = threads.getCurrentThreadAllocatedBytes() - before;
                assertEquals(MEASURED, moved[0], "packets sent");
                assertEquals(MEASURED, moved[1], "packets received");
                seen.append(attempt == 0 ? "" : ", ").append(bytes);
            }
            assertEquals(0, bytes, "bytes allocated by each run of " + MEASURED + " packets each way: " + seen + " (after " + windows + " warm-up windows)");
        } finally {
            tx.tearDown();
            rx.tearDown();
        }
    }

    private static long allocatedBy(com.sun.management.ThreadMXBean threads, TxBurstBench tx, RxBurstBench rx, int packets) {
        long[] moved = new long[2];
        long before = threads.getCurrentThreadAllocatedBytes();
        run(tx, rx, packets, moved);
        return threads.getCurrentThreadAllocatedBytes() - before;
    }

    /** {@code packets} each way in bursts of 32; {sent, received} into {@code moved} (made before the window opens). */
    private static void run(TxBurstBench tx, RxBurstBench rx, int packets, long[] moved) {
        long sent = 0, received = 0;
        for (int i = 0; i < packets / DpRings.BURST; i++) {
            sent += tx.generated();
            received += rx.generated();
        }
        moved[0] = sent;
        moved[1] = received;
    }
}

package io.prmkit.demo;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * How long a cache line takes to go from one core to another and back, measured as two threads
 * bouncing a counter (each waits for the other's value, then writes the next). The loopback case
 * moves a few lines per frame between the driver's and the device's threads (the WQEs the driver
 * writes and the device reads, the CQEs going the other way), so its frame rate follows this
 * latency. On the 2-vCPU VMs here the host places the vCPUs near or far from each other, and the
 * round trip was either about 60 ns or about 330 ns from one second to the next (a C version of this
 * loop, 1 December 2026); the loopback ran 7-10 Mpps in the first state and a steady 2.6-2.8 Mpps in
 * the second, where the driver's two WQE lines per frame cost it about 370 ns. The bench prints the
 * round trip next to each loopback round so a reader can tell the two apart.
 */
public final class CoreToCore {
    /** The counter, alone on its cache line (eight longs either side). */
    private static final int AT = 8;
    private static final VarHandle SLOT = MethodHandles.arrayElementVarHandle(long[].class);

    private CoreToCore() {}

    /**
     * The mean time of one round trip over {@code trips} round trips, in nanoseconds. Runs a peer
     * thread for the length of the call (a few milliseconds for 20,000 trips); with two cores the
     * scheduler puts it and the caller on different ones.
     */
    public static double roundTripNanos(int trips) {
        if (trips < 1) throw new IllegalArgumentException("trips must be at least 1, got " + trips);
        long[] line = new long[2 * AT + 1];
        long last = 2L * trips;
        Thread peer = new Thread(() -> {
            // odd values are ours to answer: v -> v + 1
            for (long v = 1; v < last; v += 2) {
                while ((long) SLOT.getAcquire(line, AT) != v) {
                    // spin: a pause here would add its own latency to every trip
                }
                SLOT.setRelease(line, AT, v + 1);
            }
        }, "core-to-core-peer");
        peer.setDaemon(true);
        peer.start();
        // Let the peer reach its wait first, so its start-up is not timed.
        SLOT.setRelease(line, AT, 1L);
        while ((long) SLOT.getAcquire(line, AT) != 2L) {
            // the peer is starting
        }
        long start = System.nanoTime();
        for (long v = 3; v < last; v += 2) {
            SLOT.setRelease(line, AT, v);
            while ((long) SLOT.getAcquire(line, AT) != v + 1) {
                // spin, as the peer does
            }
        }
        long elapsed = System.nanoTime() - start;
        try {
            peer.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return trips > 1 ? (double) elapsed / (trips - 1) : 0;
    }
}

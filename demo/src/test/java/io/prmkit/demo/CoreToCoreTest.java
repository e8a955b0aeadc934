package io.prmkit.demo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

class CoreToCoreTest {
    @Tag("timing") // under 1 ms a trip needs two cores that are not busy elsewhere (docs/testing.md)
    @Test
    void aRoundTripTakesSomeTimeAndThePeerThreadEnds() {
        double ns = CoreToCore.roundTripNanos(10_000);
        // A cache line cannot cross cores and back in under a nanosecond; the upper bound only says the
        // two threads did not take turns on one core for every trip (a scheduler slice is milliseconds).
        assertTrue(ns > 1 && ns < 1_000_000, () -> "round trip " + ns + " ns");
        assertFalse(Thread.getAllStackTraces().keySet().stream().anyMatch(t -> t.getName().equals("core-to-core-peer") && t.isAlive()),
                "the peer thread outlived the measurement");
    }

    @Test
    void oneTripTimesNothingAndZeroTripsIsRefused() {
        assertEquals(0, CoreToCore.roundTripNanos(1));
        assertThrows(IllegalArgumentException.class, () -> CoreToCore.roundTripNanos(0));
    }
}

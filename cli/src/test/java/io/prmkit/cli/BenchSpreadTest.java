package io.prmkit.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** The bench summary: medians over rounds with their range, ratios taken within each round. */
class BenchSpreadTest {
    @Test
    void medianAndRangeOfOddAndEvenCounts() {
        assertEquals(new BenchCommand.Spread(3, 1, 9), BenchCommand.Spread.of(new double[] {9, 1, 3, 2, 4}));
        assertEquals(new BenchCommand.Spread(2.5, 1, 9), BenchCommand.Spread.of(new double[] {9, 1, 3, 2}));
        assertEquals("3.00 (1.00..9.00)", BenchCommand.Spread.of(new double[] {9, 1, 3, 2, 4}).toString());
    }

    @Test
    void ratiosArePerRoundNotRatiosOfMedians() {
        // A slow round slows both forms: per-round ratios stay 1.1, the ratio of medians would not.
        double[][] rounds = {{1.1, 0, 1.0}, {2.2, 0, 2.0}, {5.5, 0, 5.0}, {1.21, 0, 1.1}, {3.3, 0, 3.0}};
        BenchCommand.Spread r = BenchCommand.Spread.ratio(rounds, 0, 2);
        assertEquals(1.1, r.median(), 1e-9);
        assertEquals(1.1, r.min(), 1e-9);
        assertEquals(1.1, r.max(), 1e-9);
    }

    @Test
    void roundsBelowOneAreAUsageError() {
        assertEquals(2, PrmkitCliTest.run("bench", "--rounds", "0").exitCode());
    }
}

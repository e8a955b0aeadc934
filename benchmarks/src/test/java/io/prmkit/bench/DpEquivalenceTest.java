package io.prmkit.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.prmkit.dsl.Child;
import io.prmkit.dsl.HostTools;
import java.io.IOException;
import java.io.InputStream;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * tx-burst and rx-burst compare the driver with dp_bench.c only if both do the same work: after three
 * rounds each, the SQ ring and its doorbell record, the received packets' metadata, and the RQ ring and
 * both RX doorbell records must hash the same (FNV-1a 64).
 */
class DpEquivalenceTest {
    private static final long FNV0 = 0xcbf29ce484222325L;

    private static long fnv(MemorySegment s, long off, long n, long h) {
        for (long i = 0; i < n; i++) h = (h ^ (s.get(ValueLayout.JAVA_BYTE, off + i) & 0xff)) * 0x100000001b3L;
        return h;
    }

    private static long fnvInt(int v, long h) {
        for (int i = 0; i < 4; i++) h = (h ^ ((v >>> (8 * i)) & 0xff)) * 0x100000001b3L; // little-endian, as C's int array
        return h;
    }

    @Test
    void theDriverAndTheCReferenceWriteTheSameBytes(@TempDir Path dir) throws IOException, InterruptedException {
        Path source = dir.resolve("dp_bench.c");
        try (InputStream in = getClass().getResourceAsStream("/io/prmkit/bench/dp_bench.c")) {
            Files.copy(in, source);
        }
        Path bin = dir.resolve("dp_bench");
        Child.Result cc = Child.run(new ProcessBuilder(HostTools.gcc(), "-O2", "-DDP_BENCH_SELFTEST", "-o", bin.toString(), source.toString())
                .redirectErrorStream(true), Duration.ofMinutes(2));
        assertEquals(0, cc.exit(), "gcc failed on dp_bench.c: " + cc.stdout());
        Child.Result run = Child.run(new ProcessBuilder(bin.toString(), "selftest").redirectErrorStream(true), Duration.ofMinutes(2));
        String out = run.stdout().trim();
        assertEquals(0, run.exit(), out);

        TxBurstBench tx = new TxBurstBench();
        tx.setup(new DpRings(true));
        for (int r = 0; r < 3; r++) tx.generated();
        MemorySegment sq = tx.sq.ring().segment();
        long t = fnv(sq, 0, sq.byteSize(), FNV0);
        t = fnv(tx.sq.doorbellRecord(), 4, 4, t);
        tx.tearDown();

        RxBurstBench rx = new RxBurstBench();
        rx.setup(new DpRings(true));
        long meta = FNV0;
        for (int r = 0; r < 3; r++) {
            // generated() frees the buffers after receiving: hash their metadata first, through a copy of the loop
            int[] seen = new int[DpRings.BURST];
            int n = rx.receiveOnly(seen);
            for (int i = 0; i < n; i++) {
                int h = seen[i];
                meta = fnvInt(rx.pool.rssHash(h), fnvInt(rx.pool.flags(h), fnvInt(rx.pool.length(h), fnvInt(h, meta))));
                rx.pool.free(h);
            }
        }
        MemorySegment rq = rx.rq.ring().segment();
        long q = fnv(rq, 0, rq.byteSize(), FNV0);
        q = fnv(rx.rq.doorbellRecord(), 0, 4, q);
        q = fnv(rx.rq.cq().doorbellRecord(), 0, 4, q);
        rx.tearDown();

        assertEquals(String.format(Locale.ROOT, "selftest %016x %016x %016x", t, meta, q), out);
    }

    /**
     * The selftest reads every metadata array, the timed build does not: gcc -O2 once deleted the arrays
     * only the selftest reads (and with them most of rx_receive's decode), so C timed less work than Java.
     * The build {@code prmkit bench} makes must keep every array the decode writes: they hang off global
     * queue and pool structs.
     */
    @Test
    void theTimedCBuildKeepsEveryMetadataArrayTheDecodeWrites(@TempDir Path dir) throws IOException, InterruptedException {
        Path source = dir.resolve("dp_bench.c");
        try (InputStream in = getClass().getResourceAsStream("/io/prmkit/bench/dp_bench.c")) {
            Files.copy(in, source);
        }
        Path bin = dir.resolve("dp_bench");
        Child.Result cc = Child.run(new ProcessBuilder(HostTools.gcc(), "-O2", "-o", bin.toString(), source.toString()).redirectErrorStream(true),
                Duration.ofMinutes(2));
        assertEquals(0, cc.exit(), "gcc failed on dp_bench.c: " + cc.stdout());
        // nm comes with gcc (binutils)
        Child.Result nm = Child.run(new ProcessBuilder("nm", bin.toString()).redirectErrorStream(true), Duration.ofMinutes(1));
        String symbols = nm.stdout();
        assertEquals(0, nm.exit(), symbols);
        // The metadata array is reached through dp_pool (and the rings through the queues): global
        // symbols, so every store into them is observable and gcc must keep it.
        for (String global : List.of("dp_pool", "dp_rxq", "dp_txq"))
            assertTrue(symbols.lines().anyMatch(l -> l.endsWith(" " + global)), global + " is gone from the timed build:\n" + symbols);
    }
}

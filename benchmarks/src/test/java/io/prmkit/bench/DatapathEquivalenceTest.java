package io.prmkit.bench;

import io.prmkit.dsl.Child;
import io.prmkit.dsl.HostTools;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.io.IOException;
import java.io.InputStream;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The three benchmarked versions must do the same work, byte for byte, or the ratios mean nothing. */
class DatapathEquivalenceTest {

    @Test
    void generatedAndHandWrittenWqesAreIdentical() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment headers = Datapath.headers(arena);
            MemorySegment a = Datapath.ring(arena);
            MemorySegment b = Datapath.ring(arena);
            a.fill((byte) 0x5a); // stale ring contents must be overwritten completely by both
            b.fill((byte) 0x5a);
            HandWritten.buildRing(a, headers, 7);
            Generated.buildRing(b, headers, 7);
            assertEquals(-1L, a.mismatch(b), "first differing byte");
            assertNotEquals(0, a.get(ValueLayout.JAVA_BYTE, 3), "opcode written");
        }
    }

    @Test
    void generatedAndHandWrittenCqeParsingAgree() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment cqes = Datapath.cqes(arena);
            assertEquals(HandWritten.parseRing(cqes), Generated.parseRing(cqes));
        }
    }

    /** The C reference parses the same CQE bytes to the same checksum (its first measured pass). */
    @Test
    void cReferenceParsesTheSameRing(@TempDir Path dir) throws IOException, InterruptedException {
        Path source = dir.resolve("prm_bench.c");
        try (InputStream in = getClass().getResourceAsStream("/io/prmkit/bench/prm_bench.c")) {
            Files.copy(in, source);
        }
        Path bin = dir.resolve("prm_bench");
        Child.Result cc = Child.run(new ProcessBuilder(HostTools.gcc(), "-O2", "-DPRM_BENCH_SELFTEST", "-o", bin.toString(), source.toString())
                .redirectErrorStream(true), Duration.ofMinutes(2));
        assertEquals(0, cc.exit(), "gcc failed on prm_bench.c: " + cc.stdout());
        Child.Result run = Child.run(new ProcessBuilder(bin.toString(), "selftest", "0").redirectErrorStream(true), Duration.ofMinutes(2));
        String out = run.stdout().trim();
        assertEquals(0, run.exit(), out);
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment cqes = Datapath.cqes(arena);
            long javaSum = Generated.parseRing(cqes);
            MemorySegment ring = Datapath.ring(arena);
            Generated.buildRing(ring, Datapath.headers(arena), 0);
            long wqeSum = 0;
            for (long i = 0; i < ring.byteSize(); i++) wqeSum += ring.get(ValueLayout.JAVA_BYTE, i) & 0xff;
            assertEquals("selftest " + Long.toUnsignedString(javaSum) + " " + wqeSum, out);
        }
    }
}

package io.prmkit.bench;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * The shared workload of the datapath benchmarks, mirrored by {@code prm_bench.c}: a ring of 1,024
 * 64-byte WQE basic blocks, 18-byte inline L2 headers, and (for CQE parsing) a ring of 1,024 CQEs
 * filled with the same pseudo-random bytes as the C program uses.
 */
final class Datapath {
    static final int RING = 1024;
    static final int WQEBB = 64;
    static final int INLINE_HDR = 18;
    static final int QPN = 0x1234;
    static final int LKEY = 0xabcd;
    static final long ADDR = 0x1_0000_0000L;
    static final int LEN = 1500;

    /** Send WQE opcode SEND, CQ update on every WQE, L3+L4 checksum offload (mlx5dv.h values). */
    static final int OPCODE_SEND = 0x0a;
    static final int CE_CQ_UPDATE = 2;
    static final int CS_L3_L4 = (1 << 6) | (1 << 7);

    private Datapath() {}

    /**
     * Rings and headers live in a shared arena, like DMA memory that a device and several threads use.
     * (A confined arena measured about 3x slower here: C2 re-checks the owning thread after every store
     * that may alias, and cannot hoist the check out of the loop.)
     */
    static Arena arena() {
        return Arena.ofShared();
    }

    static MemorySegment ring(Arena arena) {
        return arena.allocate((long) RING * WQEBB, 64);
    }

    /** Header i is 18 bytes at offset i * 18, with byte j = i + j (as in the C program). */
    static MemorySegment headers(Arena arena) {
        MemorySegment h = arena.allocate((long) RING * INLINE_HDR, 64);
        for (int i = 0; i < RING; i++) {
            for (int j = 0; j < INLINE_HDR; j++) {
                h.set(ValueLayout.JAVA_BYTE, (long) i * INLINE_HDR + j, (byte) (i + j));
            }
        }
        return h;
    }

    /** CQE ring bytes from the same linear congruential generator as prm_bench.c's fill_cqes. */
    static MemorySegment cqes(Arena arena) {
        MemorySegment r = ring(arena);
        int x = 12345;
        for (long i = 0; i < r.byteSize(); i++) {
            x = x * 1103515245 + 12345;
            r.set(ValueLayout.JAVA_BYTE, i, (byte) (x >>> 16));
        }
        return r;
    }
}

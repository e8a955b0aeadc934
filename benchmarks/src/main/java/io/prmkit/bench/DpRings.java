package io.prmkit.bench;

import io.prmkit.driver.dp.PacketPool;
import io.prmkit.driver.eth.CqResources;
import io.prmkit.driver.eth.RqResources;
import io.prmkit.driver.eth.SqResources;
import io.prmkit.mlx5.Cqe64;
import io.prmkit.mlx5.CqeOpcode;
import io.prmkit.mlx5.InlineMode;
import io.prmkit.platform.DmaMemory;
import io.prmkit.platform.DmaRegion;
import io.prmkit.platform.Mmio;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * The rings of the tx-burst and rx-burst benchmarks, mirrored by {@code dp_bench.c}: host memory
 * whose bus address is its native address, a UAR that is a plain 8-byte store, an SQ and an RQ of
 * 1,024 entries with CQs of 1,024, a pool of 4,096 2-KiB buffers holding 64-byte UDP frames.
 */
final class DpRings implements DmaMemory, AutoCloseable {
    static final int LOG_RING = 10;
    static final int BURST = 32;
    static final int FRAME = 64;
    static final int LKEY = 0x1100;

    final Arena arena = Arena.ofShared();
    private final boolean fixedBus;
    long allocated;

    DpRings() {
        this(false);
    }

    /** {@code fixedBus}: every region at bus address 0x100000000, as dp_bench.c's selftest has it (for comparing ring bytes). */
    DpRings(boolean fixedBus) {
        this.fixedBus = fixedBus;
    }

    @Override
    public DmaRegion allocate(long size, long alignment) {
        MemorySegment s = arena.allocate(size, alignment);
        allocated += size;
        return new DmaRegion() {
            @Override
            public MemorySegment segment() {
                return s;
            }

            @Override
            public long busAddress() {
                return fixedBus ? 0x1_0000_0000L : s.address();
            }

            @Override
            public void close() {}
        };
    }

    @Override
    public long allocatedBytes() {
        return allocated;
    }

    /** A UAR page in plain memory: the doorbell is one 8-byte store, as in the C reference. */
    static final class Uar implements Mmio {
        final MemorySegment page;

        Uar(Arena arena) {
            page = arena.allocate(4096, 4096);
        }

        @Override
        public long size() {
            return 4096;
        }

        @Override
        public int read32(long offset) {
            return page.get(ValueLayout.JAVA_INT_UNALIGNED, offset);
        }

        @Override
        public long read64(long offset) {
            return page.get(ValueLayout.JAVA_LONG_UNALIGNED, offset);
        }

        @Override
        public void write32(long offset, int value) {
            page.set(ValueLayout.JAVA_INT_UNALIGNED, offset, value);
        }

        @Override
        public void write64(long offset, long value) {
            page.set(ValueLayout.JAVA_LONG_UNALIGNED, offset, value);
        }
    }

    CqResources cq(int cqn) {
        DmaRegion ring = allocate(Cqe64.SIZE << LOG_RING, 4096);
        for (int i = 0; i < 1 << LOG_RING; i++) Cqe64.Device.writer(ring.segment(), i * Cqe64.SIZE).opcode(CqeOpcode.INVALID).owner(true).write();
        return new CqResources(ring, LOG_RING, cqn, allocate(64, 64).segment());
    }

    SqResources sq(Uar uar) {
        return new SqResources(allocate(64L << LOG_RING, 4096), LOG_RING, 0x42, allocate(64, 64).segment(), uar, 0x800, 0x100,
                cq(0x80), InlineMode.L2, (sqn, from, to) -> {});
    }

    RqResources rq() {
        return new RqResources(allocate(16L << LOG_RING, 4096), LOG_RING, 0x55, allocate(64, 64).segment(), cq(0x81));
    }

    /** 4,096 buffers, each holding 64 bytes {@code (h + i) & 0xff} (as in dp_bench.c; the L2 inline path does not parse them). */
    PacketPool pool() {
        PacketPool p = new PacketPool(this, 4096, 2048, LKEY);
        for (int h = 0; h < p.capacity(); h++) {
            for (int i = 0; i < FRAME; i++) p.memory().set(ValueLayout.JAVA_BYTE, p.offset(h) + i, (byte) (h + i));
        }
        return p;
    }

    @Override
    public void close() {
        arena.close();
    }
}

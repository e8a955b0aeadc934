package io.prmkit.driver.res;

import io.prmkit.platform.DmaMemory;
import io.prmkit.platform.DmaRegion;
import java.lang.foreign.MemorySegment;
import java.util.function.Function;

/**
 * A queue's host memory: its ring in whole 4 KiB pages and its doorbell record (64 bytes, a cache
 * line of its own), allocated together and unmapped together once the device no longer uses them.
 * CQs, SQs and RQs all have this pair.
 */
final class QueueMemory implements AutoCloseable {

    static final long PAGE = 4096;

    private final DmaRegion ring;
    private final DmaRegion doorbell;

    private QueueMemory(DmaRegion ring, DmaRegion doorbell) {
        this.ring = ring;
        this.doorbell = doorbell;
    }

    /** A ring of at least {@code ringBytes} (rounded up to whole pages) and a doorbell record. */
    static QueueMemory allocate(DmaMemory dma, long ringBytes) {
        DmaRegion ring = dma.allocate(pages(ringBytes) * PAGE, PAGE);
        try {
            return new QueueMemory(ring, dma.allocate(64, 64));
        } catch (RuntimeException e) {
            ring.close();
            throw e;
        }
    }

    static long pages(long bytes) {
        return (bytes + PAGE - 1) / PAGE;
    }

    /**
     * Creates the object that will own this memory with {@code create} (its CREATE command); when
     * the command fails the memory is unmapped at once, as the device never saw it.
     */
    <T> T createOwner(Function<QueueMemory, T> create) {
        try {
            return create.apply(this);
        } catch (RuntimeException e) {
            close();
            throw e;
        }
    }

    DmaRegion ring() {
        return ring;
    }

    DmaRegion doorbell() {
        return doorbell;
    }

    /** The first {@code bytes} of the doorbell record's line: the record the device reads. */
    MemorySegment doorbellRecord(long bytes) {
        return doorbell.segment().asSlice(0, bytes);
    }

    @Override
    public void close() {
        try {
            ring.close();
        } finally {
            doorbell.close();
        }
    }
}

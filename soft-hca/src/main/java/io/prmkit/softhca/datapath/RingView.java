package io.prmkit.softhca.datapath;

import io.prmkit.softhca.device.Iommu;
import io.prmkit.softhca.device.Queues;
import java.lang.foreign.MemorySegment;

/**
 * A queue's ring as the device reads it: one host segment when its pages are contiguous in bus
 * space (resolved once through the IOMMU, so the datapath reads entries through slices of it), or
 * page by page through the IOMMU otherwise.
 */
final class RingView {
    private final Queues.Ring ring;
    private final Iommu iommu;
    private final long bytes;
    /** The whole ring, or null when its pages are scattered (or not all mapped). */
    final MemorySegment whole;

    RingView(Queues.Ring ring, long bytes, Iommu iommu) {
        this.ring = ring;
        this.iommu = iommu;
        this.bytes = bytes;
        this.whole = contiguous(ring, bytes) ? iommu.slice(ring.busAddress(0), bytes) : null;
    }

    private static boolean contiguous(Queues.Ring ring, long bytes) {
        long first = ring.busAddress(0);
        if (first < 0) return false;
        for (long off = 0; off < bytes; off += ring.pageSize()) {
            long page = off == 0 ? 0 : off - ((off + ring.pageOffset()) % ring.pageSize());
            if (ring.busAddress(page) != first + page) return false;
        }
        return ring.busAddress(bytes - 1) == first + bytes - 1;
    }

    long bytes() {
        return bytes;
    }

    /**
     * The {@code len} bytes at ring offset {@code off} (not crossing a page or the ring end), or null
     * on a DMA fault.
     */
    private MemorySegment slice(long off, long len) {
        if (whole != null) return whole.asSlice(off, len);
        long bus = ring.busAddress(off);
        return bus < 0 ? null : iommu.slice(bus, len);
    }

    /**
     * The segment holding the {@code len} bytes at ring offset {@code off}, to be read at
     * {@link #offsetIn(long) offsetIn(off)}: the whole ring when it is contiguous (no object made, so the
     * per-frame path allocates nothing), else a slice of the page; null on a DMA fault.
     */
    MemorySegment segment(long off, long len) {
        return whole != null ? whole : slice(off, len);
    }

    /** Where ring offset {@code off} is inside the segment {@link #segment} returned for it. */
    long offsetIn(long off) {
        return whole != null ? off : 0;
    }

    /**
     * Copies {@code len} bytes starting at ring offset {@code off}, wrapping at the ring end, into
     * {@code dst} in 64-byte blocks; false on a DMA fault.
     */
    boolean copyWrapped(long off, int len, MemorySegment dst) {
        for (int done = 0; done < len; done += 64) {
            long o = (off + done) % bytes;
            MemorySegment s = segment(o, 64);
            if (s == null) return false;
            try {
                MemorySegment.copy(s, offsetIn(o), dst, done, 64);
            } catch (IllegalStateException e) {
                return false;
            }
        }
        return true;
    }
}

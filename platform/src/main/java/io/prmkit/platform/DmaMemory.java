package io.prmkit.platform;

/**
 * Pinned host memory that the device reads and writes by bus address. The device may touch only
 * what is allocated here and not yet closed: everything else is a DMA fault on its side.
 */
public interface DmaMemory {

    /**
     * Allocates {@code size} zeroed bytes aligned to {@code alignment} (a power of two, at least 8;
     * 4096 for anything the PRM addresses by page), mapped for the device.
     *
     * @throws DmaException when the memory or the IOMMU space is exhausted
     */
    DmaRegion allocate(long size, long alignment);

    /** Bytes currently allocated and mapped (for leak checks). */
    long allocatedBytes();
}

package io.prmkit.platform;

/**
 * A memory-mapped BAR. Device registers are big-endian: {@link #read32} returns the four bytes at
 * {@code offset} as a big-endian {@code int} (the PRM's dword value, like the kernel's
 * {@code ioread32be}), and {@link #write64} stores the eight bytes of {@code value} most significant
 * first (the way the kernel copies the first 8 bytes of a WQE to a UAR doorbell). Offsets must be
 * naturally aligned and inside {@link #size()}.
 *
 * <p>Each call is one bus transaction: a store is posted in program order with respect to earlier
 * stores of the calling thread to DMA memory only if the caller fenced before it (the driver owns
 * its memory ordering). A 64-bit store is never split.
 */
public interface Mmio {

    /** Size of the window in bytes. */
    long size();

    int read32(long offset);

    long read64(long offset);

    void write32(long offset, int value);

    void write64(long offset, long value);
}

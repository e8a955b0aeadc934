package io.prmkit.softhca.device;

/** A device access to bus memory that no mapping covers (already counted by the {@link Iommu}). */
public final class DmaFault extends RuntimeException {
    public final long busAddress;
    public final long length;

    public DmaFault(long busAddress, long length) {
        super("DMA fault: " + length + " bytes at bus address 0x" + Long.toHexString(busAddress) + " are not mapped", null, false, false);
        this.busAddress = busAddress;
        this.length = length;
    }
}

package io.prmkit.platform.vfio;

/**
 * A PCI function could not be opened or used through VFIO. The message is one sentence that says
 * what is wrong and what to do about it (bind the function to vfio-pci, enable the IOMMU, fix the
 * permissions of /dev/vfio/N, ...); it is meant to be shown as it is, without a stack trace.
 */
public final class VfioException extends RuntimeException {
    public VfioException(String message) {
        super(message);
    }
}

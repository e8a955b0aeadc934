package io.prmkit.platform;

/**
 * One PCI function as a driver sees it: BAR 0, DMA memory and MSI-X vectors. Closing it releases
 * whatever the back end holds (for soft-hca: stops the device; for VFIO: the device fd and the
 * IOMMU mappings); the driver closes its own objects first.
 */
public interface PciFunction extends AutoCloseable {

    /** A name for messages: a PCI address ({@code 0000:03:00.0}) or {@code soft-hca:0}. */
    String name();

    /** BAR 0: for mlx5 the initialization segment at offset 0 and the UAR pages after it. */
    Mmio bar0();

    /** Host memory the device can reach by bus address. */
    DmaMemory dma();

    /** The function's MSI-X vectors. */
    Interrupts interrupts();

    @Override
    void close();
}

/**
 * The boundary between host and device, and nothing else: what a driver needs from one PCI function.
 *
 * <ul>
 *   <li>{@link Mmio}: a BAR as the CPU sees it (BAR 0 of an mlx5 function holds the initialization
 *       segment and the UAR pages): 32- and 64-bit loads and stores of big-endian device registers.
 *   <li>{@link DmaMemory}: pinned, aligned host memory that the device reaches by bus address (an
 *       IOVA behind the IOMMU), handed out as {@link DmaRegion}s.
 *   <li>{@link Interrupts}: one handler per MSI-X vector (the driver binds EQs to vectors).
 * </ul>
 *
 * <p>{@code soft-hca} implements it with a device model; a VFIO back end will implement it with a
 * mapped BAR, an IOMMU container and eventfds. Neither the driver nor a device model sees anything of
 * the other beyond these types. Depends on {@code java.base} only.
 */
package io.prmkit.platform;

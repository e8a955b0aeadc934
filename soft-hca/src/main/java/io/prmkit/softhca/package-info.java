/**
 * soft-hca: an embedded ConnectX (mlx5) device model. It implements {@code io.prmkit.platform}: the
 * driver sees BAR 0, DMA memory by bus address and MSI-X vectors, exactly as with a real function,
 * and the device reads and writes host memory only through its IOMMU table of mapped regions.
 * Every PRM byte it reads or writes goes through the generated accessors of {@code io.prmkit.mlx5}.
 */
package io.prmkit.softhca;

package io.prmkit.driver.core;

import io.prmkit.platform.DmaMemory;

/**
 * DMA memory the device reaches through one registered umem (DEVX: {@code mlx5dv_devx_umem_reg})
 * rather than by bus address: PRM contexts name a ring or doorbell record by {@link #umemId()} and
 * its byte offset in the umem ({@code cq_umem_id}/{@code cq_umem_offset}, {@code wq_umem_id},
 * {@code dbr_umem_id} with {@code dbr_addr} as the offset, the {@code *_umem_valid} bits), and packet
 * buffers through an mkey over the umem whose addresses are the regions' {@code busAddress()}es.
 */
public interface UmemMemory extends DmaMemory {

    /** The umem's id. */
    int umemId();

    /** The device address of the umem's first byte (the start of an mkey over it). */
    long base();

    /** The umem's size in bytes. */
    long size();

    /** The byte offset in the umem of {@code busAddress} (a region's {@code busAddress(...)}). */
    default long umemOffset(long busAddress) {
        long off = busAddress - base();
        if (off < 0 || off >= size())
            throw new IllegalArgumentException("address 0x" + Long.toHexString(busAddress) + " is outside umem " + umemId());
        return off;
    }
}

package io.prmkit.platform.devx;

import static io.prmkit.platform.devx.RdmaCore.CAPTURE;
import static io.prmkit.platform.devx.RdmaCore.fn;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * Memory registered with {@code mlx5dv_devx_umem_reg}: PRM contexts reach it by {@link #id()} and a
 * byte offset ({@code cq_umem_id}, {@code wq_umem_id}, {@code dbr_umem_id}, {@code mkey_umem_id}).
 * {@link #close()} deregisters it ({@code mlx5dv_devx_umem_dereg}); the memory stays the caller's.
 */
public final class DevxUmem implements AutoCloseable {
    private final MemorySegment handle;
    private final int id;
    private final MemorySegment memory;
    private boolean closed;

    DevxUmem(MemorySegment handle, int id, MemorySegment memory) {
        this.handle = handle;
        this.id = id;
        this.memory = memory;
    }

    /** The umem's id ({@code struct mlx5dv_devx_umem.umem_id}). */
    public int id() {
        return id;
    }

    /** The registered memory. */
    public MemorySegment memory() {
        return memory;
    }

    /** Deregisters the umem; refused (the umem stays) while a device object still uses it. */
    @Override
    public synchronized void close() {
        if (closed) return;
        try (Arena a = Arena.ofConfined()) {
            MemorySegment st = a.allocate(CAPTURE);
            int r = (int) fn("mlx5dv_devx_umem_dereg").invokeExact(st, handle);
            if (r != 0) {
                int errno = r > 0 ? r : RdmaCore.errno(st);
                throw new DevxException(RdmaCore.failure("mlx5dv_devx_umem_dereg(umem " + id + ")", errno), errno);
            }
            closed = true;
        } catch (Throwable t) {
            throw RdmaCore.rethrow(t);
        }
    }
}

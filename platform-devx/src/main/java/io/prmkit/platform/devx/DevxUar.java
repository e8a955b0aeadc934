package io.prmkit.platform.devx;

import static io.prmkit.platform.devx.RdmaCore.CAPTURE;
import static io.prmkit.platform.devx.RdmaCore.fn;

import io.prmkit.platform.Mmio;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * A UAR page from {@code mlx5dv_devx_alloc_uar}, mapped into the process: {@link #pageId()} goes into
 * PRM {@code uar_page} fields; doorbells are stores to {@link #page()} (big-endian, as every
 * {@link Mmio}) at {@link #doorbellOffset()} ({@code reg_addr} less {@code base_addr}), where
 * rdma-core says the page's doorbell (BlueFlame) register is.
 */
public final class DevxUar implements AutoCloseable {
    /** A UAR page is 4 KiB. */
    public static final long PAGE = 4096;

    private final MemorySegment handle;
    private final int pageId;
    private final Mmio page;
    private final long doorbellOffset;
    private boolean closed;

    DevxUar(MemorySegment handle, int pageId, Mmio page, long doorbellOffset) {
        this.handle = handle;
        this.pageId = pageId;
        this.page = page;
        this.doorbellOffset = doorbellOffset;
    }

    public int pageId() {
        return pageId;
    }

    /** The 4 KiB page as device registers. */
    public Mmio page() {
        return page;
    }

    /** Offset in {@link #page()} of the doorbell register rdma-core handed out. */
    public long doorbellOffset() {
        return doorbellOffset;
    }

    /** {@code mlx5dv_devx_free_uar}. */
    @Override
    public synchronized void close() {
        if (closed) return;
        closed = true;
        try (Arena a = Arena.ofConfined()) {
            fn("mlx5dv_devx_free_uar").invokeExact(a.allocate(CAPTURE), handle);
        } catch (Throwable t) {
            throw RdmaCore.rethrow(t);
        }
    }
}

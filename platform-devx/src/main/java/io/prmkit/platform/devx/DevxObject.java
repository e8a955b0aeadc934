package io.prmkit.platform.devx;

import static io.prmkit.platform.devx.RdmaCore.CAPTURE;
import static io.prmkit.platform.devx.RdmaCore.fn;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * A device object created through {@code mlx5dv_devx_obj_create} ({@code struct mlx5dv_devx_obj}):
 * modify and query commands on it go through the handle (the kernel checks they name this object),
 * and {@link #destroy} runs the destroy command rdma-core built from the create command.
 */
public final class DevxObject {
    private final MemorySegment obj;
    private final DevxContext context;
    private boolean destroyed;

    DevxObject(MemorySegment obj, DevxContext context) {
        this.obj = obj;
        this.context = context;
    }

    /** {@code mlx5dv_devx_obj_modify}. */
    public void modify(MemorySegment in, MemorySegment out) {
        check();
        DevxContext.command("mlx5dv_devx_obj_modify", obj, in, out);
    }

    /** {@code mlx5dv_devx_obj_query}. */
    public void query(MemorySegment in, MemorySegment out) {
        check();
        DevxContext.command("mlx5dv_devx_obj_query", obj, in, out);
    }

    /** {@code mlx5dv_devx_obj_destroy}; after a failure the object is still there and may be destroyed again. */
    public synchronized void destroy() {
        check();
        try (Arena a = Arena.ofConfined()) {
            MemorySegment st = a.allocate(CAPTURE);
            int r = (int) fn("mlx5dv_devx_obj_destroy").invokeExact(st, obj);
            if (r != 0) {
                int errno = r > 0 ? r : RdmaCore.errno(st);
                throw new DevxException(RdmaCore.failure("mlx5dv_devx_obj_destroy", errno), errno);
            }
            destroyed = true;
        } catch (Throwable t) {
            throw RdmaCore.rethrow(t);
        }
    }

    private void check() {
        if (destroyed) throw new IllegalStateException("the DEVX object is destroyed");
    }

    public DevxContext context() {
        return context;
    }

    /** The {@code struct mlx5dv_devx_obj *} (a flow rule's destination). */
    MemorySegment handle() {
        check();
        return obj;
    }
}

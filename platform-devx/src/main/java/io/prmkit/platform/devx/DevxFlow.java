package io.prmkit.platform.devx;

import static io.prmkit.platform.devx.RdmaCore.CAPTURE;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;

/** A steering rule made by {@code mlx5dv_create_flow} ({@code struct ibv_flow}); {@link #close} is {@code ibv_destroy_flow}. */
public final class DevxFlow implements AutoCloseable {
    private final MemorySegment flow;
    private final MethodHandle destroy;
    private boolean closed;

    DevxFlow(MemorySegment flow, MethodHandle destroy) {
        this.flow = flow;
        this.destroy = destroy;
    }

    @Override
    public void close() {
        if (closed) return;
        try (Arena a = Arena.ofConfined()) {
            MemorySegment st = a.allocate(CAPTURE);
            int r = (int) destroy.invokeExact(st, flow);
            if (r != 0) {
                int errno = r > 0 ? r : RdmaCore.errno(st);
                throw new DevxException(RdmaCore.failure("ibv_destroy_flow", errno), errno);
            }
            closed = true;
        } catch (Throwable t) {
            throw RdmaCore.rethrow(t);
        }
    }
}

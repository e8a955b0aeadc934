package io.prmkit.platform.devx;

import static io.prmkit.platform.devx.RdmaCore.CAPTURE;
import static io.prmkit.platform.devx.RdmaCore.fn;

import io.prmkit.devx.IbvContext;
import io.prmkit.devx.IbvFlow;
import io.prmkit.devx.Mlx5dvFlowActionAttr;
import io.prmkit.devx.Mlx5dvFlowMatchParameters;
import io.prmkit.devx.PrmConstants;
import io.prmkit.devx.VerbsContext;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.nio.ByteOrder;

/**
 * A flow matcher in the kernel's NIC receive steering ({@code mlx5dv_create_flow_matcher}): a mask
 * over the device's match parameters ({@code fte_match_param}, with its {@code
 * match_criteria_enable}) at a priority, under which {@link #forwardTo} places rules
 * ({@code mlx5dv_create_flow}) whose matching packets go to a DEVX object (a TIR). This is how a DEVX
 * application receives on a card the kernel keeps, whose root NIC RX table (SET_FLOW_TABLE_ROOT) is
 * the kernel's: DPDK's mlx5 PMD steers to its DEVX TIRs this way. The kernel's mlx5_ib puts such
 * rules in front of its own netdev's (its bypass namespace); rdma-core's mlx5_vfio has no kernel to
 * ask and refuses the call (there the PRM's own flow tables are the application's).
 */
public final class DevxFlowMatcher implements AutoCloseable {
    private static final ValueLayout.OfLong HOST_U64 = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private final MemorySegment matcher;
    private final DevxContext context;
    private boolean closed;

    DevxFlowMatcher(MemorySegment matcher, DevxContext context) {
        this.matcher = matcher;
        this.context = context;
    }

    /** An mlx5dv_flow_match_parameters holding {@code match} (fte_match_param bytes, a whole number of 8-byte words) in {@code a}. */
    static MemorySegment parameters(Arena a, MemorySegment match) {
        if (match.byteSize() % 8 != 0) throw new IllegalArgumentException("match parameters are 8-byte words, not " + match.byteSize() + " bytes");
        MemorySegment p = a.allocate(Mlx5dvFlowMatchParameters.SIZE + match.byteSize(), 8);
        p.set(HOST_U64, Mlx5dvFlowMatchParameters.match_sz$BYTE_OFFSET, match.byteSize());
        p.asSlice(Mlx5dvFlowMatchParameters.SIZE).copyFrom(match);
        return p;
    }

    /**
     * {@code mlx5dv_create_flow} with one action, {@code MLX5DV_FLOW_ACTION_DEST_DEVX}: packets whose
     * match parameters equal {@code value} under this matcher's mask go to {@code destination}.
     */
    public DevxFlow forwardTo(MemorySegment value, DevxObject destination) {
        check();
        try (Arena a = Arena.ofConfined()) {
            MemorySegment st = a.allocate(CAPTURE);
            MemorySegment action = a.allocate(Mlx5dvFlowActionAttr.SIZE, 8);
            Mlx5dvFlowActionAttr.type$set(action, (int) PrmConstants.MLX5DV_FLOW_ACTION_DEST_DEVX);
            action.set(ValueLayout.ADDRESS_UNALIGNED, Mlx5dvFlowActionAttr.obj$BYTE_OFFSET, destination.handle());
            MemorySegment flow = (MemorySegment) fn("mlx5dv_create_flow").invokeExact(st, matcher, parameters(a, value), 1L, action);
            if (flow.equals(MemorySegment.NULL)) {
                int errno = RdmaCore.errno(st);
                throw new DevxException(RdmaCore.failure("mlx5dv_create_flow (to a DEVX object)", errno), errno);
            }
            return new DevxFlow(flow.reinterpret(IbvFlow.SIZE), destroyFlowOp(context));
        } catch (Throwable t) {
            throw RdmaCore.rethrow(t);
        }
    }

    /**
     * verbs.h's {@code ibv_destroy_flow} is a static inline that calls the context's op; this does the
     * same: the ibv_context must be an extended one ({@code abi_compat} all ones), its verbs_context
     * must reach back to the op ({@code sz}), and the op must be set.
     */
    static MethodHandle destroyFlowOp(DevxContext context) {
        MemorySegment ctx = context.handle().reinterpret(IbvContext.SIZE);
        if (ctx.get(HOST_U64, IbvContext.abi_compat$BYTE_OFFSET) != -1L)
            throw new DevxException(context.name() + "'s ibv_context is not an extended one: ibv_destroy_flow has no op to call");
        long start = context.handle().address() - VerbsContext.context$BYTE_OFFSET;
        MemorySegment vctx = MemorySegment.ofAddress(start).reinterpret(VerbsContext.SIZE);
        long sz = vctx.get(HOST_U64, VerbsContext.sz$BYTE_OFFSET);
        MemorySegment op = vctx.get(ValueLayout.ADDRESS_UNALIGNED, VerbsContext.ibv_destroy_flow$BYTE_OFFSET);
        if (sz < VerbsContext.SIZE - VerbsContext.ibv_destroy_flow$BYTE_OFFSET || op.equals(MemorySegment.NULL))
            throw new DevxException(context.name() + "'s provider has no ibv_destroy_flow (verbs_context of " + sz + " bytes)");
        return RdmaCore.pointer(op, RdmaCore.DESTROY_FLOW);
    }

    /** {@code mlx5dv_destroy_flow_matcher} (its flows must be destroyed first). */
    @Override
    public void close() {
        if (closed) return;
        try (Arena a = Arena.ofConfined()) {
            MemorySegment st = a.allocate(CAPTURE);
            int r = (int) fn("mlx5dv_destroy_flow_matcher").invokeExact(st, matcher);
            if (r != 0) {
                int errno = r > 0 ? r : RdmaCore.errno(st);
                throw new DevxException(RdmaCore.failure("mlx5dv_destroy_flow_matcher", errno), errno);
            }
            closed = true;
        } catch (Throwable t) {
            throw RdmaCore.rethrow(t);
        }
    }

    private void check() {
        if (closed) throw new IllegalStateException("the flow matcher is destroyed");
    }
}

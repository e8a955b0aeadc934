package io.prmkit.driver.res;

import io.prmkit.driver.cmd.CommandTransport;
import io.prmkit.driver.core.DeviceObject;
import io.prmkit.mlx5.AllocQCounterOut;
import io.prmkit.mlx5.DeallocQCounterIn;
import io.prmkit.mlx5.QueryQCounterIn;
import io.prmkit.mlx5.QueryQCounterOut;
import io.prmkit.mlx5.PrmCommands;
import java.lang.foreign.MemorySegment;

/**
 * A Q counter set (PRM ALLOC_Q_COUNTER): RQs that name it in {@code rqc.counter_set_id} count
 * their drops there ({@code out_of_buffer}: a packet arrived and the RQ had no WQE).
 */
public final class QCounter extends DeviceObject {

    private QCounter(CommandTransport cmd, CommandTransport.ObjectHandle handle, int id) {
        super(cmd, handle, id);
    }

    public static QCounter allocate(CommandTransport cmd) {
        var in = PrmCommands.ALLOC_Q_COUNTER.input();
        var created = cmd.create(PrmCommands.ALLOC_Q_COUNTER, in);
        return new QCounter(cmd, created.handle(), AllocQCounterOut.counter_set_id(created.out()));
    }

    /** QUERY_Q_COUNTER; read the result with {@code QueryQCounterOut} accessors. */
    public MemorySegment query(boolean clear) {
        var in = PrmCommands.QUERY_Q_COUNTER.input();
        QueryQCounterIn.clear_$set(in, clear);
        QueryQCounterIn.counter_set_id$set(in, id());
        return query(PrmCommands.QUERY_Q_COUNTER, in);
    }

    /** Packets dropped because the RQ had no receive WQE. */
    public long outOfBuffer() {
        return Integer.toUnsignedLong(QueryQCounterOut.out_of_buffer(query(false)));
    }

    @Override
    protected void destroy() {
        var in = PrmCommands.DEALLOC_Q_COUNTER.input();
        DeallocQCounterIn.counter_set_id$set(in, id());
        destroy(PrmCommands.DEALLOC_Q_COUNTER, in);
    }
}

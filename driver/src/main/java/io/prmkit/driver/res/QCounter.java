package io.prmkit.driver.res;

import io.prmkit.driver.cmd.CommandInterface;
import io.prmkit.driver.core.DeviceObject;
import io.prmkit.mlx5.AllocQCounterIn;
import io.prmkit.mlx5.AllocQCounterOut;
import io.prmkit.mlx5.CmdOpcode;
import io.prmkit.mlx5.DeallocQCounterIn;
import io.prmkit.mlx5.DeallocQCounterOut;
import io.prmkit.mlx5.QueryQCounterIn;
import io.prmkit.mlx5.QueryQCounterOut;
import java.lang.foreign.MemorySegment;

/**
 * A Q counter set (PRM ALLOC_Q_COUNTER): RQs that name it in {@code rqc.counter_set_id} count
 * their drops there ({@code out_of_buffer}: a packet arrived and the RQ had no WQE).
 */
public final class QCounter extends DeviceObject {

    private QCounter(CommandInterface cmd, int id) {
        super(cmd, id);
    }

    public static QCounter allocate(CommandInterface cmd) {
        var in = CommandInterface.input(AllocQCounterIn.SIZE);
        AllocQCounterIn.opcode$set(in, CmdOpcode.ALLOC_Q_COUNTER);
        var out = cmd.execute(in, AllocQCounterIn.layout(), AllocQCounterOut.SIZE, AllocQCounterOut.layout());
        return new QCounter(cmd, AllocQCounterOut.counter_set_id(out));
    }

    /** QUERY_Q_COUNTER; read the result with {@code QueryQCounterOut} accessors. */
    public MemorySegment query(boolean clear) {
        var in = CommandInterface.input(QueryQCounterIn.SIZE);
        QueryQCounterIn.opcode$set(in, CmdOpcode.QUERY_Q_COUNTER);
        QueryQCounterIn.clear_$set(in, clear);
        QueryQCounterIn.counter_set_id$set(in, id());
        return cmd.execute(in, QueryQCounterIn.layout(), QueryQCounterOut.SIZE, QueryQCounterOut.layout());
    }

    /** Packets dropped because the RQ had no receive WQE. */
    public long outOfBuffer() {
        return Integer.toUnsignedLong(QueryQCounterOut.out_of_buffer(query(false)));
    }

    @Override
    protected void destroy() {
        var in = CommandInterface.input(DeallocQCounterIn.SIZE);
        DeallocQCounterIn.opcode$set(in, CmdOpcode.DEALLOC_Q_COUNTER);
        DeallocQCounterIn.counter_set_id$set(in, id());
        cmd.execute(in, DeallocQCounterIn.layout(), DeallocQCounterOut.SIZE, DeallocQCounterOut.layout());
    }
}

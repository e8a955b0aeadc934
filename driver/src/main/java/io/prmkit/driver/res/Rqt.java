package io.prmkit.driver.res;

import io.prmkit.driver.cmd.CommandTransport;
import io.prmkit.driver.core.Caps;
import io.prmkit.driver.core.DeviceObject;
import io.prmkit.mlx5.CmdHcaCap;
import io.prmkit.mlx5.CreateRqtIn;
import io.prmkit.mlx5.CreateRqtOut;
import io.prmkit.mlx5.DestroyRqtIn;
import io.prmkit.mlx5.RqNum;
import io.prmkit.mlx5.Rqtc;
import io.prmkit.mlx5.PrmCommands;
import java.lang.foreign.MemorySegment;
import java.util.List;

/**
 * An RQ table (PRM CREATE_RQT): the indirection table an RSS TIR spreads packets over. The hash
 * picks entry {@code hash mod size}; {@link #create} fills {@code size} (a power of two, as the
 * device wants) entries round-robin from the RQs.
 */
public final class Rqt extends DeviceObject {

    private Rqt(CommandTransport cmd, CommandTransport.ObjectHandle handle, int rqtn) {
        super(cmd, handle, rqtn);
    }

    public static Rqt create(CommandTransport cmd, Caps caps, List<ReceiveQueue> rqs, int size) {
        if (rqs.isEmpty() || Integer.bitCount(size) != 1)
            throw new IllegalArgumentException("an RQT needs at least one RQ and a power-of-two size, got " + rqs.size() + " RQs, size " + size);
        Caps.requireLog(size, CmdHcaCap.log_max_rqt_size(caps.general()), "CREATE_RQT entries", "cmd_hca_cap.log_max_rqt_size");
        var in = PrmCommands.CREATE_RQT.input(size * RqNum.SIZE, 0);
        MemorySegment rqtc = CreateRqtIn.rqt_context(in);
        Rqtc.rqt_max_size$set(rqtc, size);
        Rqtc.rqt_actual_size$set(rqtc, size);
        for (int i = 0; i < size; i++) RqNum.rq_num$set(Rqtc.rq_num$elem(in, CreateRqtIn.rqt_context$BYTE_OFFSET, i), rqs.get(i % rqs.size()).rqn());
        var created = cmd.create(PrmCommands.CREATE_RQT, in);
        return new Rqt(cmd, created.handle(), CreateRqtOut.rqtn(created.out()));
    }

    @Override
    protected void destroy() {
        var in = PrmCommands.DESTROY_RQT.input();
        DestroyRqtIn.rqtn$set(in, id());
        destroy(PrmCommands.DESTROY_RQT, in);
    }
}

package io.prmkit.driver.res;

import io.prmkit.driver.cmd.CommandInterface;
import io.prmkit.driver.core.DeviceObject;
import io.prmkit.mlx5.CmdOpcode;
import io.prmkit.mlx5.CreateTisIn;
import io.prmkit.mlx5.CreateTisOut;
import io.prmkit.mlx5.DestroyTisIn;
import io.prmkit.mlx5.DestroyTisOut;
import io.prmkit.mlx5.Tisc;

/** A transport interface send (PRM CREATE_TIS): the transmit properties SQs share; priority 0. */
public final class Tis extends DeviceObject {

    private Tis(CommandInterface cmd, int tisn) {
        super(cmd, tisn);
    }

    public static Tis create(CommandInterface cmd, TransportDomain td) {
        var in = CommandInterface.input(CreateTisIn.SIZE);
        CreateTisIn.opcode$set(in, CmdOpcode.CREATE_TIS);
        Tisc.transport_domain$set(CreateTisIn.ctx(in), td.id());
        var out = cmd.execute(in, CreateTisIn.layout(), CreateTisOut.SIZE, CreateTisOut.layout());
        return new Tis(cmd, CreateTisOut.tisn(out));
    }

    @Override
    protected void destroy() {
        var in = CommandInterface.input(DestroyTisIn.SIZE);
        DestroyTisIn.opcode$set(in, CmdOpcode.DESTROY_TIS);
        DestroyTisIn.tisn$set(in, id());
        cmd.execute(in, DestroyTisIn.layout(), DestroyTisOut.SIZE, DestroyTisOut.layout());
    }
}

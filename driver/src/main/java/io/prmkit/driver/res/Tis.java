package io.prmkit.driver.res;

import io.prmkit.driver.cmd.CommandTransport;
import io.prmkit.driver.core.DeviceObject;
import io.prmkit.mlx5.CreateTisIn;
import io.prmkit.mlx5.CreateTisOut;
import io.prmkit.mlx5.DestroyTisIn;
import io.prmkit.mlx5.Tisc;
import io.prmkit.mlx5.PrmCommands;

/** A transport interface send (PRM CREATE_TIS): the transmit properties SQs share; priority 0. */
public final class Tis extends DeviceObject {

    private Tis(CommandTransport cmd, CommandTransport.ObjectHandle handle, int tisn) {
        super(cmd, handle, tisn);
    }

    public static Tis create(CommandTransport cmd, TransportDomain td) {
        var in = PrmCommands.CREATE_TIS.input();
        Tisc.transport_domain$set(CreateTisIn.ctx(in), td.id());
        var created = cmd.create(PrmCommands.CREATE_TIS, in);
        return new Tis(cmd, created.handle(), CreateTisOut.tisn(created.out()));
    }

    @Override
    protected void destroy() {
        var in = PrmCommands.DESTROY_TIS.input();
        DestroyTisIn.tisn$set(in, id());
        destroy(PrmCommands.DESTROY_TIS, in);
    }
}

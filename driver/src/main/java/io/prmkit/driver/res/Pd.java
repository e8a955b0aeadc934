package io.prmkit.driver.res;

import io.prmkit.driver.cmd.CommandTransport;
import io.prmkit.driver.core.DeviceObject;
import io.prmkit.mlx5.AllocPdOut;
import io.prmkit.mlx5.DeallocPdIn;
import io.prmkit.mlx5.PrmCommands;

/** A protection domain (PRM ALLOC_PD / DEALLOC_PD). */
public final class Pd extends DeviceObject {

    private Pd(CommandTransport cmd, CommandTransport.ObjectHandle handle, int pd) {
        super(cmd, handle, pd);
    }

    public static Pd allocate(CommandTransport cmd) {
        var in = PrmCommands.ALLOC_PD.input();
        var created = cmd.create(PrmCommands.ALLOC_PD, in);
        return new Pd(cmd, created.handle(), AllocPdOut.pd(created.out()));
    }

    @Override
    protected void destroy() {
        var in = PrmCommands.DEALLOC_PD.input();
        DeallocPdIn.pd$set(in, id());
        destroy(PrmCommands.DEALLOC_PD, in);
    }
}

package io.prmkit.driver.res;

import io.prmkit.driver.cmd.CommandInterface;
import io.prmkit.driver.core.DeviceObject;
import io.prmkit.mlx5.AllocPdOut;
import io.prmkit.mlx5.DeallocPdIn;
import io.prmkit.mlx5.PrmCommands;

/** A protection domain (PRM ALLOC_PD / DEALLOC_PD). */
public final class ProtectionDomain extends DeviceObject {

    private ProtectionDomain(CommandInterface cmd, int pd) {
        super(cmd, pd);
    }

    public static ProtectionDomain allocate(CommandInterface cmd) {
        var in = PrmCommands.ALLOC_PD.input();
        var out = cmd.execute(PrmCommands.ALLOC_PD, in);
        return new ProtectionDomain(cmd, AllocPdOut.pd(out));
    }

    @Override
    protected void destroy() {
        var in = PrmCommands.DEALLOC_PD.input();
        DeallocPdIn.pd$set(in, id());
        cmd.execute(PrmCommands.DEALLOC_PD, in);
    }
}

package io.prmkit.driver.res;

import io.prmkit.driver.cmd.CommandInterface;
import io.prmkit.driver.core.DeviceObject;
import io.prmkit.mlx5.AllocPdIn;
import io.prmkit.mlx5.AllocPdOut;
import io.prmkit.mlx5.CmdOpcode;
import io.prmkit.mlx5.DeallocPdIn;
import io.prmkit.mlx5.DeallocPdOut;

/** A protection domain (PRM ALLOC_PD / DEALLOC_PD). */
public final class ProtectionDomain extends DeviceObject {

    private ProtectionDomain(CommandInterface cmd, int pd) {
        super(cmd, pd);
    }

    public static ProtectionDomain allocate(CommandInterface cmd) {
        var in = CommandInterface.input(AllocPdIn.SIZE);
        AllocPdIn.opcode$set(in, CmdOpcode.ALLOC_PD);
        var out = cmd.execute(in, AllocPdIn.layout(), AllocPdOut.SIZE, AllocPdOut.layout());
        return new ProtectionDomain(cmd, AllocPdOut.pd(out));
    }

    @Override
    protected void destroy() {
        var in = CommandInterface.input(DeallocPdIn.SIZE);
        DeallocPdIn.opcode$set(in, CmdOpcode.DEALLOC_PD);
        DeallocPdIn.pd$set(in, id());
        cmd.execute(in, DeallocPdIn.layout(), DeallocPdOut.SIZE, DeallocPdOut.layout());
    }
}

package io.prmkit.driver.res;

import io.prmkit.driver.cmd.CommandInterface;
import io.prmkit.driver.core.DeviceObject;
import io.prmkit.mlx5.AllocTransportDomainIn;
import io.prmkit.mlx5.AllocTransportDomainOut;
import io.prmkit.mlx5.CmdOpcode;
import io.prmkit.mlx5.DeallocTransportDomainIn;
import io.prmkit.mlx5.DeallocTransportDomainOut;

/** A transport domain, which groups TIRs and TISes (PRM ALLOC_TRANSPORT_DOMAIN). */
public final class TransportDomain extends DeviceObject {

    private TransportDomain(CommandInterface cmd, int td) {
        super(cmd, td);
    }

    public static TransportDomain allocate(CommandInterface cmd) {
        var in = CommandInterface.input(AllocTransportDomainIn.SIZE);
        AllocTransportDomainIn.opcode$set(in, CmdOpcode.ALLOC_TRANSPORT_DOMAIN);
        var out = cmd.execute(in, AllocTransportDomainIn.layout(), AllocTransportDomainOut.SIZE, AllocTransportDomainOut.layout());
        return new TransportDomain(cmd, AllocTransportDomainOut.transport_domain(out));
    }

    @Override
    protected void destroy() {
        var in = CommandInterface.input(DeallocTransportDomainIn.SIZE);
        DeallocTransportDomainIn.opcode$set(in, CmdOpcode.DEALLOC_TRANSPORT_DOMAIN);
        DeallocTransportDomainIn.transport_domain$set(in, id());
        cmd.execute(in, DeallocTransportDomainIn.layout(), DeallocTransportDomainOut.SIZE, DeallocTransportDomainOut.layout());
    }
}

package io.prmkit.driver.res;

import io.prmkit.driver.cmd.CommandInterface;
import io.prmkit.driver.core.DeviceObject;
import io.prmkit.mlx5.AllocTransportDomainOut;
import io.prmkit.mlx5.DeallocTransportDomainIn;
import io.prmkit.mlx5.PrmCommands;

/** A transport domain, which groups TIRs and TISes (PRM ALLOC_TRANSPORT_DOMAIN). */
public final class TransportDomain extends DeviceObject {

    private TransportDomain(CommandInterface cmd, int td) {
        super(cmd, td);
    }

    public static TransportDomain allocate(CommandInterface cmd) {
        var in = PrmCommands.ALLOC_TRANSPORT_DOMAIN.input();
        var out = cmd.execute(PrmCommands.ALLOC_TRANSPORT_DOMAIN, in);
        return new TransportDomain(cmd, AllocTransportDomainOut.transport_domain(out));
    }

    @Override
    protected void destroy() {
        var in = PrmCommands.DEALLOC_TRANSPORT_DOMAIN.input();
        DeallocTransportDomainIn.transport_domain$set(in, id());
        cmd.execute(PrmCommands.DEALLOC_TRANSPORT_DOMAIN, in);
    }
}

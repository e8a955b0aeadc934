package io.prmkit.driver.res;

import io.prmkit.driver.cmd.CommandTransport;
import io.prmkit.driver.core.DeviceObject;
import io.prmkit.mlx5.AllocTransportDomainOut;
import io.prmkit.mlx5.DeallocTransportDomainIn;
import io.prmkit.mlx5.PrmCommands;

/** A transport domain, which groups TIRs and TISes (PRM ALLOC_TRANSPORT_DOMAIN). */
public final class TransportDomain extends DeviceObject {

    private TransportDomain(CommandTransport cmd, CommandTransport.ObjectHandle handle, int td) {
        super(cmd, handle, td);
    }

    public static TransportDomain allocate(CommandTransport cmd) {
        var in = PrmCommands.ALLOC_TRANSPORT_DOMAIN.input();
        var created = cmd.create(PrmCommands.ALLOC_TRANSPORT_DOMAIN, in);
        return new TransportDomain(cmd, created.handle(), AllocTransportDomainOut.transport_domain(created.out()));
    }

    @Override
    protected void destroy() {
        var in = PrmCommands.DEALLOC_TRANSPORT_DOMAIN.input();
        DeallocTransportDomainIn.transport_domain$set(in, id());
        destroy(PrmCommands.DEALLOC_TRANSPORT_DOMAIN, in);
    }
}

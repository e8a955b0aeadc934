package io.prmkit.softhca.cmd;

import io.prmkit.mlx5.PrmLayout;
import io.prmkit.mlx5.RegisterId;
import java.lang.foreign.MemorySegment;

/** Port registers PMTU, PAOS, PPCNT (PRM "Ports" chapter). */
final class PortRegisters {
    private final HcaState hca;

    PortRegisters(HcaState hca) {
        this.hca = hca;
    }

    PrmLayout.Struct layoutOf(RegisterId id) {
        return null;
    }

    void access(Command c, RegisterId id, boolean write, MemorySegment in, MemorySegment out) {
        throw c.fail(Syndrome.BAD_REGISTER, id.name());
    }
}

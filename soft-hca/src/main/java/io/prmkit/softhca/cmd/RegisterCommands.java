package io.prmkit.softhca.cmd;

import io.prmkit.mlx5.AccessRegisterIn;
import io.prmkit.mlx5.AccessRegisterOpMod;
import io.prmkit.layout.PrmLayout;
import io.prmkit.mlx5.PrmRegisters;
import io.prmkit.mlx5.RegisterHostEndianness;
import io.prmkit.mlx5.RegisterId;
import io.prmkit.mlx5.PrmCommands;
import io.prmkit.softhca.cmd.CommandSpec.Phase;
import java.lang.foreign.MemorySegment;
import java.util.Map;

/**
 * ACCESS_REGISTER (PRM "Access Registers"): op_mod WRITE or READ of one register; which layout a
 * register id names and where it sits in input and output come from the spec's register
 * declarations ({@code PrmRegisters}). Modelled: HOST_ENDIANNESS, and the port registers PMTU, PAOS
 * and PPCNT ({@link PortRegisters}). Any other register: BAD_PARAM / BAD_REGISTER.
 */
final class RegisterCommands {
    private final HcaState hca;
    private final PortRegisters port;

    private RegisterCommands(HcaState hca) {
        this.hca = hca;
        this.port = new PortRegisters(hca);
    }

    static void register(Map<Integer, CommandSpec> specs, HcaState hca) {
        RegisterCommands r = new RegisterCommands(hca);
        BringUpCommands.put(specs, PrmCommands.ACCESS_REG, Phase.ENABLED, r::access);
    }

    private void access(Command c) {
        AccessRegisterOpMod mod = AccessRegisterIn.op_mod$enum(c.in);
        if (mod == null) throw c.fail(Syndrome.BAD_OP_MOD, "op_mod 0x" + Integer.toHexString(c.opMod));
        PrmLayout.Register reg = PrmRegisters.byId(AccessRegisterIn.register_id(c.in));
        RegisterId id = reg == null ? null : AccessRegisterIn.register_id$enum(c.in);
        if (reg == null || (id != RegisterId.HOST_ENDIANNESS && !port.models(id))) {
            throw c.fail(Syndrome.BAD_REGISTER, "register 0x" + Integer.toHexString(AccessRegisterIn.register_id(c.in)));
        }
        PrmLayout.Struct layout = reg.layout();
        if (c.inLength() < reg.inputLength()) throw c.fail(Syndrome.INPUT_TOO_SHORT, layout.simpleName() + " needs " + layout.sizeBytes() + " bytes");
        if (c.outLength() < reg.outputLength()) throw c.fail(Syndrome.OUTPUT_TOO_SHORT, layout.simpleName() + " needs " + layout.sizeBytes() + " bytes");
        String reserved = ReservedBits.firstSet(layout, c.in, reg.inDataOffset(), layout.sizeBytes());
        if (reserved != null) throw new DeliveryError(reserved);
        boolean write = mod == AccessRegisterOpMod.WRITE;
        MemorySegment in = reg.data(c.in, false);
        MemorySegment out = reg.data(c.out, true);
        if (id == RegisterId.HOST_ENDIANNESS) {
            if (write) {
                hca.hostBigEndian = RegisterHostEndianness.he(in);
            }
            MemorySegment.copy(in, 0, out, 0, layout.sizeBytes());
            RegisterHostEndianness.he$set(out, hca.hostBigEndian);
            return;
        }
        if (!hca.initialized) throw c.fail(Syndrome.NOT_INITIALIZED, "port registers need INIT_HCA");
        port.access(c, id, write, in, out);
    }
}

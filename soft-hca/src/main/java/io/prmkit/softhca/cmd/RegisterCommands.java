package io.prmkit.softhca.cmd;

import io.prmkit.mlx5.AccessRegisterIn;
import io.prmkit.mlx5.AccessRegisterOpMod;
import io.prmkit.mlx5.AccessRegisterOut;
import io.prmkit.mlx5.CmdOpcode;
import io.prmkit.mlx5.PrmLayout;
import io.prmkit.mlx5.RegisterHostEndianness;
import io.prmkit.mlx5.RegisterId;
import io.prmkit.softhca.cmd.CommandSpec.Phase;
import java.lang.foreign.MemorySegment;
import java.util.Map;

/**
 * ACCESS_REGISTER (PRM "Access Registers"): op_mod WRITE or READ of one register, its data at
 * {@code register_data}. Modelled: HOST_ENDIANNESS, and the port registers PMTU, PAOS and PPCNT
 * ({@link PortRegisters}). Any other register: BAD_PARAM / BAD_REGISTER.
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
        BringUpCommands.put(specs, CmdOpcode.ACCESS_REG, AccessRegisterIn.layout(), AccessRegisterOut.layout(), Phase.ENABLED, r::access);
    }

    private void access(Command c) {
        AccessRegisterOpMod mod = AccessRegisterIn.op_mod$enum(c.in);
        if (mod == null) throw c.fail(Syndrome.BAD_OP_MOD, "op_mod 0x" + Integer.toHexString(c.opMod));
        RegisterId id = AccessRegisterIn.register_id$enum(c.in);
        PrmLayout.Struct layout = id == null ? null : switch (id) {
            case HOST_ENDIANNESS -> RegisterHostEndianness.layout();
            default -> port.layoutOf(id);
        };
        if (layout == null) throw c.fail(Syndrome.BAD_REGISTER, "register 0x" + Integer.toHexString(AccessRegisterIn.register_id(c.in)));
        long inAt = AccessRegisterIn.register_data$BYTE_OFFSET;
        long outAt = AccessRegisterOut.register_data$BYTE_OFFSET;
        if (c.inLength() < inAt + layout.sizeBytes()) throw c.fail(Syndrome.INPUT_TOO_SHORT, layout.simpleName() + " needs " + layout.sizeBytes() + " bytes");
        if (c.outLength() < outAt + layout.sizeBytes()) throw c.fail(Syndrome.OUTPUT_TOO_SHORT, layout.simpleName() + " needs " + layout.sizeBytes() + " bytes");
        String reserved = ReservedBits.firstSet(layout, c.in, inAt, layout.sizeBytes());
        if (reserved != null) throw new DeliveryError(reserved);
        boolean write = mod == AccessRegisterOpMod.WRITE;
        MemorySegment in = c.in.asSlice(inAt, layout.sizeBytes());
        MemorySegment out = c.out.asSlice(outAt, layout.sizeBytes());
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

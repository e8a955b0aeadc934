package io.prmkit.dsl.ir;

import io.prmkit.dsl.SourceLocation;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A PRM command: the opcode that selects it, the structures of its input and output, the op_mod
 * values it names, and the oldest input length a device accepts (older drivers send shorter inputs;
 * a device reads the missing bytes as 0).
 *
 * @param name              the command's spec name, e.g. {@code mlx5.CREATE_CQ}
 * @param opcode            the value of the input's {@code opcode} field
 * @param opcodeEnum        the enum of the input's opcode field, which names {@code opcode}, if the field has one
 * @param in                the input structure ({@code create_cq_in}); its first 8 bytes are the command header
 * @param out               the output structure ({@code create_cq_out}); it starts with status and syndrome
 * @param inBytes           the input structure's size (without a flexible trailing array)
 * @param outBytes          the output structure's size (without a flexible trailing array)
 * @param oldestInputBytes  the shortest input a device accepts: 8..inBytes, a multiple of 4
 * @param opModEnum         the enum that names the op_mod values, when they come from one
 * @param opMods            the named op_mod values (empty when the command names none)
 * @param registers         for the command that carries registers (ACCESS_REG): where the register id and data are
 * @param doc               description and PRM reference
 * @param location          where it is declared
 * @throws IllegalArgumentException for sizes or lengths that break the above
 */
public record CommandLayout(
        QualifiedName name,
        long opcode,
        Optional<QualifiedName> opcodeEnum,
        QualifiedName in,
        QualifiedName out,
        long inBytes,
        long outBytes,
        long oldestInputBytes,
        Optional<QualifiedName> opModEnum,
        List<EnumLayout.EnumValue> opMods,
        Optional<RegisterCarrier> registers,
        Doc doc,
        SourceLocation location) {

    /** Bytes of the generic command input header (opcode, op_mod) and output header (status, syndrome). */
    public static final long HEADER_BYTES = 8;

    public CommandLayout {
        Objects.requireNonNull(name, "name == null");
        Objects.requireNonNull(opcodeEnum, "opcodeEnum == null");
        Objects.requireNonNull(in, "in == null");
        Objects.requireNonNull(out, "out == null");
        Objects.requireNonNull(opModEnum, "opModEnum == null");
        opMods = List.copyOf(opMods);
        Objects.requireNonNull(registers, "registers == null");
        Objects.requireNonNull(doc, "doc == null");
        Objects.requireNonNull(location, "location == null");
        if (opcode < 0 || opcode > 0xffff) throw new IllegalArgumentException(name + ": opcode 0x" + Long.toHexString(opcode) + " is not 16 bits");
        if (inBytes < HEADER_BYTES || outBytes < HEADER_BYTES) {
            throw new IllegalArgumentException(name + ": input (" + inBytes + " bytes) and output (" + outBytes + " bytes) must hold the 8-byte header");
        }
        if (oldestInputBytes < HEADER_BYTES || oldestInputBytes > inBytes || oldestInputBytes % 4 != 0) {
            throw new IllegalArgumentException(name + ": oldest input length " + oldestInputBytes + " is not a multiple of 4 in 8.." + inBytes);
        }
    }

    /** The op_mod value's name, if the command names it. */
    public Optional<String> opModName(long value) {
        for (EnumLayout.EnumValue v : opMods) {
            if (v.value() == value) return Optional.of(v.name());
        }
        return Optional.empty();
    }

    /**
     * Where the carrying command keeps a register: the input's bit field holding the register id, and
     * the member at which the register's layout starts in both input and output.
     */
    public record RegisterCarrier(String idField, String dataMember, long inDataByte, long outDataByte) {
        public RegisterCarrier {
            Objects.requireNonNull(idField, "idField == null");
            Objects.requireNonNull(dataMember, "dataMember == null");
            if (inDataByte < HEADER_BYTES || outDataByte < HEADER_BYTES) {
                throw new IllegalArgumentException("register data inside the command header");
            }
        }
    }
}

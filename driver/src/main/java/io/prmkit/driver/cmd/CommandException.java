package io.prmkit.driver.cmd;

import io.prmkit.driver.Mlx5Exception;
import io.prmkit.mlx5.CmdOpcode;
import io.prmkit.mlx5.CmdStatus;
import io.prmkit.mlx5.DeliveryStatus;
import io.prmkit.mlx5.PrmCommands;
import io.prmkit.layout.PrmLayout;

/**
 * A command that did not succeed. PRM "Command Interface" has two status layers: the delivery
 * status in the queue entry (could the firmware read the command at all) and, when that is OK, the
 * command status and 32-bit syndrome in the output. The message names the command, op_mod, the
 * failing status with its meaning and the slot, e.g.
 * {@code CREATE_CQ (0x400) op_mod 0x0 on slot 3: status BAD_PARAM_ERR (0x3): Bad parameter; ..., syndrome 0x1f3a2b01}.
 */
public class CommandException extends Mlx5Exception {

    private final int opcode;
    private final int opMod;
    private final int slot;
    private final int deliveryStatus;
    private final int status;
    private final int syndrome;

    public CommandException(int opcode, int opMod, int slot, int deliveryStatus, int status, int syndrome) {
        this(opcode, opMod, slot, deliveryStatus, status, syndrome, describe(opcode, opMod, slot, deliveryStatus, status, syndrome));
    }

    protected CommandException(int opcode, int opMod, int slot, int deliveryStatus, int status, int syndrome, String message) {
        super(message);
        this.opcode = opcode;
        this.opMod = opMod;
        this.slot = slot;
        this.deliveryStatus = deliveryStatus;
        this.status = status;
        this.syndrome = syndrome;
    }

    static String describe(int opcode, int opMod, int slot, int deliveryStatus, int status, int syndrome) {
        String head = commandName(opcode, opMod) + (slot >= 0 ? " on slot " + slot : "");
        if (deliveryStatus != 0)
            return head + ": delivery status " + DeliveryStatus.describe(deliveryStatus) + " (the firmware could not read the command)";
        return head + ": status " + CmdStatus.describe(status) + ", syndrome 0x" + Integer.toHexString(syndrome)
                + " (firmware-specific detail)";
    }

    /**
     * {@code CREATE_CQ (0x400) op_mod 0x0}, with the op_mod's name where the spec's command declaration
     * names one ({@link PrmCommands}): {@code QUERY_HCA_CAP (0x100) op_mod 0x1 (GENERAL_DEVICE_CUR)}. Unknown opcodes
     * print as {@code opcode 0x9999}.
     */
    public static String commandName(int opcode, int opMod) {
        String name = CmdOpcode.nameOf(opcode);
        PrmLayout.Command command = PrmCommands.byOpcode(opcode);
        String mod = command != null ? command.opModName(opMod) : null;
        return (name != null ? name + " (0x" + Integer.toHexString(opcode) + ")" : "opcode 0x" + Integer.toHexString(opcode))
                + " op_mod 0x" + Integer.toHexString(opMod) + (mod != null ? " (" + mod + ")" : "");
    }

    public int opcode() { return opcode; }

    public int opMod() { return opMod; }

    /** Command queue slot the command ran in; -1 when it never got one. */
    public int slot() { return slot; }

    /** Delivery status (0 = delivered). */
    public int deliveryStatus() { return deliveryStatus; }

    /** Command status (0 = OK); meaningful only when the delivery status is 0. */
    public int status() { return status; }

    public int syndrome() { return syndrome; }

    /** The command status as the generated enum, or null for a value no constant names. */
    public CmdStatus statusEnum() { return CmdStatus.of(status); }
}

package io.prmkit.driver.cmd;

/**
 * The firmware did not hand a command's queue entry back within the command timeout. The slot stays
 * reserved (the firmware may still write it and its mailboxes) until the interface is closed.
 */
public final class CommandTimeoutException extends CommandException {
    public CommandTimeoutException(int opcode, int opMod, int slot, long timeoutMillis) {
        this(opcode, opMod, slot, commandName(opcode, opMod) + " on slot " + slot + ": no completion within "
                + timeoutMillis + " ms (the entry is still owned by the firmware; the slot is retired)");
    }

    private CommandTimeoutException(int opcode, int opMod, int slot, String message) {
        super(opcode, opMod, slot, 0, -1, 0, message);
    }

    /** Every slot stayed busy (or retired) for the whole command timeout. */
    static CommandTimeoutException noFreeSlot(int opcode, int opMod, long timeoutMillis) {
        return new CommandTimeoutException(opcode, opMod, -1, commandName(opcode, opMod)
                + ": no free command slot within " + timeoutMillis + " ms");
    }
}

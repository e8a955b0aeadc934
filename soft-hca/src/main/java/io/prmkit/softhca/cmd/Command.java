package io.prmkit.softhca.cmd;

import java.lang.foreign.MemorySegment;

/**
 * One delivered command as the device sees it after fetching it: the whole input (inline bytes and
 * mailbox data, in order) and an output buffer of output_length bytes that is copied back to the
 * entry and the output mailboxes when the handler returns. Both are device-side copies.
 */
public final class Command {
    public final int slot;
    public final int opcode;
    public final int opMod;
    public final MemorySegment in;
    public final MemorySegment out;
    /** The user context (DEVX uid) in the input header, 0 when the command's input has no uid field. */
    public final int uid;

    public Command(int slot, int opcode, int opMod, MemorySegment in, MemorySegment out) {
        this(slot, opcode, opMod, in, out, 0);
    }

    private Command(int slot, int opcode, int opMod, MemorySegment in, MemorySegment out, int uid) {
        this.slot = slot;
        this.opcode = opcode;
        this.opMod = opMod;
        this.in = in;
        this.out = out;
        this.uid = uid;
    }

    /** The same command with {@code input} in place of its input (a zero-padded older layout). */
    public Command withInput(MemorySegment input) {
        return new Command(slot, opcode, opMod, input, out, uid);
    }

    /** The same command as issued by user context {@code uid}. */
    public Command withUid(int uid) {
        return new Command(slot, opcode, opMod, in, out, uid);
    }

    public long inLength() {
        return in.byteSize();
    }

    public long outLength() {
        return out.byteSize();
    }

    /** The error for {@code syndrome} in this command. */
    public CommandError fail(Syndrome syndrome, String why) {
        return syndrome.error(opcode, why);
    }
}

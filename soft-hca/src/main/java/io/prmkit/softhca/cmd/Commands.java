package io.prmkit.softhca.cmd;

import io.prmkit.softhca.device.DeviceObjects.Kind;
import io.prmkit.mlx5.CmdOpcode;
import io.prmkit.mlx5.CmdStatus;
import io.prmkit.mlx5.GeneralObjInCmdHdr;
import io.prmkit.mlx5.NopOut;
import io.prmkit.layout.PrmLayout;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;

/**
 * The commands the device implements, by opcode (each with the spec's declaration of it,
 * {@code PrmCommands}), and their common checks: input and output at least as long as the
 * command's structures (BAD_INP_LEN / BAD_OUTP_LEN; an input may be as short as the command's
 * declared oldest length, {@code oldestInputBytes()}, and the bytes it lacks read as 0), no reserved bit set in
 * the input (delivery status RES_FLD_NOT_CLR_ERR, found from the spec's metadata), a non-zero uid in
 * the header naming a user context (DEVX; {@link DevxCommands}), the function in the state the
 * command needs (BAD_SYS_STATE). Any other opcode: BAD_OP.
 */
public final class Commands {
    private final Map<Integer, CommandSpec> specs = new TreeMap<>();
    private final HcaState hca;

    public Commands(HcaState hca, int vectors) {
        this.hca = hca;
        BringUpCommands.register(specs, hca);
        RegisterCommands.register(specs, hca);
        ResourceCommands.register(specs, hca);
        QueueCommands.register(specs, hca, vectors);
        TransportCommands.register(specs, hca);
        FlowCommands.register(specs, hca);
        VportCommands.register(specs, hca);
        QpCommands.register(specs, hca);
        DevxCommands.register(specs, hca);
    }

    /** The implemented commands by opcode (for docs and tests). */
    public Map<Integer, CommandSpec> specs() {
        return Collections.unmodifiableMap(specs);
    }

    /**
     * Runs a fetched command and writes its output header (status, syndrome) and body into
     * {@code c.out}. Throws {@link DeliveryError} when the input has reserved bits set (the command
     * then has no output at all).
     */
    public void execute(Command c) {
        CommandSpec spec = specs.get(c.opcode);
        try {
            if (spec == null) throw c.fail(Syndrome.BAD_OPCODE, "opcode 0x" + Integer.toHexString(c.opcode));
            PrmLayout.Command command = spec.command();
            if (c.inLength() < command.oldestInputBytes()) {
                throw c.fail(Syndrome.INPUT_TOO_SHORT, c.inLength() + " < " + command.oldestInputBytes()
                        + (command.oldestInputBytes() < command.inBytes() ? " (the oldest input the command accepts)" : ""));
            }
            if (c.inLength() < command.inBytes()) c = withWholeInput(c, command.inBytes());
            if (c.outLength() < command.outBytes()) {
                throw c.fail(Syndrome.OUTPUT_TOO_SHORT, c.outLength() + " < " + command.outBytes());
            }
            // The uid: where general_obj_in_cmd_hdr has it. On a function with user contexts, in every
            // command (the kernel's DEVX sets it in each command a user context sends, QUERY_CQ and
            // QUERY_HCA_CAP included, whose own structures call those bits reserved), so the
            // reserved-bit check leaves it out; without them, only where the input names a uid.
            boolean named = command.in().field("uid").isPresent();
            boolean userContexts = Support.cap(hca, "log_max_uctx") != 0;
            int uid = named || userContexts ? GeneralObjInCmdHdr.uid(c.in) : 0;
            MemorySegment checked = c.in;
            if (uid != 0 && !named) {
                checked = Arena.ofAuto().allocate(c.inLength(), 8).copyFrom(c.in);
                GeneralObjInCmdHdr.uid$set(checked, 0);
            }
            String reserved = ReservedBits.firstSet(command.in(), checked, 0, command.inBytes());
            if (reserved != null) throw new DeliveryError(reserved);
            if (uid != 0) {
                if (!hca.objects.has(Kind.UCTX, uid)) throw c.fail(Syndrome.BAD_UID, "uid " + uid + " names no user context");
                c = c.withUid(uid);
            }
            switch (spec.phase()) {
                case ANY -> {}
                case ENABLED -> {
                    if (!hca.enabled) throw c.fail(Syndrome.NOT_ENABLED, spec.command().simpleName());
                }
                case INITIALIZED -> {
                    if (!hca.enabled) throw c.fail(Syndrome.NOT_ENABLED, spec.command().simpleName());
                    if (!hca.initialized) throw c.fail(Syndrome.NOT_INITIALIZED, spec.command().simpleName());
                }
            }
            spec.firmware().run(c);
            setStatus(c.out, CmdStatus.OK$VALUE, 0);
        } catch (CommandError e) {
            c.out.fill((byte) 0);
            setStatus(c.out, e.status, e.syndrome);
            failed(c);
        } finally {
            hca.objects.changed(); // the datapath drops what it cached from the objects
        }
    }

    /**
     * An older driver's shorter input (at least the declared oldest length) read as firmware reads it:
     * the fields it does not carry are 0. The handler sees a zero-padded copy; the output is the same.
     */
    private static Command withWholeInput(Command c, long inBytes) {
        MemorySegment whole = Arena.ofAuto().allocate(inBytes, 8);
        MemorySegment.copy(c.in, 0, whole, 0, c.inLength());
        return new Command(c.slot, c.opcode, c.opMod, whole, c.out);
    }

    /** Completes {@code c} with a failure injected by {@code Faults.failNext}, with the state change a real one has. */
    public void failInjected(Command c, int status, int syndrome) {
        setStatus(c.out, status, syndrome);
        failed(c);
    }

    private void failed(Command c) {
        if (c.opcode == CmdOpcode.INIT_HCA.value && !hca.initialized) hca.initFailed = true;
    }

    /** Writes status and syndrome of the generic output header (the same in every {@code *_out}). */
    public static void setStatus(MemorySegment out, int status, int syndrome) {
        NopOut.Device.status$setUnchecked(out, status);
        NopOut.Device.syndrome$set(out, syndrome);
    }
}

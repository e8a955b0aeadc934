package io.prmkit.softhca.cmd;

import io.prmkit.layout.PrmLayout;

/**
 * A command the device implements: the spec's declaration of it (opcode, input and output
 * structures, whose sizes are the lengths checked; the input's reserved bits are checked
 * generically), the HCA state it needs, and the firmware that runs it.
 */
public record CommandSpec(PrmLayout.Command command, Phase phase, Firmware firmware) {

    public PrmLayout.Struct in() {
        return command.in();
    }

    public PrmLayout.Struct out() {
        return command.out();
    }

    /** The function state a command needs. */
    public enum Phase {
        /** Any state, even before ENABLE_HCA. */
        ANY,
        /** After ENABLE_HCA (before or after INIT_HCA). */
        ENABLED,
        /** After INIT_HCA (and before TEARDOWN_HCA). */
        INITIALIZED
    }

    @FunctionalInterface
    public interface Firmware {
        /** Runs the command, writing its output; throws {@link CommandError} for bad contents. */
        void run(Command c);
    }
}

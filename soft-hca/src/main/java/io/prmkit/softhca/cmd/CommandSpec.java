package io.prmkit.softhca.cmd;

import io.prmkit.mlx5.CmdOpcode;
import io.prmkit.mlx5.PrmLayout;

/**
 * A command the device implements: its input and output structures (their sizes are the minimum
 * lengths; the input's reserved bits are checked generically), the HCA state it needs, and the handler.
 */
public record CommandSpec(CmdOpcode opcode, PrmLayout.Struct in, PrmLayout.Struct out, Phase phase, Handler handler) {

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
    public interface Handler {
        /** Runs the command, writing its output; throws {@link CommandError} for bad contents. */
        void run(Command c);
    }
}

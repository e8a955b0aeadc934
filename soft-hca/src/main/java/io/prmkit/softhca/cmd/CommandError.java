package io.prmkit.softhca.cmd;

import io.prmkit.mlx5.CmdStatus;

/** A delivered command with bad contents: the command status and syndrome it completes with. */
public final class CommandError extends RuntimeException {
    public final int status;
    public final int syndrome;

    public CommandError(CmdStatus status, int syndrome, String why) {
        super(why, null, false, false);
        this.status = (int) status.value;
        this.syndrome = syndrome;
    }
}

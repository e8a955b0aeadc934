package io.prmkit.driver.cmd;

import io.prmkit.driver.Mlx5Exception;

/**
 * The device is in a fatal state (health syndrome, dead heartbeat, lost PCI link or a failed
 * bring-up step that leaves it unusable). Once raised, every pending and later command fails fast
 * with it instead of waiting for its timeout.
 */
public final class DeviceFatalException extends Mlx5Exception {
    public DeviceFatalException(String message) {
        super(message);
    }

    /** The same report for one more operation, keeping the original as the cause. */
    DeviceFatalException again(String what) {
        DeviceFatalException e = new DeviceFatalException(what + ": " + getMessage());
        e.initCause(this);
        return e;
    }
}

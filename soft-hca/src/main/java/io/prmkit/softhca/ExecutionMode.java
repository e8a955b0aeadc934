package io.prmkit.softhca;

/** How the device runs. */
public enum ExecutionMode {
    /** Like hardware: a device thread of its own, woken by doorbells. */
    THREAD,
    /** Deterministic: nothing happens until the caller runs {@link SoftHca#step()} or {@link SoftHca#runUntilIdle()}. */
    STEP
}

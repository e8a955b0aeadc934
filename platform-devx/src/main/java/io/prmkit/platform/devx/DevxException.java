package io.prmkit.platform.devx;

/**
 * A refusal of rdma-core or of the kernel behind it, in one sentence that says what failed and, where
 * it can, what to do. {@link #errno()} is the C errno of the failed call (0 when there was none, e.g.
 * a library that is not installed).
 */
public final class DevxException extends RuntimeException {
    private final int errno;

    public DevxException(String message) {
        this(message, 0);
    }

    public DevxException(String message, int errno) {
        super(message);
        this.errno = errno;
    }

    /** The errno of the failed call, or 0. */
    public int errno() {
        return errno;
    }
}

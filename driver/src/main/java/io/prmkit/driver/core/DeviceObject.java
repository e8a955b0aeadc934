package io.prmkit.driver.core;

import io.prmkit.driver.cmd.CommandInterface;

/**
 * A device object created by one command and destroyed by another: {@link #close()} runs the
 * destroy command once. Objects are single-owner; close them in the reverse order of creation
 * (a CQ after the queues that use it), as the device refuses the destroy of an object in use.
 */
public abstract class DeviceObject implements AutoCloseable {

    protected final CommandInterface cmd;
    private final int id;
    private boolean closed;

    protected DeviceObject(CommandInterface cmd, int id) {
        this.cmd = cmd;
        this.id = id;
    }

    /** The object's number (cqn, sqn, pd, ...). */
    public int id() {
        return id;
    }

    /** Runs the destroy command. */
    protected abstract void destroy();

    /** Frees host memory of the object: after a successful destroy, or when the command interface closes. */
    protected void release() {
    }

    public boolean isClosed() {
        return closed;
    }

    @Override
    public void close() {
        synchronized (this) {
            if (closed) return;
            closed = true;
        }
        try {
            destroy();
        } catch (RuntimeException e) {
            // The device may still hold the object and write its rings: free them only after DISABLE_HCA.
            cmd.freeAtClose(this::release);
            throw e;
        }
        release();
    }

    @Override
    public String toString() {
        return getClass().getSimpleName() + " 0x" + Integer.toHexString(id);
    }
}

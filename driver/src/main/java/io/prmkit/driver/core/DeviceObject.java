package io.prmkit.driver.core;

import io.prmkit.driver.cmd.CommandTransport;
import io.prmkit.layout.PrmLayout;
import java.lang.foreign.MemorySegment;

/**
 * A device object created by one command and destroyed by another: {@link #close()} runs the
 * destroy command once, through the handle its creation gave ({@link CommandTransport#create}).
 * Objects are single-owner; close them in the reverse order of creation (a CQ after the queues that
 * use it), as the device refuses the destroy of an object in use.
 */
public abstract class DeviceObject implements AutoCloseable {

    /** The transport, for commands that are not on this object (general commands, other objects). */
    protected final CommandTransport cmd;
    private final CommandTransport.ObjectHandle handle;
    private final int id;
    private boolean closed;

    protected DeviceObject(CommandTransport cmd, CommandTransport.ObjectHandle handle, int id) {
        this.cmd = cmd;
        this.handle = handle;
        this.id = id;
    }

    /** The object's number (cqn, sqn, pd, ...). */
    public int id() {
        return id;
    }

    /** The handle its creation gave (for a rule that names the object outside the PRM's commands: {@link KernelSteering}). */
    public final CommandTransport.ObjectHandle handle() {
        return handle;
    }

    /** Runs the destroy command, with {@link #destroy(PrmLayout.Command, MemorySegment)}. */
    protected abstract void destroy();

    /** A modify command on this object (MODIFY_SQ, ...). */
    protected final MemorySegment modify(PrmLayout.Command command, MemorySegment in) {
        return handle.modify(command, in);
    }

    /** A query command on this object. */
    protected final MemorySegment query(PrmLayout.Command command, MemorySegment in) {
        return handle.query(command, in);
    }

    /** The destroy command of this object (see {@link CommandTransport.ObjectHandle#destroy}). */
    protected final void destroy(PrmLayout.Command command, MemorySegment in) {
        handle.destroy(command, in);
    }

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
            // The device may still hold the object and write its rings: free them only when it cannot.
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

package io.prmkit.driver.cmd;

import io.prmkit.layout.PrmLayout;
import java.lang.foreign.MemorySegment;
import java.util.function.Consumer;

/**
 * How PRM commands reach the device: the same command bytes either through our own command queue
 * ({@link CommandInterface}, after our bring-up of a {@code PciFunction}) or through rdma-core's DEVX
 * ({@code io.prmkit.driver.devx}, where the kernel's mlx5_core or rdma-core's mlx5_vfio did the
 * bring-up). The resource, Ethernet and datapath layers see only this.
 *
 * <p>Commands come in the two kinds DEVX (and DPDK's mlx5 PMD on it) tells apart: those that create
 * an object ({@link #create}: CREATE_CQ, ALLOC_PD, SET_FLOW_TABLE_ENTRY, ...), which give back an
 * {@link ObjectHandle} for the commands on that object (modify, query, destroy), and every other one
 * ({@link #execute}: queries of the function, ACCESS_REG, vport contexts, SET_FLOW_TABLE_ROOT).
 * Over DEVX the kernel tracks what was created and destroys it when the context closes; over the
 * command queue the handle just runs the command.
 *
 * <p>Every failure is a {@code Mlx5Exception}: {@link CommandException} when the device answered
 * with a status other than OK.
 */
public interface CommandTransport {

    /** Runs {@code command} and returns its output, as long as the command's output structure. */
    default MemorySegment execute(PrmLayout.Command command, MemorySegment in) {
        return execute(command, in, command.outBytes());
    }

    /** Runs {@code command} for an output of {@code outLength} bytes (an output structure followed by a trailing array or a register). */
    MemorySegment execute(PrmLayout.Command command, MemorySegment in, long outLength);

    /**
     * ACCESS_REG on {@code register} (PRM "Access Registers"), one path for reads and writes: builds
     * the carrying command's input for {@code opMod} (the register id and op_mod set), lets {@code
     * fill} write the register (its key fields for a read, the new contents for a write), runs the
     * command and returns the register as the device answered it. Where the register sits in input
     * and output comes from the spec's declaration ({@link PrmLayout.Register}).
     */
    default MemorySegment accessRegister(PrmLayout.Register register, long opMod, Consumer<MemorySegment> fill) {
        MemorySegment in = register.input(opMod);
        fill.accept(register.data(in, false));
        return register.data(execute(register.command(), in, register.outputLength()), true);
    }

    /** Runs {@code command}, which creates an object, and returns its output with the object's handle. */
    Created create(PrmLayout.Command command, MemorySegment in);

    /**
     * Runs {@code free} once the device can no longer write the memory of an object whose destroy
     * failed (command queue: after DISABLE_HCA; DEVX: after the context closed, when the kernel has
     * destroyed what it still held).
     */
    void freeAtClose(Runnable free);

    /** The fatal error the device is in, or null. */
    DeviceFatalException fatal();

    /** What {@link #create} returns: the command's output (the object's number is in it) and its handle. */
    record Created(MemorySegment out, ObjectHandle handle) {}

    /** The commands on one created object. */
    interface ObjectHandle {
        /** A modify command on the object (MODIFY_SQ, MODIFY_RQ, ...). */
        MemorySegment modify(PrmLayout.Command command, MemorySegment in);

        /** A query command on the object (QUERY_Q_COUNTER, QUERY_CQ, ...). */
        MemorySegment query(PrmLayout.Command command, MemorySegment in);

        /**
         * Destroys the object. {@code in} is the destroy command as the caller built it: the command
         * queue runs it; DEVX runs the one rdma-core built from the create command (the same bytes
         * for every object this driver creates), so the kernel knows the object is gone.
         */
        void destroy(PrmLayout.Command command, MemorySegment in);
    }
}

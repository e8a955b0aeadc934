package io.prmkit.driver.devx;

import io.prmkit.driver.Mlx5Exception;
import io.prmkit.driver.cmd.CommandException;
import io.prmkit.driver.cmd.CommandTrace;
import io.prmkit.driver.cmd.CommandTransport;
import io.prmkit.driver.cmd.DeviceFatalException;
import io.prmkit.mlx5.NopIn;
import io.prmkit.mlx5.NopOut;
import io.prmkit.layout.PrmLayout;
import io.prmkit.platform.devx.DevxContext;
import io.prmkit.platform.devx.DevxException;
import io.prmkit.platform.devx.DevxObject;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;

/**
 * PRM commands through rdma-core's DEVX, as DPDK's mlx5 PMD sends them: a command that creates an
 * object through {@code mlx5dv_devx_obj_create} (the kernel, or mlx5_vfio, records it, checks later
 * commands name it, and destroys it when the context closes), modify and query commands on it through
 * {@code mlx5dv_devx_obj_modify}/{@code _query}, its destroy through {@code mlx5dv_devx_obj_destroy},
 * everything else through {@code mlx5dv_devx_general_cmd}. The bytes are the same the command queue
 * carries; the device's status and syndrome come back in the output either way.
 */
final class DevxTransport implements CommandTransport {
    private static final int EINVAL = 22;
    private final DevxContext ctx;
    private final CommandTrace trace;
    /** Held around each call into rdma-core, and by mlx5_vfio's event processing (DevxDevice), so that they never overlap. */
    final Object calls = new Object();
    private final List<Runnable> deferred = new ArrayList<>();
    private boolean closed;

    DevxTransport(DevxContext ctx, CommandTrace trace) {
        this.ctx = ctx;
        this.trace = trace;
    }

    /** A command call that fills {@code out} or throws DevxException. */
    @FunctionalInterface
    private interface Call {
        void run(MemorySegment in, MemorySegment out);
    }

    @Override
    public MemorySegment execute(PrmLayout.Command command, MemorySegment in, long outLength) {
        return run(command, in, outLength, ctx::generalCommand);
    }

    @Override
    public Created create(PrmLayout.Command command, MemorySegment in) {
        DevxObject[] obj = new DevxObject[1];
        MemorySegment out = run(command, in, command.outBytes(), (i, o) -> obj[0] = ctx.createObject(i, o));
        return new Created(out, new Handle(obj[0]));
    }

    /** Runs one command through {@code call}, traces it, and turns a refusal into a {@code Mlx5Exception}. */
    private MemorySegment run(PrmLayout.Command command, MemorySegment in, long outLength, Call call) {
        int opcode = NopIn.opcode(in);
        int opMod = NopIn.op_mod(in);
        MemorySegment out = MemorySegment.ofArray(new byte[Math.toIntExact(outLength)]);
        int status = -1, syndrome = 0;
        String outcome = null;
        long t0 = System.nanoTime();
        try {
            synchronized (calls) {
                call.run(in, out);
            }
            status = NopOut.status(out);
            syndrome = NopOut.syndrome(out);
            return out;
        } catch (DevxException e) {
            status = NopOut.status(out);
            syndrome = NopOut.syndrome(out);
            Mlx5Exception ex = status != 0
                    ? new CommandException(opcode, opMod, -1, 0, status, syndrome)
                    : new Mlx5Exception(CommandException.commandName(opcode, opMod) + " through DEVX: " + e.getMessage()
                            + (e.errno() == EINVAL && !ctx.vfio() ? " (the kernel lets a DEVX context run only the commands of its"
                            + " lists, drivers/infiniband/hw/mlx5/devx.c: this one may be the kernel's own)" : ""), e);
            outcome = ex.getMessage();
            throw ex;
        } finally {
            trace.command(new CommandTrace.Exchange(opcode, opMod, in.byteSize(), outLength, -1, 0, status, syndrome,
                    System.nanoTime() - t0, in, command.in(), out, command.out(), outcome));
        }
    }

    @Override
    public synchronized void freeAtClose(Runnable free) {
        if (closed) free.run();
        else deferred.add(free);
    }

    /** The context is closed (the kernel destroyed what it still held): run what {@link #freeAtClose} kept. */
    synchronized void closed() {
        closed = true;
        for (Runnable r : deferred) r.run();
        deferred.clear();
    }

    /** The kernel (or mlx5_vfio) watches the function's health; DEVX reports none of it. */
    @Override
    public DeviceFatalException fatal() {
        return null;
    }

    /** Commands on one DEVX object. */
    /** The DEVX object behind a handle this transport's {@link #create} gave (a flow rule's destination). */
    static DevxObject objectOf(ObjectHandle handle) {
        if (handle instanceof Handle h) return h.obj;
        throw new IllegalArgumentException("not an object created through DEVX: " + handle);
    }

    private final class Handle implements ObjectHandle {
        private final DevxObject obj;

        Handle(DevxObject obj) {
            this.obj = obj;
        }

        @Override
        public MemorySegment modify(PrmLayout.Command command, MemorySegment in) {
            return run(command, in, command.outBytes(), obj::modify);
        }

        @Override
        public MemorySegment query(PrmLayout.Command command, MemorySegment in) {
            return run(command, in, command.outBytes(), obj::query);
        }

        /** rdma-core runs the destroy command it built at creation; {@code in} is the same command, traced. */
        @Override
        public void destroy(PrmLayout.Command command, MemorySegment in) {
            run(command, in, command.outBytes(), (i, o) -> obj.destroy());
        }
    }
}

package io.prmkit.platform.devx;

import static io.prmkit.platform.devx.RdmaCore.CAPTURE;
import static io.prmkit.platform.devx.RdmaCore.fn;

import io.prmkit.devx.Mlx5dvDevxUar;
import io.prmkit.devx.Mlx5dvDevxUmem;
import io.prmkit.devx.Mlx5dvFlowMatcherAttr;
import io.prmkit.devx.PrmConstants;
import io.prmkit.platform.MappedMmio;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;

/**
 * An open RDMA device with a DEVX user context ({@code struct ibv_context}): PRM commands as bytes
 * ({@code mlx5dv_devx_general_cmd}; objects through {@code mlx5dv_devx_obj_create}, which the kernel
 * tracks and destroys when the context closes), memory registration ({@code mlx5dv_devx_umem_reg}),
 * UAR pages ({@code mlx5dv_devx_alloc_uar}) and EQ numbers ({@code mlx5dv_devx_query_eqn}).
 *
 * <p>Commands take and return PRM structures as they are (big-endian fields), any Java segment: they
 * are copied to native memory for the call. A refused command throws {@link DevxException} with the
 * call's errno ({@code EREMOTEIO}, 121, for a command the device answered with a bad status); its
 * output buffer holds the device's answer (status and syndrome) all the same. Safe for use by several
 * threads; closing it while another thread uses it is the caller's error.
 */
public final class DevxContext implements AutoCloseable {
    /** errno of a command the device answered with a status other than OK (the output holds status and syndrome). */
    public static final int EREMOTEIO = 121;
    private static final ValueLayout.OfLong HOST_U64 = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    private final MemorySegment ctx;
    private final String name;
    private final boolean vfio;
    private volatile boolean closed;

    DevxContext(MemorySegment ctx, String name, boolean vfio) {
        this.ctx = ctx;
        this.name = name;
        this.vfio = vfio;
    }

    /** The device's name ({@code mlx5_0}, or {@code vfio:0000:03:00.0} for the mlx5_vfio provider). */
    public String name() {
        return name;
    }

    /** Whether rdma-core's mlx5_vfio provider drives the function (it then needs {@link #processEvents}). */
    public boolean vfio() {
        return vfio;
    }

    private void checkOpen() {
        if (closed) throw new IllegalStateException("the DEVX context of " + name + " is closed");
    }

    /** {@code mlx5dv_devx_general_cmd}: a command that creates nothing (queries, ACCESS_REG, ...). */
    public void generalCommand(MemorySegment in, MemorySegment out) {
        checkOpen();
        command("mlx5dv_devx_general_cmd", ctx, in, out);
    }

    /** {@code mlx5dv_devx_obj_create}: a command that creates an object; the handle destroys it. */
    public DevxObject createObject(MemorySegment in, MemorySegment out) {
        checkOpen();
        try (Arena a = Arena.ofConfined()) {
            MemorySegment st = a.allocate(CAPTURE);
            MemorySegment nin = a.allocate(in.byteSize(), 8).copyFrom(in);
            MemorySegment nout = a.allocate(out.byteSize(), 8);
            MemorySegment obj = (MemorySegment) fn("mlx5dv_devx_obj_create").invokeExact(st, ctx, nin, in.byteSize(), nout, out.byteSize());
            out.copyFrom(nout);
            if (obj.equals(MemorySegment.NULL)) {
                int errno = RdmaCore.errno(st);
                throw new DevxException(RdmaCore.failure("mlx5dv_devx_obj_create", errno), errno);
            }
            return new DevxObject(obj, this);
        } catch (Throwable t) {
            throw RdmaCore.rethrow(t);
        }
    }

    /** One command call of the form {@code int f(handle, in, inlen, out, outlen)}: copies, calls, copies back, throws on failure. */
    static void command(String call, MemorySegment handle, MemorySegment in, MemorySegment out) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment st = a.allocate(CAPTURE);
            MemorySegment nin = a.allocate(in.byteSize(), 8).copyFrom(in);
            MemorySegment nout = a.allocate(out.byteSize(), 8);
            int r = (int) fn(call).invokeExact(st, handle, nin, in.byteSize(), nout, out.byteSize());
            out.copyFrom(nout);
            if (r != 0) {
                int errno = r > 0 ? r : RdmaCore.errno(st); // these calls return the errno, or -1 with errno set
                throw new DevxException(RdmaCore.failure(call, errno), errno);
            }
        } catch (Throwable t) {
            throw RdmaCore.rethrow(t);
        }
    }

    /**
     * {@code mlx5dv_devx_umem_reg}: registers {@code memory} (native memory the caller keeps mapped
     * until the umem is closed) for the device, with {@code access} ({@code IBV_ACCESS_*}).
     */
    public DevxUmem registerUmem(MemorySegment memory, int access) {
        checkOpen();
        if (!memory.isNative()) throw new IllegalArgumentException("a umem must be native memory");
        try (Arena a = Arena.ofConfined()) {
            MemorySegment st = a.allocate(CAPTURE);
            MemorySegment u = (MemorySegment) fn("mlx5dv_devx_umem_reg").invokeExact(st, ctx, memory, memory.byteSize(), access);
            if (u.equals(MemorySegment.NULL)) {
                int errno = RdmaCore.errno(st);
                throw new DevxException(RdmaCore.failure("mlx5dv_devx_umem_reg of " + memory.byteSize() + " bytes", errno)
                        + (errno == 12 || errno == 1 ? ": the locked-memory limit (ulimit -l) may be too low" : ""), errno);
            }
            int id = Mlx5dvDevxUmem.umem_id(u.reinterpret(Mlx5dvDevxUmem.SIZE));
            return new DevxUmem(u, id, memory);
        } catch (Throwable t) {
            throw RdmaCore.rethrow(t);
        }
    }

    /**
     * {@code mlx5dv_devx_alloc_uar}: a UAR page for doorbells, of {@code type} ({@code
     * MLX5DV_UAR_ALLOC_TYPE_BF} or {@code _NC}).
     */
    public DevxUar allocateUar(int type) {
        checkOpen();
        try (Arena a = Arena.ofConfined()) {
            MemorySegment st = a.allocate(CAPTURE);
            MemorySegment u = (MemorySegment) fn("mlx5dv_devx_alloc_uar").invokeExact(st, ctx, type);
            if (u.equals(MemorySegment.NULL)) {
                int errno = RdmaCore.errno(st);
                throw new DevxException(RdmaCore.failure("mlx5dv_devx_alloc_uar(type " + type + ")", errno), errno);
            }
            MemorySegment s = u.reinterpret(Mlx5dvDevxUar.SIZE);
            long reg = s.get(HOST_U64, Mlx5dvDevxUar.reg_addr$BYTE_OFFSET);
            long base = s.get(HOST_U64, Mlx5dvDevxUar.base_addr$BYTE_OFFSET);
            int page = Mlx5dvDevxUar.page_id(s);
            MappedMmio mmio = new MappedMmio(MemorySegment.ofAddress(base).reinterpret(DevxUar.PAGE), "UAR page " + page);
            return new DevxUar(u, page, mmio, reg - base);
        } catch (Throwable t) {
            throw RdmaCore.rethrow(t);
        }
    }

    /** {@code mlx5dv_devx_query_eqn}: the EQ number that completion vector {@code vector} reports to. */
    public int queryEqn(int vector) {
        checkOpen();
        try (Arena a = Arena.ofConfined()) {
            MemorySegment st = a.allocate(CAPTURE);
            MemorySegment eqn = a.allocate(ValueLayout.JAVA_INT);
            int r = (int) fn("mlx5dv_devx_query_eqn").invokeExact(st, ctx, vector, eqn);
            if (r != 0) {
                int errno = r > 0 ? r : RdmaCore.errno(st);
                throw new DevxException(RdmaCore.failure("mlx5dv_devx_query_eqn(" + vector + ")", errno), errno);
            }
            return eqn.get(ValueLayout.JAVA_INT, 0);
        } catch (Throwable t) {
            throw RdmaCore.rethrow(t);
        }
    }

    /**
     * {@code mlx5dv_vfio_process_events} (mlx5_vfio only): lets the provider handle the events of its EQ
     * (the firmware's page requests); the caller calls it from time to time or when {@link #eventsFd}
     * is readable. A no-op for a kernel context.
     */
    public void processEvents() {
        if (!vfio || closed) return;
        try (Arena a = Arena.ofConfined()) {
            MemorySegment st = a.allocate(CAPTURE);
            int r = (int) fn("mlx5dv_vfio_process_events").invokeExact(st, ctx);
            if (r != 0) {
                int errno = r > 0 ? r : RdmaCore.errno(st);
                throw new DevxException(RdmaCore.failure("mlx5dv_vfio_process_events", errno), errno);
            }
        } catch (Throwable t) {
            throw RdmaCore.rethrow(t);
        }
    }

    /** {@code mlx5dv_vfio_get_events_fd} (mlx5_vfio only): the fd that is readable when {@link #processEvents} has work; -1 otherwise. */
    public int eventsFd() {
        if (!vfio) return -1;
        try (Arena a = Arena.ofConfined()) {
            return (int) fn("mlx5dv_vfio_get_events_fd").invokeExact(a.allocate(CAPTURE), ctx);
        } catch (Throwable t) {
            throw RdmaCore.rethrow(t);
        }
    }

    /**
     * {@code mlx5dv_create_flow_matcher} in the NIC receive tables ({@code IBV_FLOW_ATTR_NORMAL},
     * {@code MLX5DV_FLOW_TABLE_TYPE_NIC_RX}): rules under {@code mask} (an {@code fte_match_param},
     * the parts in use named by {@code matchCriteriaEnable} as in a flow group) at {@code priority}
     * (lower first). A kernel context only: mlx5_vfio refuses it ({@code EOPNOTSUPP}).
     */
    public DevxFlowMatcher createFlowMatcher(int priority, int matchCriteriaEnable, MemorySegment mask) {
        checkOpen();
        if (priority < 0 || priority > 0xffff) throw new IllegalArgumentException("a matcher's priority is 16 bits: " + priority);
        if (matchCriteriaEnable < 0 || matchCriteriaEnable > 0xff) throw new IllegalArgumentException("match_criteria_enable is 8 bits: " + matchCriteriaEnable);
        try (Arena a = Arena.ofConfined()) {
            MemorySegment st = a.allocate(CAPTURE);
            MemorySegment attr = a.allocate(Mlx5dvFlowMatcherAttr.SIZE, 8);
            Mlx5dvFlowMatcherAttr.type$set(attr, (int) PrmConstants.IBV_FLOW_ATTR_NORMAL);
            attr.set(ValueLayout.JAVA_SHORT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN), Mlx5dvFlowMatcherAttr.priority$BYTE_OFFSET, (short) priority);
            attr.set(ValueLayout.JAVA_BYTE, Mlx5dvFlowMatcherAttr.match_criteria_enable$BYTE_OFFSET, (byte) matchCriteriaEnable);
            attr.set(ValueLayout.ADDRESS_UNALIGNED, Mlx5dvFlowMatcherAttr.match_mask$BYTE_OFFSET, DevxFlowMatcher.parameters(a, mask));
            attr.set(HOST_U64, Mlx5dvFlowMatcherAttr.comp_mask$BYTE_OFFSET, PrmConstants.MLX5DV_FLOW_MATCHER_MASK_FT_TYPE);
            Mlx5dvFlowMatcherAttr.ft_type$set(attr, (int) PrmConstants.MLX5DV_FLOW_TABLE_TYPE_NIC_RX);
            MemorySegment m = (MemorySegment) fn("mlx5dv_create_flow_matcher").invokeExact(st, ctx, attr);
            if (m.equals(MemorySegment.NULL)) {
                int errno = RdmaCore.errno(st);
                throw new DevxException(RdmaCore.failure("mlx5dv_create_flow_matcher(" + name + ", NIC RX, priority " + priority + ")", errno), errno);
            }
            return new DevxFlowMatcher(m, this);
        } catch (Throwable t) {
            throw RdmaCore.rethrow(t);
        }
    }

    /** The {@code struct ibv_context *}. */
    MemorySegment handle() {
        checkOpen();
        return ctx;
    }

    /** {@code ibv_close_device}: the kernel (or mlx5_vfio) destroys whatever the context still holds. */
    @Override
    public void close() {
        if (closed) return;
        closed = true;
        try (Arena a = Arena.ofConfined()) {
            MemorySegment st = a.allocate(CAPTURE);
            int r = (int) fn("ibv_close_device").invokeExact(st, ctx);
            if (r != 0) {
                int errno = RdmaCore.errno(st);
                throw new DevxException(RdmaCore.failure("ibv_close_device(" + name + ")", errno), errno);
            }
        } catch (Throwable t) {
            throw RdmaCore.rethrow(t);
        }
    }

    @Override
    public String toString() {
        return "DEVX " + name;
    }
}

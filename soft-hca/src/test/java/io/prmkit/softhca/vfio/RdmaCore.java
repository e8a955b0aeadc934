package io.prmkit.softhca.vfio;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.foreign.SymbolLookup;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.VarHandle;

/**
 * The few entry points of the system's libibverbs and libmlx5 (rdma-core) the mlx5_vfio tests call,
 * bound with FFM; each returns its C result and keeps errno in {@link #errno()}. Struct layouts are
 * mlx5dv.h's ({@code mlx5dv_vfio_context_attr}: pci_name, flags, comp_mask; {@code mlx5dv_devx_uar}:
 * reg_addr, base_addr, page_id; {@code mlx5dv_devx_umem}: umem_id).
 */
final class RdmaCore {
    private static final Linker LINKER = Linker.nativeLinker();
    private static final StructLayout CAPTURE = Linker.Option.captureStateLayout();
    private static final VarHandle ERRNO = CAPTURE.varHandle(MemoryLayout.PathElement.groupElement("errno"));
    private static final ValueLayout A = ValueLayout.ADDRESS;
    private static final ValueLayout.OfInt I = ValueLayout.JAVA_INT;
    private static final ValueLayout.OfLong L = ValueLayout.JAVA_LONG;

    final MethodHandle getVfioDeviceList;
    final MethodHandle openDevice;
    final MethodHandle closeDevice;
    final MethodHandle freeDeviceList;
    final MethodHandle generalCmd;
    final MethodHandle objCreate;
    final MethodHandle objDestroy;
    final MethodHandle objQuery;
    final MethodHandle objModify;
    final MethodHandle allocUar;
    final MethodHandle freeUar;
    final MethodHandle queryEqn;
    final MethodHandle umemReg;
    final MethodHandle umemDereg;
    final MethodHandle eventsFd;
    final MethodHandle processEvents;
    private final MemorySegment state = Arena.global().allocate(CAPTURE);

    RdmaCore(Arena arena) {
        SymbolLookup verbs = SymbolLookup.libraryLookup("libibverbs.so.1", arena);
        SymbolLookup mlx5 = SymbolLookup.libraryLookup("libmlx5.so.1", arena);
        Linker.Option e = Linker.Option.captureCallState("errno");
        getVfioDeviceList = bind(mlx5, "mlx5dv_get_vfio_device_list", FunctionDescriptor.of(A, A), e);
        openDevice = bind(verbs, "ibv_open_device", FunctionDescriptor.of(A, A), e);
        closeDevice = bind(verbs, "ibv_close_device", FunctionDescriptor.of(I, A), e);
        freeDeviceList = bind(verbs, "ibv_free_device_list", FunctionDescriptor.ofVoid(A), e);
        generalCmd = bind(mlx5, "mlx5dv_devx_general_cmd", FunctionDescriptor.of(I, A, A, L, A, L), e);
        objCreate = bind(mlx5, "mlx5dv_devx_obj_create", FunctionDescriptor.of(A, A, A, L, A, L), e);
        objDestroy = bind(mlx5, "mlx5dv_devx_obj_destroy", FunctionDescriptor.of(I, A), e);
        objQuery = bind(mlx5, "mlx5dv_devx_obj_query", FunctionDescriptor.of(I, A, A, L, A, L), e);
        objModify = bind(mlx5, "mlx5dv_devx_obj_modify", FunctionDescriptor.of(I, A, A, L, A, L), e);
        allocUar = bind(mlx5, "mlx5dv_devx_alloc_uar", FunctionDescriptor.of(A, A, I), e);
        freeUar = bind(mlx5, "mlx5dv_devx_free_uar", FunctionDescriptor.ofVoid(A), e);
        queryEqn = bind(mlx5, "mlx5dv_devx_query_eqn", FunctionDescriptor.of(I, A, I, A), e);
        umemReg = bind(mlx5, "mlx5dv_devx_umem_reg", FunctionDescriptor.of(A, A, A, L, I), e);
        umemDereg = bind(mlx5, "mlx5dv_devx_umem_dereg", FunctionDescriptor.of(I, A), e);
        eventsFd = bind(mlx5, "mlx5dv_vfio_get_events_fd", FunctionDescriptor.of(I, A), e);
        processEvents = bind(mlx5, "mlx5dv_vfio_process_events", FunctionDescriptor.of(I, A), e);
    }

    private static MethodHandle bind(SymbolLookup lib, String name, FunctionDescriptor fd, Linker.Option... o) {
        return LINKER.downcallHandle(lib.find(name).orElseThrow(() -> new IllegalStateException("no " + name + " in rdma-core's libraries")), fd, o);
    }

    MemorySegment state() {
        return state;
    }

    int errno() {
        return (int) ERRNO.get(state, 0L);
    }
}

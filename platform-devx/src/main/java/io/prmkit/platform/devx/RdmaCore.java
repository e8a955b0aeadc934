package io.prmkit.platform.devx;

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
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The entry points of rdma-core's libibverbs and libmlx5 the DEVX back end calls, bound with FFM on
 * first use. The libraries are loaded by their sonames when first needed ({@code libibverbs.so.1},
 * {@code libmlx5.so.1}, what the ibverbs-providers package installs); a missing library or a missing
 * symbol (an rdma-core too old for the call) is a {@link DevxException} of one sentence. Every call
 * captures {@code errno}.
 */
final class RdmaCore {
    static final String VERBS = "libibverbs.so.1";
    static final String MLX5 = "libmlx5.so.1";
    private static final Linker LINKER = Linker.nativeLinker();
    static final StructLayout CAPTURE = Linker.Option.captureStateLayout();
    private static final VarHandle ERRNO = CAPTURE.varHandle(MemoryLayout.PathElement.groupElement("errno"));
    static final ValueLayout A = ValueLayout.ADDRESS;
    static final ValueLayout.OfInt I = ValueLayout.JAVA_INT;
    static final ValueLayout.OfLong L = ValueLayout.JAVA_LONG;
    static final ValueLayout.OfBoolean B = ValueLayout.JAVA_BOOLEAN;

    /** What each call needs: its library and C signature (all capture errno). */
    private record Fn(String library, FunctionDescriptor descriptor) {}

    private static final Map<String, Fn> FUNCTIONS = Map.ofEntries(
            Map.entry("ibv_get_device_list", new Fn(VERBS, FunctionDescriptor.of(A, A))),
            Map.entry("ibv_free_device_list", new Fn(VERBS, FunctionDescriptor.ofVoid(A))),
            Map.entry("ibv_open_device", new Fn(VERBS, FunctionDescriptor.of(A, A))),
            Map.entry("ibv_close_device", new Fn(VERBS, FunctionDescriptor.of(I, A))),
            Map.entry("mlx5dv_is_supported", new Fn(MLX5, FunctionDescriptor.of(B, A))),
            Map.entry("mlx5dv_open_device", new Fn(MLX5, FunctionDescriptor.of(A, A, A))),
            Map.entry("mlx5dv_get_vfio_device_list", new Fn(MLX5, FunctionDescriptor.of(A, A))),
            Map.entry("mlx5dv_vfio_get_events_fd", new Fn(MLX5, FunctionDescriptor.of(I, A))),
            Map.entry("mlx5dv_vfio_process_events", new Fn(MLX5, FunctionDescriptor.of(I, A))),
            Map.entry("mlx5dv_devx_general_cmd", new Fn(MLX5, FunctionDescriptor.of(I, A, A, L, A, L))),
            Map.entry("mlx5dv_devx_obj_create", new Fn(MLX5, FunctionDescriptor.of(A, A, A, L, A, L))),
            Map.entry("mlx5dv_devx_obj_modify", new Fn(MLX5, FunctionDescriptor.of(I, A, A, L, A, L))),
            Map.entry("mlx5dv_devx_obj_query", new Fn(MLX5, FunctionDescriptor.of(I, A, A, L, A, L))),
            Map.entry("mlx5dv_devx_obj_destroy", new Fn(MLX5, FunctionDescriptor.of(I, A))),
            Map.entry("mlx5dv_devx_umem_reg", new Fn(MLX5, FunctionDescriptor.of(A, A, A, L, I))),
            Map.entry("mlx5dv_devx_umem_dereg", new Fn(MLX5, FunctionDescriptor.of(I, A))),
            Map.entry("mlx5dv_devx_alloc_uar", new Fn(MLX5, FunctionDescriptor.of(A, A, I))),
            Map.entry("mlx5dv_devx_free_uar", new Fn(MLX5, FunctionDescriptor.ofVoid(A))),
            Map.entry("mlx5dv_devx_query_eqn", new Fn(MLX5, FunctionDescriptor.of(I, A, I, A))),
            Map.entry("mlx5dv_create_flow_matcher", new Fn(MLX5, FunctionDescriptor.of(A, A, A))),
            Map.entry("mlx5dv_destroy_flow_matcher", new Fn(MLX5, FunctionDescriptor.of(I, A))),
            Map.entry("mlx5dv_create_flow", new Fn(MLX5, FunctionDescriptor.of(A, A, A, L, A))));

    /** The C signature of verbs.h's ibv_destroy_flow op (a static inline there: the op is read from the context). */
    static final FunctionDescriptor DESTROY_FLOW = FunctionDescriptor.of(I, A);

    private static final Map<String, SymbolLookup> LIBRARIES = new ConcurrentHashMap<>();
    private static final Map<String, MethodHandle> HANDLES = new ConcurrentHashMap<>();
    private static final MethodHandle STRERROR = LINKER.downcallHandle(LINKER.defaultLookup().find("strerror").orElseThrow(),
            FunctionDescriptor.of(A, I));

    private RdmaCore() {}

    /** The bound call {@code name} (first arguments: the capture-state segment, then the C arguments). */
    static MethodHandle fn(String name) {
        MethodHandle h = HANDLES.get(name);
        if (h != null) return h;
        Fn f = FUNCTIONS.get(name);
        if (f == null) throw new IllegalArgumentException("no binding for " + name);
        MemorySegment addr = find(f.library(), name);
        h = LINKER.downcallHandle(addr, f.descriptor(), Linker.Option.captureCallState("errno"));
        HANDLES.put(name, h);
        return h;
    }

    /** A call through a function pointer the library handed out (a verbs_context op), capturing errno. */
    static MethodHandle pointer(MemorySegment function, FunctionDescriptor descriptor) {
        return LINKER.downcallHandle(function, descriptor, Linker.Option.captureCallState("errno"));
    }

    /** {@code name} in library {@code soname}, or a one-sentence refusal naming what is missing. */
    static MemorySegment find(String soname, String name) {
        return library(soname).find(name).orElseThrow(() -> new DevxException(soname + " has no " + name
                + ": the installed rdma-core is too old for it (DEVX needs rdma-core 24 or newer, the mlx5_vfio provider 35 or newer)."));
    }

    /** Whether {@code library} can be loaded and has {@code name} (for tools that only ask). */
    static boolean available(String library, String name) {
        try {
            return library(library).find(name).isPresent();
        } catch (DevxException e) {
            return false;
        }
    }

    private static SymbolLookup library(String soname) {
        return LIBRARIES.computeIfAbsent(soname, n -> {
            try {
                return SymbolLookup.libraryLookup(n, Arena.global());
            } catch (IllegalArgumentException e) {
                throw new DevxException(n + " is not installed: install rdma-core's libraries "
                        + "(Debian and Ubuntu: apt-get install ibverbs-providers; Fedora and RHEL: dnf install libibverbs).");
            }
        });
    }

    static int errno(MemorySegment state) {
        return (int) ERRNO.get(state, 0L);
    }

    /** The C library's text for {@code errno} ("Operation not permitted"). */
    static String strerror(int errno) {
        try {
            MemorySegment s = (MemorySegment) STRERROR.invokeExact(errno);
            return s.reinterpret(256).getString(0);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** {@code call} failed with {@code errno}: "call: errno 1 (Operation not permitted)". */
    static String failure(String call, int errno) {
        return call + ": errno " + errno + " (" + strerror(errno) + ")";
    }

    static Optional<MemorySegment> nonNull(MemorySegment p) {
        return p.equals(MemorySegment.NULL) ? Optional.empty() : Optional.of(p);
    }

    static RuntimeException rethrow(Throwable t) {
        if (t instanceof RuntimeException r) return r;
        if (t instanceof Error e) throw e;
        return new IllegalStateException(t);
    }
}

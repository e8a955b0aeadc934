package io.prmkit.platform.vfio;

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
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Optional;

/**
 * The few C library calls the VFIO back end makes (open, close, ioctl, mmap, munmap, pread, pwrite,
 * read, write, eventfd, poll, readlink), bound with FFM when first used and resolved at run time the
 * way a C program's calls are: {@code dlsym(RTLD_DEFAULT, name)}, so a library preloaded with
 * {@code LD_PRELOAD} (the VFIO stand-in) takes their place. With {@link #library(Path)} they are
 * taken from that library instead (which forwards what it does not serve to the C library).
 * Every call returns its C result and leaves {@code errno} in {@link Result#errno()}.
 */
final class Posix {
    static final int O_RDONLY = 0;
    static final int O_RDWR = 2;
    static final int O_CLOEXEC = 0x80000;
    static final int O_DIRECTORY = 0x10000;
    static final int PROT_READ = 1;
    static final int PROT_WRITE = 2;
    static final int MAP_SHARED = 1;
    static final int MAP_PRIVATE = 2;
    static final int MAP_ANONYMOUS = 0x20;
    static final int MAP_HUGETLB = 0x40000;
    static final int EFD_CLOEXEC = 0x80000;
    static final int EFD_NONBLOCK = 0x800;
    static final short POLLIN = 1;
    static final int ENOENT = 2;
    static final int EINTR = 4;
    static final int EBUSY = 16;
    static final int EACCES = 13;
    static final int EPERM = 1;
    static final int EAGAIN = 11;

    /** A C result and the errno right after it (meaningful only when the result says failure). */
    record Result(long value, int errno) {
        boolean failed() {
            return value < 0;
        }
    }

    private static final Linker LINKER = Linker.nativeLinker();
    private static final StructLayout CAPTURE = Linker.Option.captureStateLayout();
    private static final VarHandle ERRNO = CAPTURE.varHandle(MemoryLayout.PathElement.groupElement("errno"));
    private static final ValueLayout ADDR = ValueLayout.ADDRESS;
    private static final ValueLayout.OfInt INT = ValueLayout.JAVA_INT;
    private static final ValueLayout.OfLong LONG = ValueLayout.JAVA_LONG;

    private final SymbolLookup lookup;
    private final String origin;
    private final MethodHandle open;
    private final MethodHandle close;
    private final MethodHandle ioctlPtr;
    private final MethodHandle ioctlLong;
    private final MethodHandle mmap;
    private final MethodHandle munmap;
    private final MethodHandle pread;
    private final MethodHandle pwrite;
    private final MethodHandle read;
    private final MethodHandle write;
    private final MethodHandle eventfd;
    private final MethodHandle poll;
    private final MethodHandle readlink;
    private final MethodHandle strerror;

    private static volatile Posix system;

    private Posix(SymbolLookup lookup, String origin) {
        this.lookup = lookup;
        this.origin = origin;
        Linker.Option errno = Linker.Option.captureCallState("errno");
        open = bind("open", FunctionDescriptor.of(INT, ADDR, INT, INT), errno, Linker.Option.firstVariadicArg(2));
        close = bind("close", FunctionDescriptor.of(INT, INT), errno);
        ioctlPtr = bind("ioctl", FunctionDescriptor.of(INT, INT, LONG, ADDR), errno, Linker.Option.firstVariadicArg(2));
        ioctlLong = bind("ioctl", FunctionDescriptor.of(INT, INT, LONG, LONG), errno, Linker.Option.firstVariadicArg(2));
        mmap = bind("mmap", FunctionDescriptor.of(ADDR, ADDR, LONG, INT, INT, INT, LONG), errno);
        munmap = bind("munmap", FunctionDescriptor.of(INT, ADDR, LONG), errno);
        pread = bind("pread", FunctionDescriptor.of(LONG, INT, ADDR, LONG, LONG), errno);
        pwrite = bind("pwrite", FunctionDescriptor.of(LONG, INT, ADDR, LONG, LONG), errno);
        read = bind("read", FunctionDescriptor.of(LONG, INT, ADDR, LONG), errno);
        write = bind("write", FunctionDescriptor.of(LONG, INT, ADDR, LONG), errno);
        eventfd = bind("eventfd", FunctionDescriptor.of(INT, INT, INT), errno);
        poll = bind("poll", FunctionDescriptor.of(INT, ADDR, LONG, INT), errno);
        readlink = bind("readlink", FunctionDescriptor.of(LONG, ADDR, ADDR, LONG), errno);
        strerror = LINKER.downcallHandle(LINKER.defaultLookup().find("strerror").orElseThrow(), FunctionDescriptor.of(ADDR, INT));
    }

    /** The process's own calls: whatever {@code dlsym(RTLD_DEFAULT, name)} finds (a preloaded library first, then the C library). */
    static Posix system() {
        Posix p = system;
        if (p == null) {
            synchronized (Posix.class) {
                if (system == null) system = new Posix(globalScope(), "the process (dlsym RTLD_DEFAULT)");
                p = system;
            }
        }
        return p;
    }

    /** The calls of {@code library} (it must export them all, forwarding what it does not serve to the C library). */
    static Posix library(Path library) {
        return new Posix(SymbolLookup.libraryLookup(library, Arena.global()), library.toString());
    }

    String origin() {
        return origin;
    }

    /** dlsym(RTLD_DEFAULT, name): the symbol the process's global scope binds (LD_PRELOAD libraries before libc). */
    private static SymbolLookup globalScope() {
        SymbolLookup libc = LINKER.defaultLookup();
        MemorySegment dlsymAddr = libc.find("dlsym").or(() -> SymbolLookup.libraryLookup("libdl.so.2", Arena.global()).find("dlsym"))
                .orElseThrow(() -> new VfioException("cannot find dlsym in the C library: the VFIO back end needs glibc (Linux)"));
        MethodHandle dlsym = LINKER.downcallHandle(dlsymAddr, FunctionDescriptor.of(ADDR, ADDR, ADDR));
        return name -> {
            try (Arena a = Arena.ofConfined()) {
                MemorySegment r = (MemorySegment) dlsym.invokeExact(MemorySegment.NULL, a.allocateFrom(name));
                return r.equals(MemorySegment.NULL) ? Optional.empty() : Optional.of(r);
            } catch (Throwable t) {
                throw new IllegalStateException(t);
            }
        };
    }

    private MethodHandle bind(String name, FunctionDescriptor fd, Linker.Option... options) {
        MemorySegment addr = lookup.find(name)
                .orElseThrow(() -> new VfioException("the C library function " + name + " is missing from " + origin + ": the VFIO back end needs Linux"));
        return LINKER.downcallHandle(addr, fd, options);
    }

    private static Result result(long value, MemorySegment state) {
        return new Result(value, value < 0 ? (int) ERRNO.get(state, 0L) : 0);
    }

    Result open(String path, int flags) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment st = a.allocate(CAPTURE);
            int r = (int) open.invokeExact(st, a.allocateFrom(path), flags, 0);
            return result(r, st);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    Result close(int fd) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment st = a.allocate(CAPTURE);
            int r = (int) close.invokeExact(st, fd);
            return result(r, st);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    Result ioctl(int fd, long request, MemorySegment arg) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment st = a.allocate(CAPTURE);
            int r = (int) ioctlPtr.invokeExact(st, fd, request, arg);
            return result(r, st);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    Result ioctl(int fd, long request, long arg) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment st = a.allocate(CAPTURE);
            int r = (int) ioctlLong.invokeExact(st, fd, request, arg);
            return result(r, st);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** mmap; the result's value is the address, or -1 (MAP_FAILED). */
    Result mmap(long length, int prot, int flags, int fd, long offset) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment st = a.allocate(CAPTURE);
            MemorySegment r = (MemorySegment) mmap.invokeExact(st, MemorySegment.NULL, length, prot, flags, fd, offset);
            return result(r.address(), st);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    Result munmap(long address, long length) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment st = a.allocate(CAPTURE);
            int r = (int) munmap.invokeExact(st, MemorySegment.ofAddress(address), length);
            return result(r, st);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    Result pread(int fd, MemorySegment buf, long offset) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment st = a.allocate(CAPTURE);
            long r = (long) pread.invokeExact(st, fd, buf, buf.byteSize(), offset);
            return result(r, st);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    Result pwrite(int fd, MemorySegment buf, long offset) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment st = a.allocate(CAPTURE);
            long r = (long) pwrite.invokeExact(st, fd, buf, buf.byteSize(), offset);
            return result(r, st);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    Result read(int fd, MemorySegment buf) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment st = a.allocate(CAPTURE);
            long r = (long) read.invokeExact(st, fd, buf, buf.byteSize());
            return result(r, st);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    Result write(int fd, MemorySegment buf) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment st = a.allocate(CAPTURE);
            long r = (long) write.invokeExact(st, fd, buf, buf.byteSize());
            return result(r, st);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    Result eventfd(int initval, int flags) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment st = a.allocate(CAPTURE);
            int r = (int) eventfd.invokeExact(st, initval, flags);
            return result(r, st);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** poll over {@code fds} (struct pollfd: int fd, short events, short revents). */
    Result poll(MemorySegment fds, long count, int timeoutMillis) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment st = a.allocate(CAPTURE);
            int r = (int) poll.invokeExact(st, fds, count, timeoutMillis);
            return result(r, st);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** The target of symbolic link {@code path}, or empty with the errno. */
    Optional<String> readlink(String path, int[] errnoOut) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment st = a.allocate(CAPTURE);
            MemorySegment buf = a.allocate(4096);
            long r = (long) readlink.invokeExact(st, a.allocateFrom(path), buf, buf.byteSize());
            if (r < 0) {
                errnoOut[0] = (int) ERRNO.get(st, 0L);
                return Optional.empty();
            }
            return Optional.of(new String(buf.asSlice(0, r).toArray(ValueLayout.JAVA_BYTE), StandardCharsets.UTF_8));
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** The C library's text for {@code errno} ("Permission denied"). */
    String strerror(int errno) {
        try {
            MemorySegment s = (MemorySegment) strerror.invokeExact(errno);
            return s.reinterpret(256).getString(0);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    private static RuntimeException rethrow(Throwable t) {
        if (t instanceof RuntimeException r) return r;
        if (t instanceof Error e) throw e;
        return new IllegalStateException(t);
    }
}

package io.prmkit.platform;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * Device registers mapped into the process (BAR 0 mapped from a VFIO device fd, a UAR page mapped by
 * rdma-core): each access is one load or store of the mapped memory (big-endian device registers, as
 * {@link Mmio} says). Loads are volatile, so a poll of the init segment is never hoisted out of its
 * loop; stores are release stores, so everything the thread wrote before (a WQE, a command entry) is
 * visible to the device before the doorbell (on x86 both are plain moves). A 64-bit store is one
 * aligned 8-byte move, never split.
 */
public final class MappedMmio implements Mmio {
    private static final VarHandle BE32 = ValueLayout.JAVA_INT.withOrder(ByteOrder.BIG_ENDIAN).varHandle();
    private static final VarHandle BE64 = ValueLayout.JAVA_LONG.withOrder(ByteOrder.BIG_ENDIAN).varHandle();

    private final MemorySegment window;
    private final String name;

    /** {@code window} is the mapping; {@code name} names it in errors ("BAR 0", "UAR page 5"). */
    public MappedMmio(MemorySegment window, String name) {
        this.window = window;
        this.name = name;
    }

    @Override
    public long size() {
        return window.byteSize();
    }

    private void check(long offset, int bytes) {
        if (offset < 0 || offset > window.byteSize() - bytes || offset % bytes != 0) {
            throw new IllegalArgumentException(name + " access of " + bytes + " bytes at 0x" + Long.toHexString(offset) + " is "
                    + (offset % bytes != 0 ? "not naturally aligned" : "outside the 0x" + Long.toHexString(window.byteSize()) + "-byte window"));
        }
    }

    @Override
    public int read32(long offset) {
        check(offset, 4);
        return (int) BE32.getVolatile(window, offset);
    }

    @Override
    public long read64(long offset) {
        check(offset, 8);
        return (long) BE64.getVolatile(window, offset);
    }

    @Override
    public void write32(long offset, int value) {
        check(offset, 4);
        BE32.setRelease(window, offset, value);
    }

    @Override
    public void write64(long offset, long value) {
        check(offset, 8);
        BE64.setRelease(window, offset, value);
    }
}

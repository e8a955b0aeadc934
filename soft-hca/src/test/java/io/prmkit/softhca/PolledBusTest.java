package io.prmkit.softhca;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.prmkit.mlx5.InitSeg;
import io.prmkit.platform.DmaMemory;
import io.prmkit.platform.DmaRegion;
import io.prmkit.platform.Interrupts;
import io.prmkit.platform.Mmio;
import io.prmkit.platform.PciFunction;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * The device on a polled bus (Options.bus): BAR 0 is plain memory the host stores into, which the
 * device watches, as it does behind the VFIO stand-in. The host here is the tests' own (TestHost)
 * over that memory and over DMA memory it maps into the device's IOMMU itself: nothing traps a store.
 */
class PolledBusTest {
    static final VarHandle BE32 = ValueLayout.JAVA_INT.withOrder(ByteOrder.BIG_ENDIAN).varHandle();

    /** The host side of a polled bus: BAR memory, DMA memory mapped into the device's IOMMU by hand. */
    static final class Bus implements PciFunction, Mmio, DmaMemory, Interrupts {
        final Arena arena = Arena.ofShared();
        final MemorySegment bar;
        final List<Integer> msi = new CopyOnWriteArrayList<>();
        final SoftHca hca;
        final AtomicLong nextBus = new AtomicLong(0x40_0000_0000L);
        final AtomicLong allocated = new AtomicLong();

        Bus(SoftHca.Options o) {
            bar = arena.allocate(SoftHca.barSize(o), 4096);
            hca = SoftHca.create(o.bus(bar, msi::add));
        }

        @Override public String name() { return "polled-bus"; }
        @Override public Mmio bar0() { return this; }
        @Override public DmaMemory dma() { return this; }
        @Override public Interrupts interrupts() { return this; }
        @Override public void close() { hca.close(); }
        @Override public long size() { return bar.byteSize(); }
        @Override public int read32(long offset) { return (int) BE32.getVolatile(bar, offset); }
        @Override public long read64(long offset) { return (long) read32(offset) << 32 | Integer.toUnsignedLong(read32(offset + 4)); }
        @Override public void write32(long offset, int value) { BE32.setRelease(bar, offset, value); }
        @Override public void write64(long offset, long value) {
            bar.set(ValueLayout.JAVA_LONG.withOrder(ByteOrder.BIG_ENDIAN), offset, value);
        }
        @Override public int count() { return 0; }
        @Override public void bind(int vector, InterruptHandler handler) { throw new UnsupportedOperationException(); }
        @Override public long allocatedBytes() { return allocated.get(); }

        @Override
        public DmaRegion allocate(long size, long alignment) {
            MemorySegment seg = arena.allocate(size, Math.max(alignment, 4096));
            long bus = nextBus.getAndAdd((size + 4095 & ~4095L) + 4096);
            hca.iommu().map(bus, seg);
            allocated.addAndGet(size);
            return new DmaRegion() {
                @Override public MemorySegment segment() { return seg; }
                @Override public long busAddress() { return bus; }
                @Override public void close() {
                    hca.iommu().unmap(bus);
                    allocated.addAndGet(-size);
                }
            };
        }
    }

    @Test
    void bringUpThroughMemoryTheDevicePolls() throws InterruptedException {
        Bus b = new Bus(new SoftHca.Options());
        try (TestHost h = TestHost.started(b.hca, b)) {
            assertEquals(5, InitSeg.cmd_interface_rev(b.bar), "the device's init segment is in the memory");
            List<DmaRegion> pages = Cmds.bringUp(h);
            assertTrue(b.hca.commandsCompleted() >= 8, "commands seen through polled doorbells: " + b.hca.commandsCompleted());
            assertEquals(0, b.hca.doorbellsIgnored());
            int beat = InitSeg.health_counter(b.bar);
            Thread.sleep(350);
            assertTrue(InitSeg.health_counter(b.bar) > beat, "the health counter moves in the memory");
            assertEquals(null, b.hca.error());
            pages.forEach(DmaRegion::close);
        }
    }

    @Test
    void aPolledBusHasNoTrappedFunctionAndNeedsTheDeviceThread() {
        Bus b = new Bus(new SoftHca.Options());
        try (b) {
            assertThrows(IllegalStateException.class, b.hca::function);
        }
        MemorySegment mem = Arena.ofAuto().allocate(SoftHca.barSize(new SoftHca.Options()), 4096);
        assertThrows(IllegalArgumentException.class,
                () -> SoftHca.create(new SoftHca.Options().mode(ExecutionMode.STEP).bus(mem, v -> {})));
        assertThrows(IllegalArgumentException.class, () -> SoftHca.create(new SoftHca.Options().bus(mem.asSlice(0, 4096), v -> {})));
    }
}

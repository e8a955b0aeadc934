package io.prmkit.softhca;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

import io.prmkit.mlx5.CmdMailboxBlock;
import io.prmkit.mlx5.CmdOwner;
import io.prmkit.mlx5.CmdQueueEntry;
import io.prmkit.mlx5.CmdTransport;
import io.prmkit.mlx5.DeliveryStatus;
import io.prmkit.mlx5.InitSeg;
import io.prmkit.mlx5.NopOut;
import io.prmkit.platform.DmaRegion;
import io.prmkit.platform.Mmio;
import io.prmkit.platform.PciFunction;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * The test's side of the boundary: a minimal host that talks to the device only through BAR 0 and
 * DMA memory, building command entries and mailbox chains with the generated accessors.
 */
final class TestHost implements AutoCloseable {
    static final ValueLayout.OfInt BE_INT = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN);
    static final long BLOCK_ALIGN = 1024;

    final SoftHca hca;
    final PciFunction f;
    final Mmio bar;
    final ExecutionMode mode;
    DmaRegion cmdq;
    int logStride;
    int token = 1;

    TestHost(SoftHca.Options options, ExecutionMode mode) {
        this.mode = mode;
        this.hca = SoftHca.create(options.mode(mode));
        this.f = hca.function();
        this.bar = f.bar0();
    }

    /** A host on a device whose BAR 0 and DMA memory are {@code f}'s (a polled bus), thread mode. */
    TestHost(SoftHca hca, PciFunction f) {
        this.mode = ExecutionMode.THREAD;
        this.hca = hca;
        this.f = f;
        this.bar = f.bar0();
    }

    /** {@link #started(SoftHca.Options, ExecutionMode)} for a device reached through {@code f}. */
    static TestHost started(SoftHca hca, PciFunction f) {
        TestHost h = new TestHost(hca, f);
        h.waitInitialized();
        h.registerQueue();
        h.waitInitialized();
        return h;
    }

    static TestHost started(ExecutionMode mode) {
        return started(new SoftHca.Options(), mode);
    }

    /** A device with its command queue registered (initializing polled to 0 before and after). */
    static TestHost started(SoftHca.Options options, ExecutionMode mode) {
        TestHost h = new TestHost(options, mode);
        h.waitInitialized();
        h.registerQueue();
        h.waitInitialized();
        return h;
    }

    /** Reads the init-segment dword holding {@code byteOffset} into a scratch init_seg for the generated getters. */
    MemorySegment initSeg(long byteOffset) {
        MemorySegment s = MemorySegment.ofArray(new byte[(int) InitSeg.SIZE]);
        long dw = byteOffset & ~3L;
        s.set(BE_INT, dw, bar.read32(dw));
        return s;
    }

    void waitInitialized() {
        // A trapped init segment clears after a few reads; a polled bus's memory when the device next copies it there.
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        for (int i = 0; i < 1000 || System.nanoTime() < deadline; i++) {
            if (!InitSeg.initializing(initSeg(InitSeg.initializing$BIT_OFFSET / 8))) return;
            if (i >= 1000) Thread.onSpinWait();
        }
        fail("initializing never cleared");
    }

    void registerQueue() {
        MemorySegment sizes = initSeg(InitSeg.cmdq_phy_addr_low$BIT_OFFSET / 8);
        logStride = InitSeg.log_cmdq_stride(sizes);
        cmdq = f.dma().allocate(4096, 4096);
        registerQueueAt(cmdq.busAddress());
    }

    void registerQueueAt(long address) {
        MemorySegment s = MemorySegment.ofArray(new byte[(int) InitSeg.SIZE]);
        InitSeg.cmdq_phy_addr_high$set(s, (int) (address >>> 32));
        InitSeg.cmdq_phy_addr_low$setUnchecked(s, (int) (address >>> 12));
        long hi = InitSeg.cmdq_phy_addr_high$BIT_OFFSET / 8;
        long lo = InitSeg.cmdq_phy_addr_low$BIT_OFFSET / 8;
        bar.write32(hi, s.get(BE_INT, hi));
        bar.write32(lo, s.get(BE_INT, lo) | (int) (address & 0xfff)); // a misaligned address shows in the low bits
    }

    /** The outcome of one command: delivery status, and the whole output (inline + mailboxes). */
    record Result(int delivery, MemorySegment out) {
        int status() {
            return NopOut.status(out);
        }

        int syndrome() {
            return NopOut.syndrome(out);
        }

        Result ok() {
            assertEquals(0, delivery, () -> "delivery status " + DeliveryStatus.nameOf(delivery));
            assertEquals(0, status(), () -> "command status 0x" + Integer.toHexString(status()) + " syndrome "
                    + io.prmkit.softhca.cmd.Syndrome.describe(syndrome()));
            return this;
        }
    }

    /** A posted command before its doorbell: the entry and the mailbox blocks, for a test to spoil. */
    record Posting(MemorySegment entry, List<MemorySegment> inBlocks, List<MemorySegment> outBlocks, List<DmaRegion> regions) {}

    Result exec(MemorySegment in, long outLen) {
        return exec(in, outLen, p -> {});
    }

    Result exec(MemorySegment in, long outLen, Consumer<Posting> spoil) {
        return exec(0, in, outLen, spoil);
    }

    /** Posts {@code in} in {@code slot}, rings, waits (bounded) for the device to hand the entry back. */
    Result exec(int slot, MemorySegment in, long outLen, Consumer<Posting> spoil) {
        MemorySegment entry = cmdq.segment().asSlice((long) slot << logStride, CmdQueueEntry.SIZE);
        entry.fill((byte) 0);
        int tok = token = token % 255 + 1;
        List<DmaRegion> regions = new ArrayList<>();
        List<MemorySegment> inBlocks = new ArrayList<>();
        List<MemorySegment> outBlocks = new ArrayList<>();
        long inPtr = chain(in.byteSize(), tok, regions, inBlocks);
        long outPtr = chain(outLen, tok, regions, outBlocks);
        MemorySegment.copy(in, 0, entry, CmdQueueEntry.command_input_inline_data$BYTE_OFFSET, Math.min(16, in.byteSize()));
        for (int i = 0; i < inBlocks.size(); i++) {
            long at = 16 + i * 512L;
            MemorySegment.copy(in, at, inBlocks.get(i), 0, Math.min(512, in.byteSize() - at));
        }
        CmdQueueEntry.type$set(entry, CmdTransport.PCI);
        CmdQueueEntry.input_length$set(entry, (int) in.byteSize());
        CmdQueueEntry.output_length$set(entry, (int) outLen);
        CmdQueueEntry.input_mailbox_pointer$set(entry, inPtr);
        CmdQueueEntry.output_mailbox_pointer$set(entry, outPtr);
        CmdQueueEntry.token$set(entry, tok);
        CmdQueueEntry.ownership$set(entry, CmdOwner.HW);
        spoil.accept(new Posting(entry, inBlocks, outBlocks, regions));
        VarHandle.fullFence();
        bar.write32(InitSeg.command_doorbell_vector$BIT_OFFSET / 8, 1 << slot);
        awaitOwnership(entry);
        VarHandle.acquireFence();
        MemorySegment out = MemorySegment.ofArray(new byte[(int) Math.max(outLen, 16)]);
        MemorySegment.copy(entry, CmdQueueEntry.command_output_inline_data$BYTE_OFFSET, out, 0, 16);
        for (int i = 0; i < outBlocks.size(); i++) {
            long at = 16 + i * 512L;
            MemorySegment.copy(outBlocks.get(i), 0, out, at, Math.min(512, outLen - at));
        }
        Result r = new Result(CmdQueueEntry.status(entry), out.asSlice(0, Math.max(outLen, 16)));
        regions.forEach(DmaRegion::close);
        return r;
    }

    void awaitOwnership(MemorySegment entry) {
        if (mode == ExecutionMode.STEP) {
            hca.runUntilIdle();
            if (CmdQueueEntry.ownership$enum(entry) != CmdOwner.SW) fail("device idle but the entry is still owned by hardware");
            return;
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (CmdQueueEntry.ownership$enum(entry) != CmdOwner.SW) {
            if (System.nanoTime() > deadline) fail("command not completed within 10 s");
            Thread.onSpinWait();
        }
    }

    /** A mailbox chain for {@code length} bytes (none when they fit inline); returns the first block's bus address. */
    long chain(long length, int tok, List<DmaRegion> regions, List<MemorySegment> blocks) {
        if (length <= 16) return 0;
        int n = (int) ((length - 16 + 511) / 512);
        DmaRegion r = f.dma().allocate(n * BLOCK_ALIGN, BLOCK_ALIGN);
        regions.add(r);
        for (int i = 0; i < n; i++) {
            MemorySegment b = r.segment().asSlice(i * BLOCK_ALIGN, CmdMailboxBlock.SIZE);
            CmdMailboxBlock.block_number$set(b, i);
            CmdMailboxBlock.token$set(b, tok);
            CmdMailboxBlock.next_pointer$set(b, i + 1 < n ? r.busAddress((i + 1) * BLOCK_ALIGN) : 0);
            blocks.add(b);
        }
        return r.busAddress();
    }

    /** A zeroed input of {@code size} bytes. */
    static MemorySegment in(long size) {
        return MemorySegment.ofArray(new byte[(int) size]);
    }

    @Override
    public void close() {
        hca.close();
    }
}

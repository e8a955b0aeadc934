package io.prmkit.softhca;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.prmkit.dsl.Property;
import io.prmkit.mlx5.CmdMailboxBlock;
import io.prmkit.mlx5.CmdOpcode;
import io.prmkit.mlx5.CmdOwner;
import io.prmkit.mlx5.CmdQueueEntry;
import io.prmkit.mlx5.CmdStatus;
import io.prmkit.mlx5.CmdTransport;
import io.prmkit.mlx5.DeliveryStatus;
import io.prmkit.mlx5.InitSeg;
import io.prmkit.mlx5.NopIn;
import io.prmkit.mlx5.NopOut;
import io.prmkit.platform.DmaRegion;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * Fuzz property of the command interface: random and mutated command entries and mailbox chains,
 * posted through BAR 0. Each try is a fresh device in step mode running {@link #PER_TRY} commands
 * from the try's seed, so a failing seed replays exactly ({@code -Dprmkit.seed=<seed> -Dprmkit.tries=1}).
 * The device must never fail internally, must answer every posted entry with a delivery status it
 * defines (and, when delivered, a command status it defines), and must never write host memory it
 * reaches only by a native address (a canary outside every mapping).
 */
class CommandFuzzTest {
    static final int PER_TRY = 1_000;
    static final int TRIES = 100;
    static final int BLOCKS = 48;
    static final long BLOCK = 1024;
    static final CmdOpcode[] OPCODES = CmdOpcode.values();

    @Test
    void everyEntryCompletesWithADefinedStatus() {
        run(false);
    }

    /**
     * The same fuzz with the device's command trace on: every input and output goes through the
     * generated dump() and the hexdump, whatever its length (short inputs included), and the trace
     * must never fail (no "trace failed" line) nor make the device fail.
     */
    @Test
    void everyEntryCompletesWithTracingOn() {
        run(true);
    }

    private static void run(boolean tracing) {
        AtomicLong commands = new AtomicLong();
        AtomicLong faults = new AtomicLong();
        AtomicLong delivered = new AtomicLong();
        AtomicLong succeeded = new AtomicLong();
        AtomicLong traced = new AtomicLong();
        AtomicLong shortDumps = new AtomicLong();
        java.util.List<String> traceFailures = java.util.Collections.synchronizedList(new java.util.ArrayList<>());
        java.util.function.Consumer<String> sink = line -> {
            traced.addAndGet(line.length());
            if (line.contains("bytes given; the rest read as 0")) shortDumps.incrementAndGet();
            if (line.contains(Tracer.TRACE_FAILED) && traceFailures.size() < 5) traceFailures.add(line);
        };
        int tries = Property.check(TRIES, g -> {
            long seed = g.anyLong("seed");
            Random r = new Random(seed);
            SoftHca.Options options = new SoftHca.Options().pages(2, 2, 0);
            if (tracing) options.trace(sink);
            try (TestHost h = TestHost.started(options, ExecutionMode.STEP);
                    Arena arena = Arena.ofConfined()) {
                // Half the tries start from a brought-up device with objects, so handlers see real state.
                if (g.bool("brought up")) {
                    Cmds.bringUp(h);
                    ObjectCommandsTest.Base.of(h);
                }
                DmaRegion pool = h.f.dma().allocate(BLOCKS * BLOCK, 4096);
                MemorySegment canary = arena.allocate(8192, 4096);
                canary.fill((byte) 0x5a);
                for (int i = 0; i < PER_TRY; i++) {
                    int d = post(h, pool, canary, r);
                    if (d >= 0) delivered.incrementAndGet();
                    if (d == Integer.MAX_VALUE) succeeded.incrementAndGet();
                    commands.incrementAndGet();
                }
                assertNull(h.hca.error(), () -> "device failed: " + h.hca.error());
                assertTrue(!h.hca.isFatal(), "the device went fatal from command input");
                for (long b = 0; b < canary.byteSize(); b++) {
                    assertEquals((byte) 0x5a, canary.get(ValueLayout.JAVA_BYTE, b), "memory reached only by a native address was written");
                }
                faults.addAndGet(h.hca.iommu().faults());
            }
        });
        assertTrue(commands.get() >= (long) tries * PER_TRY);
        assertTrue(faults.get() > 0, "the fuzz reached the DMA fault path");
        assertTrue(delivered.get() > 0, "some commands were delivered");
        if (tracing) {
            assertEquals(java.util.List.of(), traceFailures, "the trace never fails");
            assertTrue(shortDumps.get() > 0, "the trace decoded inputs shorter than their structure");
        }
        System.out.printf("command fuzz%s: %d entries, %d delivered, %d succeeded, %d DMA faults%s%n", tracing ? " (tracing on)" : "",
                commands.get(), delivered.get(), succeeded.get(), faults.get(),
                tracing ? ", " + traced.get() / 1024 + " KiB of trace, " + shortDumps.get() + " short inputs decoded" : "");
    }

    /** A pointer the device may meet: a block slot, a misaligned one, unmapped, native, or noise. */
    static long pointer(Random r, DmaRegion pool, MemorySegment canary) {
        return switch (r.nextInt(8)) {
            case 0 -> 0;
            case 1 -> pool.busAddress() + r.nextInt(BLOCKS * (int) BLOCK);
            case 2 -> canary.address() + 1024L * r.nextInt(4);
            case 3 -> r.nextLong();
            case 4 -> pool.busAddress() + BLOCKS * BLOCK + 4096; // the guard page after the pool
            default -> pool.busAddress() + BLOCK * r.nextInt(BLOCKS);
        };
    }

    /** The generated input and output structures of an opcode, found by the kernel's naming (null when the names differ). */
    static io.prmkit.layout.PrmLayout.Struct layout(CmdOpcode op, String suffix) {
        return LAYOUTS.computeIfAbsent(op + suffix, k -> find(op, suffix)).orElse(null);
    }

    static final java.util.Map<String, java.util.Optional<io.prmkit.layout.PrmLayout.Struct>> LAYOUTS = new java.util.concurrent.ConcurrentHashMap<>();

    static java.util.Optional<io.prmkit.layout.PrmLayout.Struct> find(CmdOpcode op, String suffix) {
        StringBuilder b = new StringBuilder("io.prmkit.mlx5.");
        for (String part : op.name().toLowerCase(java.util.Locale.ROOT).split("_")) {
            if (!part.isEmpty()) b.append(Character.toUpperCase(part.charAt(0))).append(part.substring(1));
        }
        try {
            return java.util.Optional.of((io.prmkit.layout.PrmLayout.Struct) Class.forName(b + suffix).getMethod("layout").invoke(null));
        } catch (ReflectiveOperationException e) {
            return java.util.Optional.empty();
        }
    }

    /** A command input: a real opcode's structure with a few fields set to plausible values, or noise. */
    static MemorySegment input(Random r, DmaRegion pool, long[] outLen) {
        CmdOpcode op = OPCODES[r.nextInt(OPCODES.length)];
        io.prmkit.layout.PrmLayout.Struct in = layout(op, "In");
        io.prmkit.layout.PrmLayout.Struct out = layout(op, "Out");
        long inLen = in != null && r.nextBoolean() ? in.sizeBytes() + 8L * r.nextInt(3) : 8 + r.nextInt(r.nextBoolean() ? 64 : 0x1200);
        outLen[0] = out != null && r.nextBoolean() ? out.sizeBytes() + 8L * r.nextInt(3) : 8 + r.nextInt(r.nextBoolean() ? 64 : 0x1200);
        MemorySegment s = TestHost.in(inLen);
        if (in != null && inLen >= in.sizeBytes()) {
            java.util.List<io.prmkit.layout.PrmLayout.Field> fields = in.fields().stream()
                    .filter(f -> !f.reserved() && f.kind() == io.prmkit.layout.PrmLayout.Kind.BITS).toList();
            int n = r.nextInt(4);
            for (int i = 0; i < n && !fields.isEmpty(); i++) {
                io.prmkit.layout.PrmLayout.Field f = fields.get(r.nextInt(fields.size()));
                long v = switch (r.nextInt(4)) {
                    case 0 -> r.nextInt(4);
                    case 1 -> pool.busAddress(4096L * r.nextInt(BLOCKS / 4));
                    case 2 -> 0x400 + r.nextInt(4);
                    default -> r.nextLong();
                };
                int w = (int) f.bitWidth();
                in.set(s, 0, f, w < 64 ? v & ((1L << w) - 1) : v);
            }
        } else {
            for (int k = 0; k < 8 && inLen > 16; k++) s.set(ValueLayout.JAVA_BYTE, 16 + r.nextInt((int) inLen - 16), (byte) r.nextInt(256));
        }
        NopIn.opcode$set(s, op);
        if (r.nextInt(8) == 0) NopIn.opcode$setUnchecked(s, r.nextInt(0x10000));
        if (r.nextInt(4) == 0) NopIn.op_mod$setUnchecked(s, r.nextInt(0x10000));
        else if (r.nextBoolean()) NopIn.op_mod$setUnchecked(s, r.nextInt(3));
        return s;
    }

    /**
     * Posts one random or mutated command in a random slot, runs the device, checks the answer; returns
     * -1 when not delivered, the command status when delivered, {@code Integer.MAX_VALUE} for OK.
     */
    static int post(TestHost h, DmaRegion pool, MemorySegment canary, Random r) {
        int slot = r.nextInt(32);
        MemorySegment entry = h.cmdq.segment().asSlice((long) slot << h.logStride, CmdQueueEntry.SIZE);
        entry.fill((byte) 0);
        MemorySegment blocks = pool.segment();
        long[] outLenBox = new long[1];
        MemorySegment in = input(r, pool, outLenBox);
        long inLen = Math.max(in.byteSize(), 8);
        long outLen = outLenBox[0];
        int token = 1 + r.nextInt(255);
        int inBlocks = (int) Math.max(0, (inLen - 16 + 511) / 512);
        int outBlocks = (int) Math.max(0, (outLen - 16 + 511) / 512);
        if (inBlocks + outBlocks > BLOCKS) {
            outLen = 16;
            outBlocks = 0;
        }
        for (int b = 0; b < inBlocks + outBlocks; b++) {
            MemorySegment blk = blocks.asSlice(b * BLOCK, CmdMailboxBlock.SIZE);
            blk.fill((byte) 0);
            boolean isIn = b < inBlocks;
            int n = isIn ? b : b - inBlocks;
            int last = isIn ? inBlocks - 1 : inBlocks + outBlocks - 1;
            CmdMailboxBlock.block_number$set(blk, n);
            CmdMailboxBlock.token$set(blk, token);
            CmdMailboxBlock.next_pointer$set(blk, b < last ? pool.busAddress((b + 1) * BLOCK) : 0);
            if (isIn) {
                long at = 16 + 512L * n;
                MemorySegment.copy(in, at, blk, 0, Math.min(512, in.byteSize() - at));
            }
        }
        MemorySegment.copy(in, 0, entry, CmdQueueEntry.command_input_inline_data$BYTE_OFFSET, Math.min(16, in.byteSize()));
        CmdQueueEntry.type$set(entry, CmdTransport.PCI);
        CmdQueueEntry.input_length$set(entry, (int) inLen);
        CmdQueueEntry.output_length$set(entry, (int) outLen);
        CmdQueueEntry.input_mailbox_pointer$set(entry, inBlocks > 0 ? pool.busAddress() : 0);
        CmdQueueEntry.output_mailbox_pointer$set(entry, outBlocks > 0 ? pool.busAddress(inBlocks * BLOCK) : 0);
        CmdQueueEntry.token$set(entry, token);
        mutate(r, entry, blocks, inBlocks + outBlocks, pool, canary);
        CmdQueueEntry.ownership$set(entry, CmdOwner.HW);
        VarHandle.fullFence();
        h.bar.write32(InitSeg.command_doorbell_vector$BIT_OFFSET / 8, 1 << slot);
        h.hca.runUntilIdle();
        assertNull(h.hca.error(), () -> "device failed: " + h.hca.error());
        assertEquals(CmdOwner.SW, CmdQueueEntry.ownership$enum(entry), "every posted entry is handed back");
        int delivery = CmdQueueEntry.status(entry);
        assertNotNull(DeliveryStatus.of(delivery), () -> "undefined delivery status 0x" + Integer.toHexString(delivery));
        if (delivery != DeliveryStatus.OK.value) return -1;
        int status = NopOut.status(entry, CmdQueueEntry.command_output_inline_data$BYTE_OFFSET);
        assertNotNull(CmdStatus.of(status), () -> "undefined command status 0x" + Integer.toHexString(status));
        return status == CmdStatus.OK.value ? Integer.MAX_VALUE : status;
    }

    /** Half the time none, else one to three mutations of the entry and the chain. */
    static void mutate(Random r, MemorySegment entry, MemorySegment blocks, int used, DmaRegion pool, MemorySegment canary) {
        int n = r.nextBoolean() ? 0 : 1 + r.nextInt(3);
        for (int i = 0; i < n; i++) {
            switch (r.nextInt(10)) {
                case 0 -> entry.set(ValueLayout.JAVA_BYTE, r.nextInt(64), (byte) (1 << r.nextInt(8)));
                case 1 -> CmdQueueEntry.input_mailbox_pointer$set(entry, pointer(r, pool, canary));
                case 2 -> CmdQueueEntry.output_mailbox_pointer$set(entry, pointer(r, pool, canary));
                case 3 -> CmdQueueEntry.input_length$set(entry, r.nextInt(4) == 0 ? r.nextInt() : r.nextInt(0x3000));
                case 4 -> CmdQueueEntry.output_length$set(entry, r.nextInt(4) == 0 ? r.nextInt() : r.nextInt(0x3000));
                case 5 -> CmdQueueEntry.type$setUnchecked(entry, r.nextInt(256));
                case 6 -> {
                    if (used > 0) CmdMailboxBlock.block_number$set(blocks, r.nextInt(used) * BLOCK, r.nextInt(used + 2));
                }
                case 7 -> {
                    if (used > 0) CmdMailboxBlock.token$set(blocks, r.nextInt(used) * BLOCK, r.nextInt(256));
                }
                case 8 -> {
                    if (used > 0) CmdMailboxBlock.next_pointer$set(blocks, r.nextInt(used) * BLOCK, pointer(r, pool, canary));
                }
                default -> {
                    if (used > 0) blocks.set(ValueLayout.JAVA_BYTE, r.nextInt(used) * BLOCK + 512 + r.nextInt(64), (byte) r.nextInt(256));
                }
            }
        }
    }
}

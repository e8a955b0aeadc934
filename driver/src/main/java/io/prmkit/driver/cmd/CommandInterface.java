package io.prmkit.driver.cmd;

import io.prmkit.driver.Mlx5Exception;
import io.prmkit.mlx5.CmdMailboxBlock;
import io.prmkit.mlx5.CmdOpcode;
import io.prmkit.mlx5.CmdOwner;
import io.prmkit.mlx5.CmdQueueEntry;
import io.prmkit.mlx5.CmdTransport;
import io.prmkit.mlx5.NopIn;
import io.prmkit.mlx5.NopOut;
import io.prmkit.mlx5.PrmConstants;
import io.prmkit.layout.PrmLayout;
import io.prmkit.platform.DmaMemory;
import io.prmkit.platform.DmaRegion;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.VarHandle;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;

/**
 * PRM "Command Interface": the command queue in host memory, posted through the initialization
 * segment's doorbell.
 *
 * <ol>
 *   <li>Setup: wait for {@code initializing} to clear, read {@code log_cmdq_size}/{@code
 *       log_cmdq_stride}, allocate one 4 KiB-aligned page for the queue, write its address (high
 *       dword, then low dword), wait for {@code initializing} to clear again.
 *   <li>Posting: a thread takes a free slot, fills the 64-byte {@code cmd_queue_entry} (type PCI,
 *       lengths, the first 16 input bytes inline, mailbox chains of {@code cmd_mailbox_block}s for
 *       the rest of input and output, a token, ownership = HW) and writes {@code 1 << slot} to the
 *       doorbell.
 *   <li>Completion: the firmware clears the ownership bit; the thread sees it by polling, or is woken
 *       by a command-completion EQE once the driver has a command EQ ({@link #useEvents}).
 *       Every wait is bounded by the command timeout.
 *   <li>Status: the delivery status in the entry, then the command status and syndrome at the start of
 *       the output ({@link CommandException}).
 * </ol>
 *
 * Like Linux, the last slot is kept for MANAGE_PAGES so that supplying pages never waits behind
 * commands that need those pages. Command checksums stay disabled (the driver leaves
 * {@code cmdif_checksum} at 0), so signatures are not computed.
 *
 * <p>Thread safety: any number of threads may call {@link #execute}; each holds one slot for the
 * duration of its command.
 */
public final class CommandInterface implements CommandTransport, AutoCloseable {

    /** Timeouts and tracing of the command interface. */
    public record Options(Duration initTimeout, Duration commandTimeout, CommandTrace trace) {
        public Options {
            if (initTimeout.isNegative() || commandTimeout.isNegative() || commandTimeout.isZero())
                throw new IllegalArgumentException("timeouts must be positive");
            if (trace == null) trace = CommandTrace.OFF;
        }

        /** Linux waits up to 120 s for firmware start and 60 s per command; ours are shorter. */
        public static Options defaults() {
            return new Options(Duration.ofSeconds(10), Duration.ofSeconds(30), CommandTrace.OFF);
        }
    }

    private static final long MAILBOX_DATA = PrmConstants.cmd_mailbox_data_size;
    private static final long INLINE = PrmConstants.cmd_inline_data_size;
    /** Blocks sit 1 KiB apart (CmdMailboxBlock.SIZE rounded up to a power of two, as Linux's DMA pool does). */
    private static final long MAILBOX_STRIDE = Long.highestOneBit(CmdMailboxBlock.SIZE - 1) << 1;
    private static final long PAGE = 4096;

    private final InitSegment iseg;
    private final DmaMemory dma;
    private final Options options;
    private final DmaRegion queue;
    private final int logStride;
    private final int slots;
    private final int pageSlot;
    private final Thread[] waiters;
    private final boolean[] busy;
    private final boolean[] retired;
    private final List<DmaRegion> orphans = new ArrayList<>();
    private final List<Runnable> deferred = new ArrayList<>();
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition slotFreed = lock.newCondition();
    private volatile boolean events;
    private volatile DeviceFatalException fatal;
    private volatile boolean closed;
    private int token;
    private final java.util.concurrent.atomic.AtomicLong eventCompletions = new java.util.concurrent.atomic.AtomicLong();

    private CommandInterface(InitSegment iseg, DmaMemory dma, Options options, DmaRegion queue, int logSize, int logStride) {
        this.iseg = iseg;
        this.dma = dma;
        this.options = options;
        this.queue = queue;
        this.logStride = logStride;
        this.slots = 1 << logSize;
        this.pageSlot = slots > 1 ? slots - 1 : 0;
        this.waiters = new Thread[slots];
        this.busy = new boolean[slots];
        this.retired = new boolean[slots];
    }

    /**
     * Sets the command queue up (PRM "Command Queue Initialization"): checks the interface revision
     * and the queue geometry the firmware reports, programs the queue's address and waits for the
     * firmware to finish initializing.
     *
     * @throws Mlx5Exception when the firmware never clears {@code initializing}, or reports an
     *     interface revision or geometry the driver does not support
     */
    public static CommandInterface open(InitSegment iseg, DmaMemory dma, Options options) {
        waitInitializing(iseg, options.initTimeout(), "before the command queue address was set");
        int rev = iseg.cmdInterfaceRev();
        if (rev != PrmConstants.cmd_interface_revision)
            throw new Mlx5Exception("command interface revision " + rev + " is not supported (init_seg.cmd_interface_rev must be "
                    + PrmConstants.cmd_interface_revision + ")");
        int logSize = iseg.logCmdqSize();
        int logStride = iseg.logCmdqStride();
        if ((1 << logSize) > PrmConstants.max_commands)
            throw new Mlx5Exception("firmware reports 2^" + logSize + " command slots; at most " + PrmConstants.max_commands + " are supported");
        if (logSize + logStride > 12 || (1L << logStride) < CmdQueueEntry.SIZE)
            throw new Mlx5Exception("firmware reports a command queue of 2^" + logSize + " entries " + (1 << logStride)
                    + " bytes apart, which does not fit one 4 KiB page of 64-byte entries");
        DmaRegion queue = dma.allocate(PAGE, PAGE);
        try {
            iseg.setCmdqAddress(queue.busAddress());
            waitInitializing(iseg, options.initTimeout(), "after the command queue address was set");
        } catch (RuntimeException e) {
            queue.close();
            throw e;
        }
        return new CommandInterface(iseg, dma, options, queue, logSize, logStride);
    }

    /** Bounded wait for init_seg.initializing to read 0. */
    static void waitInitializing(InitSegment iseg, Duration timeout, String when) {
        long deadline = System.nanoTime() + timeout.toNanos();
        long park = 1_000;
        while (iseg.initializing()) {
            if (System.nanoTime() - deadline > 0)
                throw new Mlx5Exception("firmware still initializing " + timeout.toMillis() + " ms " + when
                        + " (init_seg.initializing stayed 1)");
            LockSupport.parkNanos(park);
            park = Math.min(park * 2, 1_000_000);
        }
    }

    public int slots() {
        return slots;
    }

    public Options options() {
        return options;
    }

    /** Wake waiters on command-completion events (EQE type CMD) instead of polling every few µs. */
    public void useEvents(boolean on) {
        events = on;
    }

    /** Called from the command EQ's handler with the EQE's bit vector of completed slots. */
    public void completed(int slotMask) {
        eventCompletions.incrementAndGet();
        for (int i = 0; i < slots; i++) {
            if ((slotMask & (1 << i)) == 0) continue;
            Thread t = waiters[i];
            if (t != null) LockSupport.unpark(t);
        }
    }

    /**
     * The device is dead: every waiting command fails now with {@code e}, every later one at once.
     */
    public void fail(DeviceFatalException e) {
        if (fatal == null) fatal = e;
        for (Thread t : waiters) if (t != null) LockSupport.unpark(t);
        lock.lock();
        try {
            slotFreed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /** The fatal error given to {@link #fail}, or null. */
    @Override
    public DeviceFatalException fatal() {
        return fatal;
    }

    /** An input buffer for a command: {@code size} zeroed bytes. */
    public static MemorySegment input(long size) {
        return MemorySegment.ofArray(new byte[Math.toIntExact(size)]);
    }

    /** Runs {@code command} for an output of {@code outLength} bytes (an output structure followed by a trailing array or a register). */
    @Override
    public MemorySegment execute(PrmLayout.Command command, MemorySegment in, long outLength) {
        return execute(in, command.in(), outLength, command.out());
    }

    /** Runs the creating command; the handle runs the object's later commands on this queue as they are. */
    @Override
    public Created create(PrmLayout.Command command, MemorySegment in) {
        return new Created(execute(command, in), direct);
    }

    /** The command queue keeps no per-object state: every command on an object is just run. */
    private final ObjectHandle direct = new ObjectHandle() {
        @Override
        public MemorySegment modify(PrmLayout.Command command, MemorySegment in) {
            return execute(command, in);
        }

        @Override
        public MemorySegment query(PrmLayout.Command command, MemorySegment in) {
            return execute(command, in);
        }

        @Override
        public void destroy(PrmLayout.Command command, MemorySegment in) {
            execute(command, in);
        }
    };

    /**
     * Runs one command and returns its output ({@code outLength} bytes) after checking both status
     * layers. The layouts name the input and output structures for the trace's detail mode (either
     * may be null).
     *
     * @throws CommandException for a delivery or command status other than OK
     * @throws CommandTimeoutException when the firmware does not complete it in time
     * @throws DeviceFatalException when the device is (or becomes) fatal
     */
    public MemorySegment execute(MemorySegment in, PrmLayout.Struct inLayout, long outLength, PrmLayout.Struct outLayout) {
        int opcode = NopIn.opcode(in);
        int opMod = NopIn.op_mod(in);
        if (in.byteSize() < NopIn.op_mod$BIT_OFFSET / 8 + 2 || outLength < NopOut.syndrome$BIT_OFFSET / 8 + 4)
            throw new IllegalArgumentException(CommandException.commandName(opcode, opMod) + ": input or output shorter than the command header");
        DeviceFatalException f = fatal;
        if (f != null) throw f.again(CommandException.commandName(opcode, opMod));
        if (closed) throw new Mlx5Exception(CommandException.commandName(opcode, opMod) + ": the command interface is closed");

        boolean pages = opcode == CmdOpcode.MANAGE_PAGES$VALUE;
        long t0 = System.nanoTime();
        int slot = acquire(opcode, opMod, pages, t0 + options.commandTimeout().toNanos());
        MemorySegment out = MemorySegment.ofArray(new byte[Math.toIntExact(outLength)]);
        DmaRegion inBoxes = null, outBoxes = null;
        boolean release = true;
        int delivery = 0, status = -1, syndrome = 0;
        String outcome = null;
        try {
            inBoxes = mailboxes(in.byteSize());
            outBoxes = mailboxes(outLength);
            long e = (long) slot << logStride;
            MemorySegment q = queue.segment();
            int tok = nextToken();
            CmdQueueEntry.clear(q, e);
            CmdQueueEntry.type$set(q, e, CmdTransport.PCI);
            CmdQueueEntry.input_length$set(q, e, (int) in.byteSize());
            CmdQueueEntry.output_length$set(q, e, (int) outLength);
            MemorySegment.copy(in, 0, CmdQueueEntry.command_input_inline_data(q, e), 0, Math.min(INLINE, in.byteSize()));
            if (inBoxes != null) {
                fillChain(inBoxes, in, tok);
                CmdQueueEntry.input_mailbox_pointer$set(q, e, inBoxes.busAddress());
            }
            if (outBoxes != null) {
                fillChain(outBoxes, null, tok);
                CmdQueueEntry.output_mailbox_pointer$set(q, e, outBoxes.busAddress());
            }
            CmdQueueEntry.token$set(q, e, tok);
            CmdQueueEntry.ownership$set(q, e, CmdOwner.HW);
            waiters[slot] = Thread.currentThread();
            VarHandle.fullFence(); // the entry and mailboxes are in memory before the doorbell
            t0 = System.nanoTime();
            iseg.ringCommandDoorbell(1 << slot);

            awaitOwnership(q, e, slot, opcode, opMod);

            delivery = CmdQueueEntry.status(q, e);
            MemorySegment.copy(CmdQueueEntry.command_output_inline_data(q, e), 0, out, 0, Math.min(INLINE, outLength));
            if (outBoxes != null) readChain(outBoxes, out);
            if (delivery == 0) {
                status = NopOut.status(out);
                syndrome = NopOut.syndrome(out);
            }
            if (delivery != 0 || status != 0) {
                CommandException ex = new CommandException(opcode, opMod, slot, delivery, status, syndrome);
                outcome = ex.getMessage();
                throw ex;
            }
            return out;
        } catch (CommandTimeoutException | DeviceFatalException ex) {
            release = false; // the firmware may still write this slot and its mailboxes
            retire(slot, inBoxes, outBoxes);
            inBoxes = outBoxes = null;
            outcome = ex.getMessage();
            throw ex;
        } finally {
            waiters[slot] = null;
            if (inBoxes != null) inBoxes.close();
            if (outBoxes != null) outBoxes.close();
            if (release) release(slot);
            options.trace().command(new CommandTrace.Exchange(opcode, opMod, in.byteSize(), outLength, slot, delivery, status,
                    syndrome, System.nanoTime() - t0, in, inLayout, out, outLayout, outcome));
        }
    }

    private int nextToken() {
        lock.lock();
        try {
            token = (token + 1) & ((1 << CmdQueueEntry.token$BIT_WIDTH) - 1);
            if (token == 0) token = 1; // Linux never uses token 0
            return token;
        } finally {
            lock.unlock();
        }
    }

    private void awaitOwnership(MemorySegment q, long e, int slot, int opcode, int opMod) {
        long deadline = System.nanoTime() + options.commandTimeout().toNanos();
        long park = 2_000;
        int spins = 0;
        while (true) {
            VarHandle.acquireFence();
            if (CmdQueueEntry.ownership$enum(q, e) == CmdOwner.SW) return;
            DeviceFatalException f = fatal;
            if (f != null) throw f.again(CommandException.commandName(opcode, opMod) + " on slot " + slot);
            long left = deadline - System.nanoTime();
            if (left <= 0) throw new CommandTimeoutException(opcode, opMod, slot, options.commandTimeout().toMillis());
            if (spins++ < 100) {
                Thread.onSpinWait();
                continue;
            }
            // With events the EQ handler unparks us; poll every 10 ms anyway in case an EQE is lost.
            LockSupport.parkNanos(this, Math.min(left, events ? 10_000_000 : park));
            park = Math.min(park * 2, 1_000_000);
        }
    }

    private int acquire(int opcode, int opMod, boolean pages, long deadline) {
        lock.lock();
        try {
            while (true) {
                if (pages) {
                    if (!busy[pageSlot] && !retired[pageSlot]) return take(pageSlot);
                } else {
                    int last = slots > 1 ? slots - 1 : slots;
                    for (int i = 0; i < last; i++) if (!busy[i] && !retired[i]) return take(i);
                }
                DeviceFatalException f = fatal;
                if (f != null) throw f.again(CommandException.commandName(opcode, opMod));
                if (closed) throw new Mlx5Exception(CommandException.commandName(opcode, opMod) + ": the command interface is closed");
                long left = deadline - System.nanoTime();
                if (left <= 0)
                    throw CommandTimeoutException.noFreeSlot(opcode, opMod, options.commandTimeout().toMillis());
                slotFreed.awaitNanos(left);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new Mlx5Exception(CommandException.commandName(opcode, opMod) + ": interrupted while waiting for a free command slot");
        } finally {
            lock.unlock();
        }
    }

    private int take(int slot) {
        busy[slot] = true;
        return slot;
    }

    private void release(int slot) {
        lock.lock();
        try {
            busy[slot] = false;
            slotFreed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    private void retire(int slot, DmaRegion a, DmaRegion b) {
        lock.lock();
        try {
            retired[slot] = true;
            if (a != null) orphans.add(a);
            if (b != null) orphans.add(b);
        } finally {
            lock.unlock();
        }
    }

    /** A chain of mailbox blocks for {@code length} bytes of input or output, or null if it fits inline. */
    private DmaRegion mailboxes(long length) {
        if (length <= INLINE) return null;
        long blocks = (length - INLINE + MAILBOX_DATA - 1) / MAILBOX_DATA;
        return dma.allocate(blocks * MAILBOX_STRIDE, PAGE);
    }

    /** Links the blocks (next pointer, block number, token) and copies input bytes 16.. into them. */
    private static void fillChain(DmaRegion boxes, MemorySegment in, int tok) {
        MemorySegment m = boxes.segment();
        long blocks = m.byteSize() / MAILBOX_STRIDE;
        for (long k = 0; k < blocks; k++) {
            long b = k * MAILBOX_STRIDE;
            CmdMailboxBlock.clear(m, b);
            if (in != null) {
                long from = INLINE + k * MAILBOX_DATA;
                long n = Math.min(MAILBOX_DATA, in.byteSize() - from);
                MemorySegment.copy(in, from, CmdMailboxBlock.mailbox_data(m, b), 0, n);
            }
            CmdMailboxBlock.next_pointer$set(m, b, k + 1 < blocks ? boxes.busAddress(b + MAILBOX_STRIDE) : 0);
            CmdMailboxBlock.block_number$set(m, b, (int) k);
            CmdMailboxBlock.token$set(m, b, tok);
        }
    }

    private static void readChain(DmaRegion boxes, MemorySegment out) {
        MemorySegment m = boxes.segment();
        long blocks = m.byteSize() / MAILBOX_STRIDE;
        for (long k = 0; k < blocks; k++) {
            long b = k * MAILBOX_STRIDE;
            long to = INLINE + k * MAILBOX_DATA;
            long n = Math.min(MAILBOX_DATA, out.byteSize() - to);
            MemorySegment.copy(CmdMailboxBlock.mailbox_data(m, b), 0, out, to, n);
        }
    }

    /**
     * Frees the queue page and the mailboxes of timed-out commands. The caller has torn the device
     * down (DISABLE_HCA) first, so the firmware no longer reads the queue.
     */
    @Override
    public void close() {
        lock.lock();
        try {
            if (closed) return;
            closed = true;
            for (DmaRegion r : orphans) r.close();
            orphans.clear();
            for (Runnable r : deferred) r.run();
            deferred.clear();
            slotFreed.signalAll();
        } finally {
            lock.unlock();
        }
        queue.close();
    }

    /** Command-completion events received so far (0 while completion is by polling). */
    public long eventCompletions() {
        return eventCompletions.get();
    }

    /**
     * Runs {@code free} when the interface is closed, after DISABLE_HCA: for host memory of an object
     * whose destroy command failed, which the device may still use until then.
     */
    @Override
    public void freeAtClose(Runnable free) {
        lock.lock();
        try {
            if (!closed) {
                deferred.add(free);
                return;
            }
        } finally {
            lock.unlock();
        }
        free.run();
    }

    /** Slots retired after a timeout or fatal error (for tests and diagnostics). */
    public int retiredSlots() {
        lock.lock();
        try {
            int n = 0;
            for (boolean r : retired) if (r) n++;
            return n;
        } finally {
            lock.unlock();
        }
    }
}

package io.prmkit.softhca;

import static io.prmkit.layout.PrmLayout.BE_INT;

import io.prmkit.mlx5.CmdHcaCap;
import io.prmkit.mlx5.CmdMailboxBlock;
import io.prmkit.mlx5.CmdOpcode;
import io.prmkit.mlx5.CmdOwner;
import io.prmkit.mlx5.CmdQueueEntry;
import io.prmkit.mlx5.CmdTransport;
import io.prmkit.mlx5.CmdifChecksum;
import io.prmkit.mlx5.DeliveryStatus;
import io.prmkit.mlx5.HealthSyndrome;
import io.prmkit.mlx5.InitSeg;
import io.prmkit.mlx5.NopIn;
import io.prmkit.layout.PrmLayout;
import io.prmkit.softhca.cmd.Command;
import io.prmkit.softhca.cmd.Commands;
import io.prmkit.softhca.cmd.DeliveryError;
import io.prmkit.softhca.cmd.HcaState;
import io.prmkit.softhca.cmd.ReservedBits;
import io.prmkit.softhca.device.Iommu;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The command interface (PRM "Command Interface"): the queue registered through the init segment,
 * the doorbell bitmask, and for each posted slot the delivery checks of the entry and its mailbox
 * chains, the command itself ({@link Commands}), the copy-back of the output, the delivery status
 * and the ownership flip, and a command-completion event when an EQ subscribes to it.
 *
 * <p>Delivery checks, in order: type (BAD_CMD_TYPE), signatures when command checksums are on
 * (SIGNATURE_ERR), reserved bits of the entry (RES_FLD_NOT_CLR_ERR), lengths below the 8-byte
 * headers (BAD_INPUT_LENGTH / BAD_OUTPUT_LENGTH), then each chain: pointer alignment or a DMA fault
 * (BAD_INPUT_POINTER / BAD_OUTPUT_POINTER), block numbers (BAD_BLOCK_NUMBER), tokens (TOKEN_ERR),
 * reserved bits of a block (RES_FLD_NOT_CLR_ERR), a chain shorter than the length
 * (BAD_INPUT_LENGTH / BAD_OUTPUT_LENGTH). Then reserved bits of the command input
 * (RES_FLD_NOT_CLR_ERR), and only then does the command run.
 */
final class CommandQueue {
    /** Most mailbox blocks one chain may have (2 MiB of command data); longer lengths are BAD_*_LENGTH. */
    static final int MAX_BLOCKS = 4096;
    private static final long BLOCK_DATA = CmdMailboxBlock.mailbox_data$LENGTH;
    private static final long INLINE = CmdQueueEntry.command_input_inline_data$LENGTH;
    /** Byte offset of the dword that holds cmdq_phy_addr_low (the field starts at its bit 31). */
    private static final long ADDR_LOW_BYTE = InitSeg.cmdq_phy_addr_low$BIT_OFFSET / 8;
    /** The block's control signature covers bytes from the end of the data through ctrl_signature. */
    private static final long CTRL_FROM = CmdMailboxBlock.mailbox_data$LENGTH;
    private static final long CTRL_TO = CmdMailboxBlock.ctrl_signature$BIT_OFFSET / 8 + 1;

    private final Iommu iommu;
    private final Commands commands;
    private final HcaState hca;
    private final SoftInitSegment initSeg;
    private final Faults faults;
    private final Tracer tracer;
    private final int logSize;
    private final int logStride;
    private final AtomicInteger pending = new AtomicInteger();
    private volatile long base = -1;
    private long addressHigh;
    private long completed;
    private long ignored;

    CommandQueue(Iommu iommu, Commands commands, HcaState hca, SoftInitSegment initSeg, Faults faults, Tracer tracer, int logSize, int logStride) {
        this.iommu = iommu;
        this.commands = commands;
        this.hca = hca;
        this.initSeg = initSeg;
        this.faults = faults;
        this.tracer = tracer;
        this.logSize = logSize;
        this.logStride = logStride;
    }

    /** cmdq_phy_addr_high written (driver thread). */
    synchronized void writeAddressHigh(int value) {
        addressHigh = Integer.toUnsignedLong(value);
        initSeg.set("cmdq_phy_addr_high", addressHigh);
    }

    /**
     * The dword holding cmdq_phy_addr_low, nic_interface and the read-only log sizes was written
     * (driver thread). Our choice for a bad registration (the PRM leaves it undefined): bits below the
     * address that are neither nic_interface nor the read-only sizes as the device reports them (or
     * zero) mean the address is not 4 KiB aligned; that, or a queue page that is not mapped for DMA,
     * leaves the queue unregistered (the address reads back as 0) and
     * raises health syndrome FW_INTERNAL_ERR with ext_synd 0x5c01 (misaligned) or 0x5c02 (unmapped),
     * so the driver sees a clear failure instead of a command that never completes.
     */
    synchronized void writeAddressLow(int value) {
        MemorySegment scratch = MemorySegment.ofArray(new byte[(int) InitSeg.SIZE]);
        scratch.set(BE_INT, ADDR_LOW_BYTE, value);
        int nic = InitSeg.nic_interface(scratch);
        initSeg.set("nic_interface", nic);
        InitSeg.nic_interface$set(scratch, 0);
        // The read-only size fields may come back as read (a read-modify-write) or as zero (Linux
        // writes the plain low address); any other value there, or the reserved bit, is address bits.
        boolean logsAsRead = InitSeg.log_cmdq_size(scratch) == logSize && InitSeg.log_cmdq_stride(scratch) == logStride;
        boolean logsZero = InitSeg.log_cmdq_size(scratch) == 0 && InitSeg.log_cmdq_stride(scratch) == 0;
        boolean misaligned = !(logsAsRead || logsZero) || ReservedBits.firstSet(InitSeg.layout(), scratch, 0, InitSeg.SIZE) != null;
        InitSeg.Device.log_cmdq_size$set(scratch, 0);
        InitSeg.Device.log_cmdq_stride$set(scratch, 0);
        InitSeg.cmdq_phy_addr_high$set(scratch, (int) addressHigh);
        long address = InitSeg.cmdq_phy_addr(scratch);
        long bytes = 1L << (logSize + logStride);
        if (misaligned || !iommu.isMapped(address, bytes)) {
            base = -1;
            initSeg.set("cmdq_phy_addr_low", 0);
            initSeg.raiseHealth(HealthSyndrome.FW_INTERNAL_ERR$VALUE,
                    misaligned ? SoftInitSegment.EXT_SYND_CMDQ_MISALIGNED : SoftInitSegment.EXT_SYND_CMDQ_UNMAPPED);
            tracer.line("cmdq registration refused: " + (misaligned ? "low dword 0x" + Integer.toHexString(value) + " not a 4 KiB aligned address"
                    : "address 0x" + Long.toHexString(address) + " not mapped"));
            return;
        }
        initSeg.set("cmdq_phy_addr_low", InitSeg.cmdq_phy_addr_low(scratch));
        base = address;
    }

    /** The command doorbell (driver thread): posts the slots set in {@code vector}. */
    void doorbell(int vector) {
        pending.getAndAccumulate(vector, (a, b) -> a | b);
    }

    boolean hasWork() {
        return pending.get() != 0;
    }

    long completed() {
        return completed;
    }

    long ignored() {
        return ignored;
    }

    /** Processes the lowest posted slot (device thread); false when none is posted. */
    boolean processOne() {
        int bits = pending.get();
        if (bits == 0) return false;
        int slot = Integer.numberOfTrailingZeros(bits);
        pending.getAndUpdate(b -> b & ~(1 << slot));
        long q = base;
        if (q < 0) {
            // A doorbell with no registered queue: nowhere to answer; the health buffer says why.
            ignored++;
            initSeg.raiseHealth(HealthSyndrome.FW_INTERNAL_ERR$VALUE, SoftInitSegment.EXT_SYND_DOORBELL_NO_CMDQ);
            return true;
        }
        if (slot >= 1 << logSize) {
            ignored++;
            return true;
        }
        MemorySegment entry = iommu.slice(q + ((long) slot << logStride), CmdQueueEntry.SIZE);
        if (entry == null) {
            ignored++;
            return true;
        }
        if (CmdQueueEntry.ownership$enum(entry) != CmdOwner.HW) {
            // The driver still owns the entry: a doorbell for it is a driver bug, ignored like hardware does.
            ignored++;
            return true;
        }
        VarHandle.acquireFence();
        execute(slot, entry);
        return true;
    }

    private void execute(int slot, MemorySegment entry) {
        byte[] inline = new byte[(int) INLINE];
        CmdQueueEntry.command_input_inline_data$copyTo(entry, inline);
        MemorySegment head = MemorySegment.ofArray(inline);
        int opcode = NopIn.opcode(head);
        if (faults.neverComplete(opcode)) {
            tracer.line("slot " + slot + ": " + opName(opcode) + " swallowed (fault: never complete)");
            return;
        }
        Delivery d = deliver(slot, entry, opcode);
        if (d.status != DeliveryStatus.OK) {
            complete(slot, entry, d.status);
            tracer.line("slot " + slot + ": " + opName(opcode) + " delivery status " + d.status + (d.why.isEmpty() ? "" : " (" + d.why + ")"));
            return;
        }
        Command c = new Command(slot, opcode, NopIn.op_mod(d.in), d.in, d.out);
        tracer.command(c, true);
        DeliveryStatus status = DeliveryStatus.OK;
        int[] injected = faults.takeFailure(opcode);
        try {
            if (injected != null) {
                commands.failInjected(c, injected[0], injected[1]);
            } else {
                commands.execute(c);
            }
        } catch (DeliveryError e) {
            status = DeliveryStatus.RES_FLD_NOT_CLR_ERR;
            tracer.line("slot " + slot + ": " + opName(opcode) + " delivery status " + status + " (" + e.field + ")");
        }
        if (status == DeliveryStatus.OK) {
            tracer.command(c, false);
            scatter(entry, d.outBlocks, c.out);
        }
        complete(slot, entry, status);
    }

    private void complete(int slot, MemorySegment entry, DeliveryStatus status) {
        CmdQueueEntry.Device.status$set(entry, status);
        VarHandle.releaseFence();
        CmdQueueEntry.ownership$set(entry, CmdOwner.SW);
        completed++;
        hca.events.commandCompleted(1 << slot);
    }

    private record Delivery(DeliveryStatus status, String why, MemorySegment in, MemorySegment out, List<MemorySegment> outBlocks) {
        static Delivery fail(DeliveryStatus s, String why) {
            return new Delivery(s, why, null, null, null);
        }
    }

    private boolean checksums() {
        return CmdHcaCap.cmdif_checksum(hca.general()) == CmdifChecksum.ENABLED.value;
    }

    private Delivery deliver(int slot, MemorySegment entry, int opcode) {
        if (CmdQueueEntry.type$enum(entry) != CmdTransport.PCI) return Delivery.fail(DeliveryStatus.BAD_CMD_TYPE, "type " + CmdQueueEntry.type(entry));
        if (checksums() && xor(entry, 0, CmdQueueEntry.SIZE) != 0xff) return Delivery.fail(DeliveryStatus.SIGNATURE_ERR, "entry signature");
        String reserved = ReservedBits.firstSet(CmdQueueEntry.layout(), entry, 0, CmdQueueEntry.SIZE);
        if (reserved != null) return Delivery.fail(DeliveryStatus.RES_FLD_NOT_CLR_ERR, reserved);
        if (!rule(CmdQueueEntry.layout(), "input_header", entry)) return Delivery.fail(DeliveryStatus.BAD_INPUT_LENGTH, "input_length < 8");
        if (!rule(CmdQueueEntry.layout(), "output_header", entry)) return Delivery.fail(DeliveryStatus.BAD_OUTPUT_LENGTH, "output_length < 8");
        long inLen = Integer.toUnsignedLong(CmdQueueEntry.input_length(entry));
        long outLen = Integer.toUnsignedLong(CmdQueueEntry.output_length(entry));
        int token = CmdQueueEntry.token(entry);
        List<MemorySegment> inBlocks = new ArrayList<>();
        DeliveryStatus s = chain(CmdQueueEntry.input_mailbox_pointer(entry), inLen, token, rule(CmdQueueEntry.layout(), "input_mailbox_aligned", entry),
                DeliveryStatus.BAD_INPUT_POINTER, DeliveryStatus.BAD_INPUT_LENGTH, inBlocks);
        if (s != DeliveryStatus.OK) return Delivery.fail(s, "input chain");
        List<MemorySegment> outBlocks = new ArrayList<>();
        s = chain(CmdQueueEntry.output_mailbox_pointer(entry), outLen, token, rule(CmdQueueEntry.layout(), "output_mailbox_aligned", entry),
                DeliveryStatus.BAD_OUTPUT_POINTER, DeliveryStatus.BAD_OUTPUT_LENGTH, outBlocks);
        if (s != DeliveryStatus.OK) return Delivery.fail(s, "output chain");
        // Fetch the input: inline bytes, then each block's data.
        MemorySegment in = MemorySegment.ofArray(new byte[(int) inLen]);
        MemorySegment.copy(entry, CmdQueueEntry.command_input_inline_data$BYTE_OFFSET, in, 0, Math.min(INLINE, inLen));
        for (int i = 0; i < inBlocks.size(); i++) {
            long at = INLINE + i * BLOCK_DATA;
            MemorySegment.copy(inBlocks.get(i), CmdMailboxBlock.mailbox_data$BYTE_OFFSET, in, at, Math.min(BLOCK_DATA, inLen - at));
        }
        return new Delivery(DeliveryStatus.OK, "", in, MemorySegment.ofArray(new byte[(int) outLen]), outBlocks);
    }

    private static boolean rule(PrmLayout.Struct layout, String name, MemorySegment s) {
        for (PrmLayout.Rule r : layout.rules()) {
            if (r.name().equals(name)) return r.check().holds(s, 0);
        }
        throw new IllegalStateException(layout.name() + " has no rule " + name);
    }

    /** Walks one mailbox chain for {@code length} bytes of data, collecting its blocks. */
    private DeliveryStatus chain(long pointer, long length, int token, boolean firstAligned, DeliveryStatus badPointer, DeliveryStatus badLength,
            List<MemorySegment> blocks) {
        if (length <= INLINE) return DeliveryStatus.OK;
        long needed = (length - INLINE + BLOCK_DATA - 1) / BLOCK_DATA;
        if (needed > MAX_BLOCKS) return badLength;
        if (pointer == 0) return badLength;
        if (!firstAligned) return badPointer;
        long ptr = pointer;
        for (int i = 0; i < needed; i++) {
            MemorySegment block = iommu.slice(ptr, CmdMailboxBlock.SIZE);
            if (block == null) return badPointer;
            if (Integer.toUnsignedLong(CmdMailboxBlock.block_number(block)) != i) return DeliveryStatus.BAD_BLOCK_NUMBER;
            if (CmdMailboxBlock.token(block) != token) return DeliveryStatus.TOKEN_ERR;
            if (checksums() && (xor(block, CTRL_FROM, CTRL_TO - CTRL_FROM) != 0xff
                    || xor(block, 0, CmdMailboxBlock.SIZE) != 0xff)) {
                return DeliveryStatus.SIGNATURE_ERR;
            }
            if (ReservedBits.firstSet(CmdMailboxBlock.layout(), block, 0, CmdMailboxBlock.SIZE) != null) return DeliveryStatus.RES_FLD_NOT_CLR_ERR;
            blocks.add(block);
            long next = CmdMailboxBlock.next_pointer(block);
            if (i + 1 < needed) {
                if (next == 0) return badLength;
                if (!rule(CmdMailboxBlock.layout(), "next_aligned", block)) return badPointer;
                ptr = next;
            }
        }
        return DeliveryStatus.OK;
    }

    /** Copies the output back: the first 16 bytes inline, the rest into the output blocks. */
    private void scatter(MemorySegment entry, List<MemorySegment> blocks, MemorySegment out) {
        long len = out.byteSize();
        MemorySegment.copy(out, 0, entry, CmdQueueEntry.command_output_inline_data$BYTE_OFFSET, Math.min(INLINE, len));
        for (int i = 0; i < blocks.size(); i++) {
            long at = INLINE + i * BLOCK_DATA;
            try {
                MemorySegment.copy(out, at, blocks.get(i), CmdMailboxBlock.mailbox_data$BYTE_OFFSET, Math.min(BLOCK_DATA, len - at));
            } catch (IllegalStateException closed) {
                // The driver freed the block while the command ran: a DMA fault, the output is lost.
            }
        }
    }

    /** XOR-8 over {@code n} bytes (the PRM's command signature: a valid range XORs to 0xff). */
    private static int xor(MemorySegment s, long from, long n) {
        int x = 0;
        for (long i = 0; i < n; i++) x ^= s.get(ValueLayout.JAVA_BYTE, from + i);
        return x & 0xff;
    }

    private static String opName(int opcode) {
        String n = CmdOpcode.nameOf(opcode);
        return n != null ? n : "opcode 0x" + Integer.toHexString(opcode);
    }
}

package io.prmkit.softhca;

import static io.prmkit.softhca.Cmds.header;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.prmkit.mlx5.CmdMailboxBlock;
import io.prmkit.mlx5.CmdOpcode;
import io.prmkit.mlx5.CmdOwner;
import io.prmkit.mlx5.CmdQueueEntry;
import io.prmkit.mlx5.DeliveryStatus;
import io.prmkit.mlx5.EnableHcaIn;
import io.prmkit.mlx5.EnableHcaOut;
import io.prmkit.mlx5.HealthBuffer;
import io.prmkit.mlx5.HealthSyndrome;
import io.prmkit.mlx5.InitSeg;
import io.prmkit.mlx5.NopIn;
import io.prmkit.mlx5.NopOut;
import io.prmkit.mlx5.QueryHcaCapIn;
import io.prmkit.mlx5.QueryHcaCapOpMod;
import io.prmkit.mlx5.QueryHcaCapOut;
import io.prmkit.mlx5.SetDriverVersionIn;
import io.prmkit.mlx5.SetDriverVersionOut;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import org.junit.jupiter.api.Test;

/** Init segment and command transport: registration, delivery statuses of malformed entries and chains. */
class CommandInterfaceTest {

    static TestHost step() {
        return TestHost.started(ExecutionMode.STEP);
    }

    static int delivery(TestHost.Result r) {
        return r.delivery();
    }

    @Test
    void initSegmentIdentifiesTheDevice() {
        try (TestHost h = new TestHost(new SoftHca.Options().initializingPolls(3), ExecutionMode.STEP)) {
            long init = InitSeg.initializing$BIT_OFFSET / 8;
            assertTrue(InitSeg.initializing(h.initSeg(init)));
            assertTrue(InitSeg.initializing(h.initSeg(init)));
            assertTrue(InitSeg.initializing(h.initSeg(init)));
            assertEquals(false, InitSeg.initializing(h.initSeg(init)), "initializing clears after a bounded start");
            assertEquals(5, InitSeg.cmd_interface_rev(h.initSeg(InitSeg.cmd_interface_rev$BIT_OFFSET / 8)));
            assertEquals(14, InitSeg.fw_rev_major(h.initSeg(0)));
            MemorySegment sizes = h.initSeg(InitSeg.cmdq_phy_addr_low$BIT_OFFSET / 8);
            assertEquals(5, InitSeg.log_cmdq_size(sizes));
            assertEquals(6, InitSeg.log_cmdq_stride(sizes));
            int beat = InitSeg.health_counter(h.initSeg(InitSeg.health_counter$BIT_OFFSET / 8));
            h.hca.step();
            h.hca.step();
            assertEquals(beat + 2, InitSeg.health_counter(h.initSeg(InitSeg.health_counter$BIT_OFFSET / 8)), "the heartbeat moves");
            long t1 = timer(h);
            h.registerQueue();
            h.exec(header(CmdOpcode.NOP, NopIn.SIZE), NopOut.SIZE).ok();
            assertTrue(timer(h) > t1, "the internal timer runs");
        }
    }

    static long timer(TestHost h) {
        long hi = Integer.toUnsignedLong(h.bar.read32(InitSeg.internal_timer_h$BIT_OFFSET / 8));
        long lo = Integer.toUnsignedLong(h.bar.read32(InitSeg.internal_timer_l$BIT_OFFSET / 8));
        return hi << 32 | lo;
    }

    @Test
    void mmioRejectsMisalignedAndOutOfRangeAccesses() {
        try (TestHost h = step()) {
            assertThrows(IllegalArgumentException.class, () -> h.bar.read32(2));
            assertThrows(IllegalArgumentException.class, () -> h.bar.write64(4, 0));
            assertThrows(IllegalArgumentException.class, () -> h.bar.read32(h.bar.size()));
        }
    }

    static int healthSyndrome(TestHost h) {
        return InitSeg.health_syndrome(h.initSeg(InitSeg.health_syndrome$BIT_OFFSET / 8));
    }

    static int extSyndrome(TestHost h) {
        long at = InitSeg.health$BYTE_OFFSET + HealthBuffer.ext_synd$BIT_OFFSET / 8;
        MemorySegment s = h.initSeg(at);
        return HealthBuffer.ext_synd(s, InitSeg.health$BYTE_OFFSET);
    }

    @Test
    void misalignedOrUnmappedQueueIsRefusedVisibly() {
        try (TestHost h = new TestHost(new SoftHca.Options(), ExecutionMode.STEP)) {
            h.waitInitialized();
            var page = h.f.dma().allocate(8192, 4096);
            h.registerQueueAt(page.busAddress() + 0x840);
            assertEquals(HealthSyndrome.FW_INTERNAL_ERR.value, healthSyndrome(h));
            assertEquals(0x5c01, extSyndrome(h));
            assertEquals(0, InitSeg.cmdq_phy_addr_low(h.initSeg(InitSeg.cmdq_phy_addr_low$BIT_OFFSET / 8)));
        }
        try (TestHost h = new TestHost(new SoftHca.Options(), ExecutionMode.STEP)) {
            h.waitInitialized();
            var page = h.f.dma().allocate(4096, 4096);
            h.registerQueueAt(page.segment().address() & ~0xfffL); // a native address, not a bus address
            assertEquals(0x5c02, extSyndrome(h));
        }
    }

    @Test
    void registrationWithReadBackSizesIsAccepted() {
        try (TestHost h = new TestHost(new SoftHca.Options(), ExecutionMode.STEP)) {
            h.waitInitialized();
            h.logStride = 6;
            h.cmdq = h.f.dma().allocate(4096, 4096);
            long lo = InitSeg.cmdq_phy_addr_low$BIT_OFFSET / 8;
            MemorySegment s = h.initSeg(lo); // read-modify-write: the read-only sizes go back as read
            InitSeg.cmdq_phy_addr_low$setUnchecked(s, (int) (h.cmdq.busAddress() >>> 12));
            h.bar.write32(InitSeg.cmdq_phy_addr_high$BIT_OFFSET / 8, (int) (h.cmdq.busAddress() >>> 32));
            h.bar.write32(lo, s.get(TestHost.BE_INT, lo));
            assertEquals(0, healthSyndrome(h));
            h.exec(header(CmdOpcode.NOP, NopIn.SIZE), NopOut.SIZE).ok();
        }
    }

    @Test
    void doorbellWithoutQueueRaisesHealth() {
        try (TestHost h = new TestHost(new SoftHca.Options(), ExecutionMode.STEP)) {
            h.bar.write32(InitSeg.command_doorbell_vector$BIT_OFFSET / 8, 1);
            h.hca.runUntilIdle();
            assertEquals(0x5c03, extSyndrome(h));
            assertEquals(1, h.hca.doorbellsIgnored());
        }
    }

    static TestHost.Result nop(TestHost h, java.util.function.Consumer<TestHost.Posting> spoil) {
        return h.exec(header(CmdOpcode.NOP, NopIn.SIZE), NopOut.SIZE, spoil);
    }

    /** A command long enough for one input block and eight output blocks. */
    static TestHost.Result bigCommand(TestHost h, java.util.function.Consumer<TestHost.Posting> spoil) {
        MemorySegment in = header(CmdOpcode.SET_DRIVER_VERSION, SetDriverVersionIn.SIZE);
        return h.exec(in, SetDriverVersionOut.SIZE + 2100, spoil);
    }

    @Test
    void entryLevelDeliveryStatuses() {
        try (TestHost h = step()) {
            assertEquals(DeliveryStatus.BAD_CMD_TYPE.value, nop(h, p -> CmdQueueEntry.type$set(p.entry(), 3)).delivery());
            assertEquals(DeliveryStatus.BAD_INPUT_LENGTH.value, nop(h, p -> CmdQueueEntry.input_length$set(p.entry(), 4)).delivery());
            assertEquals(DeliveryStatus.BAD_OUTPUT_LENGTH.value, nop(h, p -> CmdQueueEntry.output_length$set(p.entry(), 7)).delivery());
            assertEquals(DeliveryStatus.RES_FLD_NOT_CLR_ERR.value,
                    nop(h, p -> p.entry().set(ValueLayout.JAVA_BYTE, CmdQueueEntry.type$BIT_OFFSET / 8 + 1, (byte) 1)).delivery());
            // input longer than 16 bytes with no mailbox
            assertEquals(DeliveryStatus.BAD_INPUT_LENGTH.value, nop(h, p -> CmdQueueEntry.input_length$set(p.entry(), 40)).delivery());
            assertEquals(DeliveryStatus.BAD_OUTPUT_LENGTH.value, nop(h, p -> CmdQueueEntry.output_length$set(p.entry(), 40)).delivery());
            // reserved bits of the command input itself
            MemorySegment in = header(CmdOpcode.NOP, NopIn.SIZE);
            in.set(ValueLayout.JAVA_BYTE, 12, (byte) 0x80);
            assertEquals(DeliveryStatus.RES_FLD_NOT_CLR_ERR.value, h.exec(in, NopOut.SIZE).delivery());
            assertEquals(0, h.hca.iommu().faults());
        }
    }

    @Test
    void mailboxChainDeliveryStatuses() {
        try (TestHost h = TestHost.started(ExecutionMode.STEP)) {
            Cmds.bringUp(h);
            bigCommand(h, p -> {}).ok();
            assertEquals(DeliveryStatus.BAD_BLOCK_NUMBER.value, bigCommand(h, p -> CmdMailboxBlock.block_number$set(p.outBlocks().get(2), 7)).delivery());
            assertEquals(DeliveryStatus.TOKEN_ERR.value, bigCommand(h, p -> CmdMailboxBlock.token$set(p.inBlocks().get(0), 0x99)).delivery());
            assertEquals(DeliveryStatus.BAD_INPUT_POINTER.value,
                    bigCommand(h, p -> CmdQueueEntry.input_mailbox_pointer$set(p.entry(), CmdQueueEntry.input_mailbox_pointer(p.entry()) + 0x100)).delivery());
            long faults = h.hca.iommu().faults();
            assertEquals(DeliveryStatus.BAD_INPUT_POINTER.value,
                    bigCommand(h, p -> CmdQueueEntry.input_mailbox_pointer$set(p.entry(), p.inBlocks().get(0).address())).delivery(),
                    "a native address is not mapped");
            assertEquals(faults + 1, h.hca.iommu().faults());
            assertEquals(DeliveryStatus.BAD_OUTPUT_POINTER.value,
                    bigCommand(h, p -> CmdMailboxBlock.next_pointer$set(p.outBlocks().get(3), 0x1000)).delivery());
            assertEquals(DeliveryStatus.BAD_OUTPUT_POINTER.value,
                    bigCommand(h, p -> CmdMailboxBlock.next_pointer$set(p.outBlocks().get(3), CmdMailboxBlock.next_pointer(p.outBlocks().get(3)) + 0x200)).delivery());
            assertEquals(DeliveryStatus.BAD_OUTPUT_LENGTH.value, bigCommand(h, p -> CmdMailboxBlock.next_pointer$set(p.outBlocks().get(0), 0)).delivery());
            assertEquals(DeliveryStatus.RES_FLD_NOT_CLR_ERR.value,
                    bigCommand(h, p -> p.outBlocks().get(1).set(ValueLayout.JAVA_BYTE, CmdMailboxBlock.mailbox_data$LENGTH, (byte) 1)).delivery());
            assertEquals(DeliveryStatus.BAD_INPUT_LENGTH.value, bigCommand(h, p -> CmdQueueEntry.input_length$set(p.entry(), 16 + 513)).delivery());
        }
    }

    @Test
    void signaturesAreCheckedWhenChecksumsAreOn() {
        CapsProfile caps = CapsProfile.defaults().withGeneral("cmdif_checksum", 3);
        try (TestHost h = TestHost.started(new SoftHca.Options().caps(caps), ExecutionMode.STEP)) {
            assertEquals(DeliveryStatus.SIGNATURE_ERR.value, nop(h, p -> {}).delivery());
            nop(h, p -> {
                int x = 0;
                CmdQueueEntry.signature$set(p.entry(), 0);
                for (int i = 0; i < 64; i++) x ^= p.entry().get(ValueLayout.JAVA_BYTE, i);
                CmdQueueEntry.signature$set(p.entry(), ~x & 0xff);
            }).ok();
        }
    }

    @Test
    void largeOutputComesBackThroughTheMailboxes() {
        try (TestHost h = step()) {
            h.exec(header(CmdOpcode.ENABLE_HCA, EnableHcaIn.SIZE), EnableHcaOut.SIZE).ok();
            MemorySegment in = header(CmdOpcode.QUERY_HCA_CAP, QueryHcaCapIn.SIZE);
            QueryHcaCapIn.op_mod$set(in, QueryHcaCapOpMod.GENERAL_DEVICE_MAX);
            MemorySegment out = h.exec(in, QueryHcaCapOut.SIZE).ok().out();
            // device_frequency_mhz sits deep in the page, in the fourth output block
            assertEquals(0x113, io.prmkit.mlx5.CmdHcaCap.device_frequency_mhz(out, QueryHcaCapOut.capability$BYTE_OFFSET));
        }
    }

    @org.junit.jupiter.params.ParameterizedTest
    @org.junit.jupiter.params.provider.EnumSource(ExecutionMode.class)
    void oneDoorbellPostsSeveralSlots(ExecutionMode mode) {
        try (TestHost h = TestHost.started(mode)) {
            int[] slots = {0, 3, 17, 31};
            int mask = 0;
            for (int slot : slots) {
                MemorySegment entry = h.cmdq.segment().asSlice((long) slot << h.logStride, CmdQueueEntry.SIZE);
                entry.fill((byte) 0);
                CmdQueueEntry.type$set(entry, io.prmkit.mlx5.CmdTransport.PCI);
                CmdQueueEntry.input_length$set(entry, (int) NopIn.SIZE);
                CmdQueueEntry.output_length$set(entry, (int) NopOut.SIZE);
                NopIn.opcode$set(entry, CmdQueueEntry.command_input_inline_data$BYTE_OFFSET, CmdOpcode.NOP);
                CmdQueueEntry.token$set(entry, slot + 1);
                CmdQueueEntry.ownership$set(entry, CmdOwner.HW);
                mask |= 1 << slot;
            }
            java.lang.invoke.VarHandle.fullFence();
            h.bar.write32(InitSeg.command_doorbell_vector$BIT_OFFSET / 8, mask);
            for (int slot : slots) {
                MemorySegment entry = h.cmdq.segment().asSlice((long) slot << h.logStride, CmdQueueEntry.SIZE);
                h.awaitOwnership(entry);
                assertEquals(0, CmdQueueEntry.status(entry));
                assertEquals(0, NopOut.status(entry, CmdQueueEntry.command_output_inline_data$BYTE_OFFSET));
            }
            assertEquals(4, h.hca.commandsCompleted());
        }
    }

    @Test
    void doorbellForSoftwareOwnedEntryIsIgnored() {
        try (TestHost h = step()) {
            MemorySegment entry = h.cmdq.segment().asSlice(0, CmdQueueEntry.SIZE);
            CmdQueueEntry.ownership$set(entry, CmdOwner.SW);
            h.bar.write32(InitSeg.command_doorbell_vector$BIT_OFFSET / 8, 1);
            h.hca.runUntilIdle();
            assertEquals(1, h.hca.doorbellsIgnored());
            assertEquals(0, h.hca.commandsCompleted());
            assertNotEquals(null, h.hca);
        }
    }
}

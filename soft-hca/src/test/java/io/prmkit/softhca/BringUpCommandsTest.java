package io.prmkit.softhca;

import static io.prmkit.softhca.Cmds.assertFails;
import static io.prmkit.softhca.Cmds.header;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.prmkit.mlx5.AccessRegisterIn;
import io.prmkit.mlx5.AccessRegisterOpMod;
import io.prmkit.mlx5.CmdHcaCap;
import io.prmkit.mlx5.CmdOpcode;
import io.prmkit.mlx5.CmdStatus;
import io.prmkit.mlx5.DisableHcaIn;
import io.prmkit.mlx5.DisableHcaOut;
import io.prmkit.mlx5.EnableHcaIn;
import io.prmkit.mlx5.EnableHcaOut;
import io.prmkit.mlx5.FlowTableNicCap;
import io.prmkit.mlx5.InitHcaIn;
import io.prmkit.mlx5.InitHcaOut;
import io.prmkit.mlx5.ManagePagesIn;
import io.prmkit.mlx5.ManagePagesOpMod;
import io.prmkit.mlx5.ManagePagesOut;
import io.prmkit.mlx5.NopIn;
import io.prmkit.mlx5.NopOut;
import io.prmkit.mlx5.PerProtocolNetworkingOffloadCaps;
import io.prmkit.mlx5.QueryHcaCapIn;
import io.prmkit.mlx5.PrmCommands;
import io.prmkit.mlx5.QueryHcaCapOpMod;
import io.prmkit.mlx5.QueryHcaCapOut;
import io.prmkit.mlx5.QueryIssiIn;
import io.prmkit.mlx5.QueryIssiOut;
import io.prmkit.mlx5.QueryPagesIn;
import io.prmkit.mlx5.QueryPagesOpMod;
import io.prmkit.mlx5.QueryPagesOut;
import io.prmkit.mlx5.RegisterId;
import io.prmkit.mlx5.SetDriverVersionIn;
import io.prmkit.mlx5.SetDriverVersionOut;
import io.prmkit.mlx5.SetHcaCapIn;
import io.prmkit.mlx5.SetHcaCapOpMod;
import io.prmkit.mlx5.SetHcaCapOut;
import io.prmkit.mlx5.SetIssiIn;
import io.prmkit.mlx5.SetIssiOut;
import io.prmkit.mlx5.TeardownHcaIn;
import io.prmkit.mlx5.TeardownHcaOut;
import io.prmkit.mlx5.TeardownHcaProfile;
import io.prmkit.platform.DmaRegion;
import io.prmkit.softhca.cmd.Syndrome;
import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** The bring-up commands, good and bad, through BAR 0 and DMA memory only. */
class BringUpCommandsTest {

    static TestHost step() {
        return TestHost.started(ExecutionMode.STEP);
    }

    static TestHost.Result enable(TestHost h) {
        return h.exec(header(CmdOpcode.ENABLE_HCA, EnableHcaIn.SIZE), EnableHcaOut.SIZE);
    }

    @ParameterizedTest
    @EnumSource(ExecutionMode.class)
    void linuxBringUpAndTeardown(ExecutionMode mode) {
        try (TestHost h = TestHost.started(mode)) {
            enable(h).ok();
            MemorySegment issi = h.exec(header(CmdOpcode.QUERY_ISSI, QueryIssiIn.SIZE), QueryIssiOut.SIZE).ok().out();
            assertEquals(0, QueryIssiOut.current_issi(issi));
            assertEquals(0b10, QueryIssiOut.supported_issi_dw0(issi), "the ConnectX-4's supported_issi_dw0: ISSI 1 only");
            MemorySegment set = header(CmdOpcode.SET_ISSI, SetIssiIn.SIZE);
            SetIssiIn.current_issi$set(set, 1);
            h.exec(set, SetIssiOut.SIZE).ok();
            assertEquals(1, QueryIssiOut.current_issi(h.exec(header(CmdOpcode.QUERY_ISSI, QueryIssiIn.SIZE), QueryIssiOut.SIZE).ok().out()));

            List<DmaRegion> pages = new ArrayList<>();
            int boot = Cmds.queryPages(h, QueryPagesOpMod.BOOT_PAGES);
            assertEquals(8, boot);
            Cmds.givePages(h, boot, pages).ok();
            assertEquals(0, Cmds.queryPages(h, QueryPagesOpMod.BOOT_PAGES));
            Cmds.hostEndianness(h).ok();

            MemorySegment cur = Cmds.queryCap(h, QueryHcaCapOpMod.GENERAL_DEVICE_CUR);
            MemorySegment max = Cmds.queryCap(h, QueryHcaCapOpMod.GENERAL_DEVICE_MAX);
            assertEquals(0xe, CmdHcaCap.log_max_qp(cur));
            assertEquals(0x17, CmdHcaCap.log_max_qp(max));
            assertEquals(0x18, CmdHcaCap.log_max_cq(cur));
            assertEquals(0x3, CmdHcaCap.cmdif_checksum(max));
            assertEquals(0x0, CmdHcaCap.cmdif_checksum(cur));
            MemorySegment setCap = header(CmdOpcode.SET_HCA_CAP, SetHcaCapIn.SIZE, SetHcaCapOpMod.GENERAL_DEVICE$VALUE);
            MemorySegment.copy(cur, 0, setCap, SetHcaCapIn.capability$BYTE_OFFSET, 0x1000);
            CmdHcaCap.log_max_qp$set(setCap, SetHcaCapIn.capability$BYTE_OFFSET, 0x12);
            h.exec(setCap, SetHcaCapOut.SIZE).ok();
            assertEquals(0x12, CmdHcaCap.log_max_qp(Cmds.queryCap(h, QueryHcaCapOpMod.GENERAL_DEVICE_CUR)));
            assertEquals(0x17, CmdHcaCap.log_max_qp(Cmds.queryCap(h, QueryHcaCapOpMod.GENERAL_DEVICE_MAX)));
            assertEquals(0x12, PerProtocolNetworkingOffloadCaps.max_lso_cap(Cmds.queryCap(h, QueryHcaCapOpMod.ETHERNET_OFFLOADS_CUR)));
            MemorySegment ft = Cmds.queryCap(h, QueryHcaCapOpMod.FLOW_TABLE_CUR);
            assertTrue(!ft.asSlice(FlowTableNicCap.flow_table_properties_nic_receive$BYTE_OFFSET, 16).equals(TestHost.in(16)));

            int init = Cmds.queryPages(h, QueryPagesOpMod.INIT_PAGES);
            assertEquals(32, init);
            Cmds.givePages(h, init, pages).ok();
            h.exec(header(CmdOpcode.INIT_HCA, InitHcaIn.SIZE), InitHcaOut.SIZE).ok();
            MemorySegment ver = header(CmdOpcode.SET_DRIVER_VERSION, SetDriverVersionIn.SIZE);
            SetDriverVersionIn.driver_version$copyFrom(ver, "prmkit,mlx5,0.1".getBytes(StandardCharsets.US_ASCII));
            h.exec(ver, SetDriverVersionOut.SIZE).ok();
            h.exec(header(CmdOpcode.NOP, NopIn.SIZE), NopOut.SIZE).ok();

            MemorySegment td = header(CmdOpcode.TEARDOWN_HCA, TeardownHcaIn.SIZE);
            TeardownHcaIn.profile$set(td, TeardownHcaProfile.GRACEFUL_CLOSE);
            h.exec(td, TeardownHcaOut.SIZE).ok();
            List<Long> back = Cmds.takePages(h, 100);
            assertEquals(40, back.size());
            HashSet<Long> given = new HashSet<>();
            pages.forEach(p -> given.add(p.busAddress()));
            assertEquals(given, new HashSet<>(back));
            h.exec(header(CmdOpcode.DISABLE_HCA, DisableHcaIn.SIZE), DisableHcaOut.SIZE).ok();
            assertEquals(0, h.hca.iommu().faults());
            assertEquals(null, h.hca.error());
        }
    }

    @Test
    void commandsBeforeEnableHcaAreBadSystemState() {
        try (TestHost h = step()) {
            assertFails(h.exec(header(CmdOpcode.QUERY_ISSI, QueryIssiIn.SIZE), QueryIssiOut.SIZE), Syndrome.NOT_ENABLED, CmdOpcode.QUERY_ISSI);
            h.exec(header(CmdOpcode.NOP, NopIn.SIZE), NopOut.SIZE).ok();
        }
    }

    @Test
    void enableHcaTwiceAndForAnotherFunction() {
        try (TestHost h = step()) {
            MemorySegment other = header(CmdOpcode.ENABLE_HCA, EnableHcaIn.SIZE);
            EnableHcaIn.function_id$set(other, 3);
            assertFails(h.exec(other, EnableHcaOut.SIZE), Syndrome.OTHER_FUNCTION, CmdOpcode.ENABLE_HCA);
            enable(h).ok();
            assertFails(enable(h), Syndrome.ALREADY_ENABLED, CmdOpcode.ENABLE_HCA);
        }
    }

    @Test
    void setIssiRefusesUnsupportedAndLateValues() {
        try (TestHost h = step()) {
            enable(h).ok();
            MemorySegment set = header(CmdOpcode.SET_ISSI, SetIssiIn.SIZE);
            SetIssiIn.current_issi$set(set, 5);
            assertFails(h.exec(set, SetIssiOut.SIZE), Syndrome.BAD_ISSI, CmdOpcode.SET_ISSI);
            SetIssiIn.current_issi$set(set, 0); // the ConnectX-4 supports ISSI 1 only
            assertFails(h.exec(set, SetIssiOut.SIZE), Syndrome.BAD_ISSI, CmdOpcode.SET_ISSI);
        }
        try (TestHost h = step()) {
            Cmds.bringUp(h);
            MemorySegment set = header(CmdOpcode.SET_ISSI, SetIssiIn.SIZE);
            SetIssiIn.current_issi$set(set, 1);
            assertFails(h.exec(set, SetIssiOut.SIZE), Syndrome.ALREADY_INITIALIZED, CmdOpcode.SET_ISSI);
        }
    }

    @Test
    void queryPagesRegularAndBadOpMod() {
        try (TestHost h = TestHost.started(new SoftHca.Options().pages(2, 3, 5), ExecutionMode.STEP)) {
            enable(h).ok();
            assertEquals(2, Cmds.queryPages(h, QueryPagesOpMod.BOOT_PAGES));
            assertEquals(5, Cmds.queryPages(h, QueryPagesOpMod.INIT_PAGES));
            assertEquals(10, Cmds.queryPages(h, QueryPagesOpMod.REGULAR_PAGES));
            MemorySegment in = header(CmdOpcode.QUERY_PAGES, QueryPagesIn.SIZE, 9);
            assertFails(h.exec(in, QueryPagesOut.SIZE), Syndrome.BAD_OP_MOD, CmdOpcode.QUERY_PAGES);
        }
    }

    @Test
    void managePagesChecksEveryAddress() {
        try (TestHost h = step()) {
            enable(h).ok();
            List<DmaRegion> held = new ArrayList<>();
            MemorySegment in = header(CmdOpcode.MANAGE_PAGES, ManagePagesIn.SIZE + 16);
            ManagePagesIn.op_mod$set(in, ManagePagesOpMod.ALLOCATION_SUCCESS);
            ManagePagesIn.input_num_entries$set(in, 2);
            DmaRegion page = h.f.dma().allocate(4096, 4096);
            ManagePagesIn.pas$set(in, 0, page.busAddress());
            ManagePagesIn.pas$set(in, 1, page.busAddress() + 0x800); // not page aligned
            assertFails(h.exec(in, ManagePagesOut.SIZE), Syndrome.BAD_PAGE_ADDRESS, CmdOpcode.MANAGE_PAGES);
            ManagePagesIn.pas$set(in, 1, page.segment().address() & ~0xfffL); // a native address: not mapped
            assertFails(h.exec(in, ManagePagesOut.SIZE), Syndrome.BAD_PAGE_ADDRESS, CmdOpcode.MANAGE_PAGES);
            ManagePagesIn.pas$set(in, 1, page.busAddress()); // the same page twice
            assertFails(h.exec(in, ManagePagesOut.SIZE), Syndrome.DUPLICATE_PAGE, CmdOpcode.MANAGE_PAGES);
            ManagePagesIn.input_num_entries$set(in, 3); // more entries than the input holds
            assertFails(h.exec(in, ManagePagesOut.SIZE), Syndrome.PAGE_COUNT, CmdOpcode.MANAGE_PAGES);
            assertEquals(8, Cmds.queryPages(h, QueryPagesOpMod.BOOT_PAGES), "no page was taken by the failed commands");
            Cmds.givePages(h, 8, held).ok();
            assertEquals(0, Cmds.queryPages(h, QueryPagesOpMod.BOOT_PAGES));
            MemorySegment fail = header(CmdOpcode.MANAGE_PAGES, ManagePagesIn.SIZE);
            ManagePagesIn.op_mod$set(fail, ManagePagesOpMod.ALLOCATION_FAIL);
            h.exec(fail, ManagePagesOut.SIZE).ok();
            assertEquals(0, Cmds.takePages(h, 8).size(), "pages are still needed before INIT_HCA... and returned only when spare");
        }
    }

    @Test
    void initHcaNeedsBootAndInitPages() {
        try (TestHost h = step()) {
            enable(h).ok();
            List<DmaRegion> held = new ArrayList<>();
            Cmds.givePages(h, 8, held).ok();
            assertFails(h.exec(header(CmdOpcode.INIT_HCA, InitHcaIn.SIZE), InitHcaOut.SIZE), Syndrome.MISSING_PAGES, CmdOpcode.INIT_HCA);
            Cmds.givePages(h, 32, held).ok();
            h.exec(header(CmdOpcode.INIT_HCA, InitHcaIn.SIZE), InitHcaOut.SIZE).ok();
            assertFails(h.exec(header(CmdOpcode.INIT_HCA, InitHcaIn.SIZE), InitHcaOut.SIZE), Syndrome.ALREADY_INITIALIZED, CmdOpcode.INIT_HCA);
        }
    }

    /**
     * rdma-core's mlx5_vfio sends INIT_HCA in 16 bytes (its mlx5_ifc.h predates sw_vhca_id and
     * sw_owner_id, both capability-gated): the real ConnectX-4 took such inputs with the missing
     * bytes read as 0, and so does the device (RdmaCoreVfioTest found the refusal). Shorter than the
     * ungated members (here the 16 bytes a queue entry holds inline) stays BAD_INP_LEN.
     */
    @Test
    void initHcaInTheOlderSixteenByteLayout() {
        try (TestHost h = step()) {
            enable(h).ok();
            List<DmaRegion> held = new ArrayList<>();
            Cmds.givePages(h, 40, held).ok();
            assertFails(h.exec(header(CmdOpcode.INIT_HCA, 12), InitHcaOut.SIZE), Syndrome.INPUT_TOO_SHORT, CmdOpcode.INIT_HCA);
            h.exec(header(CmdOpcode.INIT_HCA, 16), InitHcaOut.SIZE).ok();
            assertFails(h.exec(header(CmdOpcode.INIT_HCA, 16), InitHcaOut.SIZE), Syndrome.ALREADY_INITIALIZED, CmdOpcode.INIT_HCA);
        }
    }

    /** Linux's mlx5_function_setup unwinding when INIT_HCA fails: reclaim the startup pages, then DISABLE_HCA, no TEARDOWN_HCA. */
    @Test
    void afterAFailedInitHcaEveryPageGoesBackWithoutTeardown() {
        try (TestHost h = step()) {
            enable(h).ok();
            List<DmaRegion> held = new ArrayList<>();
            Cmds.givePages(h, Cmds.queryPages(h, QueryPagesOpMod.BOOT_PAGES), held).ok();
            Cmds.givePages(h, Cmds.queryPages(h, QueryPagesOpMod.INIT_PAGES), held).ok();
            assertTrue(held.size() > 0);
            h.hca.faults().failNext(CmdOpcode.INIT_HCA, CmdStatus.INT_ERR, 0x1234);
            TestHost.Result r = h.exec(header(CmdOpcode.INIT_HCA, InitHcaIn.SIZE), InitHcaOut.SIZE);
            assertEquals(CmdStatus.INT_ERR.value, r.status());
            List<Long> back = Cmds.takePages(h, 1000);
            assertEquals(held.size(), back.size(), "every boot and init page is returned");
            assertEquals(held.stream().map(DmaRegion::busAddress).collect(java.util.stream.Collectors.toSet()), new HashSet<>(back));
            h.exec(header(CmdOpcode.DISABLE_HCA, DisableHcaIn.SIZE), DisableHcaOut.SIZE).ok();

            // Enabled again, boot pages are needed again until INIT_HCA fails or TEARDOWN_HCA runs.
            enable(h).ok();
            held.clear();
            Cmds.givePages(h, Cmds.queryPages(h, QueryPagesOpMod.BOOT_PAGES), held).ok();
            assertEquals(0, Cmds.takePages(h, 1000).size(), "a fresh ENABLE_HCA keeps its boot pages");
            // a refused INIT_HCA (too few pages) is a failed one too
            assertFails(h.exec(header(CmdOpcode.INIT_HCA, InitHcaIn.SIZE), InitHcaOut.SIZE), Syndrome.MISSING_PAGES, CmdOpcode.INIT_HCA);
            assertEquals(held.size(), Cmds.takePages(h, 1000).size());
            h.exec(header(CmdOpcode.DISABLE_HCA, DisableHcaIn.SIZE), DisableHcaOut.SIZE).ok();
        }
    }

    @Test
    void queryHcaCapRefusesUnmodelledTypes() {
        try (TestHost h = step()) {
            enable(h).ok();
            MemorySegment in = header(CmdOpcode.QUERY_HCA_CAP, QueryHcaCapIn.SIZE);
            QueryHcaCapIn.op_mod$set(in, QueryHcaCapOpMod.ODP_MAX);
            assertFails(h.exec(in, QueryHcaCapOut.SIZE), Syndrome.BAD_CAP_TYPE, CmdOpcode.QUERY_HCA_CAP);
            QueryHcaCapIn.op_mod$set(in, 0x7f);
            assertFails(h.exec(in, QueryHcaCapOut.SIZE), Syndrome.BAD_OP_MOD, CmdOpcode.QUERY_HCA_CAP);
            QueryHcaCapIn.op_mod$set(in, QueryHcaCapOpMod.GENERAL_DEVICE_CUR);
            QueryHcaCapIn.function_id$set(in, 1);
            assertFails(h.exec(in, QueryHcaCapOut.SIZE), Syndrome.OTHER_FUNCTION, CmdOpcode.QUERY_HCA_CAP);
        }
    }

    @Test
    void setHcaCapChecksSettableFieldsAndMaximum() {
        try (TestHost h = step()) {
            enable(h).ok();
            MemorySegment cur = Cmds.queryCap(h, QueryHcaCapOpMod.GENERAL_DEVICE_CUR);
            long cap = SetHcaCapIn.capability$BYTE_OFFSET;
            MemorySegment in = header(CmdOpcode.SET_HCA_CAP, SetHcaCapIn.SIZE);
            MemorySegment.copy(cur, 0, in, cap, 0x1000);
            CmdHcaCap.log_max_cq$set(in, cap, 0x10);
            assertFails(h.exec(in, SetHcaCapOut.SIZE), Syndrome.CAP_NOT_SETTABLE, CmdOpcode.SET_HCA_CAP);
            MemorySegment.copy(cur, 0, in, cap, 0x1000);
            CmdHcaCap.log_max_qp$set(in, cap, 0x18); // max is 0x17
            assertFails(h.exec(in, SetHcaCapOut.SIZE), Syndrome.CAP_ABOVE_MAX, CmdOpcode.SET_HCA_CAP);
            assertEquals(0xe, CmdHcaCap.log_max_qp(Cmds.queryCap(h, QueryHcaCapOpMod.GENERAL_DEVICE_CUR)), "a refused SET_HCA_CAP changes nothing");
            SetHcaCapIn.op_mod$set(in, SetHcaCapOpMod.ROCE);
            assertFails(h.exec(in, SetHcaCapOut.SIZE), Syndrome.BAD_CAP_TYPE, CmdOpcode.SET_HCA_CAP);
        }
        try (TestHost h = step()) {
            Cmds.bringUp(h);
            MemorySegment in = header(CmdOpcode.SET_HCA_CAP, SetHcaCapIn.SIZE);
            MemorySegment.copy(Cmds.queryCap(h, QueryHcaCapOpMod.GENERAL_DEVICE_CUR), 0, in, SetHcaCapIn.capability$BYTE_OFFSET, 0x1000);
            assertFails(h.exec(in, SetHcaCapOut.SIZE), Syndrome.ALREADY_INITIALIZED, CmdOpcode.SET_HCA_CAP);
        }
    }

    @Test
    void teardownAndDisableFollowTheStateMachine() {
        try (TestHost h = step()) {
            enable(h).ok();
            MemorySegment td = header(CmdOpcode.TEARDOWN_HCA, TeardownHcaIn.SIZE);
            assertFails(h.exec(td, TeardownHcaOut.SIZE), Syndrome.NOT_INITIALIZED, CmdOpcode.TEARDOWN_HCA);
            List<DmaRegion> held = Cmds.bringUpRest(h);
            assertFails(h.exec(header(CmdOpcode.DISABLE_HCA, DisableHcaIn.SIZE), DisableHcaOut.SIZE), Syndrome.ALREADY_INITIALIZED,
                    CmdOpcode.DISABLE_HCA);
            TeardownHcaIn.profile$set(td, 7);
            assertFails(h.exec(td, TeardownHcaOut.SIZE), Syndrome.BAD_TEARDOWN_PROFILE, CmdOpcode.TEARDOWN_HCA);
            TeardownHcaIn.profile$set(td, TeardownHcaProfile.FORCE_CLOSE);
            MemorySegment out = h.exec(td, TeardownHcaOut.SIZE).ok().out();
            assertEquals(false, TeardownHcaOut.state(out));
            assertFails(h.exec(header(CmdOpcode.DISABLE_HCA, DisableHcaIn.SIZE), DisableHcaOut.SIZE), Syndrome.PAGES_IN_USE,
                    CmdOpcode.DISABLE_HCA);
            assertEquals(held.size(), Cmds.takePages(h, 1000).size());
            h.exec(header(CmdOpcode.DISABLE_HCA, DisableHcaIn.SIZE), DisableHcaOut.SIZE).ok();
            assertFails(h.exec(header(CmdOpcode.QUERY_ISSI, QueryIssiIn.SIZE), QueryIssiOut.SIZE), Syndrome.NOT_ENABLED, CmdOpcode.QUERY_ISSI);
        }
    }

    @Test
    void setDriverVersionNeedsInitHca() {
        try (TestHost h = step()) {
            enable(h).ok();
            assertFails(h.exec(header(CmdOpcode.SET_DRIVER_VERSION, SetDriverVersionIn.SIZE), SetDriverVersionOut.SIZE),
                    Syndrome.NOT_INITIALIZED, CmdOpcode.SET_DRIVER_VERSION);
        }
    }

    @Test
    void accessRegisterUnknownRegisterAndShortInput() {
        try (TestHost h = step()) {
            enable(h).ok();
            MemorySegment in = header(CmdOpcode.ACCESS_REG, AccessRegisterIn.SIZE + 16);
            AccessRegisterIn.op_mod$set(in, AccessRegisterOpMod.READ);
            AccessRegisterIn.register_id$set(in, RegisterId.SBPR);
            assertFails(h.exec(in, AccessRegisterIn.SIZE + 16), Syndrome.BAD_REGISTER, CmdOpcode.ACCESS_REG);
            MemorySegment shortIn = header(CmdOpcode.ACCESS_REG, AccessRegisterIn.SIZE);
            AccessRegisterIn.register_id$set(shortIn, RegisterId.HOST_ENDIANNESS);
            assertFails(h.exec(shortIn, AccessRegisterIn.SIZE + 16), Syndrome.INPUT_TOO_SHORT, CmdOpcode.ACCESS_REG);
            AccessRegisterIn.op_mod$set(in, 5);
            assertFails(h.exec(in, AccessRegisterIn.SIZE + 16), Syndrome.BAD_OP_MOD, CmdOpcode.ACCESS_REG);
        }
    }

    @Test
    void unknownOpcodeIsBadOperation() {
        try (TestHost h = step()) {
            MemorySegment in = TestHost.in(16);
            NopIn.opcode$setUnchecked(in, 0x7ff);
            TestHost.Result r = h.exec(in, 16);
            assertEquals(0, r.delivery());
            assertEquals(CmdStatus.BAD_OP_ERR.value, r.status());
            assertEquals(Syndrome.BAD_OPCODE.value(0x7ff), r.syndrome());
        }
    }

    /** A ConnectX-4 accepted a 16-byte INIT_HCA (before sw_owner_id): the declared oldest length, the rest read as 0. */
    @Test
    void initHcaAsShortAsTheDeclaredOldestInputAndNoShorter() {
        long oldest = PrmCommands.INIT_HCA.oldestInputBytes();
        assertTrue(oldest < InitHcaIn.SIZE, "INIT_HCA declares an oldest input shorter than init_hca_in");
        try (TestHost h = step()) {
            enable(h).ok();
            List<DmaRegion> held = new ArrayList<>();
            Cmds.givePages(h, 8 + 32, held).ok();
            assertFails(h.exec(header(CmdOpcode.INIT_HCA, oldest - 4), InitHcaOut.SIZE), Syndrome.INPUT_TOO_SHORT, CmdOpcode.INIT_HCA);
            h.exec(header(CmdOpcode.INIT_HCA, oldest), InitHcaOut.SIZE).ok();
            assertFails(h.exec(header(CmdOpcode.INIT_HCA, InitHcaIn.SIZE), InitHcaOut.SIZE), Syndrome.ALREADY_INITIALIZED, CmdOpcode.INIT_HCA);
        }
    }

    /** Commands without an older, shorter input (oldest = whole structure) still need every byte. */
    @Test
    void commandsWithoutAnOlderInputNeedTheirWholeStructure() {
        assertEquals(QueryIssiIn.SIZE, PrmCommands.QUERY_ISSI.oldestInputBytes());
        try (TestHost h = step()) {
            enable(h).ok();
            assertFails(h.exec(header(CmdOpcode.QUERY_ISSI, QueryIssiIn.SIZE - 4), QueryIssiOut.SIZE), Syndrome.INPUT_TOO_SHORT, CmdOpcode.QUERY_ISSI);
        }
    }

    @Test
    void lengthsShorterThanTheStructuresAreBadLengthStatuses() {
        try (TestHost h = step()) {
            enable(h).ok();
            MemorySegment in = header(CmdOpcode.QUERY_ISSI, 8);
            assertFails(h.exec(in, QueryIssiOut.SIZE), Syndrome.INPUT_TOO_SHORT, CmdOpcode.QUERY_ISSI);
            assertFails(h.exec(header(CmdOpcode.QUERY_ISSI, QueryIssiIn.SIZE), 0x10), Syndrome.OUTPUT_TOO_SHORT, CmdOpcode.QUERY_ISSI);
        }
    }
}

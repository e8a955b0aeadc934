package io.prmkit.softhca;

import static io.prmkit.softhca.Cmds.header;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.prmkit.mlx5.AccessRegisterIn;
import io.prmkit.mlx5.AccessRegisterOpMod;
import io.prmkit.mlx5.AccessRegisterOut;
import io.prmkit.mlx5.AllocPdIn;
import io.prmkit.mlx5.AllocPdOut;
import io.prmkit.mlx5.AllocQCounterIn;
import io.prmkit.mlx5.AllocQCounterOut;
import io.prmkit.mlx5.AllocTransportDomainIn;
import io.prmkit.mlx5.AllocTransportDomainOut;
import io.prmkit.mlx5.AllocUarIn;
import io.prmkit.mlx5.AllocUarOut;
import io.prmkit.mlx5.CmdHcaCap;
import io.prmkit.mlx5.CmdOpcode;
import io.prmkit.mlx5.CreateCqIn;
import io.prmkit.mlx5.CreateCqOut;
import io.prmkit.mlx5.CreateEqIn;
import io.prmkit.mlx5.CreateEqOut;
import io.prmkit.mlx5.CreateFlowTableIn;
import io.prmkit.mlx5.CreateFlowTableOut;
import io.prmkit.mlx5.CreateMkeyIn;
import io.prmkit.mlx5.CreateMkeyOut;
import io.prmkit.mlx5.CreateTisIn;
import io.prmkit.mlx5.CreateTisOut;
import io.prmkit.mlx5.Cqc;
import io.prmkit.mlx5.EnableHcaIn;
import io.prmkit.mlx5.EnableHcaOut;
import io.prmkit.mlx5.Eqc;
import io.prmkit.mlx5.EqeType;
import io.prmkit.mlx5.FlowTableContext;
import io.prmkit.mlx5.FlowTableType;
import io.prmkit.mlx5.HcaCapType;
import io.prmkit.mlx5.InitHcaIn;
import io.prmkit.mlx5.InitHcaOut;
import io.prmkit.mlx5.InitSeg;
import io.prmkit.mlx5.ManagePagesIn;
import io.prmkit.mlx5.ManagePagesOpMod;
import io.prmkit.mlx5.ManagePagesOut;
import io.prmkit.mlx5.Mkc;
import io.prmkit.mlx5.MkcAccessMode;
import io.prmkit.mlx5.NicVportContext;
import io.prmkit.mlx5.PaosReg;
import io.prmkit.mlx5.PerProtocolNetworkingOffloadCaps;
import io.prmkit.mlx5.PmtuReg;
import io.prmkit.mlx5.PpcntGrp;
import io.prmkit.mlx5.PpcntReg;
import io.prmkit.layout.PrmLayout;
import io.prmkit.mlx5.QueryAdapterIn;
import io.prmkit.mlx5.QueryAdapterOut;
import io.prmkit.mlx5.QueryAdapterParamBlock;
import io.prmkit.mlx5.QueryHcaCapIn;
import io.prmkit.mlx5.QueryHcaCapOut;
import io.prmkit.mlx5.QueryIssiIn;
import io.prmkit.mlx5.QueryIssiOut;
import io.prmkit.mlx5.QueryNicVportContextIn;
import io.prmkit.mlx5.QueryNicVportContextOut;
import io.prmkit.mlx5.QueryPagesIn;
import io.prmkit.mlx5.QueryPagesOpMod;
import io.prmkit.mlx5.QueryPagesOut;
import io.prmkit.mlx5.QueryQCounterIn;
import io.prmkit.mlx5.QueryQCounterOut;
import io.prmkit.mlx5.QueryVportCounterIn;
import io.prmkit.mlx5.QueryVportCounterOut;
import io.prmkit.mlx5.QueryVportStateIn;
import io.prmkit.mlx5.QueryVportStateOut;
import io.prmkit.mlx5.RegisterHostEndianness;
import io.prmkit.mlx5.RegisterId;
import io.prmkit.mlx5.SetFlowTableRootIn;
import io.prmkit.mlx5.SetFlowTableRootOut;
import io.prmkit.mlx5.SetHcaCapIn;
import io.prmkit.mlx5.SetHcaCapOpMod;
import io.prmkit.mlx5.SetHcaCapOut;
import io.prmkit.mlx5.SetIssiIn;
import io.prmkit.mlx5.SetIssiOut;
import io.prmkit.mlx5.Tisc;
import io.prmkit.mlx5.VportStateOpMod;
import io.prmkit.platform.DmaRegion;
import io.prmkit.mlx5.CompletionMode;
import io.prmkit.mlx5.CqeOpcode;
import io.prmkit.mlx5.Cqe64;
import io.prmkit.mlx5.CreateFlowGroupIn;
import io.prmkit.mlx5.CreateFlowGroupOut;
import io.prmkit.mlx5.CreateRqIn;
import io.prmkit.mlx5.CreateRqOut;
import io.prmkit.mlx5.CreateRqtIn;
import io.prmkit.mlx5.CreateRqtOut;
import io.prmkit.mlx5.CreateSqIn;
import io.prmkit.mlx5.CreateSqOut;
import io.prmkit.mlx5.CreateTirIn;
import io.prmkit.mlx5.CreateTirOut;
import io.prmkit.mlx5.DestFormatStruct;
import io.prmkit.mlx5.EthCsFlags;
import io.prmkit.mlx5.FlowContext;
import io.prmkit.mlx5.FlowContextAction;
import io.prmkit.mlx5.FlowDestinationType;
import io.prmkit.mlx5.FteMatchParam;
import io.prmkit.mlx5.FteMatchSetLyr24;
import io.prmkit.mlx5.MatchCriteriaEnable;
import io.prmkit.mlx5.ModifyNicVportContextIn;
import io.prmkit.mlx5.ModifyNicVportFieldSelect;
import io.prmkit.mlx5.ModifyRqIn;
import io.prmkit.mlx5.ModifySqIn;
import io.prmkit.mlx5.RqNum;
import io.prmkit.mlx5.RqState;
import io.prmkit.mlx5.Rqc;
import io.prmkit.mlx5.Rqtc;
import io.prmkit.mlx5.RxHashFields;
import io.prmkit.mlx5.RxHashFn;
import io.prmkit.mlx5.SendWqeOpcode;
import io.prmkit.mlx5.SetFteIn;
import io.prmkit.mlx5.SetFteOut;
import io.prmkit.mlx5.SqState;
import io.prmkit.mlx5.Sqc;
import io.prmkit.mlx5.TirDispType;
import io.prmkit.mlx5.Tirc;
import io.prmkit.mlx5.Wq;
import io.prmkit.mlx5.WqDoorbellRecord;
import io.prmkit.mlx5.WqType;
import io.prmkit.mlx5.WqeCtrlSeg;
import io.prmkit.mlx5.WqeDataSeg;
import io.prmkit.mlx5.WqeEthSeg;
import io.prmkit.softhca.wire.Ethernet;
import io.prmkit.softhca.wire.TestFrames;
import java.lang.invoke.VarHandle;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/**
 * What Linux 6.1's mlx5_core sends to a ConnectX-4 from probe to an Ethernet port that is up, in
 * its order, with the op_mod, input length and fields the kernel's code sets, through BAR 0 and DMA
 * memory only (the device is the {@link CapsProfile#connectX4()} profile: the card's capability
 * pages, board id and its 12,868 init pages). Every command must complete OK, and the output fields
 * the kernel reads are checked. The kernel functions are named per step (main.c
 * mlx5_function_setup, set_hca_cap, mlx5_query_hca_caps, mlx5_init_once, mlx5_load; eq.c; fs_core.c;
 * en_common.c, en_main.c, en/port.c, vport.c, en_stats.c). Where the kernel skips a command on
 * this card because a capability bit is off (PCAM/MCAM/QCAM registers, DTOR, SET_DRIVER_VERSION,
 * ODP, QoS, hca_cap_2, ...), the test checks that the bit is off, as the kernel does.
 * docs/soft-hca.md "Firmware compatibility" is the table of these commands.
 */
class LinuxProbeSequenceTest {
    static final ValueLayout.OfInt BE = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN);

    /** struct mlx5_ifc_mbox_out: the output mlx5_cmd_exec_in gives commands that return nothing but status. */
    static final long MBOX_OUT = 16;

    /** One command as sent: who sends it, opcode, op_mod, lengths. */
    record Sent(String who, CmdOpcode op, int opMod, long in, long out) {}

    /** The host side playing mlx5_core: each command goes through BAR 0 and DMA, must be OK. */
    static final class Linux {
        final TestHost h;
        final List<Sent> sent = new ArrayList<>();
        final List<DmaRegion> keep = new ArrayList<>();
        /** Every output, in order, to compare runs. */
        final List<byte[]> answers = new ArrayList<>();
        /** Send every input at its command's oldest accepted length (the spec's declaration), as an older driver would. */
        final boolean oldest;
        /** Inputs shortened, and the bytes dropped that were not zero (fields an older driver does not have). */
        int shortened, droppedNonZero;

        Linux(TestHost h) {
            this(h, false);
        }

        Linux(TestHost h, boolean oldest) {
            this.h = h;
            this.oldest = oldest;
        }

        MemorySegment send(String who, MemorySegment in, long outLen) {
            CmdOpcode op = CmdOpcode.of(io.prmkit.mlx5.NopIn.opcode(in));
            int opMod = io.prmkit.mlx5.NopIn.op_mod(in);
            io.prmkit.layout.PrmLayout.Command declared = io.prmkit.mlx5.PrmCommands.byOpcode((int) op.value);
            // an input of exactly the structure (no trailing page list or register data) shrinks to the oldest length
            if (oldest && declared != null && declared.oldestInputBytes() < declared.inBytes() && in.byteSize() == declared.inBytes()) {
                for (long i = declared.oldestInputBytes(); i < in.byteSize(); i++) if (in.get(ValueLayout.JAVA_BYTE, i) != 0) droppedNonZero++;
                MemorySegment older = TestHost.in(declared.oldestInputBytes());
                MemorySegment.copy(in, 0, older, 0, older.byteSize());
                in = older;
                shortened++;
            }
            MemorySegment input = in;
            sent.add(new Sent(who, op, opMod, in.byteSize(), outLen));
            TestHost.Result r = h.exec(in, outLen);
            assertEquals(0, r.delivery(), () -> who + ": " + op + " delivery status " + r.delivery());
            assertEquals(0, r.status(), () -> who + ": " + op + " op_mod 0x" + Integer.toHexString(opMod) + " in=" + input.byteSize()
                    + " status 0x" + Integer.toHexString(r.status()) + " " + io.prmkit.softhca.cmd.Syndrome.describe(r.syndrome()));
            answers.add(r.out().toArray(ValueLayout.JAVA_BYTE));
            return r.out();
        }

        /** Fresh zeroed DMA memory of whole pages, kept until the end. */
        DmaRegion dma(long bytes) {
            DmaRegion r = h.f.dma().allocate((bytes + 4095) & ~4095L, 4096);
            keep.add(r);
            return r;
        }

        /** mlx5_core_get_caps: QUERY_HCA_CAP current, then maximum; returns {cur, max}. */
        MemorySegment[] caps(String who, int type) {
            MemorySegment[] pages = new MemorySegment[2];
            for (int max = 0; max < 2; max++) {
                MemorySegment in = header(CmdOpcode.QUERY_HCA_CAP, QueryHcaCapIn.SIZE, type << 1 | (max == 0 ? 1 : 0));
                MemorySegment out = send(who, in, QueryHcaCapOut.SIZE);
                pages[max] = out.asSlice(QueryHcaCapOut.capability$BYTE_OFFSET, 0x1000);
            }
            return pages;
        }

        /** mlx5_core_access_reg: ACCESS_REG with the register's data after the header; returns the register's output. */
        MemorySegment reg(String who, RegisterId id, boolean write, PrmLayout.Struct layout, Consumer<MemorySegment> fill) {
            MemorySegment in = header(CmdOpcode.ACCESS_REG, AccessRegisterIn.SIZE + layout.sizeBytes(),
                    (int) (write ? AccessRegisterOpMod.WRITE : AccessRegisterOpMod.READ).value);
            AccessRegisterIn.register_id$set(in, id);
            fill.accept(in.asSlice(AccessRegisterIn.register_data$BYTE_OFFSET, layout.sizeBytes()));
            MemorySegment out = send(who, in, AccessRegisterOut.SIZE + layout.sizeBytes());
            return out.asSlice(AccessRegisterOut.register_data$BYTE_OFFSET, layout.sizeBytes());
        }

        /** mlx5_satisfy_startup_pages / give_pages: QUERY_PAGES, then one MANAGE_PAGES with all the pages. */
        int pages(String who, QueryPagesOpMod mod) {
            MemorySegment q = header(CmdOpcode.QUERY_PAGES, QueryPagesIn.SIZE, (int) mod.value);
            int n = QueryPagesOut.num_pages(send(who, q, QueryPagesOut.SIZE));
            DmaRegion r = dma(4096L * n);
            MemorySegment give = header(CmdOpcode.MANAGE_PAGES, ManagePagesIn.SIZE + 8L * n, ManagePagesOpMod.ALLOCATION_SUCCESS$VALUE);
            ManagePagesIn.input_num_entries$set(give, n);
            for (int i = 0; i < n; i++) ManagePagesIn.pas$set(give, i, r.busAddress(4096L * i));
            send(who, give, ManagePagesOut.SIZE);
            return n;
        }

        /** create_map_eq: an EQ of roundup_pow_of_two(nent + MLX5_NUM_SPARE_EQE) entries, armed through its UAR page. */
        int eq(String who, int uar, int nent, int vector, long mask) {
            int logSize = 64 - Long.numberOfLeadingZeros(nent + 0x80 - 1);
            long bytes = 64L << logSize;
            int npages = (int) ((bytes + 4095) / 4096);
            DmaRegion ring = dma(bytes);
            MemorySegment in = header(CmdOpcode.CREATE_EQ, CreateEqIn.SIZE + 8L * npages);
            for (int i = 0; i < npages; i++) CreateEqIn.pas$set(in, i, ring.busAddress(4096L * i));
            CreateEqIn.event_bitmask$set(in, 0, mask);
            long eqc = CreateEqIn.eq_context_entry$BYTE_OFFSET;
            Eqc.log_eq_size$set(in, eqc, logSize);
            Eqc.uar_page$set(in, eqc, uar);
            Eqc.intr$set(in, eqc, vector);
            Eqc.log_page_size$set(in, eqc, 0); // PAGE_SHIFT - MLX5_ADAPTER_PAGE_SHIFT
            int eqn = CreateEqOut.eq_number(send(who, in, CreateEqOut.SIZE));
            // eq_update_ci(eq, 1): the arm doorbell of the EQ's UAR page, consumer index 0
            MemorySegment db = MemorySegment.ofArray(new byte[4]);
            io.prmkit.mlx5.EqDoorbell.eqn$set(db, eqn);
            io.prmkit.mlx5.EqDoorbell.consumer_index$set(db, 0);
            h.bar.write32(uar * 4096L + io.prmkit.mlx5.UarPage.eq_doorbell_arm$BYTE_OFFSET, db.get(BE, 0));
            return eqn;
        }
    }

    @Test
    void linuxProbeToAnEthernetPortThatIsUp() {
        try (TestHost h = TestHost.started(new SoftHca.Options().caps(CapsProfile.connectX4()), ExecutionMode.STEP)) {
            Linux l = new Linux(h);
            Netdev n = run(l);
            assertFalse(h.hca.isFatal());
            assertNull(h.hca.error());
            framesLandInTheRqsLinuxsSteeringChooses(n);
            l.keep.forEach(DmaRegion::close);
        }
    }

    /**
     * The same sequence with every input at the oldest length its command's declaration accepts
     * (of the commands Linux sends here, INIT_HCA's 16 bytes, as the ConnectX-4 took from older
     * kernels; every other command's oldest is its whole structure): the same answers, byte for byte,
     * as the run with today's lengths.
     */
    @Test
    void theSameSequenceAtTheOldestAcceptedLengthsGetsTheSameAnswers() {
        List<byte[]> today;
        List<Sent> sentToday;
        try (TestHost h = TestHost.started(new SoftHca.Options().caps(CapsProfile.connectX4()), ExecutionMode.STEP)) {
            Linux l = new Linux(h);
            run(l);
            today = l.answers;
            sentToday = l.sent;
            l.keep.forEach(DmaRegion::close);
        }
        try (TestHost h = TestHost.started(new SoftHca.Options().caps(CapsProfile.connectX4()), ExecutionMode.STEP)) {
            Linux l = new Linux(h, true);
            run(l);
            List<String> older = io.prmkit.mlx5.PrmCommands.all().stream().filter(c -> c.oldestInputBytes() < c.inBytes())
                    .map(io.prmkit.layout.PrmLayout.Command::simpleName).toList();
            assertTrue(older.contains("INIT_HCA"), "the spec declares INIT_HCA's older input: " + older);
            long sentOlder = l.sent.stream().filter(x -> older.contains(x.op().name())).count();
            assertEquals(sentOlder, l.shortened, "every command with an older input was sent at that length");
            assertTrue(l.shortened >= 1);
            assertEquals(0, l.droppedNonZero, "Linux 6.1 leaves the newer fields of these commands 0 on this card");
            assertEquals(sentToday.size(), l.sent.size());
            assertEquals(today.size(), l.answers.size());
            for (int i = 0; i < today.size(); i++) {
                int at = i;
                org.junit.jupiter.api.Assertions.assertArrayEquals(today.get(i), l.answers.get(i), () -> "answer to " + sentToday.get(at));
            }
            assertFalse(h.hca.isFatal());
            l.keep.forEach(DmaRegion::close);
        }
    }

    static Netdev run(Linux l) {
        TestHost h = l.h;
        // ---- mlx5_function_setup ------------------------------------------------------------
        // wait_fw_init, mlx5_cmd_init: TestHost.started polled initializing and registered the queue.
        // mlx5_tout_query_iseg / mlx5_tout_query_dtor: cmd_q_init_to reads 0, so no DTOR register.
        assertEquals(0, h.bar.read32(InitSeg.cmd_q_init_to$BIT_OFFSET / 8), "the ConnectX-4 has no timeouts in its init segment: no DTOR");
        String setup = "mlx5_function_setup";
        MemorySegment enable = header(CmdOpcode.ENABLE_HCA, EnableHcaIn.SIZE);
        l.send(setup + "/mlx5_core_enable_hca", enable, MBOX_OUT); // mlx5_cmd_exec_in: the output is a mbox_out
        MemorySegment issi = l.send(setup + "/mlx5_core_set_issi", header(CmdOpcode.QUERY_ISSI, QueryIssiIn.SIZE), QueryIssiOut.SIZE);
        assertEquals(0x2, QueryIssiOut.supported_issi_dw0(issi), "the card's supported_issi_dw0");
        MemorySegment setIssi = header(CmdOpcode.SET_ISSI, SetIssiIn.SIZE);
        SetIssiIn.current_issi$set(setIssi, 1);
        l.send(setup + "/mlx5_core_set_issi", setIssi, SetIssiOut.SIZE);
        assertEquals(CapsProfile.CX4_BOOT_PAGES, l.pages(setup + "/mlx5_satisfy_startup_pages(boot)", QueryPagesOpMod.BOOT_PAGES));
        // set_hca_ctrl: HOST_ENDIANNESS, written (op_mod 0), he = 0 on a little-endian host
        l.reg(setup + "/set_hca_ctrl", RegisterId.HOST_ENDIANNESS, true, RegisterHostEndianness.layout(), d -> {});
        // set_hca_cap -> handle_hca_cap: the general page, current then maximum, SET with log_max_qp from profile 2
        MemorySegment[] general = l.caps(setup + "/handle_hca_cap", HcaCapType.GENERAL$VALUE);
        assertEquals(0xe, CmdHcaCap.log_max_qp(general[0]));
        assertEquals(0x17, CmdHcaCap.log_max_qp(general[1]));
        MemorySegment setCap = header(CmdOpcode.SET_HCA_CAP, SetHcaCapIn.SIZE, SetHcaCapOpMod.GENERAL_DEVICE$VALUE);
        long cap = SetHcaCapIn.capability$BYTE_OFFSET;
        MemorySegment.copy(general[0], 0, setCap, cap, 0x1000);
        CmdHcaCap.pkey_table_size$set(setCap, cap, 0); // to_fw_pkey_sz(128)
        CmdHcaCap.log_max_qp$set(setCap, cap, 18);     // profile 2's log_max_qp, below the maximum 0x17
        CmdHcaCap.cmdif_checksum$set(setCap, cap, 0);
        CmdHcaCap.log_uar_page_sz$set(setCap, cap, 0);  // PAGE_SHIFT - 12
        l.send(setup + "/handle_hca_cap", setCap, SetHcaCapOut.SIZE);
        // handle_hca_cap_atomic: the atomic pages; no SET (supported_atomic_req_8B_endianness_mode_1 is 0)
        assertTrue(CmdHcaCap.atomic(general[0]));
        l.caps(setup + "/handle_hca_cap_atomic", HcaCapType.ATOMIC$VALUE);
        // handle_hca_cap_odp: pg is 0, nothing sent
        assertFalse(CmdHcaCap.pg(general[1]));
        // handle_hca_cap_roce: the RoCE pages; no SET (sw_r_roce_src_udp_port is 0 in the maximum)
        assertTrue(CmdHcaCap.roce(general[0]));
        l.caps(setup + "/handle_hca_cap_roce", HcaCapType.ROCE$VALUE);
        // handle_hca_cap_2: hca_cap_2 is 0 in the maximum, nothing sent
        assertFalse(CmdHcaCap.hca_cap_2(general[1]));
        assertEquals(CapsProfile.CX4_INIT_PAGES, l.pages(setup + "/mlx5_satisfy_startup_pages(init)", QueryPagesOpMod.INIT_PAGES));
        l.send(setup + "/mlx5_cmd_init_hca", header(CmdOpcode.INIT_HCA, InitHcaIn.SIZE), InitHcaOut.SIZE); // sw_owner_id: no cap
        // mlx5_set_driver_version: driver_version is 0, nothing sent
        assertFalse(CmdHcaCap.driver_version(general[0]));
        // mlx5_query_hca_caps: every page the card's bits ask for, current then maximum
        String q = setup + "/mlx5_query_hca_caps";
        general = l.caps(q, HcaCapType.GENERAL$VALUE);
        assertEquals(18, CmdHcaCap.log_max_qp(general[0]), "SET_HCA_CAP took");
        assertTrue(CmdHcaCap.eth_net_offloads(general[0]));
        MemorySegment[] eth = l.caps(q, HcaCapType.ETHERNET_OFFLOADS$VALUE);
        assertEquals(512, PerProtocolNetworkingOffloadCaps.lro_timer_supported_periods$elem(eth[0], 3), "mlx5e_choose_lro_timeout reads these");
        l.caps(q, HcaCapType.ATOMIC$VALUE);
        l.caps(q, HcaCapType.ROCE$VALUE);
        assertTrue(CmdHcaCap.nic_flow_table(general[0]));
        MemorySegment[] flowTable = l.caps(q, HcaCapType.FLOW_TABLE$VALUE);
        assertTrue(CmdHcaCap.eswitch_manager(general[0]), "MLX5_ESWITCH_MANAGER: the eswitch pages are read");
        l.caps(q, HcaCapType.ESWITCH_FLOW_TABLE$VALUE);
        l.caps(q, HcaCapType.ESWITCH$VALUE);
        for (String off : List.of("qos", "debug", "pcam_reg", "mcam_reg", "qcam_reg", "device_memory", "event_cap", "tls_tx", "tls_rx",
                "ipsec_offload", "shampo", "port_selection_cap", "ipoib_enhanced_offloads")) {
            PrmLayout.Field f = CmdHcaCap.layout().field(off).orElseThrow();
            assertEquals(0, CmdHcaCap.layout().get(general[0], 0, f), off + " is off on the ConnectX-4: Linux sends nothing for it");
        }

        // ---- mlx5_init_once ------------------------------------------------------------------
        MemorySegment adapter = l.send("mlx5_init_once/mlx5_query_board_id", header(CmdOpcode.QUERY_ADAPTER, QueryAdapterIn.SIZE), QueryAdapterOut.SIZE);
        byte[] psid = new byte[QueryAdapterParamBlock.vsd_contd_psid$LENGTH];
        QueryAdapterParamBlock.vsd_contd_psid$copyTo(adapter.asSlice(QueryAdapterOut.query_adapter_struct$BYTE_OFFSET), psid);
        assertEquals("MT_2430110027", new String(psid, StandardCharsets.US_ASCII).replace("\0", ""), "the board id");

        // ---- mlx5_load -----------------------------------------------------------------------
        int uar = AllocUarOut.uar(l.send("mlx5_load/mlx5_get_uars_page", header(CmdOpcode.ALLOC_UAR, AllocUarIn.SIZE), AllocUarOut.SIZE));
        assertEquals(0x10, uar, "the card's first UAR index");
        // create_async_eqs: the command EQ, the async EQ, the pages EQ (all on vector 0); create_comp_eqs: one per CPU
        String eqs = "mlx5_load/mlx5_eq_table_create";
        int cmdEq = l.eq(eqs + "(cmd)", uar, 32, 0, 1L << EqeType.CMD.value);
        assertEquals(0x10, cmdEq, "the card's first EQ number");
        long async = 1L << EqeType.PORT_CHANGE.value | 1L << EqeType.CQ_ERROR.value | 1L << EqeType.WQ_CATAS_ERROR.value
                | 1L << EqeType.NIC_VPORT_CHANGE.value;
        int asyncEq = l.eq(eqs + "(async)", uar, 0x1000, 0, async);
        int pagesEq = l.eq(eqs + "(pages)", uar, 1, 0, 1L << EqeType.PAGE_REQUEST.value);
        int comp0 = l.eq(eqs + "(comp 0)", uar, 1024, 1, 0);
        int comp1 = l.eq(eqs + "(comp 1)", uar, 1024, 2, 0);
        assertEquals(List.of(0x11, 0x12, 0x13, 0x14), List.of(asyncEq, pagesEq, comp0, comp1));
        // mlx5_fs_core_init: the anchor table at the bottom of the NIC RX root namespace becomes the root
        String fs = "mlx5_load/mlx5_fs_core_init";
        MemorySegment anchor = header(CmdOpcode.CREATE_FLOW_TABLE, CreateFlowTableIn.SIZE);
        CreateFlowTableIn.table_type$set(anchor, FlowTableType.NIC_RX);
        // fs_core's levels on this card: the kernel priority (TC 3 levels, NIC 7) then the anchor priority, so
        // level 10; the priorities that need FS_CHAINING_CAPS (bypass, ethtool, offloads, ...) are not created
        FlowTableContext.level$set(anchor, CreateFlowTableIn.flow_table_context$BYTE_OFFSET, 10);
        FlowTableContext.log_size$set(anchor, CreateFlowTableIn.flow_table_context$BYTE_OFFSET, 0);
        int anchorFt = CreateFlowTableOut.table_id(l.send(fs + "/create_anchor_flow_table", anchor, CreateFlowTableOut.SIZE));
        MemorySegment root = header(CmdOpcode.SET_FLOW_TABLE_ROOT, SetFlowTableRootIn.SIZE);
        SetFlowTableRootIn.table_type$set(root, FlowTableType.NIC_RX);
        SetFlowTableRootIn.table_id$set(root, anchorFt);
        l.send(fs + "/update_root_ft_create", root, SetFlowTableRootOut.SIZE);

        // ---- mlx5e_probe: mlx5e_build_nic_netdev, mlx5e_devlink_port_register, mlx5e_nic_init -------
        String probe = "mlx5e_probe";
        MemorySegment vctx = l.send(probe + "/mlx5e_build_nic_netdev/mlx5_query_mac_address", header(CmdOpcode.QUERY_NIC_VPORT_CONTEXT, QueryNicVportContextIn.SIZE),
                QueryNicVportContextOut.SIZE).asSlice(QueryNicVportContextOut.nic_vport_context$BYTE_OFFSET, NicVportContext.SIZE);
        long mac = (long) io.prmkit.mlx5.MacAddressLayout.mac_addr_47_32(vctx, NicVportContext.permanent_address$BYTE_OFFSET) << 32
                | Integer.toUnsignedLong(io.prmkit.mlx5.MacAddressLayout.mac_addr_31_0(vctx, NicVportContext.permanent_address$BYTE_OFFSET));
        assertTrue(mac != 0, "a permanent MAC (else Linux makes a random one)");
        // MLX5_ESWITCH_MANAGER: the port's parent id is the system image GUID (mlx5_query_nic_system_image_guid, cached after)
        MemorySegment guid = l.send(probe + "/mlx5e_devlink_port_register/mlx5_query_nic_system_image_guid",
                header(CmdOpcode.QUERY_NIC_VPORT_CONTEXT, QueryNicVportContextIn.SIZE), QueryNicVportContextOut.SIZE)
                .asSlice(QueryNicVportContextOut.nic_vport_context$BYTE_OFFSET, NicVportContext.SIZE);
        assertTrue(NicVportContext.system_image_guid(guid) != 0, "a system image GUID (the devlink switch id)");
        // mlx5e_build_nic_params: cqe_compression and vport_group_manager, so slow_pci_heuristic asks the port's speed
        assertTrue(CmdHcaCap.cqe_compression(general[0]) && CmdHcaCap.vport_group_manager(general[0]));
        MemorySegment ptys = l.reg(probe + "/slow_pci_heuristic/mlx5e_port_max_linkspeed", RegisterId.PTYS, false, io.prmkit.mlx5.PtysReg.layout(), d -> {
            io.prmkit.mlx5.PtysReg.local_port$set(d, 1);
            io.prmkit.mlx5.PtysReg.proto_mask$set(d, 1 << 2); // MLX5_PTYS_EN; no ptys_extended_ethernet (no PCAM)
        });
        assertTrue((io.prmkit.mlx5.PtysReg.eth_proto_capability(ptys) & io.prmkit.mlx5.EthProto.ETH_100GBASE_CR4$MASK) != 0, "a 100 GbE port");
        assertEquals(io.prmkit.mlx5.EthProto.ETH_100GBASE_CR4$MASK, Integer.toUnsignedLong(io.prmkit.mlx5.PtysReg.eth_proto_oper(ptys)));
        // 100 GbE in a x16 gen3 slot is not slow: rx_cqe_compress_def stays off, CQs are made without cqe_comp_en
        assertEquals(1, PerProtocolNetworkingOffloadCaps.wqe_inline_mode(eth[0]), "MLX5_CAP_INLINE_MODE_VPORT_CONTEXT: ask the vport context");
        MemorySegment inline = l.send(probe + "/mlx5e_build_nic_params/mlx5_query_min_inline", header(CmdOpcode.QUERY_NIC_VPORT_CONTEXT, QueryNicVportContextIn.SIZE),
                QueryNicVportContextOut.SIZE).asSlice(QueryNicVportContextOut.nic_vport_context$BYTE_OFFSET, NicVportContext.SIZE);
        io.prmkit.mlx5.InlineMode minInline = io.prmkit.mlx5.InlineMode.of(NicVportContext.min_wqe_inline_mode(inline));
        assertTrue(minInline != null);
        // NONE without wqe_vlan_insert becomes L2 (mlx5e_build_nic_params)
        int txMinInline = minInline == io.prmkit.mlx5.InlineMode.NONE && !PerProtocolNetworkingOffloadCaps.wqe_vlan_insert(eth[0])
                ? io.prmkit.mlx5.InlineMode.L2$VALUE : (int) minInline.value;

        // ---- mlx5e_resume: mlx5e_create_mdev_resources, mlx5e_attach_netdev (init_tx, init_rx, enable) -----
        String res = "mlx5e_create_mdev_resources";
        int pd = AllocPdOut.pd(l.send(res + "/mlx5_core_alloc_pd", header(CmdOpcode.ALLOC_PD, AllocPdIn.SIZE), AllocPdOut.SIZE));
        int td = AllocTransportDomainOut.transport_domain(
                l.send(res + "/mlx5_core_alloc_transport_domain", header(CmdOpcode.ALLOC_TRANSPORT_DOMAIN, AllocTransportDomainIn.SIZE),
                        AllocTransportDomainOut.SIZE));
        MemorySegment mkey = header(CmdOpcode.CREATE_MKEY, CreateMkeyIn.SIZE);
        long mkc = CreateMkeyIn.memory_key_mkey_entry$BYTE_OFFSET;
        Mkc.access_mode_1_0$set(mkey, mkc, MkcAccessMode.PA$VALUE);
        Mkc.lw$set(mkey, mkc, true);
        Mkc.lr$set(mkey, mkc, true);
        Mkc.pd$set(mkey, mkc, pd);
        Mkc.length64$set(mkey, mkc, true);
        Mkc.qpn$set(mkey, mkc, 0xffffff);
        int mkeyIndex = CreateMkeyOut.mkey_index(l.send(res + "/mlx5e_create_mkey", mkey, CreateMkeyOut.SIZE));
        assertTrue(mkeyIndex > 0);
        int lkey = mkeyIndex << 8; // mlx5_idx_to_mkey(index) | mkey_7_0 (0)
        int bfreg = AllocUarOut.uar(l.send(res + "/mlx5_alloc_bfreg", header(CmdOpcode.ALLOC_UAR, AllocUarIn.SIZE), AllocUarOut.SIZE));
        assertEquals(0x11, bfreg);
        // mlx5e_init_nic_tx -> mlx5e_create_tises: one TIS (one TC, one LAG port)
        MemorySegment tis = header(CmdOpcode.CREATE_TIS, CreateTisIn.SIZE);
        Tisc.transport_domain$set(tis, CreateTisIn.ctx$BYTE_OFFSET, td);
        int tisn = CreateTisOut.tisn(l.send("mlx5e_init_nic_tx/mlx5e_create_tis", tis, CreateTisOut.SIZE));
        assertTrue(tisn > 0);
        // mlx5e_init_nic_rx -> mlx5e_create_q_counters: the channels' and the drop RQ's
        String rx = "mlx5e_init_nic_rx";
        int qc = AllocQCounterOut.counter_set_id(l.send(rx + "/mlx5e_create_q_counters",
                header(CmdOpcode.ALLOC_Q_COUNTER, AllocQCounterIn.SIZE), AllocQCounterOut.SIZE));
        int dropQc = AllocQCounterOut.counter_set_id(l.send(rx + "/mlx5e_create_q_counters",
                header(CmdOpcode.ALLOC_Q_COUNTER, AllocQCounterIn.SIZE), AllocQCounterOut.SIZE));
        assertTrue(qc != dropQc);
        Netdev n = new Netdev(l, uar, bfreg, pd, lkey, mac);
        // mlx5e_open_drop_rq: a CQ of one CQE on completion vector 0, an RQ of one WQE (no pd: 0), RST -> RDY
        int dropCq = n.createCq(rx + "/mlx5e_open_drop_rq/mlx5e_create_cq", 0, comp0, 0, null).number();
        n.dropRqn = n.createRq(rx + "/mlx5e_open_drop_rq/mlx5e_create_rq", dropCq, 0, dropQc, 0).number();
        n.modifyRq(rx + "/mlx5e_open_drop_rq/mlx5e_modify_rq_state", n.dropRqn);
        // mlx5e_rx_res_init: the RSS RQT (room for MLX5E_INDIR_RQT_SIZE, the drop RQ for now) and a TIR per traffic type
        String rr = rx + "/mlx5e_rx_res_init";
        n.rssRqt = n.createRqt(rr + "/mlx5e_rss_init_no_tirs/mlx5e_rqt_init_direct", Netdev.INDIR_RQT_SIZE, n.dropRqn);
        for (int tt = 0; tt < Netdev.NUM_INDIR_TIRS; tt++) {
            n.rssTirs[tt] = n.createTir(rr + "/mlx5e_rss_create_tir(" + Netdev.TT_NAMES[tt] + ")", td, n.rssRqt, tt);
        }
        // mlx5e_rx_res_channels_init: per possible channel (max_nch = the 2 completion vectors) a direct RQT, then its TIR
        for (int ix = 0; ix < Netdev.MAX_NCH; ix++) n.directRqt[ix] = n.createRqt(rr + "/mlx5e_rqt_init_direct(" + ix + ")", 1, n.dropRqn);
        for (int ix = 0; ix < Netdev.MAX_NCH; ix++) n.directTir[ix] = n.createTir(rr + "/mlx5e_tir_init(direct " + ix + ")", td, n.directRqt[ix], -1);
        n.ptpRqt = n.createRqt(rr + "/mlx5e_rx_res_ptp_init", 1, n.dropRqn);
        n.ptpTir = n.createTir(rr + "/mlx5e_rx_res_ptp_init", td, n.ptpRqt, -1);
        // mlx5e_create_flow_steering, in the kernel namespace: no chaining caps on this card (so no aRFS, no
        // ethtool/bypass/leftovers prios), no inner_ip_version (no inner TTC), no outer_ip_version (match ethertype)
        MemorySegment rxProps = flowTable[0].asSlice(io.prmkit.mlx5.FlowTableNicCap.flow_table_properties_nic_receive$BYTE_OFFSET, io.prmkit.mlx5.FlowTablePropLayout.SIZE);
        assertFalse(io.prmkit.mlx5.FlowTablePropLayout.flow_modify_en(rxProps) && io.prmkit.mlx5.FlowTablePropLayout.identified_miss_table_mode(rxProps)
                && io.prmkit.mlx5.FlowTablePropLayout.flow_table_modify(rxProps), "FS_CHAINING_CAPS are off");
        assertTrue(io.prmkit.mlx5.FlowTablePropLayout.modify_root(rxProps), "modify_root: fs_core moves the root to each new lower-level table");
        long fields = io.prmkit.mlx5.FlowTablePropLayout.ft_field_support$BYTE_OFFSET;
        assertFalse(io.prmkit.mlx5.FlowTableFieldsSupported.outer_ip_version(rxProps, fields));
        assertFalse(io.prmkit.mlx5.FlowTableFieldsSupported.inner_ip_version(rxProps, fields));
        String fsx = rx + "/mlx5e_create_flow_steering";
        // mlx5_create_ttc_table: MLX5_TTC_TABLE_SIZE 17 -> the 128-entry pool; level MLX5E_TTC_FT_LEVEL in MLX5E_NIC_PRIO (3 + 3)
        n.ttc = n.createTable(fsx + "/mlx5_create_ttc_table", 6, 7, anchorFt);
        n.groups(fsx + "/mlx5_create_ttc_table_groups", n.ttc, new int[] {0, 14, 16}, new int[] {13, 15, 16}, g -> {
            long o = CreateFlowGroupIn.match_criteria$BYTE_OFFSET + FteMatchParam.outer_headers$BYTE_OFFSET;
            if (g == 0) FteMatchSetLyr24.ip_protocol$set(n.scratch, o, 0xff);
            if (g < 2) FteMatchSetLyr24.ethertype$set(n.scratch, o, 0xffff);
            return g < 2;
        });
        for (int tt = 0; tt < Netdev.NUM_TT; tt++) { // mlx5_generate_ttc_table_rules: rule tt in the first free index of its group
            int etype = Netdev.TT_ETYPE[tt];
            int proto = Netdev.TT_PROTO[tt];
            int group = proto != 0 ? 0 : etype != 0 ? 1 : 2;
            int index = proto != 0 ? tt : etype != 0 ? 14 + tt - 8 : 16;
            int tir = tt == Netdev.TT_ANY ? n.directTir[0] : n.rssTirs[tt];
            n.fte(fsx + "/mlx5_generate_ttc_rule(" + Netdev.TT_NAMES[tt] + ")", n.ttc, group, index, FlowDestinationType.TIR, tir, (v, o) -> {
                if (proto != 0) FteMatchSetLyr24.ip_protocol$set(v, o, proto);
                if (etype != 0) FteMatchSetLyr24.ethertype$set(v, o, etype);
            });
        }
        // mlx5e_create_l2_table: MLX5E_L2_TABLE_SIZE 32,770 -> the 64K pool; groups full DMAC, multicast bit, trap
        n.l2 = n.createTable(fsx + "/mlx5e_create_l2_table", 5, 16, anchorFt);
        n.groups(fsx + "/mlx5e_create_l2_table_groups", n.l2, new int[] {0, 32768, 32769}, new int[] {32767, 32768, 32769}, g -> {
            long o = CreateFlowGroupIn.match_criteria$BYTE_OFFSET + FteMatchParam.outer_headers$BYTE_OFFSET;
            if (g == 0) FteMatchSetLyr24.dmac$set(n.scratch, o, 0xffff_ffff_ffffL);
            if (g == 1) FteMatchSetLyr24.dmac$set(n.scratch, o, 0x0100_0000_0000L);
            return g < 2;
        });
        // mlx5e_fs_create_vlan_table: MLX5E_VLAN_TABLE_SIZE 8,195 -> 64K; five groups, then the untagged rule to the L2 table
        n.vlan = n.createTable(fsx + "/mlx5e_fs_create_vlan_table", 4, 16, anchorFt);
        n.groups(fsx + "/mlx5e_create_vlan_table_groups", n.vlan, new int[] {0, 4096, 8192, 8194, 8195}, new int[] {4095, 8191, 8193, 8194, 8195}, g -> {
            long o = CreateFlowGroupIn.match_criteria$BYTE_OFFSET + FteMatchParam.outer_headers$BYTE_OFFSET;
            if (g == 0 || g == 2) FteMatchSetLyr24.cvlan_tag$set(n.scratch, o, true);
            if (g == 1 || g == 3) FteMatchSetLyr24.svlan_tag$set(n.scratch, o, true);
            if (g < 2) FteMatchSetLyr24.first_vid$set(n.scratch, o, 0xfff);
            return g < 4;
        });
        n.fte(fsx + "/mlx5e_add_vlan_rule(UNTAGGED)", n.vlan, 2, 8192, FlowDestinationType.FLOW_TABLE, n.l2, (v, o) -> {}); // cvlan_tag 0
        // mlx5e_tc_nic_init -> mlx5e_tc_nic_create_miss_table: level MLX5E_TC_MISS_LEVEL in MLX5E_TC_PRIO, missing to the VLAN table
        // (no ignore_flow_level: no post-action table, no CT tables)
        n.tcMiss = n.createTable(rx + "/mlx5e_tc_nic_init/mlx5e_tc_nic_create_miss_table", 2, 0, n.vlan);

        // mlx5e_nic_enable: the link is not needed yet (the netdev is not running), MTU boundaries, the port MTU
        String en = "mlx5e_nic_enable";
        n.paos(en + "/mlx5e_modify_admin_state", 2); // MLX5_PORT_DOWN
        MemorySegment pmtu = l.reg(en + "/mlx5_query_port_max_mtu", RegisterId.PMTU, false, PmtuReg.layout(), d -> PmtuReg.local_port$set(d, 1));
        assertTrue(PmtuReg.max_mtu(pmtu) >= 1522, "max_mtu " + PmtuReg.max_mtu(pmtu));
        int hwMtu = 1500 + 14 + 4 + 4; // MLX5E_SW2HW_MTU: ETH_HLEN, VLAN_HLEN, ETH_FCS_LEN
        l.reg(en + "/mlx5e_set_dev_port_mtu/mlx5_set_port_mtu", RegisterId.PMTU, true, PmtuReg.layout(), d -> {
            PmtuReg.local_port$set(d, 1);
            PmtuReg.admin_mtu$set(d, hwMtu);
        });
        MemorySegment vmtu = header(CmdOpcode.MODIFY_NIC_VPORT_CONTEXT, ModifyNicVportContextIn.SIZE);
        ModifyNicVportFieldSelect.mtu$set(vmtu, ModifyNicVportContextIn.field_select$BYTE_OFFSET, true);
        NicVportContext.mtu$set(vmtu, ModifyNicVportContextIn.nic_vport_context$BYTE_OFFSET, hwMtu);
        l.send(en + "/mlx5e_set_dev_port_mtu/mlx5_modify_nic_vport_mtu", vmtu, MBOX_OUT);
        MemorySegment qmtu = l.send(en + "/mlx5e_set_dev_port_mtu/mlx5_query_nic_vport_mtu", header(CmdOpcode.QUERY_NIC_VPORT_CONTEXT, QueryNicVportContextIn.SIZE),
                QueryNicVportContextOut.SIZE);
        assertEquals(hwMtu, NicVportContext.mtu(qmtu, QueryNicVportContextOut.nic_vport_context$BYTE_OFFSET), "the vport MTU (else Linux reads PMTU's oper_mtu)");
        // the netdev is not registered yet: no rx mode, no open; register_netdev, then `ip link set up`

        // ---- mlx5e_open -> mlx5e_open_locked -> mlx5e_open_channels: 2 channels, each as mlx5e_open_queues ----
        for (int ix = 0; ix < Netdev.MAX_NCH; ix++) n.channels[ix] = n.openChannel("mlx5e_open_channel(" + ix + ")", ix, ix == 0 ? comp0 : comp1, qc, tisn, txMinInline);
        // update_rx = mlx5e_update_nic_rx -> mlx5e_refresh_tirs(false, false): self_lb_en on every TIR, newest first
        List<Integer> tirs = new ArrayList<>();
        for (int tt = 0; tt < Netdev.NUM_INDIR_TIRS; tt++) tirs.add(0, n.rssTirs[tt]);
        for (int ix = 0; ix < Netdev.MAX_NCH; ix++) tirs.add(0, n.directTir[ix]);
        tirs.add(0, n.ptpTir);
        for (int tirn : tirs) {
            MemorySegment mt = header(CmdOpcode.MODIFY_TIR, io.prmkit.mlx5.ModifyTirIn.SIZE);
            io.prmkit.mlx5.ModifyTirIn.tirn$set(mt, tirn);
            io.prmkit.mlx5.ModifyTirBitmask.self_lb_en$set(mt, io.prmkit.mlx5.ModifyTirIn.bitmask$BYTE_OFFSET, true);
            l.send("mlx5e_update_nic_rx/mlx5e_refresh_tirs", mt, io.prmkit.mlx5.ModifyTirOut.SIZE);
        }
        // mlx5e_activate_priv_channels -> mlx5e_rx_res_channels_activate: the RSS RQT spreads over the channels'
        // RQs (mlx5e_rss_params_indir_init_uniform: entry i -> channel i % 2), direct RQTs to their RQ, PTP to the drop RQ
        int[] indir = new int[Netdev.INDIR_RQT_SIZE];
        for (int i = 0; i < indir.length; i++) indir[i] = n.channels[i % Netdev.MAX_NCH].rqn;
        n.modifyRqt("mlx5e_rx_res_channels_activate/mlx5e_rss_enable", n.rssRqt, indir);
        for (int ix = 0; ix < Netdev.MAX_NCH; ix++) n.modifyRqt("mlx5e_rx_res_channel_activate_direct(" + ix + ")", n.directRqt[ix], n.channels[ix].rqn);
        n.modifyRqt("mlx5e_rx_res_channels_activate(ptp)", n.ptpRqt, n.dropRqn);
        MemorySegment q2 = header(CmdOpcode.QUERY_RQT, io.prmkit.mlx5.QueryRqtIn.SIZE);
        io.prmkit.mlx5.QueryRqtIn.rqtn$set(q2, n.rssRqt);
        MemorySegment rqt = l.h.exec(q2, io.prmkit.mlx5.QueryRqtOut.SIZE + 4L * Netdev.INDIR_RQT_SIZE).ok().out(); // not Linux's: checks the device took it
        assertEquals(Netdev.INDIR_RQT_SIZE, Rqtc.rqt_actual_size(rqt, io.prmkit.mlx5.QueryRqtOut.rqt_context$BYTE_OFFSET));
        MemorySegment state = header(CmdOpcode.QUERY_VPORT_STATE, QueryVportStateIn.SIZE, VportStateOpMod.VNIC_VPORT$VALUE);
        int vportState = QueryVportStateOut.state(l.send("mlx5e_update_carrier/mlx5_query_vport_oper_state", state, QueryVportStateOut.SIZE));
        assertEquals(0, vportState, "the port is administratively down until mlx5e_open sets it up");
        n.paos("mlx5e_open/mlx5_set_port_admin_status", 1); // MLX5_PORT_UP
        // the link comes up: PORT_CHANGE on the async EQ, mlx5e_port_event queues update_carrier, which asks again
        vportState = QueryVportStateOut.state(l.send("mlx5e_port_event/mlx5e_update_carrier/mlx5_query_vport_oper_state", state, QueryVportStateOut.SIZE));
        assertEquals(1, vportState, "the loopback cable is in: link up");

        // ---- __dev_open -> dev_set_rx_mode -> mlx5e_fs_set_rx_mode_work --------------------------------
        String mode = "mlx5e_fs_set_rx_mode_work";
        n.fte(mode + "/mlx5e_add_l2_flow_rule(broadcast)", n.l2, 0, 0, FlowDestinationType.FLOW_TABLE, n.ttc,
                (v, o) -> FteMatchSetLyr24.dmac$set(v, o, 0xffff_ffff_ffffL));
        n.fte(mode + "/mlx5e_handle_netdev_addr(own MAC)", n.l2, 0, 1, FlowDestinationType.FLOW_TABLE, n.ttc,
                (v, o) -> FteMatchSetLyr24.dmac$set(v, o, mac));
        n.addressList(mode + "/mlx5e_vport_context_update_addr_list(UC)", io.prmkit.mlx5.VportListType.UC, mac);
        n.addressList(mode + "/mlx5e_vport_context_update_addr_list(MC)", io.prmkit.mlx5.VportListType.MC, 0xffff_ffff_ffffL);
        MemorySegment promisc = header(CmdOpcode.MODIFY_NIC_VPORT_CONTEXT, ModifyNicVportContextIn.SIZE);
        ModifyNicVportFieldSelect.promisc$set(promisc, ModifyNicVportContextIn.field_select$BYTE_OFFSET, true); // uc 0, mc 0, all 0
        l.send(mode + "/mlx5_modify_nic_vport_promisc", promisc, MBOX_OUT);

        // ---- statistics (mlx5e_update_stats) ------------------------------------------------------
        String st = "mlx5e_update_stats";
        l.send(st + "/vport", header(CmdOpcode.QUERY_VPORT_COUNTER, QueryVportCounterIn.SIZE), QueryVportCounterOut.SIZE);
        MemorySegment qq = header(CmdOpcode.QUERY_Q_COUNTER, QueryQCounterIn.SIZE);
        QueryQCounterIn.counter_set_id$set(qq, qc);
        l.send(st + "/qcnt", qq, QueryQCounterOut.SIZE);
        for (PpcntGrp grp : List.of(PpcntGrp.IEEE_802_3, PpcntGrp.RFC_2863, PpcntGrp.RFC_2819, PpcntGrp.PHYSICAL_LAYER)) {
            l.reg(st + "/ppcnt " + grp, RegisterId.PPCNT, false, PpcntReg.layout(), d -> {
                PpcntReg.local_port$set(d, 1);
                PpcntReg.grp$set(d, grp);
            });
        }
        for (int prio = 0; prio < 8; prio++) { // mlx5e_stats_grp_per_prio_update_stats: one read per priority
            int p = prio;
            l.reg(st + "/ppcnt per prio", RegisterId.PPCNT, false, PpcntReg.layout(), d -> {
                PpcntReg.local_port$set(d, 1);
                PpcntReg.grp$set(d, PpcntGrp.PER_PRIORITY);
                PpcntReg.prio_tc$set(d, p);
            });
        }
        assertTrue(l.sent.size() > 50, "commands sent: " + l.sent.size());
        for (Sent x : l.sent) System.out.printf("linux: %-60s %-26s op_mod 0x%-3x in %6d out %5d%n", x.who(), x.op(), x.opMod(), x.in(), x.out());
        return n;
    }

    /**
     * The mlx5e netdev's objects as Linux 6.1 builds them on this card, and the command builders of
     * en_main.c, en/rqt.c, en/tir.c, lib/fs_ttc.c and fs_cmd.c with the fields those functions set
     * (everything else stays 0, as in their kvzalloc'd inputs). Rings are whole 4 KiB pages, one
     * page address per page (mlx5_fill_page_frag_array, PAGE_SHIFT 12: log_page_size 0); doorbell
     * records are 64 bytes apart in one page (mlx5_db_alloc).
     */
    static final class Netdev {
        static final int INDIR_RQT_SIZE = 256;  // MLX5E_INDIR_RQT_SIZE
        static final int MAX_NCH = 2;           // one channel per completion vector (2 CPUs)
        static final int NUM_TT = 11;           // MLX5_NUM_TT
        static final int NUM_INDIR_TIRS = 10;   // MLX5E_NUM_INDIR_TIRS
        static final int TT_ANY = 10;
        static final String[] TT_NAMES = {"IPV4_TCP", "IPV6_TCP", "IPV4_UDP", "IPV6_UDP", "IPV4_IPSEC_AH", "IPV6_IPSEC_AH",
            "IPV4_IPSEC_ESP", "IPV6_IPSEC_ESP", "IPV4", "IPV6", "ANY"};
        /** lib/fs_ttc.c ttc_rules: ethertype and IP protocol of each traffic type. */
        static final int[] TT_ETYPE = {0x800, 0x86dd, 0x800, 0x86dd, 0x800, 0x86dd, 0x800, 0x86dd, 0x800, 0x86dd, 0};
        static final int[] TT_PROTO = {6, 6, 17, 17, 51, 51, 50, 50, 0, 0, 0};
        /** en/rss.c rss_default_config: the hashed fields of each traffic type. */
        static final long IP = RxHashFields.SRC_IP$MASK | RxHashFields.DST_IP$MASK;
        static final long[] TT_FIELDS = {IP | RxHashFields.L4_SPORT$MASK | RxHashFields.L4_DPORT$MASK,
            IP | RxHashFields.L4_SPORT$MASK | RxHashFields.L4_DPORT$MASK, IP | RxHashFields.L4_SPORT$MASK | RxHashFields.L4_DPORT$MASK,
            IP | RxHashFields.L4_SPORT$MASK | RxHashFields.L4_DPORT$MASK, IP | RxHashFields.IPSEC_SPI$MASK, IP | RxHashFields.IPSEC_SPI$MASK,
            IP | RxHashFields.IPSEC_SPI$MASK, IP | RxHashFields.IPSEC_SPI$MASK, IP, IP};
        /** netdev_rss_key_fill gives a random key; any 40 bytes do (this is the RSS specification's sample key). */
        static final byte[] KEY = java.util.HexFormat.of().parseHex("6d5a56da255b0ec24167253d43a38fb0d0ca2bcbae7b30b477cb2da38030f20c6a42b73bbeac01fa");

        final Linux l;
        final int uar, bfreg, pd, lkey;
        final long mac;
        final DmaRegion doorbells;
        int nextDoorbell;
        int dropRqn, rssRqt, ptpRqt, ptpTir, ttc, l2, vlan, tcMiss;
        final int[] rssTirs = new int[NUM_INDIR_TIRS];
        final int[] directRqt = new int[MAX_NCH];
        final int[] directTir = new int[MAX_NCH];
        final Channel[] channels = new Channel[MAX_NCH];
        /** The CREATE_FLOW_GROUP input being built by {@link #groups}. */
        MemorySegment scratch;

        Netdev(Linux l, int uar, int bfreg, int pd, int lkey, long mac) {
            this.l = l;
            this.uar = uar;
            this.bfreg = bfreg;
            this.pd = pd;
            this.lkey = lkey;
            this.mac = mac;
            this.doorbells = l.dma(4096);
        }

        /** A ring's memory: whole pages, each CQE (when a CQ) marked as mlx5e_alloc_cq_common does (op_own 0xf1). */
        record Ring(int number, DmaRegion mem, MemorySegment db, int entries) {}

        /** One channel as mlx5e_open_queues leaves it. */
        record Channel(Ring asyncIcosqCq, Ring icosqCq, Ring txCq, Ring xdpsqCq, Ring rxCq, Ring asyncIcosq, Ring icosq, Ring txSq, Ring rq, Ring xdpsq, int rqn, int txSqn) {}

        private MemorySegment doorbell(long[] bus) {
            long at = 64L * nextDoorbell++;
            bus[0] = doorbells.busAddress(at);
            return doorbells.segment().asSlice(at, 64);
        }

        /** mlx5e_create_cq (+ mlx5e_cq_arm through the UAR page), then with {@code moder} the moderation of mlx5e_open_cq. */
        Ring createCq(String who, int logSize, int eqn, int periodMode, int[] moder) {
            long bytes = 64L << logSize;
            int pages = (int) ((bytes + 4095) / 4096);
            DmaRegion mem = l.dma(bytes);
            for (int i = 0; i < 1 << logSize; i++) {
                Cqe64.Device.opcode$set(mem.segment(), i * 64L, CqeOpcode.INVALID);
                Cqe64.Device.owner$set(mem.segment(), i * 64L, true);
            }
            long[] bus = new long[1];
            MemorySegment db = doorbell(bus);
            MemorySegment in = header(CmdOpcode.CREATE_CQ, CreateCqIn.SIZE + 8L * pages);
            long c = CreateCqIn.cq_context$BYTE_OFFSET;
            Cqc.log_cq_size$set(in, c, logSize);
            Cqc.uar_page$set(in, c, uar);          // cqe_sz 0 (64 bytes): no cqe_128_always; cqe_comp_en 0
            Cqc.cq_period_mode$set(in, c, periodMode);
            Cqc.c_eqn_or_apu_element$set(in, c, eqn);
            Cqc.log_page_size$set(in, c, 0);       // PAGE_SHIFT - MLX5_ADAPTER_PAGE_SHIFT
            Cqc.dbr_addr$set(in, c, bus[0]);
            for (int i = 0; i < pages; i++) CreateCqIn.pas$set(in, i, mem.busAddress(4096L * i));
            int cqn = CreateCqOut.cqn(l.send(who, in, CreateCqOut.SIZE));
            MemorySegment arm = MemorySegment.ofArray(new byte[8]);
            io.prmkit.mlx5.CqArmDoorbell.cqn$set(arm, cqn);
            l.h.bar.write64(uar * 4096L + io.prmkit.mlx5.UarPage.cq_doorbell$BYTE_OFFSET, arm.get(EthernetDatapathTest.BE64, 0));
            if (moder != null) {
                MemorySegment m = header(CmdOpcode.MODIFY_CQ, io.prmkit.mlx5.ModifyCqIn.SIZE);
                io.prmkit.mlx5.ModifyCqIn.cqn$set(m, cqn);
                io.prmkit.mlx5.ModifyFieldSelect.modify_field_select$set(m, io.prmkit.mlx5.ModifyCqIn.modify_field_select_resize_field_select$BYTE_OFFSET,
                        (int) (io.prmkit.mlx5.CqModifyFields.CQ_PERIOD$MASK | io.prmkit.mlx5.CqModifyFields.CQ_MAX_COUNT$MASK));
                Cqc.cq_period$set(m, io.prmkit.mlx5.ModifyCqIn.cq_context$BYTE_OFFSET, moder[0]);
                Cqc.cq_max_count$set(m, io.prmkit.mlx5.ModifyCqIn.cq_context$BYTE_OFFSET, moder[1]);
                l.send(who + "/mlx5_core_modify_cq_moderation", m, MBOX_OUT);
            }
            return new Ring(cqn, mem, db, 1 << logSize);
        }

        private static void pas(MemorySegment in, long wq, DmaRegion mem, int pages) {
            for (int i = 0; i < pages; i++) {
                long pa = mem.busAddress(4096L * i);
                MemorySegment e = Wq.pas$elem(in, wq, i);
                io.prmkit.mlx5.CmdPas.pa_h$set(e, (int) (pa >>> 32));
                io.prmkit.mlx5.CmdPas.pa_l$setUnchecked(e, (int) (pa >>> 12));
            }
        }

        /**
         * mlx5e_create_rq with mlx5e_build_rq_param's fields (cyclic, one data segment per WQE, end
         * padding ALIGN, the PD, the Q counter; vsd and scatter_fcs 0), or for the drop RQ ({@code pd} 0)
         * mlx5e_build_drop_rq_param's (cyclic, stride, counter: nothing else).
         */
        Ring createRq(String who, int cqn, int logSize, int counter, int pd) {
            long bytes = 16L << logSize;
            int pages = (int) ((bytes + 4095) / 4096);
            DmaRegion mem = l.dma(bytes);
            long[] bus = new long[1];
            MemorySegment db = doorbell(bus);
            MemorySegment in = header(CmdOpcode.CREATE_RQ, CreateRqIn.SIZE + 8L * pages);
            long c = CreateRqIn.ctx$BYTE_OFFSET;
            long wq = c + Rqc.wq$BYTE_OFFSET;
            Wq.wq_type$set(in, wq, WqType.CYCLIC);
            if (pd != 0) Wq.end_padding_mode$set(in, wq, io.prmkit.mlx5.WqEndPadMode.ALIGN); // rq_end_pad_mode: no LRO
            Wq.log_wq_stride$set(in, wq, 4);      // mlx5e_get_rqwq_log_stride: one 16-byte data segment
            Wq.log_wq_sz$set(in, wq, logSize);
            Wq.pd$set(in, wq, pd);
            Rqc.counter_set_id$set(in, c, counter);
            Rqc.cqn$set(in, c, cqn);
            Rqc.state$set(in, c, RqState.RST);
            Rqc.ts_format$set(in, c, io.prmkit.mlx5.TsFormat.FREE_RUNNING); // no rq_ts_format real-time cap
            Wq.log_wq_pg_sz$set(in, wq, 0);
            Wq.dbr_addr$set(in, wq, bus[0]);
            pas(in, wq, mem, pages);
            int rqn = CreateRqOut.rqn(l.send(who, in, CreateRqOut.SIZE));
            return new Ring(rqn, mem, db, 1 << logSize);
        }

        /** mlx5e_modify_rq_state(RST, RDY): rq_state and the context's state only. */
        void modifyRq(String who, int rqn) {
            MemorySegment in = header(CmdOpcode.MODIFY_RQ, ModifyRqIn.SIZE);
            ModifyRqIn.rqn$set(in, rqn);
            ModifyRqIn.rq_state$set(in, RqState.RST$VALUE);
            Rqc.state$set(in, ModifyRqIn.ctx$BYTE_OFFSET, RqState.RDY);
            l.send(who, in, MBOX_OUT);
        }

        /**
         * mlx5e_create_sq_rdy: mlx5e_create_sq (mlx5e_build_sq_param_common's stride and PD, the size, the
         * TIS list, CQ, min_wqe_inline_mode as the vport context asks, RST, flush_in_error_en, the bfreg
         * UAR), then mlx5e_modify_sq RST -> RDY.
         */
        Ring createSq(String who, int cqn, int logSize, int tisn, int minInline) {
            long bytes = 64L << logSize;
            int pages = (int) ((bytes + 4095) / 4096);
            DmaRegion mem = l.dma(bytes);
            long[] bus = new long[1];
            MemorySegment db = doorbell(bus);
            MemorySegment in = header(CmdOpcode.CREATE_SQ, CreateSqIn.SIZE + 8L * pages);
            long c = CreateSqIn.ctx$BYTE_OFFSET;
            long wq = c + Sqc.wq$BYTE_OFFSET;
            Wq.log_wq_stride$set(in, wq, 6);      // ilog2(MLX5_SEND_WQE_BB)
            Wq.pd$set(in, wq, pd);
            Wq.log_wq_sz$set(in, wq, logSize);    // allow_swp 0, reg_umr 0 (no reg_umr_sq)
            Sqc.tis_lst_sz$set(in, c, tisn < 0 ? 0 : 1);
            Sqc.tis_num_0$set(in, c, Math.max(tisn, 0));
            Sqc.cqn$set(in, c, cqn);
            Sqc.ts_format$set(in, c, io.prmkit.mlx5.TsFormat.FREE_RUNNING);
            Sqc.min_wqe_inline_mode$set(in, c, minInline);
            Sqc.state$set(in, c, SqState.RST);
            Sqc.flush_in_error_en$set(in, c, true);
            Wq.wq_type$set(in, wq, WqType.CYCLIC);
            Wq.uar_page$set(in, wq, bfreg);
            Wq.log_wq_pg_sz$set(in, wq, 0);
            Wq.dbr_addr$set(in, wq, bus[0]);
            pas(in, wq, mem, pages);
            int sqn = CreateSqOut.sqn(l.send(who + "/mlx5e_create_sq", in, CreateSqOut.SIZE));
            MemorySegment m = header(CmdOpcode.MODIFY_SQ, ModifySqIn.SIZE);
            ModifySqIn.sqn$set(m, sqn);
            ModifySqIn.sq_state$set(m, SqState.RST$VALUE);
            Sqc.state$set(m, ModifySqIn.ctx$BYTE_OFFSET, SqState.RDY);
            l.send(who + "/mlx5e_modify_sq", m, MBOX_OUT);
            return new Ring(sqn, mem, db, 1 << logSize);
        }

        /**
         * mlx5e_open_queues: CQs for the async ICO SQ, the ICO SQ (64 entries, no moderation), the TX
         * SQ and the XDP redirect SQ (log_sq_size 10, TX moderation) and the RQ (log_rq_mtu_frames 10,
         * RX moderation), each followed by its MODIFY_CQ; the two ICO SQs (no TIS); the TX SQ; the RQ
         * RST -> RDY; the XDP redirect SQ. Moderation: DIM's default profiles (cq_moderation is on):
         * RX 8 us / 256 CQEs, TX 8 us / 128 CQEs; period mode START_FROM_EQE (no cq_period_start_from_cqe).
         */
        Channel openChannel(String who, int ix, int eqn, int counter, int tisn, int minInline) {
            int[] none = {0, 0};
            int[] txModer = {8, 128};
            int[] rxModer = {8, 256};
            Ring aCq = createCq(who + "/mlx5e_open_cq(async_icosq)", 6, eqn, 0, none);
            Ring iCq = createCq(who + "/mlx5e_open_cq(icosq)", 6, eqn, 0, none);
            Ring tCq = createCq(who + "/mlx5e_open_tx_cqs", 10, eqn, 0, txModer);
            Ring xCq = createCq(who + "/mlx5e_open_cq(xdpsq)", 10, eqn, 0, txModer);
            Ring rCq = createCq(who + "/mlx5e_open_cq(rq)", 10, eqn, 0, rxModer);
            Ring aSq = createSq(who + "/mlx5e_open_icosq(async)", aCq.number(), 6, -1, minInline);
            Ring iSq = createSq(who + "/mlx5e_open_icosq", iCq.number(), 6, -1, minInline);
            Ring tSq = createSq(who + "/mlx5e_open_txqsq", tCq.number(), 10, tisn, minInline);
            Ring rq = createRq(who + "/mlx5e_open_rq/mlx5e_create_rq", rCq.number(), 10, counter, pd);
            modifyRq(who + "/mlx5e_open_rq/mlx5e_modify_rq_state", rq.number());
            Ring xSq = createSq(who + "/mlx5e_open_xdpsq", xCq.number(), 10, tisn, minInline);
            return new Channel(aCq, iCq, tCq, xCq, rCq, aSq, iSq, tSq, rq, xSq, rq.number(), tSq.number());
        }

        /** mlx5e_rqt_init: room for {@code maxSize} entries, {@code rqns} in them. */
        int createRqt(String who, int maxSize, int... rqns) {
            MemorySegment in = header(CmdOpcode.CREATE_RQT, CreateRqtIn.SIZE + 4L * rqns.length);
            long c = CreateRqtIn.rqt_context$BYTE_OFFSET;
            Rqtc.rqt_max_size$set(in, c, maxSize);
            Rqtc.rqt_actual_size$set(in, c, rqns.length);
            for (int i = 0; i < rqns.length; i++) RqNum.rq_num$set(in, c + Rqtc.rq_num$offset(i), rqns[i]);
            return CreateRqtOut.rqtn(l.send(who, in, CreateRqtOut.SIZE));
        }

        /** mlx5e_rqt_redirect: the RQ list (bitmask rqn_list), nothing else of the context. */
        void modifyRqt(String who, int rqtn, int... rqns) {
            MemorySegment in = header(CmdOpcode.MODIFY_RQT, io.prmkit.mlx5.ModifyRqtIn.SIZE + 4L * rqns.length);
            io.prmkit.mlx5.ModifyRqtIn.rqtn$set(in, rqtn);
            io.prmkit.mlx5.RqtBitmask.rqn_list$set(in, io.prmkit.mlx5.ModifyRqtIn.bitmask$BYTE_OFFSET, true);
            long c = io.prmkit.mlx5.ModifyRqtIn.ctx$BYTE_OFFSET;
            Rqtc.rqt_actual_size$set(in, c, rqns.length);
            for (int i = 0; i < rqns.length; i++) RqNum.rq_num$set(in, c + Rqtc.rq_num$offset(i), rqns[i]);
            l.send(who, in, io.prmkit.mlx5.ModifyRqtOut.SIZE);
        }

        /**
         * mlx5e_tir_builder_build_rqt (indirect through {@code rqtn}, tunneled_offload_en 0: no inner
         * flow tables), no packet merge (LRO off), then for traffic type {@code tt} build_rss (TOEPLITZ,
         * symmetric, the key, the outer field selector of rss_default_config), or for {@code tt} -1
         * build_direct (INVERTED_XOR8, no fields: a one-entry RQT).
         */
        int createTir(String who, int td, int rqtn, int tt) {
            MemorySegment in = header(CmdOpcode.CREATE_TIR, CreateTirIn.SIZE);
            long c = CreateTirIn.ctx$BYTE_OFFSET;
            Tirc.transport_domain$set(in, c, td);
            Tirc.disp_type$set(in, c, TirDispType.INDIRECT);
            Tirc.indirect_table$set(in, c, rqtn);
            if (tt < 0) {
                Tirc.rx_hash_fn$set(in, c, RxHashFn.INVERTED_XOR8);
            } else {
                Tirc.rx_hash_fn$set(in, c, RxHashFn.TOEPLITZ);
                Tirc.rx_hash_symmetric$set(in, c, true);
                MemorySegment.copy(KEY, 0, in, ValueLayout.JAVA_BYTE, c + Tirc.rx_hash_toeplitz_key$BYTE_OFFSET, KEY.length);
                long sel = c + Tirc.rx_hash_field_selector_outer$BYTE_OFFSET;
                io.prmkit.mlx5.RxHashFieldSelect.l3_prot_type$set(in, sel, TT_ETYPE[tt] == 0x86dd);
                io.prmkit.mlx5.RxHashFieldSelect.l4_prot_type$set(in, sel, TT_PROTO[tt] == 17);
                io.prmkit.mlx5.RxHashFieldSelect.selected_fields$set(in, sel, (int) TT_FIELDS[tt]);
            }
            return CreateTirOut.tirn(l.send(who, in, CreateTirOut.SIZE));
        }

        /**
         * __mlx5_create_flow_table -> mlx5_cmd_create_flow_table (NIC RX, the level fs_core gives it, the
         * pool's log size, missing to the next table in a later priority), then fs_core's
         * update_root_ft_create: the table is below the root's level, so it becomes the root.
         */
        int createTable(String who, int level, int logSize, int missTable) {
            MemorySegment in = header(CmdOpcode.CREATE_FLOW_TABLE, CreateFlowTableIn.SIZE);
            CreateFlowTableIn.table_type$set(in, FlowTableType.NIC_RX);
            long c = CreateFlowTableIn.flow_table_context$BYTE_OFFSET;
            FlowTableContext.level$set(in, c, level);
            FlowTableContext.log_size$set(in, c, logSize);
            FlowTableContext.table_miss_action$set(in, c, io.prmkit.mlx5.FlowTableMissAction.FWD);
            FlowTableContext.table_miss_id$set(in, c, missTable);
            int id = CreateFlowTableOut.table_id(l.send(who + "/mlx5_cmd_create_flow_table", in, CreateFlowTableOut.SIZE));
            MemorySegment root = header(CmdOpcode.SET_FLOW_TABLE_ROOT, SetFlowTableRootIn.SIZE);
            SetFlowTableRootIn.table_type$set(root, FlowTableType.NIC_RX);
            SetFlowTableRootIn.table_id$set(root, id);
            l.send(who + "/update_root_ft_create", root, SetFlowTableRootOut.SIZE);
            return id;
        }

        /**
         * mlx5_create_flow_group per group: indexes {@code start[g]..end[g]}; {@code criteria} sets group
         * {@code g}'s match criteria in {@link #scratch} and says whether the outer headers are enabled.
         */
        void groups(String who, int table, int[] start, int[] end, java.util.function.IntPredicate criteria) {
            int[] ids = new int[start.length];
            for (int g = 0; g < start.length; g++) {
                scratch = header(CmdOpcode.CREATE_FLOW_GROUP, CreateFlowGroupIn.SIZE);
                if (criteria.test(g)) CreateFlowGroupIn.match_criteria_enable$set(scratch, (int) MatchCriteriaEnable.OUTER_HEADERS$MASK);
                CreateFlowGroupIn.table_type$set(scratch, FlowTableType.NIC_RX);
                CreateFlowGroupIn.table_id$set(scratch, table);
                CreateFlowGroupIn.start_flow_index$set(scratch, start[g]);
                CreateFlowGroupIn.end_flow_index$set(scratch, end[g]);
                ids[g] = CreateFlowGroupOut.group_id(l.send(who + "(" + g + ")", scratch, CreateFlowGroupOut.SIZE));
            }
            groupIds.put(table, ids);
        }

        /** Each table's group ids, as CREATE_FLOW_GROUP answered (fs_core keeps them in its mlx5_flow_group). */
        final java.util.Map<Integer, int[]> groupIds = new java.util.HashMap<>();

        /**
         * mlx5_cmd_set_fte (op_mod 0, modify_enable_mask 0): group, action FWD_DEST, one destination, the
         * match value {@code value} sets in the outer headers; input = set_fte_in + one dest_format_struct.
         */
        void fte(String who, int table, int group, int index, FlowDestinationType type, int dest, java.util.function.ObjLongConsumer<MemorySegment> value) {
            MemorySegment in = header(CmdOpcode.SET_FLOW_TABLE_ENTRY, SetFteIn.SIZE + DestFormatStruct.SIZE);
            SetFteIn.table_type$set(in, FlowTableType.NIC_RX);
            SetFteIn.table_id$set(in, table);
            SetFteIn.flow_index$set(in, index);
            long fc = SetFteIn.flow_context$BYTE_OFFSET;
            FlowContext.group_id$set(in, fc, groupId(table, group));
            FlowContext.action$set(in, fc, (int) FlowContextAction.FWD_DEST$MASK);
            FlowContext.destination_list_size$set(in, fc, 1);
            value.accept(in, fc + FlowContext.match_value$BYTE_OFFSET + FteMatchParam.outer_headers$BYTE_OFFSET);
            long d = fc + FlowContext.destination$BYTE_OFFSET;
            DestFormatStruct.destination_type$set(in, d, type);
            DestFormatStruct.destination_id$set(in, d, dest);
            l.send(who, in, SetFteOut.SIZE);
        }

        /** The id of group {@code g} of {@code table}: the answers to its CREATE_FLOW_GROUPs, in order. */
        private int groupId(int table, int g) {
            return groupIds.get(table)[g];
        }

        /** mlx5_set_port_admin_status: PAOS written with local_port 1, the status and ase. */
        void paos(String who, int status) {
            l.reg(who, RegisterId.PAOS, true, PaosReg.layout(), d -> {
                PaosReg.local_port$set(d, 1);
                PaosReg.admin_status$set(d, status);
                PaosReg.ase$set(d, true);
            });
        }

        /** mlx5_modify_nic_vport_mac_list: field_select.addresses_list, the list type and size, each MAC at its entry's byte 2. */
        void addressList(String who, io.prmkit.mlx5.VportListType type, long... macs) {
            MemorySegment in = header(CmdOpcode.MODIFY_NIC_VPORT_CONTEXT, ModifyNicVportContextIn.SIZE + 8L * macs.length);
            ModifyNicVportFieldSelect.addresses_list$set(in, ModifyNicVportContextIn.field_select$BYTE_OFFSET, true);
            long c = ModifyNicVportContextIn.nic_vport_context$BYTE_OFFSET;
            NicVportContext.allowed_list_type$set(in, c, type);
            NicVportContext.allowed_list_size$set(in, c, macs.length);
            for (int i = 0; i < macs.length; i++) {
                io.prmkit.mlx5.MacAddressLayout.mac_addr$set(in, c + NicVportContext.current_uc_mac_address$BYTE_OFFSET + 8L * i, macs[i]);
            }
            l.send(who, in, io.prmkit.mlx5.ModifyNicVportContextOut.SIZE);
        }
    }

    /**
     * Traffic through what Linux built: frames sent on channel 0's TX SQ (as mlx5e_xmit writes them:
     * 18 bytes inline for min inline L2, the rest by the mkey, a BlueFlame doorbell through the bfreg
     * UAR page) come back over the loopback cable and go where the steering Linux made sends them:
     * the root (the TC miss table, empty) misses to the VLAN table, its untagged rule to the L2
     * table, the own-MAC (or broadcast) rule to the TTC table, the traffic type's rule to its TIR.
     * An RSS TIR hashes symmetric Toeplitz over the addresses and ports with the key Linux gave and
     * picks RQT entry hash & 255 (entry i is channel i % 2's RQ); the ANY rule sends the rest
     * (here ARP) to channel 0 through direct TIR 0. The expected hashes come from a bit-by-bit
     * Toeplitz written here from the RSS specification, not from the model's table-driven one.
     */
    static void framesLandInTheRqsLinuxsSteeringChooses(Netdev n) {
        TestHost h = n.l.h;
        int perRq = 32;
        DmaRegion buffers = n.l.dma((long) Netdev.MAX_NCH * perRq * 2048);
        DmaRegion data = n.l.dma(64 * 2048);
        for (int ch = 0; ch < Netdev.MAX_NCH; ch++) { // mlx5e_post_rx_wqes (from NAPI): one 2 KiB buffer per WQE
            Netdev.Ring rq = n.channels[ch].rq();
            for (int i = 0; i < perRq; i++) {
                WqeDataSeg.writer(rq.mem().segment(), i * 16L).byte_count(2048).lkey(n.lkey).addr(buffers.busAddress((ch * perRq + i) * 2048L)).write();
            }
            VarHandle.storeStoreFence();
            WqDoorbellRecord.receive_counter$set(rq.db(), perRq);
        }
        byte[] dmac = new byte[6];
        for (int i = 0; i < 6; i++) dmac[i] = (byte) (n.mac >>> (40 - 8 * i));
        int[] seen = new int[Netdev.MAX_NCH];
        int[] pc = {0};
        int[] byChannel = new int[Netdev.MAX_NCH];
        for (int flow = 0; flow < 8; flow++) {
            byte[] a = {10, 0, 0, (byte) (1 + flow)};
            byte[] b = {10, 0, 1, (byte) (200 - flow)};
            int sport = 40000 + 17 * flow;
            int dport = flow % 2 == 0 ? 80 : 443;
            for (int dir = 0; dir < 2; dir++) { // both directions of the flow: the symmetric hash keeps them together
                byte[] frame = dir == 0 ? TestFrames.ipv4(dmac, Ethernet.PROTO_TCP, a, b, sport, dport, TestFrames.payload(100 + flow, flow), 0x18)
                        : TestFrames.ipv4(dmac, Ethernet.PROTO_TCP, b, a, dport, sport, TestFrames.payload(100 + flow, flow), 0x18);
                int hash = toeplitz(Netdev.KEY, symmetricInput(a, b, sport, dport));
                int ch = (hash & (Netdev.INDIR_RQT_SIZE - 1)) % Netdev.MAX_NCH;
                MemorySegment cqe = sendAndReceive(n, data, pc, frame, ch, seen, EthCsFlags.L3_CSUM$MASK | EthCsFlags.L4_CSUM$MASK);
                assertEquals(hash, Cqe64.rss_hash_result(cqe), "flow " + flow + " direction " + dir + ": the symmetric Toeplitz hash");
                assertEquals(io.prmkit.mlx5.CqeRssIp.IPV4.value, Cqe64.rss_hash_ip_type(cqe));
                assertEquals(io.prmkit.mlx5.CqeRssL4.TCP.value, Cqe64.rss_hash_l4_type(cqe));
                byte[] got = buffers.segment().asSlice((ch * perRq + Cqe64.wqe_counter(cqe)) * 2048L, frame.length).toArray(ValueLayout.JAVA_BYTE);
                io.prmkit.softhca.wire.ParsedFrame parsed = new io.prmkit.softhca.wire.ParsedFrame().parse(MemorySegment.ofArray(got), 0, got.length, true);
                assertTrue(parsed.l3ChecksumOk && parsed.l4ChecksumOk, "the checksums the send offloaded");
                for (int at : new int[] {24, 25, 50, 51}) got[at] = 0; // IPv4 and TCP checksums: 0 as sent, filled by the offload
                org.junit.jupiter.api.Assertions.assertArrayEquals(frame, got);
                byChannel[ch]++;
            }
        }
        assertTrue(byChannel[0] > 0 && byChannel[1] > 0, "the RSS table spreads flows over both channels: " + java.util.Arrays.toString(byChannel));
        // ESP: TTC's IPV4_IPSEC_ESP rule, its TIR hashes the addresses (smaller first) and the SPI (the first ESP word)
        for (int spi = 0x1000; spi < 0x1004; spi++) {
            byte[] a = {(byte) 192, (byte) 168, 7, 9};
            byte[] b = {10, 9, 8, 7};
            byte[] esp = TestFrames.ipv4(dmac, 50, a, b, spi >>> 16, spi & 0xffff, TestFrames.payload(64, spi), 0);
            byte[] in = symmetricInput(a, b, 0, 0);
            byte[] input = java.util.Arrays.copyOf(in, 12);
            for (int i = 0; i < 4; i++) input[8 + i] = (byte) (spi >>> (24 - 8 * i));
            int hash = toeplitz(Netdev.KEY, input);
            int ch = hash & 1;
            MemorySegment cqe = sendAndReceive(n, data, pc, esp, ch, seen, EthCsFlags.L3_CSUM$MASK);
            assertEquals(hash, Cqe64.rss_hash_result(cqe), "ESP SPI 0x" + Integer.toHexString(spi));
            assertEquals(io.prmkit.mlx5.CqeRssL4.IPSEC_SPI.value, Cqe64.rss_hash_l4_type(cqe));
        }
        // ARP to broadcast: the L2 broadcast rule, TTC's ANY rule, direct TIR 0 (INVERTED_XOR8 over nothing), channel 0
        byte[] arp = new byte[60];
        java.util.Arrays.fill(arp, 0, 6, (byte) -1);
        System.arraycopy(dmac, 0, arp, 6, 6);
        arp[12] = 0x08;
        arp[13] = 0x06;
        MemorySegment cqe = sendAndReceive(n, data, pc, arp, 0, seen, 0);
        assertEquals(0, Cqe64.rss_hash_result(cqe));
        assertEquals(io.prmkit.mlx5.CqeRssIp.NONE.value, Cqe64.rss_hash_ip_type(cqe));
        assertFalse(h.hca.isFatal());
    }

    /** Sends {@code frame} on channel 0's TX SQ and returns the receive CQE, which must be channel {@code ch}'s next one, and no other channel's. */
    static MemorySegment sendAndReceive(Netdev n, DmaRegion data, int[] pc, byte[] frame, int ch, int[] seen, long csFlags) {
        TestHost h = n.l.h;
        Netdev.Ring sq = n.channels[0].txSq();
        int slot = pc[0] & (sq.entries() - 1);
        MemorySegment.copy(frame, 0, data.segment(), ValueLayout.JAVA_BYTE, (slot & 63) * 2048L, frame.length);
        long o = slot * 64L;
        MemorySegment r = sq.mem().segment();
        WqeCtrlSeg.writer(r, o).opcode(SendWqeOpcode.SEND).wqe_index(pc[0] & 0xffff).qpn(sq.number()).ds(4).ce(CompletionMode.CQE_ALWAYS).write();
        WqeEthSeg.writer(r, o + 16).inline_hdr_sz(18).cs_flags((int) csFlags).write();
        MemorySegment.copy(frame, 0, r, ValueLayout.JAVA_BYTE, o + 16 + WqeEthSeg.inline_hdr_start$BYTE_OFFSET, 18);
        WqeDataSeg.writer(r, o + 48).byte_count(frame.length - 18).lkey(n.lkey).addr(data.busAddress((slot & 63) * 2048L + 18)).write();
        pc[0]++;
        VarHandle.storeStoreFence();
        WqDoorbellRecord.send_counter$set(sq.db(), pc[0] & 0xffff);
        VarHandle.fullFence();
        h.bar.write64(n.bfreg * 4096L + io.prmkit.mlx5.UarPage.bf_registers$BYTE_OFFSET, r.get(EthernetDatapathTest.BE64, o));
        h.hca.runUntilIdle();
        MemorySegment got = null;
        for (int c = 0; c < Netdev.MAX_NCH; c++) {
            Netdev.Ring cq = n.channels[c].rxCq();
            MemorySegment e = cq.mem().segment().asSlice((seen[c] & (cq.entries() - 1)) * 64L, 64);
            boolean valid = Cqe64.opcode(e) != CqeOpcode.INVALID.value && Cqe64.owner(e) == (((seen[c] / cq.entries()) & 1) == 1);
            if (c != ch) {
                assertFalse(valid, "a CQE in channel " + c + "'s RQ, expected in channel " + ch + "'s");
                continue;
            }
            assertTrue(valid, () -> "no CQE in channel " + ch + "'s receive CQ");
            got = MemorySegment.ofArray(e.toArray(ValueLayout.JAVA_BYTE));
            seen[c]++;
            io.prmkit.mlx5.CqDoorbellRecord.consumer_index$set(cq.db(), seen[c] & 0xffffff);
        }
        assertEquals(CqeOpcode.RESP_SEND.value, Cqe64.opcode(got));
        assertEquals(frame.length, Cqe64.byte_cnt(got));
        return got;
    }

    /** The Toeplitz input of an IPv4 TCP flow with rx_hash_symmetric: each pair smaller first (the model's documented ordering). */
    static byte[] symmetricInput(byte[] a, byte[] b, int sport, int dport) {
        boolean swap = java.util.Arrays.compareUnsigned(a, b) > 0;
        byte[] lo = swap ? b : a;
        byte[] hi = swap ? a : b;
        int p = Math.min(sport, dport);
        int q = Math.max(sport, dport);
        return new byte[] {lo[0], lo[1], lo[2], lo[3], hi[0], hi[1], hi[2], hi[3], (byte) (p >>> 8), (byte) p, (byte) (q >>> 8), (byte) q};
    }

    /** Toeplitz as the RSS specification states it: for each set input bit, XOR in the 32 key bits that start at it. */
    static int toeplitz(byte[] key, byte[] input) {
        int result = 0;
        for (int i = 0; i < input.length * 8; i++) {
            if ((input[i / 8] >>> (7 - i % 8) & 1) == 0) continue;
            int window = 0;
            for (int k = 0; k < 32; k++) window = window << 1 | (key[(i + k) / 8] >>> (7 - (i + k) % 8) & 1);
            result ^= window;
        }
        return result;
    }
}


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
import io.prmkit.mlx5.PrmLayout;
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
            io.prmkit.mlx5.PrmLayout.Command declared = io.prmkit.mlx5.PrmCommands.byOpcode((int) op.value);
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
            run(l);
            assertFalse(h.hca.isFatal());
            assertNull(h.hca.error());
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
                    .map(io.prmkit.mlx5.PrmLayout.Command::simpleName).toList();
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

    static void run(Linux l) {
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
        l.caps(q, HcaCapType.FLOW_TABLE$VALUE);
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
        FlowTableContext.level$set(anchor, CreateFlowTableIn.flow_table_context$BYTE_OFFSET, 0x1f);
        FlowTableContext.log_size$set(anchor, CreateFlowTableIn.flow_table_context$BYTE_OFFSET, 0);
        int anchorFt = CreateFlowTableOut.table_id(l.send(fs + "/create_anchor_flow_table", anchor, CreateFlowTableOut.SIZE));
        MemorySegment root = header(CmdOpcode.SET_FLOW_TABLE_ROOT, SetFlowTableRootIn.SIZE);
        SetFlowTableRootIn.table_type$set(root, FlowTableType.NIC_RX);
        SetFlowTableRootIn.table_id$set(root, anchorFt);
        l.send(fs + "/update_root_ft_create", root, SetFlowTableRootOut.SIZE);

        // ---- mlx5e_probe: mlx5e_build_nic_netdev, mlx5e_build_nic_params ---------------------------
        String probe = "mlx5e_probe";
        MemorySegment vctx = l.send(probe + "/mlx5_query_mac_address", header(CmdOpcode.QUERY_NIC_VPORT_CONTEXT, QueryNicVportContextIn.SIZE),
                QueryNicVportContextOut.SIZE).asSlice(QueryNicVportContextOut.nic_vport_context$BYTE_OFFSET, NicVportContext.SIZE);
        long mac = (long) io.prmkit.mlx5.MacAddressLayout.mac_addr_47_32(vctx, NicVportContext.permanent_address$BYTE_OFFSET) << 32
                | Integer.toUnsignedLong(io.prmkit.mlx5.MacAddressLayout.mac_addr_31_0(vctx, NicVportContext.permanent_address$BYTE_OFFSET));
        assertTrue(mac != 0, "a permanent MAC (else Linux makes a random one)");
        assertEquals(1, PerProtocolNetworkingOffloadCaps.wqe_inline_mode(eth[0]), "MLX5_CAP_INLINE_MODE_VPORT_CONTEXT: ask the vport context");
        MemorySegment inline = l.send(probe + "/mlx5_query_min_inline", header(CmdOpcode.QUERY_NIC_VPORT_CONTEXT, QueryNicVportContextIn.SIZE),
                QueryNicVportContextOut.SIZE).asSlice(QueryNicVportContextOut.nic_vport_context$BYTE_OFFSET, NicVportContext.SIZE);
        assertTrue(io.prmkit.mlx5.InlineMode.of(NicVportContext.min_wqe_inline_mode(inline)) != null);
        // slow_pci_heuristic -> mlx5e_port_max_linkspeed -> mlx5_query_port_ptys(MLX5_PTYS_EN): no ptys_extended_ethernet (no PCAM)
        MemorySegment ptys = l.reg(probe + "/mlx5e_port_max_linkspeed", RegisterId.PTYS, false, io.prmkit.mlx5.PtysReg.layout(), d -> {
            io.prmkit.mlx5.PtysReg.local_port$set(d, 1);
            io.prmkit.mlx5.PtysReg.proto_mask$set(d, 1 << 2);
        });
        assertTrue((io.prmkit.mlx5.PtysReg.eth_proto_capability(ptys) & io.prmkit.mlx5.EthProto.ETH_100GBASE_CR4$MASK) != 0, "a 100 GbE port");
        assertEquals(io.prmkit.mlx5.EthProto.ETH_100GBASE_CR4$MASK, Integer.toUnsignedLong(io.prmkit.mlx5.PtysReg.eth_proto_oper(ptys)));

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
        int lkey = CreateMkeyOut.mkey_index(l.send(res + "/mlx5e_create_mkey", mkey, CreateMkeyOut.SIZE));
        assertTrue(lkey > 0);
        int bfreg = AllocUarOut.uar(l.send(res + "/mlx5_alloc_bfreg", header(CmdOpcode.ALLOC_UAR, AllocUarIn.SIZE), AllocUarOut.SIZE));
        assertEquals(0x11, bfreg);
        // mlx5e_init_nic_tx -> mlx5e_create_tises: one TIS (one TC, one LAG port)
        MemorySegment tis = header(CmdOpcode.CREATE_TIS, CreateTisIn.SIZE);
        Tisc.transport_domain$set(tis, CreateTisIn.ctx$BYTE_OFFSET, td);
        int tisn = CreateTisOut.tisn(l.send("mlx5e_init_nic_tx/mlx5e_create_tis", tis, CreateTisOut.SIZE));
        assertTrue(tisn > 0);
        // mlx5e_init_nic_rx -> mlx5e_create_q_counters: the channels' and the drop RQ's
        int qc = AllocQCounterOut.counter_set_id(l.send("mlx5e_init_nic_rx/mlx5e_create_q_counters",
                header(CmdOpcode.ALLOC_Q_COUNTER, AllocQCounterIn.SIZE), AllocQCounterOut.SIZE));
        int dropQc = AllocQCounterOut.counter_set_id(l.send("mlx5e_init_nic_rx/mlx5e_create_q_counters",
                header(CmdOpcode.ALLOC_Q_COUNTER, AllocQCounterIn.SIZE), AllocQCounterOut.SIZE));
        assertTrue(qc != dropQc);
        // mlx5e_nic_enable -> mlx5e_set_netdev_mtu_boundaries: the port's largest MTU
        String en = "mlx5e_nic_enable";
        MemorySegment pmtu = l.reg(en + "/mlx5_query_port_max_mtu", RegisterId.PMTU, false, PmtuReg.layout(), d -> PmtuReg.local_port$set(d, 1));
        assertTrue(PmtuReg.max_mtu(pmtu) >= 1522, "max_mtu " + PmtuReg.max_mtu(pmtu));

        // ---- mlx5e_open -----------------------------------------------------------------------
        String open = "mlx5e_open_locked";
        MemorySegment setMtu = l.reg(open + "/mlx5_set_port_mtu", RegisterId.PMTU, true, PmtuReg.layout(), d -> {
            PmtuReg.local_port$set(d, 1);
            PmtuReg.admin_mtu$set(d, 1500 + 22);
        });
        MemorySegment oper = l.reg(open + "/mlx5_query_port_oper_mtu", RegisterId.PMTU, false, PmtuReg.layout(), d -> PmtuReg.local_port$set(d, 1));
        assertEquals(1522, PmtuReg.oper_mtu(oper));
        MemorySegment paos = l.reg("mlx5e_open/mlx5_set_port_admin_status", RegisterId.PAOS, true, PaosReg.layout(), d -> {
            PaosReg.local_port$set(d, 1);
            PaosReg.admin_status$set(d, 1);
            PaosReg.ase$set(d, true);
        });
        MemorySegment state = header(CmdOpcode.QUERY_VPORT_STATE, QueryVportStateIn.SIZE, VportStateOpMod.VNIC_VPORT$VALUE);
        int vportState = QueryVportStateOut.state(l.send("mlx5e_update_carrier/mlx5_query_vport_oper_state", state, QueryVportStateOut.SIZE));
        assertEquals(1, vportState, "the loopback cable is in: link up");

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
    }
}

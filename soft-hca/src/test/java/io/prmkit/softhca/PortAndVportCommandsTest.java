package io.prmkit.softhca;

import static io.prmkit.softhca.Cmds.assertFails;
import static io.prmkit.softhca.Cmds.header;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.prmkit.mlx5.AccessRegisterIn;
import io.prmkit.mlx5.AccessRegisterOpMod;
import io.prmkit.mlx5.AccessRegisterOut;
import io.prmkit.mlx5.CmdOpcode;
import io.prmkit.mlx5.Eth8023CntrsGrpDataLayout;
import io.prmkit.mlx5.MacAddressLayout;
import io.prmkit.mlx5.ModifyNicVportContextIn;
import io.prmkit.mlx5.ModifyNicVportContextOut;
import io.prmkit.mlx5.ModifyNicVportFieldSelect;
import io.prmkit.mlx5.ModifyVportStateIn;
import io.prmkit.mlx5.ModifyVportStateOut;
import io.prmkit.mlx5.NicVportContext;
import io.prmkit.mlx5.PaosReg;
import io.prmkit.mlx5.PmtuReg;
import io.prmkit.mlx5.PpcntGrp;
import io.prmkit.mlx5.PpcntReg;
import io.prmkit.layout.PrmLayout;
import io.prmkit.mlx5.QueryNicVportContextIn;
import io.prmkit.mlx5.QueryNicVportContextOut;
import io.prmkit.mlx5.QueryVportCounterIn;
import io.prmkit.mlx5.QueryVportCounterOut;
import io.prmkit.mlx5.QueryVportStateIn;
import io.prmkit.mlx5.QueryVportStateOut;
import io.prmkit.mlx5.RegisterId;
import io.prmkit.mlx5.TrafficCounter;
import io.prmkit.mlx5.VportAdminState;
import io.prmkit.mlx5.VportOperState;
import io.prmkit.mlx5.VportStateOpMod;
import io.prmkit.softhca.cmd.Syndrome;
import java.lang.foreign.MemorySegment;
import org.junit.jupiter.api.Test;

/** ACCESS_REGISTER PMTU/PAOS/PPCNT and the NIC vport commands. */
class PortAndVportCommandsTest {
    static final long REG = AccessRegisterIn.register_data$BYTE_OFFSET;

    static MemorySegment reg(RegisterId id, PrmLayout.Struct layout, boolean write) {
        MemorySegment in = header(CmdOpcode.ACCESS_REG, REG + layout.sizeBytes());
        AccessRegisterIn.op_mod$set(in, write ? AccessRegisterOpMod.WRITE : AccessRegisterOpMod.READ);
        AccessRegisterIn.register_id$set(in, id);
        return in;
    }

    static TestHost.Result access(TestHost h, MemorySegment in) {
        return h.exec(in, in.byteSize());
    }

    @Test
    void pmtu() {
        try (TestHost h = ObjectCommandsTest.up()) {
            MemorySegment read = reg(RegisterId.PMTU, PmtuReg.layout(), false);
            PmtuReg.local_port$set(read, REG, 1);
            MemorySegment out = access(h, read).ok().out();
            assertEquals(9600, PmtuReg.max_mtu(out, AccessRegisterOut.register_data$BYTE_OFFSET));
            assertEquals(1522, PmtuReg.oper_mtu(out, AccessRegisterOut.register_data$BYTE_OFFSET), "a hardware MTU: IP MTU 1500 + 22");
            MemorySegment write = reg(RegisterId.PMTU, PmtuReg.layout(), true);
            PmtuReg.local_port$set(write, REG, 1);
            PmtuReg.admin_mtu$set(write, REG, 9000);
            access(h, write).ok();
            assertEquals(9000, PmtuReg.oper_mtu(access(h, read).ok().out(), AccessRegisterOut.register_data$BYTE_OFFSET));
            PmtuReg.admin_mtu$set(write, REG, 9601);
            assertFails(access(h, write), Syndrome.MTU_ABOVE_PORT, CmdOpcode.ACCESS_REG);
            PmtuReg.admin_mtu$set(write, REG, 68 + 22 - 1); // below IP's minimum MTU as a hardware MTU
            assertFails(access(h, write), Syndrome.MTU_ABOVE_PORT, CmdOpcode.ACCESS_REG);
            PmtuReg.admin_mtu$set(write, REG, 68 + 22);
            access(h, write).ok();
            PmtuReg.local_port$set(read, REG, 2);
            assertFails(access(h, read), Syndrome.BAD_REGISTER_FIELD, CmdOpcode.ACCESS_REG);
        }
    }

    @Test
    void portRegistersNeedInitHca() {
        try (TestHost h = TestHost.started(ExecutionMode.STEP)) {
            h.exec(header(CmdOpcode.ENABLE_HCA, io.prmkit.mlx5.EnableHcaIn.SIZE), io.prmkit.mlx5.EnableHcaOut.SIZE).ok();
            MemorySegment read = reg(RegisterId.PMTU, PmtuReg.layout(), false);
            PmtuReg.local_port$set(read, REG, 1);
            assertFails(access(h, read), Syndrome.NOT_INITIALIZED, CmdOpcode.ACCESS_REG);
        }
    }

    static int vportState(TestHost h) {
        MemorySegment q = header(CmdOpcode.QUERY_VPORT_STATE, QueryVportStateIn.SIZE);
        return QueryVportStateOut.state(h.exec(q, QueryVportStateOut.SIZE).ok().out());
    }

    @Test
    void paosTakesThePortDownAndUp() {
        try (TestHost h = ObjectCommandsTest.up()) {
            assertEquals(VportOperState.UP.value, vportState(h));
            MemorySegment w = reg(RegisterId.PAOS, PaosReg.layout(), true);
            PaosReg.local_port$set(w, REG, 1);
            PaosReg.ase$set(w, REG, true);
            PaosReg.admin_status$set(w, REG, 2);
            MemorySegment out = access(h, w).ok().out();
            assertEquals(2, PaosReg.oper_status(out, AccessRegisterOut.register_data$BYTE_OFFSET));
            assertEquals(VportOperState.DOWN.value, vportState(h));
            PaosReg.admin_status$set(w, REG, 1);
            access(h, w).ok();
            assertEquals(VportOperState.UP.value, vportState(h));
            PaosReg.admin_status$set(w, REG, 5);
            assertFails(access(h, w), Syndrome.BAD_REGISTER_FIELD, CmdOpcode.ACCESS_REG);
        }
    }

    @Test
    void ppcntReadsCounterGroups() {
        try (TestHost h = ObjectCommandsTest.up()) {
            MemorySegment r = reg(RegisterId.PPCNT, PpcntReg.layout(), false);
            PpcntReg.local_port$set(r, REG, 1);
            PpcntReg.grp$set(r, REG, PpcntGrp.IEEE_802_3);
            MemorySegment out = access(h, r).ok().out();
            long grp = AccessRegisterOut.register_data$BYTE_OFFSET + PpcntReg.counter_set$BYTE_OFFSET;
            assertEquals(0, Eth8023CntrsGrpDataLayout.a_frames_received_ok_low(out, grp));
            PpcntReg.grp$set(r, REG, PpcntGrp.RFC_2863);
            access(h, r).ok();
            PpcntReg.grp$set(r, REG, PpcntGrp.RFC_2819);
            access(h, r).ok();
            PpcntReg.grp$set(r, REG, PpcntGrp.PHYSICAL_LAYER); // Linux reads it every stats update: all zero
            MemorySegment phy = access(h, r).ok().out();
            for (long b = grp; b < phy.byteSize(); b++) assertEquals(0, phy.get(java.lang.foreign.ValueLayout.JAVA_BYTE, b));
            PpcntReg.grp$set(r, REG, PpcntGrp.PER_PRIORITY);
            PpcntReg.prio_tc$set(r, REG, 3);
            access(h, r).ok();
            PpcntReg.grp$set(r, REG, PpcntGrp.ETHERNET_EXTENDED);
            assertFails(access(h, r), Syndrome.BAD_REGISTER_FIELD, CmdOpcode.ACCESS_REG);
            MemorySegment w = reg(RegisterId.PPCNT, PpcntReg.layout(), true);
            PpcntReg.local_port$set(w, REG, 1);
            assertFails(access(h, w), Syndrome.BAD_REGISTER_FIELD, CmdOpcode.ACCESS_REG);
        }
    }

    @Test
    void ptysReportsLinkModesAndTakesAnAllowedSubset() {
        try (TestHost h = ObjectCommandsTest.up()) {
            long out = AccessRegisterOut.register_data$BYTE_OFFSET;
            MemorySegment r = reg(RegisterId.PTYS, io.prmkit.mlx5.PtysReg.layout(), false);
            io.prmkit.mlx5.PtysReg.local_port$set(r, REG, 1);
            io.prmkit.mlx5.PtysReg.proto_mask$set(r, REG, 1 << 2); // Ethernet
            MemorySegment got = access(h, r).ok().out();
            int cap = io.prmkit.mlx5.PtysReg.eth_proto_capability(got, out);
            assertEquals(cap, io.prmkit.mlx5.PtysReg.eth_proto_admin(got, out), "all modes allowed until written");
            assertEquals(io.prmkit.mlx5.EthProto.ETH_100GBASE_CR4$MASK, Integer.toUnsignedLong(io.prmkit.mlx5.PtysReg.eth_proto_oper(got, out)));
            MemorySegment w = reg(RegisterId.PTYS, io.prmkit.mlx5.PtysReg.layout(), true);
            io.prmkit.mlx5.PtysReg.local_port$set(w, REG, 1);
            io.prmkit.mlx5.PtysReg.proto_mask$set(w, REG, 1 << 2);
            io.prmkit.mlx5.PtysReg.eth_proto_admin$set(w, REG, (int) (io.prmkit.mlx5.EthProto.ETH_25GBASE_CR$MASK | io.prmkit.mlx5.EthProto.ETH_10GBASE_CR$MASK));
            got = access(h, w).ok().out();
            assertEquals(io.prmkit.mlx5.EthProto.ETH_10GBASE_CR$MASK, Integer.toUnsignedLong(io.prmkit.mlx5.PtysReg.eth_proto_oper(got, out)),
                    "no 100 GbE mode allowed: the first allowed one");
            io.prmkit.mlx5.PtysReg.eth_proto_admin$set(w, REG, (int) io.prmkit.mlx5.EthProto.ETH_56GBASE_R4$MASK); // not in the capability
            assertFails(access(h, w), Syndrome.BAD_REGISTER_FIELD, CmdOpcode.ACCESS_REG);
            io.prmkit.mlx5.PtysReg.proto_mask$set(r, REG, 1); // InfiniBand
            assertFails(access(h, r), Syndrome.BAD_REGISTER_FIELD, CmdOpcode.ACCESS_REG);
        }
    }

    @Test
    void vportStateCommands() {
        try (TestHost h = ObjectCommandsTest.up()) {
            MemorySegment m = header(CmdOpcode.MODIFY_VPORT_STATE, ModifyVportStateIn.SIZE);
            ModifyVportStateIn.admin_state$set(m, VportAdminState.UP);
            h.exec(m, ModifyVportStateOut.SIZE).ok();
            MemorySegment q = header(CmdOpcode.QUERY_VPORT_STATE, QueryVportStateIn.SIZE);
            assertEquals(VportAdminState.UP.value, QueryVportStateOut.admin_state(h.exec(q, QueryVportStateOut.SIZE).ok().out()));
            ModifyVportStateIn.admin_state$set(m, 7);
            assertFails(h.exec(m, ModifyVportStateOut.SIZE), Syndrome.BAD_FIELD, CmdOpcode.MODIFY_VPORT_STATE);
            QueryVportStateIn.op_mod$set(q, VportStateOpMod.ESW_VPORT);
            assertFails(h.exec(q, QueryVportStateOut.SIZE), Syndrome.BAD_OP_MOD, CmdOpcode.QUERY_VPORT_STATE);
            QueryVportStateIn.op_mod$set(q, VportStateOpMod.VNIC_VPORT);
            QueryVportStateIn.other_vport$set(q, true);
            QueryVportStateIn.vport_number$set(q, 1);
            assertFails(h.exec(q, QueryVportStateOut.SIZE), Syndrome.OTHER_FUNCTION, CmdOpcode.QUERY_VPORT_STATE);
        }
    }

    /**
     * RoCE enabled on the NIC vport, as rdma-core's mlx5_vfio does at the end of its bring-up on an
     * Ethernet port with the roce capability (and Linux's mlx5_ib): accepted and reported back;
     * refused where the function has no roce capability; affiliation stays unmodelled.
     */
    @Test
    void nicVportContextRoceEnable() {
        try (TestHost h = ObjectCommandsTest.up()) {
            MemorySegment m = header(CmdOpcode.MODIFY_NIC_VPORT_CONTEXT, ModifyNicVportContextIn.SIZE);
            long sel = ModifyNicVportContextIn.field_select$BYTE_OFFSET;
            long ctx = ModifyNicVportContextIn.nic_vport_context$BYTE_OFFSET;
            ModifyNicVportFieldSelect.roce_en$set(m, sel, true);
            NicVportContext.roce_en$set(m, ctx, true);
            h.exec(m, ModifyNicVportContextOut.SIZE).ok();
            MemorySegment q = header(CmdOpcode.QUERY_NIC_VPORT_CONTEXT, QueryNicVportContextIn.SIZE);
            long oc = QueryNicVportContextOut.nic_vport_context$BYTE_OFFSET;
            assertTrue(NicVportContext.roce_en(h.exec(q, QueryNicVportContextOut.SIZE).ok().out(), oc));
            NicVportContext.roce_en$set(m, ctx, false);
            h.exec(m, ModifyNicVportContextOut.SIZE).ok();
            org.junit.jupiter.api.Assertions.assertFalse(NicVportContext.roce_en(h.exec(q, QueryNicVportContextOut.SIZE).ok().out(), oc));
            ModifyNicVportFieldSelect.affiliation$set(m, sel, true);
            assertFails(h.exec(m, ModifyNicVportContextOut.SIZE), Syndrome.BAD_FIELD, CmdOpcode.MODIFY_NIC_VPORT_CONTEXT);
        }
        try (TestHost h = TestHost.started(new SoftHca.Options().caps(CapsProfile.connectX4().withGeneral("roce", 0)), ExecutionMode.STEP)) {
            Cmds.bringUp(h);
            MemorySegment m = header(CmdOpcode.MODIFY_NIC_VPORT_CONTEXT, ModifyNicVportContextIn.SIZE);
            ModifyNicVportFieldSelect.roce_en$set(m, ModifyNicVportContextIn.field_select$BYTE_OFFSET, true);
            NicVportContext.roce_en$set(m, ModifyNicVportContextIn.nic_vport_context$BYTE_OFFSET, true);
            assertFails(h.exec(m, ModifyNicVportContextOut.SIZE), Syndrome.BAD_FIELD, CmdOpcode.MODIFY_NIC_VPORT_CONTEXT);
        }
    }

    @Test
    void nicVportContextMtuMacAndPromiscuous() {
        try (TestHost h = ObjectCommandsTest.up()) {
            MemorySegment m = header(CmdOpcode.MODIFY_NIC_VPORT_CONTEXT, ModifyNicVportContextIn.SIZE);
            long sel = ModifyNicVportContextIn.field_select$BYTE_OFFSET;
            long ctx = ModifyNicVportContextIn.nic_vport_context$BYTE_OFFSET;
            ModifyNicVportFieldSelect.mtu$set(m, sel, true);
            ModifyNicVportFieldSelect.promisc$set(m, sel, true);
            ModifyNicVportFieldSelect.permanent_address$set(m, sel, true);
            NicVportContext.mtu$set(m, ctx, 1522);
            NicVportContext.promisc_all$set(m, ctx, true);
            MacAddressLayout.mac_addr_47_32$set(m, ctx + NicVportContext.permanent_address$BYTE_OFFSET, 0x0200);
            MacAddressLayout.mac_addr_31_0$set(m, ctx + NicVportContext.permanent_address$BYTE_OFFSET, 0x12345678);
            h.exec(m, ModifyNicVportContextOut.SIZE).ok();
            MemorySegment q = header(CmdOpcode.QUERY_NIC_VPORT_CONTEXT, QueryNicVportContextIn.SIZE);
            MemorySegment out = h.exec(q, QueryNicVportContextOut.SIZE).ok().out();
            long oc = QueryNicVportContextOut.nic_vport_context$BYTE_OFFSET;
            assertEquals(1522, NicVportContext.mtu(out, oc));
            assertTrue(NicVportContext.promisc_all(out, oc));
            assertEquals(0x12345678, MacAddressLayout.mac_addr_31_0(out, oc + NicVportContext.permanent_address$BYTE_OFFSET));
            NicVportContext.mtu$set(m, ctx, 20000);
            assertFails(h.exec(m, ModifyNicVportContextOut.SIZE), Syndrome.MTU_ABOVE_PORT, CmdOpcode.MODIFY_NIC_VPORT_CONTEXT);
            QueryNicVportContextIn.other_vport$set(q, true);
            assertFails(h.exec(q, QueryNicVportContextOut.SIZE), Syndrome.OTHER_FUNCTION, CmdOpcode.QUERY_NIC_VPORT_CONTEXT);
        }
    }

    @Test
    void vportCounters() {
        try (TestHost h = ObjectCommandsTest.up()) {
            MemorySegment q = header(CmdOpcode.QUERY_VPORT_COUNTER, QueryVportCounterIn.SIZE);
            MemorySegment out = h.exec(q, QueryVportCounterOut.SIZE).ok().out();
            assertEquals(0, TrafficCounter.packets(out, QueryVportCounterOut.received_eth_unicast$BYTE_OFFSET));
            QueryVportCounterIn.other_vport$set(q, true);
            assertFails(h.exec(q, QueryVportCounterOut.SIZE), Syndrome.OTHER_FUNCTION, CmdOpcode.QUERY_VPORT_COUNTER);
        }
    }
}

package io.prmkit.softhca;

import static io.prmkit.softhca.Cmds.header;
import static org.junit.jupiter.api.Assertions.*;

import io.prmkit.mlx5.CmdOpcode;
import io.prmkit.mlx5.Cqe64;
import io.prmkit.mlx5.CqeOpcode;
import io.prmkit.mlx5.MacAddressLayout;
import io.prmkit.mlx5.ModifyNicVportContextIn;
import io.prmkit.mlx5.ModifyNicVportContextOut;
import io.prmkit.mlx5.ModifyNicVportFieldSelect;
import io.prmkit.mlx5.NicVportContext;
import io.prmkit.mlx5.QueryNicVportContextIn;
import io.prmkit.mlx5.QueryNicVportContextOut;
import io.prmkit.mlx5.VportListType;
import io.prmkit.softhca.EthernetDatapathTest.Eth;
import io.prmkit.softhca.wire.Ethernet;
import io.prmkit.softhca.wire.TestFrames;
import java.lang.foreign.MemorySegment;
import org.junit.jupiter.api.Test;

/**
 * The NIC vport takes only the frames its context lets through, tested as a driver sees it: commands
 * through the BAR and DMA, frames sent on the SQ that come back over the loopback wire, completions in
 * the CQ rings, the drop count in PPCNT. Without promiscuous mode a frame to another unicast MAC, or to
 * a multicast address not in the vport's list, is dropped (RFC 2863 {@code if_in_discards}); the
 * permanent address, the unicast list and broadcast are taken; {@code promisc_uc}, {@code promisc_mc}
 * and {@code promisc_all} widen that as their names say.
 */
class VportFilterTest {
    static final byte[] OWN = TestFrames.DMAC; // the default permanent address
    static final byte[] OTHER = {0x02, 0x00, 0x00, 0x00, 0x00, 0x09};
    static final byte[] MULTICAST = {0x01, 0x00, 0x5e, 0x00, 0x00, 0x01};
    static final byte[] BROADCAST = {-1, -1, -1, -1, -1, -1};

    /** Sends one UDP frame to {@code dmac} and says whether the vport took it (an RX completion came). */
    static boolean delivered(Eth e, byte[] dmac) {
        e.postRx(1);
        e.send(TestFrames.ipv4(dmac, Ethernet.PROTO_UDP, new byte[] {10, 0, 0, 1}, new byte[] {10, 0, 0, 2}, 1, 2, new byte[30], 0));
        e.settle(() -> false);
        MemorySegment t = e.txCqe();
        assertNotNull(t, "TX CQE");
        assertEquals(CqeOpcode.REQ.value, Cqe64.opcode(t), "the send itself succeeds whatever the receiver does");
        MemorySegment r = e.rxCqe();
        if (r != null) assertEquals(CqeOpcode.RESP_SEND.value, Cqe64.opcode(r));
        return r != null;
    }

    static long inDiscards(Eth e) {
        return Nic.inDiscards(e.h);
    }

    static void promisc(Eth e, boolean uc, boolean mc, boolean all) {
        Nic.promisc(e.h, uc, mc, all);
    }

    static long mac(byte[] b) {
        long v = 0;
        for (byte x : b) v = v << 8 | (x & 0xff);
        return v;
    }

    /** MODIFY_NIC_VPORT_CONTEXT with addresses_list: {@code type}'s list becomes {@code macs}. */
    static TestHost.Result setList(Eth e, VportListType type, byte[]... macs) {
        long ctx = ModifyNicVportContextIn.nic_vport_context$BYTE_OFFSET;
        long entry = NicVportContext.current_uc_mac_address$ELEMENT_BITS / 8;
        MemorySegment m = header(CmdOpcode.MODIFY_NIC_VPORT_CONTEXT, ModifyNicVportContextIn.SIZE + macs.length * entry);
        ModifyNicVportFieldSelect.addresses_list$set(m, ModifyNicVportContextIn.field_select$BYTE_OFFSET, true);
        NicVportContext.allowed_list_type$set(m, ctx, type);
        NicVportContext.allowed_list_size$set(m, ctx, macs.length);
        for (int i = 0; i < macs.length; i++) {
            long at = ctx + NicVportContext.current_uc_mac_address$BYTE_OFFSET + i * entry;
            MacAddressLayout.mac_addr_47_32$set(m, at, (int) (mac(macs[i]) >>> 32));
            MacAddressLayout.mac_addr_31_0$set(m, at, (int) mac(macs[i]));
        }
        return e.h.exec(m, ModifyNicVportContextOut.SIZE);
    }

    @Test
    void withoutPromiscuousModeTheVportTakesItsOwnAddressAndBroadcastOnly() {
        try (Eth e = new Eth(new SoftHca.Options(), ExecutionMode.STEP)) {
            assertTrue(delivered(e, OWN), "to the permanent address");
            assertTrue(delivered(e, BROADCAST), "broadcast");
            assertEquals(0, inDiscards(e));
            assertFalse(delivered(e, OTHER), "unicast to another MAC");
            assertFalse(delivered(e, MULTICAST), "multicast not in the list");
            assertEquals(2, inDiscards(e), "both dropped frames are counted as inbound discards");
            assertTrue(delivered(e, OWN), "the RQ still has its WQE: the dropped frames never reached it");
        }
    }

    @Test
    void eachPromiscuousModeTakesWhatItsNameSays() {
        try (Eth e = new Eth(new SoftHca.Options(), ExecutionMode.STEP)) {
            promisc(e, true, false, false);
            assertTrue(delivered(e, OTHER), "promisc_uc: unicast to another MAC");
            assertFalse(delivered(e, MULTICAST), "promisc_uc leaves multicast filtered");
            promisc(e, false, true, false);
            assertTrue(delivered(e, MULTICAST), "promisc_mc: any multicast");
            assertFalse(delivered(e, OTHER), "promisc_mc leaves unicast filtered");
            promisc(e, false, false, true);
            assertTrue(delivered(e, OTHER), "promisc_all");
            assertTrue(delivered(e, MULTICAST), "promisc_all");
            promisc(e, false, false, false);
            assertFalse(delivered(e, OTHER), "off again");
            assertEquals(3, inDiscards(e));
        }
    }

    @Test
    void theAddressListsAddAddressesAndAQueryReturnsThem() {
        try (Eth e = new Eth(new SoftHca.Options(), ExecutionMode.STEP)) {
            setList(e, VportListType.UC, OTHER).ok();
            setList(e, VportListType.MC, MULTICAST).ok();
            assertTrue(delivered(e, OTHER), "in the unicast list");
            assertTrue(delivered(e, MULTICAST), "in the multicast list");
            assertTrue(delivered(e, OWN), "the permanent address still");
            assertFalse(delivered(e, new byte[] {0x01, 0x00, 0x5e, 0x00, 0x00, 0x02}), "another multicast address");

            long entry = NicVportContext.current_uc_mac_address$ELEMENT_BITS / 8;
            MemorySegment q = header(CmdOpcode.QUERY_NIC_VPORT_CONTEXT, QueryNicVportContextIn.SIZE);
            QueryNicVportContextIn.allowed_list_type$set(q, VportListType.UC);
            MemorySegment out = e.h.exec(q, QueryNicVportContextOut.SIZE + 4 * entry).ok().out();
            long oc = QueryNicVportContextOut.nic_vport_context$BYTE_OFFSET;
            assertEquals(1, NicVportContext.allowed_list_size(out, oc));
            long at = oc + NicVportContext.current_uc_mac_address$BYTE_OFFSET;
            assertEquals(mac(OTHER), (long) MacAddressLayout.mac_addr_47_32(out, at) << 32 | Integer.toUnsignedLong(MacAddressLayout.mac_addr_31_0(out, at)));

            setList(e, VportListType.UC).ok(); // emptied
            assertFalse(delivered(e, OTHER), "no longer in the list");
        }
    }

    @Test
    void anAddressListLongerThanTheInputIsRefused() {
        try (Eth e = new Eth(new SoftHca.Options(), ExecutionMode.STEP)) {
            MemorySegment m = header(CmdOpcode.MODIFY_NIC_VPORT_CONTEXT, ModifyNicVportContextIn.SIZE);
            long ctx = ModifyNicVportContextIn.nic_vport_context$BYTE_OFFSET;
            ModifyNicVportFieldSelect.addresses_list$set(m, ModifyNicVportContextIn.field_select$BYTE_OFFSET, true);
            NicVportContext.allowed_list_type$set(m, ctx, VportListType.UC);
            NicVportContext.allowed_list_size$set(m, ctx, 1); // the entry itself is missing
            assertNotEquals(0, e.h.exec(m, ModifyNicVportContextOut.SIZE).status(), "no entry in the input");
        }
    }

    /**
     * A VLAN list is checked as the address lists are (its entries inside the input) and then filters
     * nothing: on a ConnectX it tells the E-Switch manager which VLANs the vport wants; the function's
     * own VLAN filtering is its flow tables' (docs/soft-hca-datapath.md, Receive step 2).
     */
    @Test
    void aVlanListIsCheckedAndFiltersNothing() {
        try (Eth e = new Eth(new SoftHca.Options(), ExecutionMode.STEP)) {
            MemorySegment m = header(CmdOpcode.MODIFY_NIC_VPORT_CONTEXT, ModifyNicVportContextIn.SIZE);
            long ctx = ModifyNicVportContextIn.nic_vport_context$BYTE_OFFSET;
            ModifyNicVportFieldSelect.addresses_list$set(m, ModifyNicVportContextIn.field_select$BYTE_OFFSET, true);
            NicVportContext.allowed_list_type$set(m, ctx, VportListType.VLAN);
            NicVportContext.allowed_list_size$set(m, ctx, 2); // the entries themselves are missing
            assertNotEquals(0, e.h.exec(m, ModifyNicVportContextOut.SIZE).status(), "VLAN entries outside the input");

            setList(e, VportListType.VLAN, new byte[6], new byte[6]).ok(); // two entries, VLAN 0
            assertTrue(delivered(e, OWN), "untagged frames to the vport still arrive");
            assertEquals(0, inDiscards(e));
            MemorySegment q = header(CmdOpcode.QUERY_NIC_VPORT_CONTEXT, QueryNicVportContextIn.SIZE);
            QueryNicVportContextIn.allowed_list_type$set(q, VportListType.VLAN);
            MemorySegment out = e.h.exec(q, QueryNicVportContextOut.SIZE + 4 * NicVportContext.current_uc_mac_address$ELEMENT_BITS / 8).ok().out();
            assertEquals(0, NicVportContext.allowed_list_size(out, QueryNicVportContextOut.nic_vport_context$BYTE_OFFSET), "not kept: nobody reads it");
        }
    }
}

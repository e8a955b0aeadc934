package io.prmkit.mlx5.conformance;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.prmkit.mlx5.CmdOpcode;
import io.prmkit.mlx5.CmdQueueEntry;
import io.prmkit.mlx5.CmdStatus;
import io.prmkit.mlx5.CompletionMode;
import io.prmkit.mlx5.Cqe64;
import io.prmkit.mlx5.CqeHdsIpExt;
import io.prmkit.mlx5.CqeErrorSyndrome;
import io.prmkit.mlx5.CqeL3HdrType;
import io.prmkit.mlx5.CqeL4HdrType;
import io.prmkit.mlx5.CqeOpcode;
import io.prmkit.mlx5.DeliveryStatus;
import io.prmkit.mlx5.EqeType;
import io.prmkit.mlx5.ErrCqe;
import io.prmkit.mlx5.Eqe;
import io.prmkit.mlx5.FenceMode;
import io.prmkit.mlx5.SendWqeOpcode;
import io.prmkit.mlx5.WqeCtrlSeg;
import io.prmkit.mlx5.WqeEthSeg;
import io.prmkit.mlx5.WqeNop;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/**
 * The generated accessors (generated at build time from the bundled spec) against byte images the
 * kernel's own structs and constants produce (see {@link KernelSamples}), and the decoders' data.
 */
class GeneratedAccessorsTest {

    private static final Arena ARENA = Arena.ofShared();

    @AfterAll
    static void close() {
        ARENA.close();
    }

    /** The kernel-built bytes in native memory (aligned, as a DMA buffer would be). */
    private static MemorySegment kernel(String sample) {
        byte[] bytes = KernelSamples.images().get(sample);
        MemorySegment s = ARENA.allocate(bytes.length, 64);
        MemorySegment.copy(bytes, 0, s, ValueLayout.JAVA_BYTE, 0, bytes.length);
        return s;
    }

    private static byte[] bytes(MemorySegment s) {
        return s.toArray(ValueLayout.JAVA_BYTE);
    }

    @Test
    void decodersNameStatusesAndSyndromes() {
        assertEquals(CmdStatus.BAD_PARAM_ERR, CmdStatus.of(0x3));
        assertTrue(CmdStatus.describe(0x3).startsWith("BAD_PARAM_ERR (0x3): Bad parameter"), CmdStatus.describe(0x3));
        assertEquals(CqeErrorSyndrome.LOCAL_PROT_ERR, CqeErrorSyndrome.of(0x04));
        assertTrue(CqeErrorSyndrome.LOCAL_PROT_ERR.detail.contains("lkey"));
        assertTrue(DeliveryStatus.describe(0x9).contains("Reserved fields not cleared"), DeliveryStatus.describe(0x9));
        assertNull(DeliveryStatus.of(0xc), "no delivery status between 0x9 and 0x10");
        assertEquals("unknown (0xc)", DeliveryStatus.describe(0xc));
        assertEquals(0x102, CmdOpcode.INIT_HCA.value);
    }

    @Test
    void errorCqeWrittenByTheKernelStructDecodes() {
        MemorySegment s = kernel("err_cqe");
        assertEquals(CqeErrorSyndrome.LOCAL_PROT_ERR, ErrCqe.syndrome$enum(s));
        assertEquals(0x93, ErrCqe.vendor_err_synd(s));
        assertEquals(SendWqeOpcode.SEND, ErrCqe.s_wqe_opcode$enum(s));
        assertEquals(0xabcd, ErrCqe.qpn(s));
        assertEquals(0x1234, ErrCqe.wqe_counter(s));
        assertEquals(CqeOpcode.REQ_ERR, ErrCqe.opcode$enum(s));
        assertTrue(ErrCqe.owner(s));
        assertTrue(ErrCqe.validate(s).isEmpty(), ErrCqe.validate(s).toString());
    }

    @Test
    void errorCqeRuleCatchesANonErrorOpcode() {
        MemorySegment s = kernel("err_cqe");
        s.set(ValueLayout.JAVA_BYTE, 0x3f, (byte) 0x01); // opcode REQ, owner 1
        assertFalse(ErrCqe.validate(s).isEmpty(), "an error CQE with opcode REQ must fail its rule");
    }

    @Test
    void receiveCqeWrittenByTheKernelStructDecodes() {
        MemorySegment s = kernel("cqe64_rx");
        assertEquals(CqeOpcode.RESP_SEND, Cqe64.opcode$enum(s));
        assertTrue(Cqe64.owner(s));
        assertEquals(CqeHdsIpExt.L3_OK$MASK | CqeHdsIpExt.L4_OK$MASK, Cqe64.hds_ip_ext(s)); // the kernel set CQE_L3_OK | CQE_L4_OK
        assertEquals(CqeL4HdrType.UDP, Cqe64.l4_hdr_type$enum(s));
        assertEquals(CqeL3HdrType.IPV4, Cqe64.l3_hdr_type$enum(s));
        assertTrue(Cqe64.vlan_present(s));
        assertEquals(0x0123, Cqe64.vlan_info(s));
        assertEquals(1514, Cqe64.byte_cnt(s));
        assertEquals(0x1122334455667788L, Cqe64.timestamp(s));
        assertEquals(0x77, Cqe64.wqe_counter(s));
        assertEquals(1, Cqe64.rss_hash_ip_type(s));
    }

    @Test
    void pageRequestEventDecodesWithASignedCount() {
        MemorySegment s = kernel("eqe_page_request");
        assertEquals(EqeType.PAGE_REQUEST, Eqe.event_type$enum(s));
        assertEquals(3, Eqe.func_id(s));
        assertEquals(-5, Eqe.num_pages(s), "num_pages is a signed count; negative means pages come back");
        assertTrue(Eqe.owner(s));
    }

    @Test
    void commandQueueEntryDecodes() {
        MemorySegment s = kernel("cmd_layout");
        assertEquals(7, CmdQueueEntry.type(s));
        assertEquals(0x20, CmdQueueEntry.input_length(s));
        assertEquals(0x12345600L, CmdQueueEntry.input_mailbox_pointer(s));
        assertEquals(0x5a, CmdQueueEntry.token(s));
        assertEquals(DeliveryStatus.RES_FLD_NOT_CLR_ERR, CmdQueueEntry.status$enum(s));
        assertTrue(CmdQueueEntry.ownership(s), "hardware owns the entry");
    }

    @Test
    void controlSegmentBuiltWithAccessorsEqualsTheKernelsBytes() {
        MemorySegment kernel = kernel("wqe_ctrl_seg");
        assertEquals(SendWqeOpcode.LSO, WqeCtrlSeg.opcode$enum(kernel));
        assertEquals(0xbeef, WqeCtrlSeg.wqe_index(kernel));
        assertEquals(0x12345, WqeCtrlSeg.qpn(kernel));
        assertEquals(5, WqeCtrlSeg.ds(kernel));
        assertEquals(FenceMode.INITIATOR_SMALL, WqeCtrlSeg.fm$enum(kernel));
        assertEquals(CompletionMode.CQE_ALWAYS, WqeCtrlSeg.ce$enum(kernel));

        MemorySegment ours = ARENA.allocate(WqeCtrlSeg.SIZE, 64);
        WqeCtrlSeg.opc_mod$set(ours, 0x01);
        WqeCtrlSeg.wqe_index$set(ours, 0xbeef);
        WqeCtrlSeg.opcode$set(ours, SendWqeOpcode.LSO);
        WqeCtrlSeg.qpn$set(ours, 0x12345);
        WqeCtrlSeg.ds$set(ours, 5);
        WqeCtrlSeg.fm$set(ours, FenceMode.INITIATOR_SMALL);
        WqeCtrlSeg.ce$set(ours, CompletionMode.CQE_ALWAYS);
        WqeCtrlSeg.se$set(ours, true);
        WqeCtrlSeg.imm$set(ours, 0xcafef00d);
        assertArrayEquals(bytes(kernel), bytes(ours));
    }

    @Test
    void ethernetSegmentBuiltWithAccessorsEqualsTheKernelsBytes() {
        MemorySegment inline = ARENA.allocate(WqeEthSeg.SIZE, 16);
        WqeEthSeg.cs_flags$set(inline, (1 << 6) | (1 << 7));
        WqeEthSeg.swp_flags$set(inline, 1 << 5);
        WqeEthSeg.mss$set(inline, 1448);
        WqeEthSeg.inline_hdr_sz$set(inline, 18);
        inline.set(ValueLayout.JAVA_BYTE, WqeEthSeg.inline_hdr_start$BYTE_OFFSET, (byte) 0xaa);
        inline.set(ValueLayout.JAVA_BYTE, WqeEthSeg.inline_hdr_start$BYTE_OFFSET + 1, (byte) 0xbb);
        assertArrayEquals(bytes(kernel("eth_seg_inline")), bytes(inline));

        MemorySegment vlan = ARENA.allocate(WqeEthSeg.SIZE, 16);
        WqeEthSeg.insert_vlan$set(vlan, true);
        WqeEthSeg.vlan_tci$set(vlan, 0x2064);
        assertArrayEquals(bytes(kernel("eth_seg_vlan")), bytes(vlan));
        assertTrue(WqeEthSeg.insert_vlan(kernel("eth_seg_vlan")));
        assertFalse(WqeEthSeg.insert_vlan(kernel("eth_seg_inline")));
    }

    @Test
    void nopPaddingWqeRulesHold() {
        MemorySegment nop = ARENA.allocate(WqeNop.SIZE, 16);
        WqeNop.opcode$set(nop, SendWqeOpcode.NOP);
        WqeNop.ds$set(nop, 1);
        WqeNop.qpn$set(nop, 0x42);
        assertTrue(WqeNop.validate(nop).isEmpty(), WqeNop.validate(nop).toString());
        WqeNop.ds$set(nop, 2);
        assertFalse(WqeNop.validate(nop).isEmpty(), "a NOP of two DS must break the one_ds rule");
    }
}

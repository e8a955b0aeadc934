package io.prmkit.mlx5.conformance;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.prmkit.mlx5.CmdStatus;
import io.prmkit.mlx5.CqeErrorSyndrome;
import io.prmkit.mlx5.CqeL3HdrType;
import io.prmkit.mlx5.CqeL4HdrType;
import io.prmkit.mlx5.CqeOpcode;
import io.prmkit.mlx5.CreateCqOut;
import io.prmkit.mlx5.Cqe64;
import io.prmkit.mlx5.CqeHdsIpExt;
import io.prmkit.mlx5.EqeType;
import io.prmkit.mlx5.ErrCqe;
import io.prmkit.mlx5.Eqe;
import io.prmkit.mlx5.QueryHcaCapOut;
import io.prmkit.mlx5.SendWqeOpcode;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Arrays;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/**
 * The device-side setters ({@code Struct.Device}) of the bundled spec, as soft-hca uses them to
 * write CQEs, EQEs and command outputs: the bytes they produce equal the kernel-built ones
 * ({@link KernelSamples}), and the driver's getters read them back.
 */
class DeviceSettersTest {

    private static final Arena ARENA = Arena.ofShared();

    @AfterAll
    static void close() {
        ARENA.close();
    }

    /** A 64-byte entry at offset 64 of a ring full of 0xff, so a writer that skips a byte shows. */
    private static MemorySegment dirtyRing() {
        MemorySegment ring = ARENA.allocate(192, 64);
        ring.fill((byte) 0xff);
        return ring;
    }

    private static byte[] entry(MemorySegment ring) {
        return ring.asSlice(64, 64).toArray(ValueLayout.JAVA_BYTE);
    }

    private static byte[] kernel(String sample) {
        return KernelSamples.images().get(sample);
    }

    @Test
    void errorCqeFromTheDeviceWriterEqualsTheKernelsBytes() {
        MemorySegment ring = dirtyRing();
        ErrCqe.Device.writer(ring, 64).vendor_err_synd(0x93).syndrome(CqeErrorSyndrome.LOCAL_PROT_ERR)
                .s_wqe_opcode(SendWqeOpcode.SEND).qpn(0xabcd).wqe_counter(0x1234).opcode(CqeOpcode.REQ_ERR).owner(true).write();
        assertArrayEquals(kernel("err_cqe"), entry(ring));
        assertEquals(CqeErrorSyndrome.LOCAL_PROT_ERR, ErrCqe.syndrome$enum(ring, 64));
        assertEquals(0x1234, ErrCqe.wqe_counter(ring, 64));
        assertTrue(ErrCqe.validate(ring.asSlice(64, 64)).isEmpty());
        assertEquals(-1, ring.get(ValueLayout.JAVA_INT, 60), "bytes before the entry are untouched");
        assertEquals(-1, ring.get(ValueLayout.JAVA_INT, 128), "bytes after the entry are untouched");
    }

    @Test
    void errorCqeFromTheDeviceSettersEqualsTheKernelsBytes() {
        MemorySegment s = ARENA.allocate(ErrCqe.SIZE, 64);
        ErrCqe.Device.vendor_err_synd$set(s, 0x93);
        ErrCqe.Device.syndrome$set(s, CqeErrorSyndrome.LOCAL_PROT_ERR);
        ErrCqe.Device.s_wqe_opcode$set(s, SendWqeOpcode.SEND);
        ErrCqe.Device.qpn$set(s, 0xabcd);
        ErrCqe.Device.wqe_counter$set(s, 0x1234);
        ErrCqe.Device.opcode$set(s, CqeOpcode.REQ_ERR);
        ErrCqe.Device.owner$set(s, true);
        assertArrayEquals(kernel("err_cqe"), s.toArray(ValueLayout.JAVA_BYTE));
        assertThrows(IllegalArgumentException.class, () -> ErrCqe.Device.qpn$set(s, 0x1000000));
    }

    @Test
    void receiveCqeFromTheDeviceWriterEqualsTheKernelsBytes() {
        MemorySegment ring = dirtyRing();
        Cqe64.Device.writer(ring, 64).rss_hash_ip_type(1).hds_ip_ext(CqeHdsIpExt.L3_OK$MASK | CqeHdsIpExt.L4_OK$MASK)
                .l4_hdr_type(CqeL4HdrType.UDP).l3_hdr_type(CqeL3HdrType.IPV4).vlan_present(true).vlan_info(0x0123)
                .byte_cnt(1514).timestamp(0x1122334455667788L).wqe_counter(0x77).opcode(CqeOpcode.RESP_SEND).owner(true).write();
        assertArrayEquals(kernel("cqe64_rx"), entry(ring));
        assertEquals(1514, Cqe64.byte_cnt(ring, 64));
        assertEquals(CqeOpcode.RESP_SEND, Cqe64.opcode$enum(ring, 64));
    }

    @Test
    void pageRequestEventFromTheDeviceWriterEqualsTheKernelsBytes() {
        MemorySegment ring = dirtyRing();
        Eqe.Device.writer(ring, 64).event_type(EqeType.PAGE_REQUEST).func_id(3).num_pages(-5).owner(true).write();
        assertArrayEquals(kernel("eqe_page_request"), entry(ring));
        assertEquals(-5, Eqe.num_pages(ring, 64));

        MemorySegment s = ARENA.allocate(Eqe.SIZE, 64);
        Eqe.Device.event_type$set(s, EqeType.PAGE_REQUEST);
        Eqe.Device.func_id$set(s, 3);
        Eqe.Device.num_pages$set(s, -5);
        Eqe.Device.owner$set(s, true);
        assertArrayEquals(kernel("eqe_page_request"), s.toArray(ValueLayout.JAVA_BYTE));
    }

    @Test
    void commandOutputsWrittenByTheDeviceReadBack() {
        MemorySegment out = ARENA.allocate(CreateCqOut.SIZE, 8);
        CreateCqOut.Device.status$set(out, CmdStatus.BAD_PARAM_ERR$VALUE);
        CreateCqOut.Device.syndrome$set(out, 0x1a2b3c4d);
        CreateCqOut.Device.cqn$set(out, 0x12345);
        assertArrayEquals(new byte[] {3, 0, 0, 0, 0x1a, 0x2b, 0x3c, 0x4d, 0, 0x01, 0x23, 0x45, 0, 0, 0, 0}, out.toArray(ValueLayout.JAVA_BYTE));
        assertEquals(CmdStatus.BAD_PARAM_ERR, CmdStatus.of(CreateCqOut.status(out)));
        assertEquals(0x12345, CreateCqOut.cqn(out));
        assertThrows(IllegalArgumentException.class, () -> CreateCqOut.Device.cqn$set(out, 1 << 24));

        MemorySegment w = ARENA.allocate(CreateCqOut.SIZE, 8);
        w.fill((byte) 0xee);
        CreateCqOut.Device.writer(w).status(CmdStatus.BAD_PARAM_ERR$VALUE).syndrome(0x1a2b3c4d).cqn(0x12345).write();
        assertArrayEquals(out.toArray(ValueLayout.JAVA_BYTE), w.toArray(ValueLayout.JAVA_BYTE));

        MemorySegment cap = ARENA.allocate(QueryHcaCapOut.SIZE, 8);
        QueryHcaCapOut.Device.status$set(cap, CmdStatus.BAD_OP_ERR$VALUE);
        QueryHcaCapOut.Device.syndrome$set(cap, 0xdeadbeef);
        assertEquals(CmdStatus.BAD_OP_ERR, CmdStatus.of(QueryHcaCapOut.status(cap)));
        assertEquals(0xdeadbeef, QueryHcaCapOut.syndrome(cap));
        assertFalse(Arrays.stream(QueryHcaCapOut.class.getMethods()).anyMatch(m -> m.getName().startsWith("status$set")),
                "the driver-facing class offers no setter for an out field");
    }
}

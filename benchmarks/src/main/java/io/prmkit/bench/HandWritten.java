package io.prmkit.bench;

import static io.prmkit.bench.Datapath.*;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;

/**
 * The best hand-written Java FFM version of the datapath work we could write: offsets and shifts
 * typed in by hand from mlx5dv.h, whole big-endian words composed in registers and stored once, like
 * the C reference. This is what the generated accessors have to match; the driver itself never does
 * this.
 */
final class HandWritten {
    private static final ValueLayout.OfInt BE_INT = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN);
    private static final ValueLayout.OfShort BE_SHORT = ValueLayout.JAVA_SHORT_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN);
    private static final ValueLayout.OfLong BE_LONG = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN);
    private static final ValueLayout.OfShort SHORT = ValueLayout.JAVA_SHORT_UNALIGNED;
    private static final ValueLayout.OfLong LONG = ValueLayout.JAVA_LONG_UNALIGNED;

    private HandWritten() {}

    static void buildRing(MemorySegment ring, MemorySegment headers, int pi0) {
        for (int i = 0; i < RING; i++) {
            int pi = pi0 + i;
            // Fixed-size slices: one bounds check each, none per store.
            MemorySegment wqe = ring.asSlice((long) (pi & (RING - 1)) * WQEBB, WQEBB);
            MemorySegment h = headers.asSlice((long) i * INLINE_HDR, INLINE_HDR);
            // ctrl segment
            wqe.set(BE_INT, 0, ((pi & 0xffff) << 8) | OPCODE_SEND);
            wqe.set(BE_INT, 4, (QPN << 8) | 4);
            wqe.set(BE_INT, 8, CE_CQ_UPDATE << 2);
            wqe.set(BE_INT, 12, 0);
            // eth segment + inline header
            wqe.set(BE_INT, 16, 0);
            wqe.set(BE_INT, 20, CS_L3_L4 << 24);
            wqe.set(BE_INT, 24, 0);
            wqe.set(BE_SHORT, 28, (short) INLINE_HDR);
            wqe.set(SHORT, 30, h.get(SHORT, 0));
            wqe.set(LONG, 32, h.get(LONG, 2));
            wqe.set(LONG, 40, h.get(LONG, 10));
            // data segment
            wqe.set(BE_INT, 48, LEN);
            wqe.set(BE_INT, 52, LKEY);
            wqe.set(BE_LONG, 56, ADDR + (long) i * 2048);
        }
    }

    static long parseRing(MemorySegment ring) {
        long acc = 0;
        for (int i = 0; i < RING; i++) {
            MemorySegment c = ring.asSlice((long) i * 64, 64);
            int opOwn = c.get(ValueLayout.JAVA_BYTE, 0x3f) & 0xff;
            int owner = opOwn & 1;
            int opcode = opOwn >>> 4;
            int bytes = c.get(BE_INT, 0x2c);
            int counter = c.get(BE_SHORT, 0x3c) & 0xffff;
            int ext = c.get(ValueLayout.JAVA_BYTE, 0x1c);
            int csumOk = (ext & 0x6) == 0x6 ? 1 : 0;
            int vlan = (c.get(ValueLayout.JAVA_BYTE, 0x1d) & 1) != 0 ? c.get(BE_SHORT, 0x1e) & 0xfff : 0;
            acc += owner + opcode + (bytes & 0xffffffffL) + counter + csumOk + vlan;
        }
        return acc;
    }
}

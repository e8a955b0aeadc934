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
            long w = (long) (pi & (RING - 1)) * WQEBB;
            long h = (long) i * INLINE_HDR;
            // ctrl segment
            ring.set(BE_INT, w, ((pi & 0xffff) << 8) | OPCODE_SEND);
            ring.set(BE_INT, w + 4, (QPN << 8) | 4);
            ring.set(BE_INT, w + 8, CE_CQ_UPDATE << 2);
            ring.set(BE_INT, w + 12, 0);
            // eth segment + inline header
            ring.set(BE_INT, w + 16, 0);
            ring.set(BE_INT, w + 20, CS_L3_L4 << 24);
            ring.set(BE_INT, w + 24, 0);
            ring.set(BE_SHORT, w + 28, (short) INLINE_HDR);
            ring.set(SHORT, w + 30, headers.get(SHORT, h));
            ring.set(LONG, w + 32, headers.get(LONG, h + 2));
            ring.set(LONG, w + 40, headers.get(LONG, h + 10));
            // data segment
            ring.set(BE_INT, w + 48, LEN);
            ring.set(BE_INT, w + 52, LKEY);
            ring.set(BE_LONG, w + 56, ADDR + (long) i * 2048);
        }
    }

    static long parseRing(MemorySegment ring) {
        long acc = 0;
        for (int i = 0; i < RING; i++) {
            long c = (long) i * 64;
            int opOwn = ring.get(ValueLayout.JAVA_BYTE, c + 0x3f) & 0xff;
            int owner = opOwn & 1;
            int opcode = opOwn >>> 4;
            int bytes = ring.get(BE_INT, c + 0x2c);
            int counter = ring.get(BE_SHORT, c + 0x3c) & 0xffff;
            int ext = ring.get(ValueLayout.JAVA_BYTE, c + 0x1c);
            int csumOk = (ext & 0x6) == 0x6 ? 1 : 0;
            int vlan = (ring.get(ValueLayout.JAVA_BYTE, c + 0x1d) & 1) != 0 ? ring.get(BE_SHORT, c + 0x1e) & 0xfff : 0;
            acc += owner + opcode + (bytes & 0xffffffffL) + counter + csumOk + vlan;
        }
        return acc;
    }
}

package io.prmkit.bench;

import static io.prmkit.bench.Datapath.*;

import io.prmkit.mlx5.CompletionMode;
import io.prmkit.mlx5.Cqe64;
import io.prmkit.mlx5.SendWqeOpcode;
import io.prmkit.mlx5.WqeCtrlSeg;
import io.prmkit.mlx5.WqeDataSeg;
import io.prmkit.mlx5.WqeEthSeg;
import java.lang.foreign.MemorySegment;

/**
 * The datapath work written only with the accessors generated from the bundled mlx5 spec: no
 * offset, shift or mask typed by hand. Segment offsets inside the WQE come from the segments' sizes.
 */
final class Generated {
    private static final long ETH = WqeCtrlSeg.SIZE;
    /** The inline header starts in the Ethernet segment and runs on into the next 16-byte unit. */
    private static final long INLINE_START = ETH + WqeEthSeg.inline_hdr_start$BYTE_OFFSET;
    private static final long DATA = ETH + WqeEthSeg.SIZE + 16;

    private Generated() {}

    static void buildRing(MemorySegment ring, MemorySegment headers, int pi0) {
        for (int i = 0; i < RING; i++) {
            int pi = pi0 + i;
            long w = (long) (pi & (RING - 1)) * WQEBB;
            WqeCtrlSeg.writer(ring, w)
                    .wqe_index(pi & 0xffff)
                    .opcode(SendWqeOpcode.SEND)
                    .qpn(QPN)
                    .ds(4)
                    .ce(CompletionMode.CQE_ALWAYS)
                    .write();
            WqeEthSeg.writer(ring, w + ETH).cs_flags(CS_L3_L4).inline_hdr_sz(INLINE_HDR).write();
            MemorySegment.copy(headers, (long) i * INLINE_HDR, ring, w + INLINE_START, INLINE_HDR);
            WqeDataSeg.writer(ring, w + DATA).byte_count(LEN).lkey(LKEY).addr(ADDR + (long) i * 2048).write();
        }
    }

    static long parseRing(MemorySegment ring) {
        long acc = 0;
        for (int i = 0; i < RING; i++) {
            MemorySegment cqe = ring.asSlice(i * Cqe64.SIZE, Cqe64.SIZE);
            int owner = Cqe64.owner(cqe) ? 1 : 0;
            int opcode = Cqe64.opcode(cqe);
            int bytes = Cqe64.byte_cnt(cqe);
            int counter = Cqe64.wqe_counter(cqe);
            int csumOk = Cqe64.l3_ok(cqe) && Cqe64.l4_ok(cqe) ? 1 : 0;
            int vlan = Cqe64.vlan_present(cqe) ? Cqe64.vlan_info(cqe) & 0xfff : 0;
            acc += owner + opcode + (bytes & 0xffffffffL) + counter + csumOk + vlan;
        }
        return acc;
    }
}

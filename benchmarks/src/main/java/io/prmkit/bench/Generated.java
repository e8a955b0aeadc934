package io.prmkit.bench;

import static io.prmkit.bench.Datapath.*;

import io.prmkit.mlx5.CompletionMode;
import io.prmkit.mlx5.Cqe64;
import io.prmkit.mlx5.CqeHdsIpExt;
import io.prmkit.mlx5.SendWqeOpcode;
import io.prmkit.mlx5.WqeCtrlSeg;
import io.prmkit.mlx5.WqeDataSeg;
import io.prmkit.mlx5.WqeEthSeg;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import org.openjdk.jmh.annotations.CompilerControl;

/**
 * The datapath work written only with the accessors generated from the bundled mlx5 spec: no
 * offset, shift or mask typed by hand. Segment offsets inside the WQE come from the segments' sizes.
 *
 * <p>Every loop here and in {@link HandWritten} is compiled as a method of its own (JMH's
 * {@code DONT_INLINE}, as prm_bench.c's functions are {@code noinline}). Whether C2 inlines such a loop
 * into JMH's measuring loop otherwise depends on its size and on when it was compiled, and where it did
 * inline the WQE loop it went past C2's node limit: the writers became calls that allocate, 32 ns per
 * WQE instead of 2 (a {@code prmkit bench} run after the header copy moved to a slice).
 *
 * <p>The WQE loop (here and in {@link HandWritten}) counts the header's byte offset and steps the
 * producer index and the buffer address beside it, the code gcc makes of prm_bench.c's index loop. An
 * index loop with {@code i * 18} and {@code i * 2048}, or with its own {@code ho += 18}, which C2
 * folds back into {@code i * 18}, recomputes both from the index in every iteration: 39.5
 * instructions per WQE against gcc's 30, 34 with this form; on AMD Zen 5, where the loop seems bound by
 * the instructions it issues, generated/C 1.43 against 1.16 (docs/datapath-bench-log.md, "An AMD EPYC Zen 5 VM").
 */
final class Generated {
    private static final long ETH = WqeCtrlSeg.SIZE;
    /** The inline header starts in the Ethernet segment and runs on into the next 16-byte unit. */
    private static final long INLINE_START = ETH + WqeEthSeg.inline_hdr_start$BYTE_OFFSET;
    private static final long DATA = ETH + WqeEthSeg.SIZE + 16;

    /** Both receive checksum flags (the kernel's CQE_L3_OK | CQE_L4_OK): one mask test, as the hand-written loop and the C do. */
    private static final int CSUM_OK = CqeHdsIpExt.L3_OK$MASK | CqeHdsIpExt.L4_OK$MASK;

    private Generated() {}

    @CompilerControl(CompilerControl.Mode.DONT_INLINE) // see the class comment
    static void buildRing(MemorySegment ring, MemorySegment headers, int pi0) {
        int pi = pi0;
        long addr = ADDR;
        // The header's offset drives the loop; pi and addr step beside it (see the class comment).
        for (int ho = 0; ho < RING * INLINE_HDR; ho += INLINE_HDR, pi++, addr += 2048) {
            // One fixed-size slice per WQE: the writers' own slices and the header copy then need no further bounds checks.
            MemorySegment wqe = ring.asSlice((long) (pi & (RING - 1)) * WQEBB, WQEBB);
            MemorySegment h = headers.asSlice(ho, INLINE_HDR);
            // $VALUE constants, as the hand-written and C loops use constants (and the driver does): an enum's
            // value is an instance field C2 does not fold; the enum overloads cost about 0.07 ns per WQE here.
            WqeCtrlSeg.writer(wqe, 0)
                    .wqe_index(pi & 0xffff)
                    .opcode(SendWqeOpcode.SEND$VALUE)
                    .qpn(QPN)
                    .ds(4)
                    .ce(CompletionMode.CQE_ALWAYS$VALUE)
                    .write();
            WqeEthSeg.writer(wqe, ETH).cs_flags(CS_L3_L4).inline_hdr_sz(INLINE_HDR).write();
            copyHeader(h, wqe);
            WqeDataSeg.writer(wqe, DATA).byte_count(LEN).lkey(LKEY).addr(addr).write();
        }
    }

    /**
     * The 18 header bytes as one 2-byte and two 8-byte moves (byte order kept), from a fixed-size slice
     * as in the hand-written loop: for so short a copy this beat {@code MemorySegment.copy} by about 1 ns
     * per WQE, and the slice (against offsets into the whole header table) left C2 fewer live values: 91
     * instructions per two WQEs instead of 101, no spilled loop bounds.
     */
    private static void copyHeader(MemorySegment h, MemorySegment wqe) {
        wqe.set(ValueLayout.JAVA_SHORT_UNALIGNED, INLINE_START, h.get(ValueLayout.JAVA_SHORT_UNALIGNED, 0));
        wqe.set(ValueLayout.JAVA_LONG_UNALIGNED, INLINE_START + 2, h.get(ValueLayout.JAVA_LONG_UNALIGNED, 2));
        wqe.set(ValueLayout.JAVA_LONG_UNALIGNED, INLINE_START + 10, h.get(ValueLayout.JAVA_LONG_UNALIGNED, 10));
    }

    /**
     * Small fields are summed as {@code int} and widened once at the end (the checksum is the same as C's
     * 64-bit sum: at most 69,647 per CQE, so 1,024 CQEs cannot overflow an int); only the unsigned byte
     * count goes into the {@code long}. The VLAN term is a select between two values, not a branch around
     * a load, so C2 needs no jump on the (random) VLAN bit. Both cut the loop from 2.10 to 1.50 ns per CQE
     * (one JMH run, 2 forks, load 3 to 5; the hand-written loop does the same).
     */
    @CompilerControl(CompilerControl.Mode.DONT_INLINE)
    static long parseRing(MemorySegment ring) {
        long bytes = 0;
        int small = 0;
        for (int i = 0; i < RING; i++) {
            MemorySegment cqe = ring.asSlice(i * Cqe64.SIZE, Cqe64.SIZE);
            int owner = Cqe64.owner(cqe) ? 1 : 0;
            int opcode = Cqe64.opcode(cqe);
            int counter = Cqe64.wqe_counter(cqe);
            int csumOk = (Cqe64.hds_ip_ext(cqe) & CSUM_OK) == CSUM_OK ? 1 : 0; // both flags with one mask, as the kernel's CQE_L3_OK | CQE_L4_OK
            // The 12-bit VID, or 0: the mask is selected, no branch, the same expression as HandWritten.parseRing.
            // (vlan_info & 0xfff & (present ? -1 : 0), the form before, gave generated/hand-written 1.06 against
            // this form's 1.00: medians of 6 alternating single-fork JMH runs, 1 December 2026.)
            int vlan = Cqe64.vlan_info(cqe) & (Cqe64.vlan_present(cqe) ? 0xfff : 0);
            small += owner + opcode + counter + csumOk + vlan;
            bytes += Integer.toUnsignedLong(Cqe64.byte_cnt(cqe));
        }
        return bytes + small;
    }
}

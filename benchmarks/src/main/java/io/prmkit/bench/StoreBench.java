package io.prmkit.bench;

import static io.prmkit.bench.Datapath.*;
import static io.prmkit.mlx5.PrmField.*;

import io.prmkit.mlx5.CompletionMode;
import io.prmkit.mlx5.SendWqeOpcode;
import io.prmkit.mlx5.WqeCtrlSeg;
import io.prmkit.mlx5.WqeDataSeg;
import io.prmkit.mlx5.WqeEthSeg;
import java.lang.foreign.Arena;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.CompilerControl;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * The WQE of wqe-build written on the ring the way a driver does (offsets into the ring, no slice per
 * WQE), in the three generated forms a datapath can use: long-lived writers re-pointed with {@code at}
 * (their words are heap fields), and the static {@code store} and {@code storeUnchecked} (the words are
 * arguments: registers; each value after its field's {@code PrmField} name). {@code positional} and
 * {@code positionalUnchecked} are the stores as generated before the names (values only, in layout
 * order), copied into {@link Positional}, to compare the two in one run. Not a {@code prmkit bench}
 * case; run it with JMH to compare the forms, e.g.
 * {@code java -cp ... org.openjdk.jmh.Main StoreBench -f 2 -wi 3 -i 5}. Scores are per WQE.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@OperationsPerInvocation(Datapath.RING)
public class StoreBench {
    private static final long ETH = WqeCtrlSeg.SIZE;
    private static final long INLINE_START = ETH + WqeEthSeg.inline_hdr_start$BYTE_OFFSET;
    private static final long DATA = ETH + WqeEthSeg.SIZE + 16;
    private static final ValueLayout.OfLong BE_LONG = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN);

    private Arena arena;
    private MemorySegment ring;
    private MemorySegment headers;
    private int pi;
    private final WqeCtrlSeg.Writer ctrl = WqeCtrlSeg.writer();
    private final WqeEthSeg.Writer eth = WqeEthSeg.writer();
    private final WqeDataSeg.Writer data = WqeDataSeg.writer();

    @Setup(Level.Trial)
    public void setup() {
        arena = Datapath.arena();
        ring = Datapath.ring(arena);
        headers = Datapath.headers(arena);
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        arena.close();
    }

    @Benchmark
    public MemorySegment writers() {
        writersLoop(ring, headers, pi, ctrl, eth, data);
        pi += RING;
        return ring;
    }

    @Benchmark
    public MemorySegment store() {
        storeLoop(ring, headers, pi);
        pi += RING;
        return ring;
    }

    @Benchmark
    public MemorySegment storeUnchecked() {
        storeUncheckedLoop(ring, headers, pi);
        pi += RING;
        return ring;
    }

    @Benchmark
    public MemorySegment positional() {
        positionalLoop(ring, headers, pi);
        pi += RING;
        return ring;
    }

    @Benchmark
    public MemorySegment positionalUnchecked() {
        positionalUncheckedLoop(ring, headers, pi);
        pi += RING;
        return ring;
    }

    @CompilerControl(CompilerControl.Mode.DONT_INLINE)
    static void writersLoop(MemorySegment ring, MemorySegment headers, int pi0, WqeCtrlSeg.Writer ctrl, WqeEthSeg.Writer eth, WqeDataSeg.Writer data) {
        for (int i = 0; i < RING; i++) {
            int pi = pi0 + i;
            long wqe = (long) (pi & (RING - 1)) * WQEBB;
            ctrl.at(ring, wqe).wqe_index(pi & 0xffff).opcode(SendWqeOpcode.SEND$VALUE).qpn(QPN).ds(4).ce(CompletionMode.CQE_ALWAYS$VALUE).write();
            eth.at(ring, wqe + ETH).cs_flags(CS_L3_L4).inline_hdr_sz(INLINE_HDR).write();
            copyHeader(headers, (long) i * INLINE_HDR, ring, wqe);
            data.at(ring, wqe + DATA).byte_count(LEN).lkey(LKEY).addr(ADDR + (long) i * 2048).write();
        }
    }

    @CompilerControl(CompilerControl.Mode.DONT_INLINE)
    static void storeLoop(MemorySegment ring, MemorySegment headers, int pi0) {
        for (int i = 0; i < RING; i++) {
            int pi = pi0 + i;
            long wqe = (long) (pi & (RING - 1)) * WQEBB;
            WqeCtrlSeg.store(ring, wqe, opc_mod, 0, wqe_index, pi & 0xffff, opcode, SendWqeOpcode.SEND$VALUE, qpn, QPN, ds, 4,
                    signature, 0, dci_stream_channel_id, 0, fm, 0, ce, CompletionMode.CQE_ALWAYS$VALUE, se, false, imm, 0);
            WqeEthSeg.store$inline_hdr(ring, wqe + ETH, swp_outer_l4_offset, 0, swp_outer_l3_offset, 0, swp_inner_l4_offset, 0,
                    swp_inner_l3_offset, 0, cs_flags, CS_L3_L4, swp_flags, 0, mss, 0, flow_table_metadata, 0, insert_trailer, false,
                    trailer_hdr_assoc, 0, inline_hdr_sz, INLINE_HDR);
            copyHeader(headers, (long) i * INLINE_HDR, ring, wqe);
            WqeDataSeg.store(ring, wqe + DATA, byte_count, LEN, lkey, LKEY, addr, ADDR + (long) i * 2048);
        }
    }

    @CompilerControl(CompilerControl.Mode.DONT_INLINE)
    static void storeUncheckedLoop(MemorySegment ring, MemorySegment headers, int pi0) {
        for (int i = 0; i < RING; i++) {
            int pi = pi0 + i;
            long wqe = (long) (pi & (RING - 1)) * WQEBB;
            WqeCtrlSeg.storeUnchecked(ring, wqe, opc_mod, 0, wqe_index, pi, opcode, SendWqeOpcode.SEND$VALUE, qpn, QPN, ds, 4,
                    signature, 0, dci_stream_channel_id, 0, fm, 0, ce, CompletionMode.CQE_ALWAYS$VALUE, se, false, imm, 0);
            WqeEthSeg.storeUnchecked$inline_hdr(ring, wqe + ETH, swp_outer_l4_offset, 0, swp_outer_l3_offset, 0, swp_inner_l4_offset, 0,
                    swp_inner_l3_offset, 0, cs_flags, CS_L3_L4, swp_flags, 0, mss, 0, flow_table_metadata, 0, insert_trailer, false,
                    trailer_hdr_assoc, 0, inline_hdr_sz, INLINE_HDR);
            copyHeader(headers, (long) i * INLINE_HDR, ring, wqe);
            WqeDataSeg.storeUnchecked(ring, wqe + DATA, byte_count, LEN, lkey, LKEY, addr, ADDR + (long) i * 2048);
        }
    }

    @CompilerControl(CompilerControl.Mode.DONT_INLINE)
    static void positionalLoop(MemorySegment ring, MemorySegment headers, int pi0) {
        for (int i = 0; i < RING; i++) {
            int pi = pi0 + i;
            long wqe = (long) (pi & (RING - 1)) * WQEBB;
            Positional.ctrl(ring, wqe, 0, pi & 0xffff, SendWqeOpcode.SEND$VALUE, QPN, 4, 0, 0, 0, CompletionMode.CQE_ALWAYS$VALUE, false, 0);
            Positional.ethInlineHdr(ring, wqe + ETH, 0, 0, 0, 0, CS_L3_L4, 0, 0, 0, false, 0, INLINE_HDR);
            copyHeader(headers, (long) i * INLINE_HDR, ring, wqe);
            Positional.data(ring, wqe + DATA, LEN, LKEY, ADDR + (long) i * 2048);
        }
    }

    @CompilerControl(CompilerControl.Mode.DONT_INLINE)
    static void positionalUncheckedLoop(MemorySegment ring, MemorySegment headers, int pi0) {
        for (int i = 0; i < RING; i++) {
            int pi = pi0 + i;
            long wqe = (long) (pi & (RING - 1)) * WQEBB;
            Positional.ctrlUnchecked(ring, wqe, 0, pi, SendWqeOpcode.SEND$VALUE, QPN, 4, 0, 0, 0, CompletionMode.CQE_ALWAYS$VALUE, false, 0);
            Positional.ethInlineHdrUnchecked(ring, wqe + ETH, 0, 0, 0, 0, CS_L3_L4, 0, 0, 0, false, 0, INLINE_HDR);
            copyHeader(headers, (long) i * INLINE_HDR, ring, wqe);
            Positional.data(ring, wqe + DATA, LEN, LKEY, ADDR + (long) i * 2048);
        }
    }

    /**
     * {@code WqeCtrlSeg.store}, {@code WqeEthSeg.store$inline_hdr} and {@code WqeDataSeg.store} (and their
     * unchecked forms) as the generator wrote them before each value took its field's name (up to
     * d9ef3d0): the same bodies and the same var handles, over the same two big-endian 64-bit words.
     */
    static final class Positional {
        private static final StructLayout WORDS = MemoryLayout.structLayout(BE_LONG.withName("q0"), BE_LONG.withName("q2"));
        private static final VarHandle Q0 = WORDS.varHandle(MemoryLayout.PathElement.groupElement("q0"));
        private static final VarHandle Q2 = WORDS.varHandle(MemoryLayout.PathElement.groupElement("q2"));

        private Positional() {}

        static void ctrl(MemorySegment s, long offset, int opc_mod, int wqe_index, int opcode, int qpn, int ds, int signature,
                int dci_stream_channel_id, int fm, int ce, boolean se, int imm) {
            if ((opc_mod >>> 8) != 0) throw new IllegalArgumentException("opc_mod");
            if ((wqe_index >>> 16) != 0) throw new IllegalArgumentException("wqe_index");
            if ((opcode >>> 8) != 0) throw new IllegalArgumentException("opcode");
            if ((qpn >>> 24) != 0) throw new IllegalArgumentException("qpn");
            if ((ds >>> 6) != 0) throw new IllegalArgumentException("ds");
            if ((signature >>> 8) != 0) throw new IllegalArgumentException("signature");
            if ((dci_stream_channel_id >>> 16) != 0) throw new IllegalArgumentException("dci_stream_channel_id");
            if ((fm >>> 3) != 0) throw new IllegalArgumentException("fm");
            if ((ce >>> 2) != 0) throw new IllegalArgumentException("ce");
            Q0.set(s, offset, ((long) opc_mod << 56) | ((long) wqe_index << 40) | ((long) opcode << 32) | ((long) qpn << 8) | ((long) ds));
            Q2.set(s, offset, ((long) signature << 56) | ((long) dci_stream_channel_id << 40) | ((long) fm << 37) | ((long) ce << 34)
                    | (se ? 0x200000000L : 0L) | (imm & 0xffffffffL));
        }

        static void ctrlUnchecked(MemorySegment s, long offset, int opc_mod, int wqe_index, int opcode, int qpn, int ds, int signature,
                int dci_stream_channel_id, int fm, int ce, boolean se, int imm) {
            Q0.set(s, offset, ((opc_mod & 0xffL) << 56) | ((wqe_index & 0xffffL) << 40) | ((opcode & 0xffL) << 32) | ((qpn & 0xffffffL) << 8)
                    | ((ds & 0x3fL)));
            Q2.set(s, offset, ((signature & 0xffL) << 56) | ((dci_stream_channel_id & 0xffffL) << 40) | ((fm & 0x7L) << 37) | ((ce & 0x3L) << 34)
                    | (se ? 0x200000000L : 0L) | (imm & 0xffffffffL));
        }

        static void ethInlineHdr(MemorySegment s, long offset, int swp_outer_l4_offset, int swp_outer_l3_offset, int swp_inner_l4_offset,
                int swp_inner_l3_offset, int cs_flags, int swp_flags, int mss, int flow_table_metadata, boolean insert_trailer,
                int trailer_hdr_assoc, int inline_hdr_sz) {
            if ((swp_outer_l4_offset >>> 8) != 0) throw new IllegalArgumentException("swp_outer_l4_offset");
            if ((swp_outer_l3_offset >>> 8) != 0) throw new IllegalArgumentException("swp_outer_l3_offset");
            if ((swp_inner_l4_offset >>> 8) != 0) throw new IllegalArgumentException("swp_inner_l4_offset");
            if ((swp_inner_l3_offset >>> 8) != 0) throw new IllegalArgumentException("swp_inner_l3_offset");
            if ((cs_flags >>> 8) != 0) throw new IllegalArgumentException("cs_flags");
            if ((swp_flags >>> 8) != 0) throw new IllegalArgumentException("swp_flags");
            if ((mss >>> 16) != 0) throw new IllegalArgumentException("mss");
            if ((trailer_hdr_assoc >>> 3) != 0) throw new IllegalArgumentException("trailer_hdr_assoc");
            if ((inline_hdr_sz >>> 10) != 0) throw new IllegalArgumentException("inline_hdr_sz");
            Q0.set(s, offset, ((long) swp_outer_l4_offset << 56) | ((long) swp_outer_l3_offset << 48) | ((long) swp_inner_l4_offset << 40)
                    | ((long) swp_inner_l3_offset << 32) | ((long) cs_flags << 24) | ((long) swp_flags << 16) | ((long) mss));
            Q2.set(s, offset, ((long) flow_table_metadata << 32) | (insert_trailer ? 0x40000000L : 0L) | ((long) trailer_hdr_assoc << 26)
                    | ((long) inline_hdr_sz << 16));
        }

        static void ethInlineHdrUnchecked(MemorySegment s, long offset, int swp_outer_l4_offset, int swp_outer_l3_offset,
                int swp_inner_l4_offset, int swp_inner_l3_offset, int cs_flags, int swp_flags, int mss, int flow_table_metadata,
                boolean insert_trailer, int trailer_hdr_assoc, int inline_hdr_sz) {
            Q0.set(s, offset, ((swp_outer_l4_offset & 0xffL) << 56) | ((swp_outer_l3_offset & 0xffL) << 48) | ((swp_inner_l4_offset & 0xffL) << 40)
                    | ((swp_inner_l3_offset & 0xffL) << 32) | ((cs_flags & 0xffL) << 24) | ((swp_flags & 0xffL) << 16) | ((mss & 0xffffL)));
            Q2.set(s, offset, ((long) flow_table_metadata << 32) | (insert_trailer ? 0x40000000L : 0L) | ((trailer_hdr_assoc & 0x7L) << 26)
                    | ((inline_hdr_sz & 0x3ffL) << 16));
        }

        /** The data segment's checked and unchecked stores were the same (no field narrower than its word). */
        static void data(MemorySegment s, long offset, int byte_count, int lkey, long addr) {
            Q0.set(s, offset, ((long) byte_count << 32) | (lkey & 0xffffffffL));
            Q2.set(s, offset, addr);
        }
    }

    /** The 18 header bytes as one 2-byte and two 8-byte moves, as in {@link Generated}. */
    private static void copyHeader(MemorySegment headers, long h, MemorySegment ring, long wqe) {
        ring.set(ValueLayout.JAVA_SHORT_UNALIGNED, wqe + INLINE_START, headers.get(ValueLayout.JAVA_SHORT_UNALIGNED, h));
        ring.set(ValueLayout.JAVA_LONG_UNALIGNED, wqe + INLINE_START + 2, headers.get(ValueLayout.JAVA_LONG_UNALIGNED, h + 2));
        ring.set(ValueLayout.JAVA_LONG_UNALIGNED, wqe + INLINE_START + 10, headers.get(ValueLayout.JAVA_LONG_UNALIGNED, h + 10));
    }
}

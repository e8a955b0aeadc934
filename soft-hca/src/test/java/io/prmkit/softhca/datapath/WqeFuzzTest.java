package io.prmkit.softhca.datapath;

import static org.junit.jupiter.api.Assertions.*;

import io.prmkit.mlx5.CompletionMode;
import io.prmkit.mlx5.Cqe64;
import io.prmkit.mlx5.CqeOpcode;
import io.prmkit.mlx5.ErrCqe;
import io.prmkit.mlx5.EthCsFlags;
import io.prmkit.mlx5.InlineMode;
import io.prmkit.mlx5.Mkc;
import io.prmkit.mlx5.MkcAccessMode;
import io.prmkit.mlx5.SendWqeOpcode;
import io.prmkit.mlx5.SqState;
import io.prmkit.mlx5.UmrCtrlFlags;
import io.prmkit.mlx5.UmrMkeyMask;
import io.prmkit.mlx5.WqeCtrlSeg;
import io.prmkit.mlx5.WqeDataSeg;
import io.prmkit.mlx5.WqeEthSeg;
import io.prmkit.mlx5.WqeInlineSeg;
import io.prmkit.mlx5.WqeUmrCtrlSeg;
import io.prmkit.mlx5.WqeUmrKlmSeg;
import io.prmkit.softhca.device.Resources;
import io.prmkit.softhca.wire.Ethernet;
import io.prmkit.softhca.wire.TestFrames;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * Fuzz property of the send path: random and mutated WQEs (valid SEND, inline-only SEND, LSO, NOP and
 * UMR templates with bits flipped, dwords replaced, keys and lengths randomised, or blocks of noise)
 * are posted one per doorbell, with {@code ce} forced to "always". Each doorbell must produce exactly
 * one CQE for that WQE, a REQ with its counter or a REQ_ERR with its counter (the SQ then in ERR and
 * reset as a driver would), the device must never throw, and every device access stays inside
 * mapped memory (the IOMMU answers the rest as faults). Fixed seed; {@code -Dprmkit.seed=N} and
 * {@code -Dprmkit.tries=N} replay or explore (the failure message names the seed and the try).
 *
 * <p>A full run also asserts that the mix is what it claims ({@link #coverageProblems}): every WQE
 * kind both completed and failed, frames came back, LSO sends came back as several segments, the
 * receive CQ wrote compressed sessions, and the IOMMU refused some DMA. A shortened run (a replay of
 * one try) checks its cases only: the coverage check cannot pass on one try, as
 * {@link #oneTryCannotPassTheCoverageCheck} shows.
 *
 * <p>A unit test of the send engine's robustness, on the white-box {@link Harness} (the datapath alone,
 * objects put in place without commands): 100,000 WQEs in seconds. What the datapath does with good
 * WQEs is tested through BAR 0, DMA and the wire in {@code io.prmkit.softhca} (DatapathTest and beside it).
 */
class WqeFuzzTest {
    static final int LOG_SQ = 6;
    static final int FULL_RUN = 100_000;
    static final int KINDS = 7;
    static final String[] KIND_NAMES = {"SEND", "inline SEND", "LSO", "NOP", "UMR", "noise behind a control segment", "noise"};

    /** What a run did: per WQE kind, completions and error CQEs; what came back; sessions; DMA faults. */
    record Stats(long seed, int tries, long[] completed, long[] failed, long rxFrames, long rxErrors, long multiSegmentLso,
                 long sessions, long faults) {
        long completions() {
            return java.util.Arrays.stream(completed).sum();
        }

        long errors() {
            return java.util.Arrays.stream(failed).sum();
        }
    }

    @Test
    void randomAndMutatedWqesAlwaysCompleteOrFailCleanly() {
        String s = System.getProperty("prmkit.seed", "20261130");
        long seed = s.equals("random") ? System.nanoTime() : Long.parseLong(s);
        int tries = Integer.getInteger("prmkit.tries", FULL_RUN);
        Stats st = fuzz(seed, tries, null);
        System.out.printf("WQE fuzz: seed %d, %d WQEs, %d completions, %d error CQEs, %d frames received (%d receive errors),"
                        + " %d LSO sends in several segments, %d DMA faults refused, %d compressed receive sessions%n",
                seed, tries, st.completions(), st.errors(), st.rxFrames(), st.rxErrors(), st.multiSegmentLso(), st.faults(), st.sessions());
        if (tries >= FULL_RUN) {
            List<String> missing = coverageProblems(st);
            assertTrue(missing.isEmpty(), "seed " + seed + ": the mix did not cover " + missing);
        } else {
            System.out.println("WQE fuzz: coverage not asserted on a shortened run of " + tries + " tries (a replay checks its cases, not the mix)");
        }
    }

    @Test
    void oneTryCannotPassTheCoverageCheck() {
        List<String> missing = coverageProblems(fuzz(20261130, 1, null));
        assertFalse(missing.isEmpty(), "one WQE covered the whole mix");
        assertTrue(missing.contains("compressed receive sessions"), missing.toString());
    }

    /** What the mix of a run failed to cover; empty when it covered everything it claims. */
    static List<String> coverageProblems(Stats st) {
        List<String> missing = new java.util.ArrayList<>();
        for (int k = 0; k < KINDS; k++) {
            // the noise kinds rarely make a valid WQE: only their failures are owed
            if (k < 5 && st.completed()[k] == 0) missing.add(KIND_NAMES[k] + " completed");
            if (st.failed()[k] == 0) missing.add(KIND_NAMES[k] + " failed");
        }
        if (st.completions() <= st.tries() / 20) missing.add("enough good WQEs (" + st.completions() + ")");
        if (st.errors() <= st.tries() / 20) missing.add("enough bad WQEs (" + st.errors() + ")");
        if (st.rxFrames() == 0) missing.add("frames received");
        if (st.multiSegmentLso() == 0) missing.add("LSO sends received as several segments");
        if (st.sessions() == 0) missing.add("compressed receive sessions");
        if (st.faults() == 0) missing.add("DMA faults");
        return missing;
    }

    /**
     * The same fuzz with the device's trace on: every error CQE is traced with the failed WQE's
     * control segment decoded from whatever bytes it holds, one trace line per error CQE, and
     * tracing changes no completion (the same numbers as without it).
     */
    @Test
    void randomAndMutatedWqesWithTracingOn() {
        String s = System.getProperty("prmkit.seed", "20261130");
        long seed = s.equals("random") ? System.nanoTime() : Long.parseLong(s);
        int tries = Integer.getInteger("prmkit.tries", FULL_RUN);
        long[] traced = new long[2]; // error lines, characters
        Stats st = fuzz(seed, tries, line -> {
            if (line.contains(") error CQE ")) {
                traced[0]++;
                assertTrue(line.contains("wqe_ctrl_seg ("), line);
            }
            traced[1] += line.length();
        });
        assertEquals(st.errors(), traced[0], "one trace line per error CQE");
        System.out.printf("WQE fuzz (tracing on): seed %d, %d WQEs, %d completions, %d error CQEs, %d KiB of trace%n", seed, tries,
                st.completions(), st.errors(), traced[1] / 1024);
    }

    /** One run of the fuzz; {@code trace} is the device's trace sink (null: off). */
    static Stats fuzz(long seed, int tries, java.util.function.Consumer<String> trace) {
        Harness h = new Harness();
        if (trace != null) h.dp.trace(trace);
        Harness.Cq txCq = h.new Cq(10, 4, 1);
        Harness.Cq rxCq = h.new Cq(11, 12, 1);
        // CQE compression in the mix: on both CQs (the device writes send completions plain anyway); the
        // receive CQ is read by the kernel's algorithm (CqeDecoder), each completion in WQE order
        for (Harness.Cq c : new Harness.Cq[] {txCq, rxCq}) {
            io.prmkit.mlx5.Cqc.cqe_comp_en$set(c.cq.cqc, true);
            io.prmkit.mlx5.Cqc.mini_cqe_res_format$set(c.cq.cqc, io.prmkit.mlx5.MiniCqeResFormat.CSUM);
        }
        io.prmkit.softhca.CqeDecoder rxDecoder = new io.prmkit.softhca.CqeDecoder(rxCq.ring.seg(), 12, rxCq.dbr.seg(),
                io.prmkit.mlx5.MiniCqeResFormat.CSUM$VALUE);
        int rxCounter = 0;
        Harness.Sq sq = h.new Sq(20, LOG_SQ, 10, InlineMode.L2$VALUE);
        int lkey = h.paKey(1, true, true);
        Harness.Rq rq = h.new Rq(30, 10, 11, 2048, 2, true);
        h.objects.add(new Resources.QCounter(2));
        h.directTir(40, 30);
        h.catchAll(50, 40);
        rq.post(1024, lkey);
        MemorySegment kmkc = MemorySegment.ofArray(new byte[(int) Mkc.SIZE]);
        Mkc.access_mode_1_0$set(kmkc, MkcAccessMode.KLMS$VALUE);
        Mkc.umr_en$set(kmkc, true);
        Mkc.pd$set(kmkc, Harness.PD);
        h.objects.add(new Resources.Mkey(9 << 8, kmkc, null));
        Harness.Mem host = h.dma(16 * 1024);
        byte[] frame = TestFrames.ipv4(Ethernet.PROTO_TCP, 1, 2, TestFrames.payload(600, 1));
        MemorySegment.copy(frame, 0, host.seg(), ValueLayout.JAVA_BYTE, 0, frame.length);
        SplittableRandom r = new SplittableRandom(seed);
        MemorySegment w = MemorySegment.ofArray(new byte[16 * 64]);
        long[] completed = new long[KINDS];
        long[] failed = new long[KINDS];
        long rxFrames = 0, rxErrors = 0, multiSegmentLso = 0;
        for (int i = 0; i < tries; i++) {
            String where = "seed " + seed + ", try " + i;
            w.fill((byte) 0);
            int pc = sq.pc & 0xffff;
            int kind = r.nextInt(7);
            build(kind, w, pc, lkey, host.bus(), frame, r);
            boolean asBuilt = mutate(w, r);
            // ce forced to "always", so every WQE owes exactly one CQE
            WqeCtrlSeg.ce$set(w, 0, CompletionMode.CQE_ALWAYS);
            int ds = WqeCtrlSeg.ds(w, 0);
            int nbb = Math.min(16, Math.max(1, (ds + 3) / 4));
            sq.put(w, nbb);
            sq.ring();
            try {
                h.poll();
            } catch (Throwable t) {
                fail(where + ": the device threw " + t, t);
            }
            MemorySegment c = txCq.poll();
            assertNotNull(c, where + ": no CQE for WQE " + pc);
            assertNull(txCq.poll(), where + ": more than one CQE for one WQE");
            int op = Cqe64.opcode(c);
            if (op == CqeOpcode.REQ.value) {
                completed[kind]++;
                assertEquals(pc, Cqe64.wqe_counter(c), where);
                assertEquals(sq.pc & 0xffff, sq.sq.consumerCounter() & 0xffff, where + ": the device consumed the WQE's blocks");
            } else {
                assertEquals(CqeOpcode.REQ_ERR.value, op, where + ": a CQE is a completion or an error");
                failed[kind]++;
                assertEquals(pc, ErrCqe.wqe_counter(c), where);
                assertEquals(SqState.ERR.value, sq.sq.state(), where);
                // ERR -> RST -> RDY, as the driver's recovery does
                sq.sq.setState(SqState.RST$VALUE);
                sq.sq.setState(SqState.RDY$VALUE);
                sq.pc = 0;
            }
            // receive side: every RX CQE is a packet or a receive error; keep the RQ stocked
            int received = 0;
            for (io.prmkit.softhca.CqeDecoder.Completion rc : rxDecoder.drain()) {
                int rop = rc.opcode();
                if (rop == CqeOpcode.RESP_SEND.value) received++;
                else rxErrors++;
                assertTrue(rop == CqeOpcode.RESP_SEND.value || rop == CqeOpcode.RESP_ERR.value, where + ": RX opcode " + rop);
                if (rop == CqeOpcode.RESP_SEND.value) assertTrue(rc.byteCnt() <= 2048, where);
                assertEquals(rxCounter++ & 0xffff, rc.wqeCounter(), where + ": receive WQEs complete in order");
                rq.post(1, lkey);
            }
            rxFrames += received;
            if (kind == 2 && asBuilt && received > 1) multiSegmentLso++;
        }
        long sessions = rxDecoder.blocks.stream().filter(b -> b.length() > 1).count();
        return new Stats(seed, tries, completed, failed, rxFrames, rxErrors, multiSegmentLso, sessions, h.iommu.faults());
    }

    /** The frame's first {@code n} bytes as the inline headers of the Ethernet segment at byte 16. */
    private static void inlineHeaders(MemorySegment w, byte[] frame, int n) {
        MemorySegment.copy(frame, 0, w, ValueLayout.JAVA_BYTE, WqeCtrlSeg.SIZE + WqeEthSeg.inline_hdr_start$BYTE_OFFSET, n);
    }

    private static void build(int kind, MemorySegment w, int pc, int lkey, long bus, byte[] frame, SplittableRandom r) {
        int len = frame.length;
        int l = 14 + r.nextInt(len - 13);
        switch (kind) {
            case 0 -> { // SEND: 18 inline bytes + one data segment
                WqeCtrlSeg.writer(w, 0).opcode(SendWqeOpcode.SEND).wqe_index(pc).qpn(20).ds(4).write();
                WqeEthSeg.writer(w, 16).inline_hdr_sz(18).cs_flags(EthCsFlags.L3_CSUM$MASK | EthCsFlags.L4_CSUM$MASK).write();
                WqeDataSeg.writer(w, 48).byte_count(Math.max(0, l - 18)).lkey(lkey).addr(bus + 18).write();
                inlineHeaders(w, frame, 18);
            }
            case 1 -> { // SEND of inline data only
                int n = 14 + r.nextInt(100);
                int units = (4 + n + 15) / 16;
                WqeCtrlSeg.writer(w, 0).opcode(SendWqeOpcode.SEND).wqe_index(pc).qpn(20).ds(2 + units).write();
                WqeEthSeg.writer(w, 16).write();
                WqeInlineSeg.writer(w, 32).inline_flag(true).byte_count(n).write();
                for (int i = 0; i < n; i++) w.set(ValueLayout.JAVA_BYTE, 36 + i, (byte) r.nextInt());
            }
            case 2 -> { // LSO over the TCP frame, headers inline
                int hdr = 54;
                WqeCtrlSeg.writer(w, 0).opcode(SendWqeOpcode.LSO).wqe_index(pc).qpn(20).ds(2 + 4 + 1).write();
                WqeEthSeg.writer(w, 16).inline_hdr_sz(hdr).mss(100 + r.nextInt(1400)).cs_flags(EthCsFlags.L4_CSUM$MASK).write();
                WqeDataSeg.writer(w, 96).byte_count(len - hdr).lkey(lkey).addr(bus + hdr).write();
                inlineHeaders(w, frame, hdr);
            }
            case 3 -> WqeCtrlSeg.writer(w, 0).opcode(SendWqeOpcode.NOP).wqe_index(pc).qpn(20).ds(1).write();
            case 4 -> { // UMR with two inline KLMs
                WqeCtrlSeg.writer(w, 0).opcode(SendWqeOpcode.UMR).wqe_index(pc).qpn(20).ds(10).imm(9 << 8).write();
                WqeUmrCtrlSeg.writer(w, 16).umr_flags(UmrCtrlFlags.INLINE$MASK).klm_octowords(2)
                        .mkey_mask(UmrMkeyMask.LEN$MASK | UmrMkeyMask.START_ADDR$MASK | UmrMkeyMask.LR$MASK).write();
                Mkc.writer(w, 64).lr(true).len(200).start_addr(0x1000).write();
                WqeUmrKlmSeg.writer(w, 128).byte_count(100).mkey(lkey).address(bus).write();
                WqeUmrKlmSeg.writer(w, 144).byte_count(100).mkey(lkey).address(bus + 1000).write();
            }
            case 5 -> { // noise behind a plausible control segment
                for (int i = 16; i < 256; i += 4) w.set(ValueLayout.JAVA_INT_UNALIGNED, i, r.nextInt());
                WqeCtrlSeg.writer(w, 0).opcode(r.nextInt(256)).wqe_index(pc).qpn(20).ds(r.nextInt(64)).write();
            }
            default -> { // pure noise
                for (int i = 0; i < 256; i += 4) w.set(ValueLayout.JAVA_INT_UNALIGNED, i, r.nextInt());
            }
        }
    }

    /** Mutates the WQE, or not; true when it is left as built. */
    private static boolean mutate(MemorySegment w, SplittableRandom r) {
        switch (r.nextInt(5)) {
            case 0 -> {
                return true;
            }
            case 1 -> { // flip a few bits in the first 128 bytes
                for (int k = 1 + r.nextInt(4); k > 0; k--) {
                    int b = r.nextInt(128);
                    w.set(ValueLayout.JAVA_BYTE, b, (byte) (w.get(ValueLayout.JAVA_BYTE, b) ^ (1 << r.nextInt(8))));
                }
            }
            case 2 -> w.set(ValueLayout.JAVA_INT_UNALIGNED, 4L * r.nextInt(32), r.nextInt()); // one dword replaced
            case 3 -> w.set(ValueLayout.JAVA_INT_UNALIGNED, 4L * (12 + r.nextInt(4)), r.nextInt()); // a data segment's key or length
            default -> w.set(ValueLayout.JAVA_LONG_UNALIGNED, 8L * (5 + r.nextInt(4)), r.nextLong()); // an address
        }
        return false;
    }
}

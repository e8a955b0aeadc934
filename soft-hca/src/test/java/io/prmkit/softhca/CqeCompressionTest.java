package io.prmkit.softhca;

import static org.junit.jupiter.api.Assertions.*;

import io.prmkit.mlx5.CqErrorSyndrome;
import io.prmkit.mlx5.CmdHcaCap;
import io.prmkit.mlx5.CreateTirIn;
import io.prmkit.mlx5.Cqe64;
import io.prmkit.mlx5.CqeFormat;
import io.prmkit.mlx5.CqeOpcode;
import io.prmkit.mlx5.Eqe;
import io.prmkit.mlx5.EqeType;
import io.prmkit.mlx5.InlineMode;
import io.prmkit.mlx5.MiniCqeResFormat;
import io.prmkit.mlx5.QueryHcaCapOpMod;
import io.prmkit.mlx5.RxHashFieldSelect;
import io.prmkit.mlx5.RxHashFields;
import io.prmkit.mlx5.Tirc;
import io.prmkit.softhca.CqeDecoder.Completion;
import io.prmkit.softhca.wire.Ethernet;
import io.prmkit.softhca.wire.ParsedFrame;
import io.prmkit.softhca.wire.TestFrames;
import io.prmkit.softhca.wire.TxOffload;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * CQE compression on the device side (PRM "Compressed CQE", basic layout): the same traffic arrives
 * from the wire at a device with a plain receive CQ and at one with a compressed one (every object made
 * by its command, frames sent from the test's end of the cable), and {@link CqeDecoder} (the kernel's decompression,
 * written for the test) must read from the compressed ring exactly the completions the plain ring
 * holds, while sessions form, cut and wrap as the device's policy says.
 */
class CqeCompressionTest {
    static final int HASH = MiniCqeResFormat.HASH$VALUE;
    static final int CSUM = MiniCqeResFormat.CSUM$VALUE;

    final List<Dev> opened = new ArrayList<>();

    @AfterEach
    void close() {
        opened.forEach(Dev::close);
    }

    /**
     * One device whose cable ends in the test, with an RQ on a CQ of {@code 2^logCq} entries,
     * compressed in {@code format} or plain (format -1), behind an RSS TIR over that one RQ (so every
     * UDP flow gets its own Toeplitz hash in the CQE); frames arrive from the test's end of the wire.
     */
    final class Dev implements AutoCloseable {
        final Nic n;
        final Nic.Eq eq;
        final Nic.Cq txCq;
        final Nic.Cq rxCq;
        final Nic.Sq sq;
        final Nic.Rq rq;
        final int lkey;
        final CqeDecoder decoder;
        final int format;

        Dev(int format, int logCq, int logRq, int bufSize) {
            this(format, logCq, logRq, bufSize, true);
        }

        /** {@code peer}: the test holds the cable's other end; else the port is looped back. */
        Dev(int format, int logCq, int logRq, int bufSize, boolean peer) {
            opened.add(this);
            this.format = format;
            n = peer ? Nic.withPeer() : new Nic();
            eq = n.eq;
            txCq = n.new Cq(6, format); // compression enabled on the send CQ too: the device writes send completions plain anyway
            rxCq = n.new Cq(logCq, format);
            sq = n.new Sq(6, txCq, InlineMode.L2$VALUE);
            rq = n.new Rq(logRq, rxCq, bufSize, true, true);
            lkey = n.paKey(true, true);
            MemorySegment in = Objs.tirIndirectIn(n.td, Objs.rqt(n.h, rq.rqn));
            long ctx = CreateTirIn.ctx$BYTE_OFFSET;
            for (int i = 0; i < Tirc.rx_hash_toeplitz_key$COUNT; i++) Tirc.rx_hash_toeplitz_key$set(in, ctx, i, 0x6d5a56da + i * 0x01010101);
            long sel = ctx + Tirc.rx_hash_field_selector_outer$BYTE_OFFSET;
            RxHashFieldSelect.l4_prot_type$set(in, sel, true);
            RxHashFieldSelect.selected_fields$set(in, sel, RxHashFields.SRC_IP$MASK | RxHashFields.DST_IP$MASK | RxHashFields.L4_SPORT$MASK | RxHashFields.L4_DPORT$MASK);
            n.catchAll(Objs.tir(n.h, in));
            decoder = new CqeDecoder(rxCq.ring.seg(), logCq, rxCq.dbr.seg(), format < 0 ? HASH : format);
        }

        /** The frames arrive from the wire, then the device takes them in one pass. */
        void arrive(List<byte[]> frames) {
            n.arrive(frames);
        }

        List<Completion> drain() {
            return decoder.drain();
        }

        /** QUERY_HCA_CAP's cqe_compression_max_num: the longest session the device writes. */
        int maxSession() {
            return CmdHcaCap.cqe_compression_max_num(Cmds.queryCap(n.h, QueryHcaCapOpMod.GENERAL_DEVICE_CUR));
        }

        @Override
        public void close() {
            n.close();
        }
    }

    /** A frame as a sender with checksum offload puts it on the wire (IPv4/IPv6, TCP/UDP checksums filled). */
    static byte[] wire(byte[] f) {
        MemorySegment s = MemorySegment.ofArray(f);
        ParsedFrame p = new ParsedFrame().parse(s, 0, f.length, false);
        TxOffload.fillL3Checksum(s, 0, p);
        TxOffload.fillL4Checksum(s, 0, p);
        return f;
    }

    static byte[] udp(int sport, int len) {
        return wire(TestFrames.ipv4(Ethernet.PROTO_UDP, sport, 4791, TestFrames.payload(len, sport + len)));
    }

    static byte[] tcp(int len) {
        return wire(TestFrames.ipv4(Ethernet.PROTO_TCP, 5000, 80, TestFrames.payload(len, 9)));
    }

    static byte[] vlan(byte[] f, int tci) {
        MemorySegment b = MemorySegment.ofArray(new byte[f.length + 4]);
        MemorySegment.copy(MemorySegment.ofArray(f), 0, b, 4, f.length);
        TxOffload.insertVlan(b, 4, false, tci);
        return b.toArray(java.lang.foreign.ValueLayout.JAVA_BYTE);
    }

    static byte[] badChecksum(byte[] f) {
        byte[] g = f.clone();
        g[g.length - 1] ^= 0x5a; // the payload changes after the checksum was computed
        return g;
    }

    static List<byte[]> repeat(int n, java.util.function.IntFunction<byte[]> f) {
        List<byte[]> out = new ArrayList<>();
        for (int i = 0; i < n; i++) out.add(f.apply(i));
        return out;
    }

    @SafeVarargs
    static List<byte[]> concat(List<byte[]>... parts) {
        List<byte[]> out = new ArrayList<>();
        for (List<byte[]> p : parts) out.addAll(p);
        return out;
    }

    static void assertSame(List<Completion> plain, List<Completion> comp, int format) {
        assertEquals(plain.size(), comp.size(), "completions");
        for (int i = 0; i < plain.size(); i++) assertEquals(plain.get(i).comparable(format), comp.get(i).comparable(format), "completion " + i);
    }

    /** Mixed traffic in bursts of varying size, drained after each: the decoded compressed CQ equals the plain one. */
    @ParameterizedTest
    @ValueSource(ints = {0, 1}) // HASH, CSUM
    void decodedSessionsEqualThePlainCqes(int format) {
        Dev plain = new Dev(-1, 6, 7, 2048);
        Dev comp = new Dev(format, 6, 7, 2048);
        SplittableRandom r = new SplittableRandom(42);
        List<Completion> a = new ArrayList<>();
        List<Completion> b = new ArrayList<>();
        int total = 0;
        for (int burst = 0; burst < 40; burst++) {
            int n = 1 + r.nextInt(40);
            List<byte[]> frames = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                int k = r.nextInt(20);
                byte[] f = k == 0 ? vlan(udp(7, 50), 100 + r.nextInt(3))
                        : k == 1 ? badChecksum(udp(7, 60))
                        : k == 2 ? tcp(40 + r.nextInt(100))
                        : k == 3 ? wire(TestFrames.ipv6(Ethernet.PROTO_UDP, 9, 10, TestFrames.payload(30, 1)))
                        : udp(1000 + r.nextInt(2), 22 + r.nextInt(200)); // two flows, lengths and payloads vary
                frames.add(f);
            }
            plain.rq.post(n, plain.lkey);
            comp.rq.post(n, comp.lkey);
            plain.arrive(frames);
            comp.arrive(frames);
            a.addAll(plain.drain());
            b.addAll(comp.drain());
            total += n;
        }
        assertEquals(total, a.size(), "the plain run completed every frame");
        assertSame(a, b, format);
        assertTrue(plain.decoder.lengths().stream().allMatch(l -> l == 1), "no sessions without compression");
        List<CqeDecoder.Block> sessions = comp.decoder.blocks.stream().filter(s -> s.length() > 1).toList();
        assertTrue(sessions.size() > 20, "sessions formed: " + comp.decoder.lengths());
        int max = comp.maxSession();
        assertEquals(16, max, "ConnectX-4's cqe_compression_max_num");
        assertTrue(sessions.stream().allMatch(s -> s.length() <= max), "no session above the maximum");
        assertTrue(sessions.stream().anyMatch(s -> s.length() == max), "sessions of the maximum formed");
        assertTrue(sessions.stream().anyMatch(s -> (s.cc() & 63) + s.length() > 64), "a session crossed the ring end");
        assertTrue(comp.decoder.cc > 3 * 64, "several passes around the ring");
        assertEquals(0, comp.n.h.hca.iommu().faults());
    }

    @Test
    void aSessionIsCutByAFrameThatDoesNotMatchTheTitle() {
        for (var cut : List.<java.util.function.Supplier<byte[]>>of(
                () -> vlan(udp(7, 50), 5), () -> badChecksum(udp(7, 50)), () -> tcp(50),
                () -> wire(TestFrames.ipv6(Ethernet.PROTO_UDP, 7, 4791, TestFrames.payload(50, 1))))) {
            Dev plain = new Dev(-1, 6, 6, 2048);
            Dev comp = new Dev(CSUM, 6, 6, 2048);
            List<byte[]> frames = concat(repeat(5, i -> udp(7, 50 + i)), List.of(cut.get()), repeat(5, i -> udp(7, 80 + i)));
            plain.rq.post(11, plain.lkey);
            comp.rq.post(11, comp.lkey);
            plain.arrive(frames);
            comp.arrive(frames);
            assertSame(plain.drain(), comp.drain(), CSUM);
            assertEquals(List.of(5, 1, 5), comp.decoder.lengths());
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 1}) // HASH, CSUM
    void anotherFlowOfTheSameKindJoinsAndItsHashOrChecksumComesFromItsMini(int format) {
        Dev comp = new Dev(format, 6, 6, 2048);
        Dev plain = new Dev(-1, 6, 6, 2048);
        List<byte[]> frames = repeat(12, i -> udp(1000 + i % 3, 30 + i));
        plain.rq.post(12, plain.lkey);
        comp.rq.post(12, comp.lkey);
        plain.arrive(frames);
        comp.arrive(frames);
        List<Completion> a = plain.drain();
        assertSame(a, comp.drain(), format);
        assertEquals(List.of(12), comp.decoder.lengths());
        assertTrue(a.stream().map(Completion::checksum).distinct().count() > 3, "the checksums differ frame to frame");
        assertEquals(3, a.stream().map(Completion::hash).distinct().count(), "three flows, three hashes");
    }

    @Test
    void sessionsStopAtTheDevicesMaximumAndTheirMiniArraysSitAtEveryEighthSlot() {
        Dev comp = new Dev(HASH, 7, 7, 2048);
        comp.rq.post(40, comp.lkey);
        comp.arrive(repeat(40, i -> udp(7, 20 + i)));
        // the ring before the driver touches it: titles at 0, 16, 32; mini arrays at title+1 and title+8
        MemorySegment ring = comp.rxCq.ring.seg();
        for (int t : new int[] {0, 16, 32}) {
            MemorySegment title = ring.asSlice(t * 64L, 64);
            assertEquals(CqeFormat.COMPRESSED.value, Cqe64.cqe_format(title), "title at " + t);
            assertEquals(CqeOpcode.RESP_SEND.value, Cqe64.opcode(title));
            assertEquals(t == 32 ? 8 : 16, Cqe64.byte_cnt(title));
            assertEquals(t, Cqe64.wqe_counter(title));
            for (int j = 0; j < 8; j++) {
                assertEquals(14 + 20 + 8 + 20 + t + j, io.prmkit.mlx5.MiniCqe8.byte_cnt(ring, (t + 1) * 64L + j * 8L), "mini " + j + " of " + t);
                if (t < 32) assertEquals(14 + 20 + 8 + 20 + t + 8 + j, io.prmkit.mlx5.MiniCqe8.byte_cnt(ring, (t + 8) * 64L + j * 8L));
            }
        }
        List<Completion> got = comp.drain();
        assertEquals(List.of(16, 16, 8), comp.decoder.lengths());
        for (int i = 0; i < 40; i++) {
            assertEquals(i, got.get(i).wqeCounter());
            assertEquals(14 + 20 + 8 + 20 + i, got.get(i).byteCnt());
        }
        // after the driver's owner rewrite, nothing on the ring looks like a new CQE
        comp.n.poll();
        assertTrue(comp.drain().isEmpty());
    }

    @Test
    void aSessionAtTheRingEndContinuesAtSlotZero() {
        Dev plain = new Dev(-1, 4, 6, 2048);
        Dev comp = new Dev(HASH, 4, 6, 2048);
        List<Completion> a = new ArrayList<>();
        List<Completion> b = new ArrayList<>();
        for (int n : new int[] {10, 12, 3, 14, 9, 16, 1, 15}) {
            List<byte[]> frames = repeat(n, i -> udp(7, 30 + i));
            plain.rq.post(n, plain.lkey);
            comp.rq.post(n, comp.lkey);
            plain.arrive(frames);
            comp.arrive(frames);
            a.addAll(plain.drain());
            b.addAll(comp.drain());
        }
        assertSame(a, b, HASH);
        assertEquals(List.of(10, 12, 3, 14, 9, 16, 1, 15), comp.decoder.lengths());
        assertEquals(80, comp.decoder.cc);
        // 10..21 wraps after 16 (title at slot 10, minis at 11 and at 18 & 15 = slot 2 of the next pass)
        assertTrue(comp.decoder.blocks.stream().anyMatch(s -> s.cc() == 10 && s.length() == 12));
    }

    @Test
    void aFullCqOverrunsAsWithoutCompressionAndNoSessionOverwritesAnUnreleasedEntry() {
        for (int first : new int[] {0, 10}) {
            Dev plain = new Dev(-1, 4, 6, 2048);
            Dev comp = new Dev(CSUM, 4, 6, 2048);
            for (Dev d : new Dev[] {plain, comp}) {
                d.rq.post(40, d.lkey);
                if (first > 0) d.arrive(repeat(first, i -> udp(7, 30 + i))); // not drained
                d.arrive(repeat(20, i -> udp(7, 60 + i)));
            }
            List<Completion> a = plain.drain();
            List<Completion> b = comp.drain();
            assertEquals(16, a.size(), "the plain CQ took 16 completions");
            assertSame(a, b, CSUM);
            for (Dev d : new Dev[] {plain, comp}) {
                MemorySegment e = d.eq.next();
                assertNotNull(e, "CQ_ERROR event");
                assertEquals(EqeType.CQ_ERROR.value, Eqe.event_type(e));
                assertEquals(CqErrorSyndrome.OVERRUN.value, Eqe.cq_error_syndrome(e));
                assertNull(d.eq.next());
            }
            assertEquals(first == 0 ? List.of(16) : List.of(10, 6), comp.decoder.lengths());
        }
    }

    @Test
    void anArmedCqGetsItsEventWithTheSession() {
        Dev comp = new Dev(CSUM, 6, 6, 2048);
        comp.rxCq.arm();
        comp.n.poll();
        comp.rq.post(10, comp.lkey);
        comp.arrive(repeat(10, i -> udp(7, 30)));
        MemorySegment e = comp.eq.next();
        assertNotNull(e);
        assertEquals(EqeType.COMP.value, Eqe.event_type(e));
        assertEquals(comp.rxCq.cqn, Eqe.cqn(e));
        assertNull(comp.eq.next(), "one event for the session");
        assertEquals(10, comp.drain().size());
        assertEquals(List.of(10), comp.decoder.lengths());
    }

    @Test
    void aReceiveErrorIsWrittenPlainAfterTheSessionBeforeIt() {
        Dev plain = new Dev(-1, 6, 6, 128);
        Dev comp = new Dev(CSUM, 6, 6, 128);
        List<byte[]> frames = concat(repeat(3, i -> udp(7, 30)), List.of(udp(7, 400)), repeat(3, i -> udp(7, 30)));
        plain.rq.post(7, plain.lkey);
        comp.rq.post(7, comp.lkey);
        plain.arrive(frames);
        comp.arrive(frames);
        List<Completion> a = plain.drain();
        assertEquals(CqeOpcode.RESP_ERR.value, a.get(3).opcode());
        assertSame(a, comp.drain(), CSUM);
        assertEquals(List.of(3, 1, 3), comp.decoder.lengths());
    }

    @Test
    void sendCompletionsOnACompressionEnabledCqArePlain() {
        Dev comp = new Dev(CSUM, 6, 6, 2048, false);
        Nic.Mem m = comp.n.dma(4096);
        MemorySegment host = m.seg();
        comp.rq.post(8, comp.lkey);
        byte[] f = udp(7, 40);
        MemorySegment.copy(f, 0, host, java.lang.foreign.ValueLayout.JAVA_BYTE, 0, f.length);
        long bus = m.bus();
        for (int i = 0; i < 8; i++) comp.sq.send(comp.lkey, bus, f.length, host, 18, 0, true);
        comp.sq.ring();
        comp.n.poll();
        List<MemorySegment> tx = comp.txCq.drain();
        assertEquals(8, tx.size());
        for (int i = 0; i < 8; i++) {
            assertEquals(CqeFormat.NO_INLINE_DATA.value, Cqe64.cqe_format(tx.get(i)));
            assertEquals(i, Cqe64.wqe_counter(tx.get(i)), () -> tx.stream().map(c -> Cqe64.wqe_counter(c) + "/" + Cqe64.opcode(c)).toList().toString());
        }
        assertEquals(8, comp.drain().size());
        assertEquals(List.of(8), comp.decoder.lengths(), "the looped-back frames formed one receive session");
    }
}

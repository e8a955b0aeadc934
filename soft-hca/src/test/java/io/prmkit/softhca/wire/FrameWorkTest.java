package io.prmkit.softhca.wire;

import static org.junit.jupiter.api.Assertions.*;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;

class FrameWorkTest {
    private final Arena arena = Arena.ofAuto();

    private MemorySegment seg(byte[] b, int headroom) {
        MemorySegment s = arena.allocate(b.length + headroom + 128);
        MemorySegment.copy(b, 0, s, ValueLayout.JAVA_BYTE, headroom, b.length);
        return s;
    }

    @Test
    void ipv4HeaderChecksumOfTheTextbookExample() {
        byte[] h = HexFormat.of().parseHex("450000730000400040110000c0a80001c0a800c7");
        assertEquals(0xb861, InternetChecksum.of(MemorySegment.ofArray(h), 0, 20));
    }

    @Test
    void oddLengthIsPaddedWithZero() {
        byte[] h = {0x01, 0x02, 0x03};
        assertEquals(~(0x0102 + 0x0300) & 0xffff, InternetChecksum.of(MemorySegment.ofArray(h), 0, 3));
    }

    @Test
    void filledChecksumsVerifyForUdpAndTcpOverIpv4AndIpv6() {
        for (byte[] f : List.of(
                TestFrames.ipv4(Ethernet.PROTO_UDP, 1000, 2000, TestFrames.payload(33, 1)),
                TestFrames.ipv4(Ethernet.PROTO_TCP, 1000, 2000, TestFrames.payload(100, 2)),
                TestFrames.ipv6(Ethernet.PROTO_UDP, 53, 5353, TestFrames.payload(7, 3)),
                TestFrames.ipv6(Ethernet.PROTO_TCP, 80, 8080, TestFrames.payload(1000, 4)))) {
            MemorySegment s = seg(f, 0);
            ParsedFrame p = new ParsedFrame().parse(s, 0, f.length, true);
            boolean v4udp = p.l3 == ParsedFrame.L3.IPV4 && p.l4 == ParsedFrame.L4.UDP;
            assertEquals(v4udp, p.l4ChecksumOk, "a zero checksum verifies only as 'no checksum' of UDP over IPv4");
            TxOffload.fillL3Checksum(s, 0, p);
            TxOffload.fillL4Checksum(s, 0, p);
            p.parse(s, 0, f.length, true);
            assertTrue(p.wellFormed);
            assertEquals(p.l3 == ParsedFrame.L3.IPV4, p.l3ChecksumOk);
            assertTrue(p.l4ChecksumOk, "l4 checksum of " + p.l3 + "/" + p.l4);
            // one flipped payload bit breaks it
            s.set(ValueLayout.JAVA_BYTE, f.length - 1, (byte) (s.get(ValueLayout.JAVA_BYTE, f.length - 1) ^ 4));
            assertFalse(p.parse(s, 0, f.length, true).l4ChecksumOk);
        }
    }

    /**
     * The RX CQE's check_sum reuses the sums of the checksum checks: whatever the frame (UDP/TCP over
     * IPv4/IPv6, odd lengths, trailing bytes beyond the IP packet, a checksum-less UDP, truncated or
     * non-IP frames), it must equal one sum over the bytes from the L3 header to the end.
     */
    @Test
    void l3OnwardSumEqualsOneSumOverTheBytes() {
        java.util.Random r = new java.util.Random(20261130);
        ParsedFrame p = new ParsedFrame();
        for (int i = 0; i < 5000; i++) {
            int proto = r.nextBoolean() ? Ethernet.PROTO_UDP : r.nextInt(4) == 0 ? 47 : Ethernet.PROTO_TCP;
            byte[] pay = TestFrames.payload(r.nextInt(80), i);
            byte[] f = r.nextBoolean() ? TestFrames.ipv4(proto, 1, 2, pay) : TestFrames.ipv6(proto, 3, 4, pay);
            MemorySegment s = seg(f, 0);
            ParsedFrame q = new ParsedFrame().parse(s, 0, f.length, false);
            if (r.nextBoolean()) TxOffload.fillL4Checksum(s, 0, q); // else a zero checksum (none, for UDP over IPv4)
            int len = f.length;
            int trail = r.nextInt(4) == 0 ? 1 + r.nextInt(9) : 0; // bytes after the IP packet (padding, noise)
            for (int k = 0; k < trail; k++) s.set(ValueLayout.JAVA_BYTE, len + k, (byte) r.nextInt());
            len += trail;
            if (r.nextInt(8) == 0) len = 14 + r.nextInt(len - 13); // truncated: headers may be cut
            if (r.nextInt(16) == 0) s.set(ValueLayout.JAVA_BYTE, 12, (byte) 0x88); // not IP
            p.parse(s, 0, len, true);
            int want = p.l3 == ParsedFrame.L3.NONE ? 0 : InternetChecksum.fold(InternetChecksum.add(s, p.l3Offset, len - p.l3Offset, 0));
            assertEquals(want, p.l3OnwardSum(s, 0), "frame " + i + " (" + p.l3 + "/" + p.l4 + ", " + len + " bytes)");
        }
    }

    @Test
    void l2LengthFindsWhereTheFullParsePutsL3() {
        byte[] f = TestFrames.ipv4(Ethernet.PROTO_TCP, 1234, 80, TestFrames.payload(10, 0));
        byte[] tagged = new byte[f.length + 4];
        System.arraycopy(f, 0, tagged, 0, 12);
        tagged[12] = (byte) 0x81; // 802.1Q, VID 5
        tagged[15] = 5;
        System.arraycopy(f, 12, tagged, 16, f.length - 12);
        for (byte[] b : List.of(f, tagged)) {
            MemorySegment s = seg(b, 0);
            ParsedFrame full = new ParsedFrame().parse(s, 0, b.length, false);
            assertEquals(full.l3Offset, ParsedFrame.l2Length(s, 0, b.length), "l2Length");
        }
        assertFalse(new ParsedFrame().parse(seg(f, 0), 0, 13, false).wellFormed, "a runt");
        assertEquals(0, ParsedFrame.l2Length(seg(f, 0), 0, 13), "a runt has no L3 offset");
    }

    @Test
    void l2LengthAgreesWithTheParserOnTagStacksAndTruncations() {
        // 0, 1, 2 and 3 tags (802.1Q or 802.1ad), cut at every length: where the parser puts L3, l2Length does
        java.util.Random r = new java.util.Random(20261130);
        for (int tags = 0; tags <= 3; tags++) {
            byte[] b = new byte[14 + 4 * tags + 20];
            r.nextBytes(b);
            for (int t = 0; t < tags; t++) {
                int tpid = r.nextBoolean() ? Ethernet.TYPE_VLAN : Ethernet.TYPE_QINQ;
                b[12 + 4 * t] = (byte) (tpid >>> 8);
                b[13 + 4 * t] = (byte) tpid;
            }
            b[12 + 4 * tags] = 0x08; // IPv4 after the tags
            b[13 + 4 * tags] = 0x00;
            for (int len = 0; len <= b.length; len++) {
                MemorySegment s = seg(b, 0);
                assertEquals(new ParsedFrame().parse(s, 0, len, false).l3Offset, ParsedFrame.l2Length(s, 0, len), tags + " tags, " + len + " bytes");
            }
        }
    }

    @Test
    void parseAgreesWithTheReferenceParserOnRandomAndMutatedFrames() {
        // ParsedFrame.parse against the parser it replaced (ParsedFrameReference): every field and the
        // check_sum sum, over TCP/UDP/other frames over IPv4 and IPv6, tagged or not, with bytes flipped
        // and cut short, verifying and not
        java.util.Random r = new java.util.Random(20261130);
        int[] protos = {Ethernet.PROTO_TCP, Ethernet.PROTO_UDP, 1, 58};
        for (int t = 0; t < 20_000; t++) {
            int proto = protos[r.nextInt(protos.length)];
            byte[] payload = TestFrames.payload(r.nextInt(80), r.nextInt());
            byte[] f = r.nextBoolean() ? TestFrames.ipv4(proto, r.nextInt(65536), r.nextInt(65536), payload)
                    : TestFrames.ipv6(proto, r.nextInt(65536), r.nextInt(65536), payload);
            if (r.nextInt(3) == 0) { // one or two tags
                int tags = 1 + r.nextInt(2);
                byte[] g = new byte[f.length + 4 * tags];
                System.arraycopy(f, 0, g, 0, 12);
                for (int k = 0; k < tags; k++) {
                    int tpid = r.nextBoolean() ? Ethernet.TYPE_VLAN : Ethernet.TYPE_QINQ;
                    g[12 + 4 * k] = (byte) (tpid >>> 8);
                    g[13 + 4 * k] = (byte) tpid;
                    g[14 + 4 * k] = (byte) r.nextInt(256);
                    g[15 + 4 * k] = (byte) r.nextInt(256);
                }
                System.arraycopy(f, 12, g, 12 + 4 * tags, f.length - 12);
                f = g;
            }
            MemorySegment s = seg(f, 3);
            if (r.nextBoolean()) { // good checksums, so the checks also pass (until a flip below)
                ParsedFrame h = new ParsedFrame().parse(s, 3, f.length, false);
                if (h.l3 == ParsedFrame.L3.IPV4) TxOffload.fillL3Checksum(s, 3, h);
                if (h.l4 == ParsedFrame.L4.TCP || h.l4 == ParsedFrame.L4.UDP) TxOffload.fillL4Checksum(s, 3, h);
            }
            int flips = r.nextInt(4);
            for (int k = 0; k < flips; k++) {
                long at = 3 + r.nextInt(f.length);
                s.set(ValueLayout.JAVA_BYTE, at, (byte) (s.get(ValueLayout.JAVA_BYTE, at) ^ (1 << r.nextInt(8))));
            }
            int len = r.nextInt(4) == 0 ? r.nextInt(f.length + 1) : f.length;
            boolean verify = r.nextBoolean();
            ParsedFrame got = new ParsedFrame().parse(s, 3, len, verify);
            ParsedFrameReference want = new ParsedFrameReference().parse(s, 3, len, verify);
            String at = "frame " + t + " (" + len + " bytes, verify " + verify + ")";
            assertEquals(List.of(want.length, want.vlanCount, want.outerTpid, want.outerTci, want.ethertype, want.l3, want.l3Offset,
                            want.l3HeaderLength, want.ipTotalLength, want.ipProtocol, want.ipOptions, want.ipFragment, want.ipDscp, want.ttl),
                    List.of(got.length, got.vlanCount, got.outerTpid, got.outerTci, got.ethertype, got.l3, got.l3Offset,
                            got.l3HeaderLength, got.ipTotalLength, got.ipProtocol, got.ipOptions, got.ipFragment, got.ipDscp, got.ttl), at + ": L2/L3");
            assertEquals(List.of(want.l4, want.l4Offset, want.l4HeaderLength, want.srcPort, want.dstPort, want.tcpFlags, want.payloadLength,
                            want.l3ChecksumOk, want.l4ChecksumOk, want.wellFormed, want.l3OnwardSum(s, 3)),
                    List.of(got.l4, got.l4Offset, got.l4HeaderLength, got.srcPort, got.dstPort, got.tcpFlags, got.payloadLength,
                            got.l3ChecksumOk, got.l4ChecksumOk, got.wellFormed, got.l3OnwardSum(s, 3)), at + ": L4 and checks");
        }
    }

    @Test
    void checksumSumsAgreeWithWordByWordSums() {
        // InternetChecksum.add against RFC 1071 written out: 16-bit big-endian words, an odd last byte padded,
        // every length to 100 at odd and even offsets, onto a running sum
        java.util.Random r = new java.util.Random(1071);
        byte[] b = new byte[160];
        for (int t = 0; t < 2000; t++) {
            r.nextBytes(b);
            int off = r.nextInt(8);
            int len = r.nextInt(101);
            long start = r.nextInt(1 << 20);
            long want = start;
            for (int i = 0; i < len; i += 2) want += (b[off + i] & 0xff) << 8 | (i + 1 < len ? b[off + i + 1] & 0xff : 0);
            long got = InternetChecksum.add(MemorySegment.ofArray(b), off, len, start);
            assertEquals(InternetChecksum.fold(want), InternetChecksum.fold(got), len + " bytes at " + off);
        }
    }

    @Test
    void foldEqualsEndAroundCarriesUntilSixteenBits() {
        // InternetChecksum.fold's fixed steps against the loop of RFC 1071, over the whole unsigned 64-bit range
        // (sums of any length the datapath adds, and edge values: 0, 0xffff, 0x10000, all ones)
        java.util.Random r = new java.util.Random(1624);
        long[] edges = {0, 1, 0xffff, 0x10000, 0x1ffff, 0xffff_ffffL, 0x1_0000_0000L, 0xffff_ffff_ffffL, -1L, Long.MIN_VALUE, Long.MAX_VALUE};
        for (int t = 0; t < 200_000 + edges.length; t++) {
            long v = t < edges.length ? edges[t] : r.nextLong() >>> r.nextInt(64);
            long want = v;
            while ((want >>> 16) != 0) want = (want & 0xffff) + (want >>> 16);
            assertEquals((int) want, InternetChecksum.fold(v), Long.toHexString(v));
        }
    }

    @Test
    void shortCopiesMoveExactlyTheirBytes() {
        // every length up to past the explicit-move limit, at odd offsets, against MemorySegment.copy
        java.util.Random r = new java.util.Random(7);
        byte[] src = new byte[400];
        r.nextBytes(src);
        for (int n = 0; n <= Bytes.SHORT + 40; n++) {
            byte[] want = new byte[400];
            byte[] got = new byte[400];
            r.nextBytes(want);
            System.arraycopy(want, 0, got, 0, want.length);
            MemorySegment.copy(MemorySegment.ofArray(src), 3, MemorySegment.ofArray(want), 5, n);
            Bytes.copy(MemorySegment.ofArray(src), 3, MemorySegment.ofArray(got), 5, n);
            org.junit.jupiter.api.Assertions.assertArrayEquals(want, got, n + " bytes");
        }
        MemorySegment small = MemorySegment.ofArray(new byte[16]);
        org.junit.jupiter.api.Assertions.assertThrows(IndexOutOfBoundsException.class, () -> Bytes.copy(small, 0, MemorySegment.ofArray(new byte[8]), 0, 9));
    }

    @Test
    void parserFindsHeadersAndPorts() {
        byte[] f = TestFrames.ipv4(Ethernet.PROTO_TCP, 1234, 80, TestFrames.payload(10, 0));
        ParsedFrame p = new ParsedFrame().parse(seg(f, 0), 0, f.length, false);
        assertEquals(ParsedFrame.L3.IPV4, p.l3);
        assertEquals(ParsedFrame.L4.TCP, p.l4);
        assertEquals(14, p.l3Offset);
        assertEquals(34, p.l4Offset);
        assertEquals(1234, p.srcPort);
        assertEquals(80, p.dstPort);
        assertEquals(10, p.payloadLength);
        assertEquals(0, p.vlanCount);
        assertEquals(0x0200_0000_0001L, ParsedFrame.dmac(seg(f, 0), 0));
        assertEquals(0x0200_0000_0002L, ParsedFrame.smac(seg(f, 0), 0));
    }

    @Test
    void truncatedHeadersAreNotWellFormedAndDoNotThrow() {
        byte[] f = TestFrames.ipv4(Ethernet.PROTO_TCP, 1, 2, new byte[0]);
        MemorySegment s = seg(f, 0);
        for (int len = 0; len <= f.length; len++) {
            ParsedFrame p = new ParsedFrame().parse(s, 0, len, true);
            if (len < f.length) assertFalse(p.wellFormed && p.l4 == ParsedFrame.L4.TCP, "length " + len);
        }
    }

    @Test
    void vlanInsertPutsTheTagAfterTheMacsAndTheParserFindsIt() {
        byte[] f = TestFrames.ipv4(Ethernet.PROTO_UDP, 1, 2, TestFrames.payload(20, 0));
        MemorySegment s = seg(f, 4);
        long start = TxOffload.insertVlan(s, 4, false, 0x6005);
        assertEquals(0, start);
        assertEquals(0x8100, s.get(InternetChecksum.BE16, 12) & 0xffff);
        assertEquals(0x6005, s.get(InternetChecksum.BE16, 14) & 0xffff);
        assertEquals(0x0800, s.get(InternetChecksum.BE16, 16) & 0xffff);
        ParsedFrame p = new ParsedFrame().parse(s, 0, f.length + 4, false);
        assertEquals(1, p.vlanCount);
        assertEquals(0x8100, p.outerTpid);
        assertEquals(0x6005, p.outerTci);
        assertEquals(18, p.l3Offset);
        assertEquals(ParsedFrame.L4.UDP, p.l4);
        long q = TxOffload.insertVlan(seg(f, 4), 4, true, 7);
        assertEquals(0, q);
    }

    @Test
    void shortFramesArePaddedWithZeros() {
        byte[] f = TestFrames.ipv4(Ethernet.PROTO_UDP, 1, 2, new byte[0]); // 42 bytes
        MemorySegment s = seg(f, 0);
        s.asSlice(42, 30).fill((byte) 0x55);
        assertEquals(60, TxOffload.pad(s, 0, 42));
        for (int i = 42; i < 60; i++) assertEquals(0, s.get(ValueLayout.JAVA_BYTE, i));
        assertEquals(61, TxOffload.pad(s, 0, 61));
    }

    @Test
    void lsoCutsTcpPayloadIntoMssSegmentsWithFixedHeaders() {
        for (boolean v6 : new boolean[] {false, true}) {
            byte[] payload = TestFrames.payload(3000, 9);
            byte[] f = v6 ? TestFrames.ipv6(Ethernet.PROTO_TCP, 5000, 80, payload)
                    : TestFrames.ipv4(TestFrames.DMAC, Ethernet.PROTO_TCP, new byte[] {1, 2, 3, 4}, new byte[] {5, 6, 7, 8}, 5000, 80, payload,
                            Ethernet.TCP_ACK | Ethernet.TCP_PSH | Ethernet.TCP_FIN | Ethernet.TCP_CWR);
            MemorySegment s = seg(f, 0);
            ParsedFrame p = new ParsedFrame().parse(s, 0, f.length, false);
            MemorySegment out = arena.allocate(4096);
            List<byte[]> segs = new ArrayList<>();
            int n = TxOffload.segment(s, 0, p, 1448, out, 0, (b, st, len) -> segs.add(b.asSlice(st, len).toArray(ValueLayout.JAVA_BYTE)));
            assertEquals(3, n);
            assertEquals(3, segs.size());
            java.io.ByteArrayOutputStream joined = new java.io.ByteArrayOutputStream();
            for (int i = 0; i < 3; i++) {
                byte[] b = segs.get(i);
                MemorySegment bs = MemorySegment.ofArray(b);
                ParsedFrame q = new ParsedFrame().parse(bs, 0, b.length, true);
                assertTrue(q.wellFormed, "segment " + i);
                assertEquals(v6 ? false : true, q.l3ChecksumOk);
                assertTrue(q.l4ChecksumOk, "segment " + i);
                assertEquals(i < 2 ? 1448 : 3000 - 2 * 1448, q.payloadLength);
                assertEquals(1000 + i * 1448, bs.get(InternetChecksum.BE32, q.l4Offset + 4));
                if (!v6) {
                    assertEquals(0x1234 + i, bs.get(InternetChecksum.BE16, q.l3Offset + 4) & 0xffff);
                    int fl = q.tcpFlags;
                    assertEquals(i == 2, (fl & Ethernet.TCP_FIN) != 0);
                    assertEquals(i == 2, (fl & Ethernet.TCP_PSH) != 0);
                    assertEquals(i == 0, (fl & Ethernet.TCP_CWR) != 0);
                    assertTrue((fl & Ethernet.TCP_ACK) != 0);
                }
                joined.write(b, q.l4Offset + q.l4HeaderLength, q.payloadLength);
            }
            assertArrayEquals(payload, joined.toByteArray());
        }
    }

    @Test
    void lsoOfUdpSetsEachDatagramLength() {
        byte[] payload = TestFrames.payload(1000, 1);
        byte[] f = TestFrames.ipv4(Ethernet.PROTO_UDP, 1, 2, payload);
        MemorySegment s = seg(f, 0);
        ParsedFrame p = new ParsedFrame().parse(s, 0, f.length, false);
        List<byte[]> segs = new ArrayList<>();
        TxOffload.segment(s, 0, p, 400, arena.allocate(2048), 0, (b, st, len) -> segs.add(b.asSlice(st, len).toArray(ValueLayout.JAVA_BYTE)));
        assertEquals(3, segs.size());
        byte[] last = segs.get(2);
        assertEquals(8 + 200, MemorySegment.ofArray(last).get(InternetChecksum.BE16, 34 + 4) & 0xffff);
        assertTrue(new ParsedFrame().parse(MemorySegment.ofArray(last), 0, last.length, true).l4ChecksumOk);
    }
}

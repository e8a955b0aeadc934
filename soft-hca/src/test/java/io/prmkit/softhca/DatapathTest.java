package io.prmkit.softhca;

import static org.junit.jupiter.api.Assertions.*;

import io.prmkit.mlx5.Cqe64;
import io.prmkit.mlx5.CqeHdsIpExt;
import io.prmkit.mlx5.CqeErrorSyndrome;
import io.prmkit.mlx5.CqeL3HdrType;
import io.prmkit.mlx5.CqeL4HdrType;
import io.prmkit.mlx5.CqeOpcode;
import io.prmkit.mlx5.Eqe;
import io.prmkit.mlx5.EqeType;
import io.prmkit.mlx5.ErrCqe;
import io.prmkit.mlx5.EthCsFlags;
import io.prmkit.mlx5.InlineMode;
import io.prmkit.mlx5.QueryVportCounterOut;
import io.prmkit.mlx5.TrafficCounter;
import io.prmkit.mlx5.SendWqeOpcode;
import io.prmkit.mlx5.SqState;
import io.prmkit.mlx5.WqeEthSeg;
import io.prmkit.mlx5.WqeDataSeg;
import io.prmkit.softhca.wire.Ethernet;
import io.prmkit.softhca.wire.ParsedFrame;
import io.prmkit.softhca.wire.TestFrames;
import io.prmkit.softhca.wire.TxOffload;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The send and receive datapath as a driver sees it: queues made by their commands, WQEs and doorbell
 * records in DMA memory, doorbells through the UAR page, frames over the loopback wire; observed in the
 * CQEs and EQEs, the receive buffers, MSI-X interrupts, QUERY_SQ, the Q counter, the vport counters
 * and PPCNT. Step mode.
 */
class DatapathTest {
    /** The model's vendor_err_synd values, as docs/soft-hca-datapath.md (Errors) lists them. */
    static final int VENDOR_BAD_QPN_OR_INDEX = 0x03;
    static final int VENDOR_UMR = 0x08;

    final Nic n = new Nic();
    final Nic.Eq eq = n.eq;
    final Nic.Cq txCq = n.new Cq(4);
    final Nic.Cq rxCq = n.new Cq(4);
    final Nic.Sq sq = n.new Sq(4, txCq, InlineMode.L2$VALUE);
    final Nic.Rq rq = n.new Rq(4, rxCq, 2048, true, true);
    final int lkey = n.paKey(true, true);
    final Nic.Mem tx = n.dma(64 * 1024);

    DatapathTest() {
        n.catchAll(n.directTir(rq));
    }

    @AfterEach
    void close() {
        n.close();
    }

    MemorySegment put(byte[] frame, long at) {
        MemorySegment.copy(frame, 0, tx.seg(), ValueLayout.JAVA_BYTE, at, frame.length);
        return tx.seg().asSlice(at, frame.length);
    }

    @Test
    void sendLoopsBackWithChecksumsIntoTheRqAndCompletesBothSides() {
        byte[] f = TestFrames.ipv4(Ethernet.PROTO_UDP, 1111, 2222, TestFrames.payload(100, 3));
        MemorySegment host = put(f, 0);
        rq.post(4, lkey);
        sq.send(lkey, tx.bus(), f.length, host, 18, EthCsFlags.L3_CSUM$MASK | EthCsFlags.L4_CSUM$MASK, true);
        sq.ring();
        n.poll();

        List<MemorySegment> t = txCq.drain();
        assertEquals(1, t.size());
        MemorySegment c = t.get(0);
        assertEquals(CqeOpcode.REQ.value, Cqe64.opcode(c));
        assertEquals(0, Cqe64.wqe_counter(c));
        assertEquals(sq.sqn, Cqe64.qpn(c));
        assertEquals(SendWqeOpcode.SEND.value, Cqe64.s_wqe_opcode(c));

        List<MemorySegment> r = rxCq.drain();
        assertEquals(1, r.size());
        MemorySegment rc = r.get(0);
        assertEquals(CqeOpcode.RESP_SEND.value, Cqe64.opcode(rc));
        assertEquals(f.length, Cqe64.byte_cnt(rc));
        assertEquals(0, Cqe64.wqe_counter(rc));
        assertEquals(CqeHdsIpExt.L2_OK$MASK | CqeHdsIpExt.L3_OK$MASK | CqeHdsIpExt.L4_OK$MASK, Cqe64.hds_ip_ext(rc) & (CqeHdsIpExt.L2_OK$MASK | CqeHdsIpExt.L3_OK$MASK | CqeHdsIpExt.L4_OK$MASK));
        assertEquals(CqeL3HdrType.IPV4.value, Cqe64.l3_hdr_type(rc));
        assertEquals(CqeL4HdrType.UDP.value, Cqe64.l4_hdr_type(rc));
        byte[] got = rq.buffer(0, f.length);
        ParsedFrame p = new ParsedFrame().parse(MemorySegment.ofArray(got), 0, got.length, true);
        assertTrue(p.l3ChecksumOk && p.l4ChecksumOk, "the device filled both checksums");
        // everything but the checksums is the sent frame
        MemorySegment expect = MemorySegment.ofArray(f.clone());
        ParsedFrame e = new ParsedFrame().parse(expect, 0, f.length, false);
        TxOffload.fillL3Checksum(expect, 0, e);
        TxOffload.fillL4Checksum(expect, 0, e);
        assertArrayEquals(expect.toArray(ValueLayout.JAVA_BYTE), got);
        MemorySegment v = n.vportCounters();
        assertEquals(1, TrafficCounter.packets(v, QueryVportCounterOut.transmitted_eth_unicast$BYTE_OFFSET));
        assertEquals(1, TrafficCounter.packets(v, QueryVportCounterOut.received_eth_unicast$BYTE_OFFSET));
        assertEquals(f.length, TrafficCounter.octets(v, QueryVportCounterOut.received_eth_unicast$BYTE_OFFSET));
        assertEquals(1, n.framesTransmitted());
        assertEquals(0, n.h.hca.iommu().faults());
    }

    @Test
    void shortFramesArePaddedOnTheWire() {
        byte[] f = TestFrames.ipv4(Ethernet.PROTO_UDP, 1, 2, new byte[4]); // 46 bytes
        rq.post(1, lkey);
        sq.send(lkey, tx.bus(), f.length, put(f, 0), 18, 0, true);
        sq.ring();
        n.poll();
        MemorySegment rc = rxCq.drain().get(0);
        assertEquals(60, Cqe64.byte_cnt(rc));
        byte[] got = rq.buffer(0, 60);
        for (int i = 46; i < 60; i++) assertEquals(0, got[i]);
    }

    /**
     * Frames held whole in the WQE (the driver inlines up to two WQEBBs): a plain one goes out as it is,
     * one needing padding or checksums is finished on the way; either way the WQE in host memory is
     * left as the driver wrote it (the device reads the ring, it never writes it), also across the ring end.
     */
    @Test
    void framesWholeInTheWqeArriveFinishedAndTheRingIsNotWritten() {
        rq.post(16, lkey);
        byte[] plain = TestFrames.ipv4(Ethernet.PROTO_UDP, 7, 8, TestFrames.payload(22, 5)); // 64 bytes
        byte[] shortOne = TestFrames.ipv4(Ethernet.PROTO_UDP, 1, 2, new byte[4]); // 46 bytes: padded
        byte[] summed = TestFrames.ipv4(Ethernet.PROTO_UDP, 3, 4, TestFrames.payload(30, 9)); // checksums offloaded
        for (int i = 0; i < 15; i++) sq.put(nop(), 1); // the plain frame's two WQEBBs wrap at 16
        sq.ring();
        n.poll();
        int cs = EthCsFlags.L3_CSUM$MASK | EthCsFlags.L4_CSUM$MASK;
        sendWholeInline(plain, 0, 0);
        sendWholeInline(shortOne, 256, 0);
        sendWholeInline(summed, 512, cs);
        byte[] ringBefore = sq.ring.seg().toArray(ValueLayout.JAVA_BYTE);
        sq.ring();
        n.poll();

        assertEquals(3, txCq.drain().size());
        List<MemorySegment> r = rxCq.drain();
        assertEquals(3, r.size());
        assertArrayEquals(plain, rq.buffer(0, plain.length));
        byte[] padded = java.util.Arrays.copyOf(shortOne, 60);
        assertEquals(60, Cqe64.byte_cnt(r.get(1)));
        assertArrayEquals(padded, rq.buffer(1, 60));
        MemorySegment expect = MemorySegment.ofArray(summed.clone());
        ParsedFrame e = new ParsedFrame().parse(expect, 0, summed.length, false);
        TxOffload.fillL3Checksum(expect, 0, e);
        TxOffload.fillL4Checksum(expect, 0, e);
        assertArrayEquals(expect.toArray(ValueLayout.JAVA_BYTE), rq.buffer(2, summed.length));
        assertArrayEquals(ringBefore, sq.ring.seg().toArray(ValueLayout.JAVA_BYTE), "the device wrote into the SQ ring");
        assertEquals(3, n.framesTransmitted());
    }

    @Test
    void aFrameWholeInTheWqeMeetsEveryInlineMode() {
        Nic.Sq full = n.new Sq(4, txCq, InlineMode.TCP_UDP$VALUE);
        rq.post(1, lkey);
        byte[] f = TestFrames.ipv4(Ethernet.PROTO_UDP, 7, 8, TestFrames.payload(22, 5));
        full.send(lkey, tx.bus(), f.length, put(f, 0), f.length, 0, true);
        full.ring();
        n.poll();
        MemorySegment c = txCq.drain().get(0);
        assertEquals(CqeOpcode.REQ.value, Cqe64.opcode(c), () -> "syndrome " + ErrCqe.syndrome(c));
        assertArrayEquals(f, rq.buffer(0, f.length));
    }

    /** A SEND with the whole frame inline; the WQE's last WQEBB after its segments is filled with 0x5a, which the device must neither read nor write. */
    private void sendWholeInline(byte[] f, long at, int cs) {
        int first = sq.pc;
        int used = 16 * sq.send(lkey, tx.bus(), f.length, put(f, at), f.length, cs, true);
        for (int b = used; b < (sq.pc - first) * 64; b++) sq.ring.seg().set(ValueLayout.JAVA_BYTE, sq.slot(first + b / 64) + b % 64, (byte) 0x5a);
    }

    @Test
    void wqesThatWrapTheRingEndAreReadAcrossIt() {
        rq.post(16, lkey);
        byte[] f = TestFrames.ipv4(Ethernet.PROTO_TCP, 5, 6, TestFrames.payload(200, 1));
        MemorySegment host = put(f, 0);
        // 15 one-block NOPs, then a SEND whose 100 inline bytes make it 3 blocks: it wraps at 16
        for (int i = 0; i < 15; i++) sq.put(nop(), 1);
        sq.ring();
        n.poll();
        assertEquals(15, sq.hwCounter(), "the device consumed the 15 NOPs");
        sq.send(lkey, tx.bus(), f.length, host, 100, 0, true);
        assertEquals(18, sq.pc);
        sq.ring();
        n.poll();
        List<MemorySegment> t = txCq.drain();
        assertEquals(1, t.size());
        assertEquals(CqeOpcode.REQ.value, Cqe64.opcode(t.get(0)), () -> "syndrome " + ErrCqe.syndrome(t.get(0)) + " vendor " + ErrCqe.vendor_err_synd(t.get(0)));
        assertEquals(15, Cqe64.wqe_counter(t.get(0)));
        assertArrayEquals(f, rq.buffer(0, f.length));
    }

    MemorySegment nop() {
        MemorySegment w = MemorySegment.ofArray(new byte[64]);
        io.prmkit.mlx5.WqeCtrlSeg.writer(w, 0).opcode(SendWqeOpcode.NOP).wqe_index(sq.pc & 0xffff).qpn(sq.sqn).ds(1).write();
        return w;
    }

    private MemorySegment onlyError() {
        List<MemorySegment> t = txCq.drain();
        assertEquals(1, t.size(), "one error CQE");
        assertEquals(CqeOpcode.REQ_ERR.value, ErrCqe.opcode(t.get(0)));
        return t.get(0);
    }

    /**
     * NOP and UMR WQEs are checked by the spec's nop_wqe and umr_wqe rules before they run: a NOP of
     * two basic blocks runs; a NOP whose wqe_index is not its counter, and a UMR whose inline entries are
     * not its klm_octowords, each fail with LOCAL_QP_OP_ERR and the model's vendor syndrome for the rule.
     */
    @Test
    void nopAndUmrWqesAreCheckedByTheSpecsRules() {
        MemorySegment wide = MemorySegment.ofArray(new byte[128]);
        io.prmkit.mlx5.WqeCtrlSeg.writer(wide, 0).opcode(SendWqeOpcode.NOP).wqe_index(sq.pc).qpn(sq.sqn).ds(8)
                .ce(io.prmkit.mlx5.CompletionMode.CQE_ALWAYS).write();
        sq.put(wide, 2);
        sq.ring();
        n.poll();
        MemorySegment ok = txCq.drain().get(0);
        assertEquals(CqeOpcode.REQ.value, Cqe64.opcode(ok), () -> "syndrome " + ErrCqe.syndrome(ok) + " vendor " + ErrCqe.vendor_err_synd(ok));
        assertEquals(SendWqeOpcode.NOP.value, Cqe64.s_wqe_opcode(ok));

        MemorySegment late = nop();
        io.prmkit.mlx5.WqeCtrlSeg.wqe_index$set(late, 0, sq.pc + 1);
        sq.put(late, 1);
        sq.ring();
        n.poll();
        MemorySegment e = onlyError();
        assertEquals(CqeErrorSyndrome.LOCAL_QP_OP_ERR.value, ErrCqe.syndrome(e));
        assertEquals(VENDOR_BAD_QPN_OR_INDEX, ErrCqe.vendor_err_synd(e));
        assertEquals(2, ErrCqe.wqe_counter(e));

        assertEquals(SqState.ERR.value, sq.state());
        sq.recover();
        long entries = io.prmkit.mlx5.WqeCtrlSeg.SIZE + io.prmkit.mlx5.WqeUmrCtrlSeg.SIZE + io.prmkit.mlx5.Mkc.SIZE;
        int ds = (int) (entries / 16) + 1;
        MemorySegment umr = MemorySegment.ofArray(new byte[(ds + 3) / 4 * 64]);
        io.prmkit.mlx5.WqeCtrlSeg.writer(umr, 0).opcode(SendWqeOpcode.UMR).wqe_index(sq.pc).qpn(sq.sqn).ds(ds).imm(0x100).write();
        io.prmkit.mlx5.WqeUmrCtrlSeg.umr_flags$set(umr, io.prmkit.mlx5.WqeCtrlSeg.SIZE, io.prmkit.mlx5.UmrCtrlFlags.INLINE$MASK);
        io.prmkit.mlx5.WqeUmrCtrlSeg.klm_octowords$set(umr, io.prmkit.mlx5.WqeCtrlSeg.SIZE, 4); // one entry follows, not 4
        sq.put(umr, (ds + 3) / 4);
        sq.ring();
        n.poll();
        MemorySegment u = onlyError();
        assertEquals(CqeErrorSyndrome.LOCAL_QP_OP_ERR.value, ErrCqe.syndrome(u));
        assertEquals(VENDOR_UMR, ErrCqe.vendor_err_synd(u));
        assertEquals(SendWqeOpcode.UMR.value, ErrCqe.s_wqe_opcode(u));
    }

    @Test
    void badOpcodeIsLocalQpOpErrorAndTheSqStopsUntilReset() {
        byte[] f = TestFrames.ipv4(Ethernet.PROTO_UDP, 1, 2, new byte[50]);
        MemorySegment host = put(f, 0);
        rq.post(8, lkey);
        sq.send(lkey, tx.bus(), f.length, host, 18, 0, true);
        MemorySegment w = MemorySegment.ofArray(new byte[64]);
        io.prmkit.mlx5.WqeCtrlSeg.writer(w, 0).opcode(SendWqeOpcode.RDMA_READ).wqe_index(sq.pc).qpn(sq.sqn).ds(1).write();
        sq.put(w, 1);
        sq.send(lkey, tx.bus(), f.length, host, 18, 0, true);
        sq.ring();
        n.poll();
        List<MemorySegment> t = txCq.drain();
        assertEquals(2, t.size());
        assertEquals(CqeOpcode.REQ.value, Cqe64.opcode(t.get(0)));
        MemorySegment e = t.get(1);
        assertEquals(CqeOpcode.REQ_ERR.value, ErrCqe.opcode(e));
        assertEquals(CqeErrorSyndrome.LOCAL_QP_OP_ERR.value, ErrCqe.syndrome(e));
        assertEquals(1, ErrCqe.wqe_counter(e));
        assertEquals(SendWqeOpcode.RDMA_READ.value, ErrCqe.s_wqe_opcode(e));
        assertEquals(sq.sqn, ErrCqe.qpn(e));
        assertEquals(SqState.ERR.value, sq.state());
        // rung again: nothing runs in ERR
        sq.ring();
        n.poll();
        assertEquals(1, rxCq.drain().size());
        assertTrue(txCq.drain().isEmpty());
        // MODIFY_SQ ERR -> RST -> RDY: counters restart at 0
        sq.recover();
        assertEquals(0, sq.hwCounter());
        sq.send(lkey, tx.bus(), f.length, host, 18, 0, true);
        sq.ring();
        n.poll();
        assertEquals(CqeOpcode.REQ.value, Cqe64.opcode(txCq.drain().get(0)));
    }

    @Test
    void flushInErrorCompletesTheWqesBehindAFailureWithFlushErrors() {
        Nic.Sq sq = n.new Sq(4, txCq, InlineMode.L2$VALUE, (in, ctx) -> io.prmkit.mlx5.Sqc.flush_in_error_en$set(in, ctx, true));
        byte[] f = TestFrames.ipv4(Ethernet.PROTO_UDP, 1, 2, new byte[50]);
        MemorySegment host = put(f, 0);
        rq.post(8, lkey);
        sq.send(lkey, tx.bus(), f.length, host, 18, 0, false);
        sq.send(0x7777, tx.bus(), f.length, host, 18, 0, false); // bad key
        sq.send(lkey, tx.bus(), f.length, host, 18, 0, false);
        sq.put(nop(), 1);
        sq.ring();
        n.poll();
        List<MemorySegment> t = txCq.drain();
        assertEquals(3, t.size(), "the error, then one flush per WQE behind it");
        assertEquals(CqeErrorSyndrome.LOCAL_PROT_ERR.value, ErrCqe.syndrome(t.get(0)));
        assertEquals(1, ErrCqe.wqe_counter(t.get(0)));
        for (int i = 1; i < 3; i++) {
            assertEquals(CqeOpcode.REQ_ERR.value, ErrCqe.opcode(t.get(i)));
            assertEquals(CqeErrorSyndrome.WR_FLUSH_ERR.value, ErrCqe.syndrome(t.get(i)));
            assertEquals(i + 1, ErrCqe.wqe_counter(t.get(i)));
        }
        assertEquals(SendWqeOpcode.NOP.value, ErrCqe.s_wqe_opcode(t.get(2)));
        assertEquals(1, rxCq.drain().size(), "only the first frame left");
        // posted while in ERR: flushed too, nothing sent
        sq.send(lkey, tx.bus(), f.length, host, 18, 0, true);
        sq.ring();
        n.poll();
        MemorySegment fl = txCq.drain().get(0);
        assertEquals(CqeErrorSyndrome.WR_FLUSH_ERR.value, ErrCqe.syndrome(fl));
        assertEquals(4, ErrCqe.wqe_counter(fl));
        assertTrue(rxCq.drain().isEmpty());
        assertEquals(SqState.ERR.value, sq.state());
    }

    @Test
    void zeroDsIsLocalQpOpError() {
        MemorySegment w = MemorySegment.ofArray(new byte[64]);
        io.prmkit.mlx5.WqeCtrlSeg.writer(w, 0).opcode(SendWqeOpcode.SEND).wqe_index(0).qpn(sq.sqn).ds(0).write();
        sq.put(w, 1);
        sq.ring();
        n.poll();
        assertEquals(CqeErrorSyndrome.LOCAL_QP_OP_ERR.value, ErrCqe.syndrome(onlyError()));
    }

    @Test
    void unknownKeyOrMissingRightOrOutOfBoundsIsLocalProtectionError() {
        int noRead = n.paKey(false, true);
        byte[] f = TestFrames.ipv4(Ethernet.PROTO_UDP, 1, 2, new byte[50]);
        MemorySegment host = put(f, 0);
        for (int key : new int[] {0x7777, noRead, lkey}) {
            long addr = key == lkey ? 0x10L : tx.bus(); // bus address 0x10 is not mapped: DMA fault
            sq.send(key, addr, f.length, host, 18, 0, true);
            sq.ring();
            n.poll();
            MemorySegment e = onlyError();
            assertEquals(CqeErrorSyndrome.LOCAL_PROT_ERR.value, ErrCqe.syndrome(e));
            assertEquals(sq.pc - 1, ErrCqe.wqe_counter(e));
            sq.recover();
        }
        assertEquals(1, n.h.hca.iommu().faults(), "the unmapped bus address");
    }

    @Test
    void frameOverTheMtuIsLocalLengthError() {
        n.setAdminMtu(1000);
        byte[] f = TestFrames.ipv4(Ethernet.PROTO_UDP, 1, 2, new byte[1000]);
        sq.send(lkey, tx.bus(), f.length, put(f, 0), 18, 0, true);
        sq.ring();
        n.poll();
        assertEquals(CqeErrorSyndrome.LOCAL_LENGTH_ERR.value, ErrCqe.syndrome(onlyError()));
        assertEquals(1000, n.adminMtu());
        assertEquals(0, n.framesTransmitted(), "the frame never reached the wire");
    }

    @Test
    void tooLittleInlineForTheQueuesModeIsRefused() {
        byte[] f = TestFrames.ipv4(Ethernet.PROTO_UDP, 1, 2, new byte[50]);
        sq.send(lkey, tx.bus(), f.length, put(f, 0), 0, 0, true);
        sq.ring();
        n.poll();
        assertEquals(CqeErrorSyndrome.LOCAL_QP_OP_ERR.value, ErrCqe.syndrome(onlyError()));
    }

    @Test
    void noPostedReceiveWqeDropsIntoOutOfBuffer() {
        byte[] f = TestFrames.ipv4(Ethernet.PROTO_UDP, 1, 2, new byte[50]);
        MemorySegment host = put(f, 0);
        rq.post(1, lkey);
        for (int i = 0; i < 3; i++) sq.send(lkey, tx.bus(), f.length, host, 18, 0, true);
        sq.ring();
        n.poll();
        assertEquals(3, txCq.drain().size());
        assertEquals(1, rxCq.drain().size());
        assertEquals(2, n.outOfBuffer());
        assertEquals(2, n.inDiscards());
    }

    @Test
    void vlanInsertedOnSendIsStrippedOnReceive() {
        Nic.Sq sq = n.new Sq(4, txCq, InlineMode.NONE$VALUE); // a queue that does not require inline headers
        byte[] f = TestFrames.ipv4(Ethernet.PROTO_TCP, 1, 2, TestFrames.payload(60, 0));
        put(f, 0);
        rq.post(1, lkey);
        long o = sq.ctrl(SendWqeOpcode.SEND, 3, true);
        WqeEthSeg.writer(sq.ring.seg(), o + 16).insert_vlan(true).vlan_tci(0x2064).cs_flags(EthCsFlags.L4_CSUM$MASK).write();
        WqeDataSeg.writer(sq.ring.seg(), o + 32).byte_count(f.length).lkey(lkey).addr(tx.bus()).write();
        sq.pc++;
        sq.ring();
        n.poll();
        List<MemorySegment> t = txCq.drain();
        assertEquals(CqeOpcode.REQ.value, Cqe64.opcode(t.get(0)), () -> "syndrome " + ErrCqe.syndrome(t.get(0)));
        MemorySegment rc = rxCq.drain().get(0);
        assertTrue(Cqe64.vlan_present(rc));
        assertEquals(0x2064, Cqe64.vlan_info(rc));
        assertEquals(f.length, Cqe64.byte_cnt(rc));
        assertNotEquals(0, Cqe64.hds_ip_ext(rc) & CqeHdsIpExt.L4_OK$MASK);
        byte[] got = rq.buffer(0, f.length);
        assertArrayEquals(java.util.Arrays.copyOf(f, 40), java.util.Arrays.copyOf(got, 40)); // untagged again
    }

    @Test
    void lsoSegmentsByMssAndEachSegmentArrivesWithGoodChecksums() {
        byte[] payload = TestFrames.payload(3000, 5);
        byte[] f = TestFrames.ipv4(TestFrames.DMAC, Ethernet.PROTO_TCP, new byte[] {1, 1, 1, 1}, new byte[] {2, 2, 2, 2}, 9, 10, payload, Ethernet.TCP_ACK);
        MemorySegment host = put(f, 0);
        rq.post(4, lkey);
        int hdr = 14 + 20 + 20;
        int extra = (hdr - 2 + 15) / 16;
        int ds = 2 + extra + 1;
        long o = sq.ctrl(SendWqeOpcode.LSO, ds, true);
        MemorySegment w = MemorySegment.ofArray(new byte[(ds + 3) / 4 * 64]);
        MemorySegment.copy(sq.ring.seg(), o, w, 0, 16);
        WqeEthSeg.writer(w, 16).mss(1400).inline_hdr_sz(hdr).cs_flags(EthCsFlags.L3_CSUM$MASK | EthCsFlags.L4_CSUM$MASK).write();
        MemorySegment.copy(host, 0, w, 16 + WqeEthSeg.inline_hdr_start$BYTE_OFFSET, 2);
        MemorySegment.copy(host, 2, w, 32, hdr - 2);
        WqeDataSeg.writer(w, 16L * (2 + extra)).byte_count(f.length - hdr).lkey(lkey).addr(tx.bus() + hdr).write();
        sq.put(w, (ds + 3) / 4);
        sq.ring();
        n.poll();
        assertEquals(CqeOpcode.REQ.value, Cqe64.opcode(txCq.drain().get(0)));
        List<MemorySegment> r = rxCq.drain();
        assertEquals(3, r.size());
        int total = 0;
        for (int i = 0; i < 3; i++) {
            MemorySegment rc = r.get(i);
            assertEquals(CqeHdsIpExt.L3_OK$MASK | CqeHdsIpExt.L4_OK$MASK, Cqe64.hds_ip_ext(rc) & (CqeHdsIpExt.L3_OK$MASK | CqeHdsIpExt.L4_OK$MASK), "segment " + i);
            total += Cqe64.byte_cnt(rc) - hdr;
        }
        assertEquals(3000, total);
        assertEquals(3, n.framesTransmitted());
    }

    @Test
    void armedCqRaisesOneCompletionEventAndInterrupt() {
        byte[] f = TestFrames.ipv4(Ethernet.PROTO_UDP, 1, 2, new byte[50]);
        MemorySegment host = put(f, 0);
        rq.post(4, lkey);
        txCq.arm();
        eq.arm();
        n.poll();
        assertEquals(List.of(), n.interrupts, "nothing to signal yet");
        sq.send(lkey, tx.bus(), f.length, host, 18, 0, true);
        sq.send(lkey, tx.bus(), f.length, host, 18, 0, true);
        sq.ring();
        n.poll();
        MemorySegment e = eq.next();
        assertNotNull(e, "completion EQE");
        assertEquals(EqeType.COMP.value, Eqe.event_type(e));
        assertEquals(txCq.cqn, Eqe.cqn(e));
        assertNull(eq.next(), "one event per arming");
        assertEquals(List.of(Nic.VECTOR), n.interrupts);
        assertEquals(2, txCq.drain().size());
    }

    @Test
    void cqOverrunRaisesACqErrorEvent() {
        byte[] f = TestFrames.ipv4(Ethernet.PROTO_UDP, 1, 2, new byte[50]);
        MemorySegment host = put(f, 0);
        for (int i = 0; i < 17; i++) {
            sq.send(lkey, tx.bus(), f.length, host, 18, 0, true);
            if (i == 15) {
                sq.ring();
                n.poll();
            }
        }
        sq.ring();
        n.poll();
        MemorySegment e = eq.next();
        assertNotNull(e);
        assertEquals(EqeType.CQ_ERROR.value, Eqe.event_type(e));
        assertEquals(txCq.cqn, Eqe.cq_error_cqn(e));
        assertEquals(io.prmkit.mlx5.CqErrorSyndrome.OVERRUN.value, Eqe.cq_error_syndrome(e));
    }

    @Test
    void injectedErrorHitsTheNthWqe() {
        byte[] f = TestFrames.ipv4(Ethernet.PROTO_UDP, 1, 2, new byte[50]);
        MemorySegment host = put(f, 0);
        rq.post(8, lkey);
        n.h.hca.faults().failWqe(sq.sqn, 3, CqeErrorSyndrome.LOCAL_LENGTH_ERR);
        for (int i = 0; i < 4; i++) sq.send(lkey, tx.bus(), f.length, host, 18, 0, true);
        sq.ring();
        n.poll();
        List<MemorySegment> t = txCq.drain();
        assertEquals(3, t.size());
        assertEquals(CqeOpcode.REQ_ERR.value, ErrCqe.opcode(t.get(2)));
        assertEquals(2, ErrCqe.wqe_counter(t.get(2)));
        assertEquals(CqeErrorSyndrome.LOCAL_LENGTH_ERR.value, ErrCqe.syndrome(t.get(2)));
        assertEquals(SendWqeOpcode.SEND.value, ErrCqe.s_wqe_opcode(t.get(2)));
    }

    @Test
    void linkDownAndUpPostPortChangeEventsAndFramesAreLostMeanwhile() {
        n.h.hca.faults().link(false);
        n.poll();
        MemorySegment e = eq.next();
        assertEquals(EqeType.PORT_CHANGE.value, Eqe.event_type(e));
        assertEquals(io.prmkit.mlx5.PortChangeSubtype.DOWN.value, Eqe.event_sub_type(e));
        assertEquals(1, Eqe.port_num(e));
        assertEquals(Nic.DOWN, n.operStatus(), "PAOS oper_status down");
        byte[] f = TestFrames.ipv4(Ethernet.PROTO_UDP, 1, 2, new byte[50]);
        rq.post(1, lkey);
        sq.send(lkey, tx.bus(), f.length, put(f, 0), 18, 0, true);
        sq.ring();
        n.poll();
        assertEquals(CqeOpcode.REQ.value, Cqe64.opcode(txCq.drain().get(0)), "a send on a dead link completes; the frame is lost");
        assertTrue(rxCq.drain().isEmpty());
        n.h.hca.faults().link(true);
        n.poll();
        assertEquals(io.prmkit.mlx5.PortChangeSubtype.ACTIVE.value, Eqe.event_sub_type(eq.next()));
        assertEquals(Nic.UP, n.operStatus(), "PAOS oper_status up");
    }
}

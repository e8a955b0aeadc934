package io.prmkit.softhca.datapath;

import io.prmkit.mlx5.CompletionMode;
import io.prmkit.mlx5.CqeErrorSyndrome;
import io.prmkit.mlx5.CqeOpcode;
import io.prmkit.mlx5.EthCsFlags;
import io.prmkit.layout.PrmLayout;
import io.prmkit.mlx5.PrmWqes;
import io.prmkit.mlx5.SendWqeOpcode;
import io.prmkit.mlx5.SqState;
import io.prmkit.mlx5.Sqc;
import io.prmkit.mlx5.Wq;
import io.prmkit.mlx5.WqDoorbellRecord;
import io.prmkit.mlx5.WqeCtrlSeg;
import io.prmkit.mlx5.WqeDataSeg;
import io.prmkit.mlx5.WqeEthSeg;
import io.prmkit.mlx5.WqeInlineSeg;
import io.prmkit.softhca.device.DeviceContext;
import io.prmkit.softhca.device.Resources;
import io.prmkit.softhca.device.Queues;
import io.prmkit.softhca.wire.Bytes;
import io.prmkit.softhca.wire.Ethernet;
import io.prmkit.softhca.wire.ParsedFrame;
import io.prmkit.softhca.wire.Port;
import io.prmkit.softhca.wire.TxOffload;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * Executes one SQ's WQEs (PRM "Send WQE format", "Ethernet Segment"): from the device's consumer
 * counter up to the doorbell record's send counter, WQE by WQE (a WQE that wraps the ring end is
 * read across it). SEND and LSO gather the frame from the inline headers, inline data segments and
 * data segments (through {@link MemoryAccess}), apply the Ethernet segment's offloads and put the
 * frames on the port; NOP does nothing; UMR rewrites a memory key ({@link Umr}). A CQE follows as
 * {@code ce} asks; a failing WQE gets an error CQE with its {@code wqe_index} and the SQ moves to ERR,
 * where it executes nothing until software takes it through RST back to RDY. With
 * {@code flush_in_error_en}, WQEs posted behind the failed one (and any posted while in ERR) complete
 * with WR_FLUSH_ERR CQEs, one per WQE, as Linux's recovery expects.
 *
 * <p>What a SEND or LSO WQE must be comes from the spec: the bundled {@code tx_wqe} declaration's
 * rules (its size against {@code ds}, {@code wqe_index} and {@code qpn}, {@code mss} against the
 * opcode, the inline headers against the SQ's {@code min_wqe_inline_mode}), checked by the generated
 * validator ({@code PrmWqes.TX_WQE}, one reusable checker per SQ) before the WQE runs; a broken rule
 * is a LOCAL_QP_OP_ERR. NOP and UMR WQEs are checked the same way against the spec's {@code nop_wqe}
 * and {@code umr_wqe} (size, {@code wqe_index}, {@code qpn}; UMR's translation entries against
 * {@code klm_octowords}); what only this model limits or the target key decides is {@link Umr}'s.
 * Whether a data segment lies in its memory key is checked where the bytes
 * are read ({@link MemoryAccess}, with the PD, as LOCAL_PROT_ERR). Vendor syndromes in error CQEs are
 * the model's own (the PRM leaves them to firmware): see {@link #VENDOR_BAD_DS} and its neighbours,
 * and {@link #vendorOf} for the rules.
 */
final class SendQueueEngine {
    static final int MAX_WQEBBS = 16;
    /** The producer counter wraps at the width of the doorbell record's send counter (16 bits). */
    static final int PC_MASK = (1 << WqDoorbellRecord.send_counter$BIT_WIDTH) - 1;
    /** Largest LSO frame (headers + payload) the model accepts. */
    static final int MAX_LSO = 256 * 1024;
    static final int HEADROOM = 16;
    static final int OK = 0;
    static final int QP_OP = CqeErrorSyndrome.LOCAL_QP_OP_ERR$VALUE;
    static final int LENGTH = CqeErrorSyndrome.LOCAL_LENGTH_ERR$VALUE;
    static final int PROT = CqeErrorSyndrome.LOCAL_PROT_ERR$VALUE;
    // Vendor syndromes (err_cqe.vendor_err_synd) the model reports; ours, documented in docs/soft-hca.md.
    static final int VENDOR_BAD_DS = 0x01;
    static final int VENDOR_BAD_OPCODE = 0x02;
    static final int VENDOR_BAD_QPN_OR_INDEX = 0x03;
    static final int VENDOR_INLINE_TOO_SHORT = 0x04;
    static final int VENDOR_BAD_ETH_SEG = 0x05;
    static final int VENDOR_DATA_SEG = 0x06;
    static final int VENDOR_FRAME_LENGTH = 0x07;
    static final int VENDOR_UMR = 0x08;
    /** A rule of the spec's tx_wqe this model has no syndrome of its own for. */
    static final int VENDOR_WQE_RULE = 0x09;
    static final int VENDOR_INJECTED = 0x7f;

    final Queues.Sq sq;
    final int sqn;
    private final DeviceContext ctx;
    private final MemoryAccess mem;
    private final Port port;
    private final Counters counters;
    private final Umr umr;
    private final int logSize;
    private final int mask;
    private final RingView ring;
    private final MemorySegment dbr;
    private final int pd;
    private final boolean rlky;
    /** The spec's send WQE rules, checked before a SEND or LSO runs (PrmWqes.TX_WQE). */
    private final PrmLayout.Wqe.Checker txRules;
    private final int counterGiven;
    /** Vendor syndrome per tx_wqe rule (index of PrmWqes.TX_WQE.rules(); the last: the size rule). */
    private final int[] txVendor;
    /** The spec's NOP and UMR WQE rules (PrmWqes.NOP_WQE, UMR_WQE), their counter givens and vendor syndromes. */
    private final PrmLayout.Wqe.Checker nopRules;
    private final PrmLayout.Wqe.Checker umrRules;
    private final int nopCounter;
    private final int umrCounter;
    private final int[] nopVendor;
    private final int[] umrVendor;
    private final boolean regUmr;
    private final boolean flushInError;
    long flushed;
    CqState cq;
    private final MemorySegment wqeCopy;
    private final MemorySegment frame;
    private final MemorySegment lsoOut;
    private final ParsedFrame parsed = new ParsedFrame();
    private final TxOffload.SegmentSink lsoSink = this::sendSegment;
    private boolean lsoVlan;
    private boolean lsoSvlan;
    private int lsoTci;
    /** Error injection: the WQE with this execution count fails with {@link #injectSyndrome}. */
    long injectAt = -1;
    int injectSyndrome;
    long executed;
    long errors;
    /** Vendor syndrome of the last error (for tests and the error CQE). */
    int lastVendor;
    /** The device's trace (null: off): a line and the failed WQE's control segment per error CQE. */
    java.util.function.Consumer<String> trace;

    SendQueueEngine(Queues.Sq sq, DeviceContext ctx, MemoryAccess mem, Port port, Counters counters, CqState cq) {
        this.sq = sq;
        this.sqn = sq.sqn;
        this.ctx = ctx;
        this.mem = mem;
        this.port = port;
        this.counters = counters;
        this.cq = cq;
        this.umr = new Umr(ctx.objects(), mem);
        MemorySegment sqc = sq.sqc;
        long wq = Sqc.wq$BYTE_OFFSET;
        this.logSize = Wq.log_wq_sz(sqc, wq);
        this.mask = (1 << logSize) - 1;
        this.ring = new RingView(sq.ring, 64L << logSize, ctx.iommu());
        this.dbr = ctx.iommu().slice(sq.dbr, WqDoorbellRecord.SIZE);
        this.pd = Wq.pd(sqc, wq);
        this.rlky = Sqc.rlky(sqc);
        this.txRules = PrmWqes.TX_WQE.checker(PrmLayout.Wqe.Context.none().with("min_wqe_inline_mode", Sqc.min_wqe_inline_mode(sqc))
                .with("sqn", sqn).with("wqe_counter", 0));
        this.counterGiven = txRules.given("wqe_counter");
        this.txVendor = vendors(PrmWqes.TX_WQE, VENDOR_WQE_RULE);
        PrmLayout.Wqe.Context queue = PrmLayout.Wqe.Context.none().with("sqn", sqn).with("wqe_counter", 0);
        this.nopRules = PrmWqes.NOP_WQE.checker(queue);
        this.umrRules = PrmWqes.UMR_WQE.checker(queue);
        this.nopCounter = nopRules.given("wqe_counter");
        this.umrCounter = umrRules.given("wqe_counter");
        this.nopVendor = vendors(PrmWqes.NOP_WQE, VENDOR_WQE_RULE);
        this.umrVendor = vendors(PrmWqes.UMR_WQE, VENDOR_UMR);
        this.regUmr = Sqc.reg_umr(sqc);
        this.flushInError = Sqc.flush_in_error_en(sqc);
        Arena arena = Arena.ofAuto();
        this.wqeCopy = arena.allocate(MAX_WQEBBS * 64, 64);
        this.frame = arena.allocate(HEADROOM + MAX_LSO + 64, 64);
        this.lsoOut = arena.allocate(HEADROOM + 65536 + 64, 64);
    }

    /** Runs posted WQEs (at most {@code budget}); returns how many ran. */
    int process(int budget) {
        boolean flushing = sq.state() == SqState.ERR$VALUE && flushInError;
        if ((sq.state() != SqState.RDY$VALUE && !flushing) || dbr == null) return 0;
        int posted;
        try {
            posted = WqDoorbellRecord.send_counter(dbr);
        } catch (IllegalStateException e) {
            return 0;
        }
        int pc = sq.consumerCounter() & PC_MASK;
        int n = 0;
        while (pc != posted && n < budget) {
            int avail = (posted - pc) & PC_MASK;
            n++;
            if (flushing) {
                pc = (pc + flushOne(pc, avail)) & PC_MASK;
                continue;
            }
            int status = runOne(pc, avail);
            if (status < 0) { // the SQ went to ERR; fail() set its counter
                if (!flushInError) return n;
                flushing = true;
                pc = sq.consumerCounter() & PC_MASK;
                continue;
            }
            pc = (pc + status) & PC_MASK;
        }
        sq.setConsumerCounter(pc);
        return n;
    }

    /**
     * In ERR with {@code flush_in_error_en}: the WQE at {@code pc} is not executed but completed with
     * a WR_FLUSH_ERR CQE carrying its counter and opcode (whatever its {@code ce}); returns its WQEBBs.
     */
    private int flushOne(int pc, int avail) {
        int nbb = 1;
        int opcode = 0;
        long off = (long) (pc & mask) << 6;
        MemorySegment first = ring.segment(off, 64);
        long fo = ring.offsetIn(off);
        try {
            if (first != null) {
                nbb = Math.min(avail, Math.min(MAX_WQEBBS, Math.max(1, (WqeCtrlSeg.ds(first, fo) + 3) >>> 2)));
                opcode = WqeCtrlSeg.opcode(first, fo);
            }
        } catch (IllegalStateException e) {
            mem.dmaFaults++;
        }
        flushed++;
        CqState c = cq;
        if (c != null) {
            try {
                if (c.reserve()) {
                    c.errBody().syndrome(CqeErrorSyndrome.WR_FLUSH_ERR$VALUE).s_wqe_opcode(opcode).qpn(sqn).wqe_counter(pc).write();
                    c.publish(CqeOpcode.REQ_ERR, false);
                }
            } catch (IllegalStateException e) {
                c.lost();
            }
        }
        return nbb;
    }

    /** Runs the WQE at {@code pc}; returns its WQEBB count, or -1 after an error CQE (SQ now in ERR). */
    private int runOne(int pc, int avail) {
        long off = (long) (pc & mask) << 6;
        MemorySegment first = ring.segment(off, 64);
        if (first == null) return fail(pc, 0, PROT, VENDOR_DATA_SEG, 1);
        long fo = ring.offsetIn(off);
        MemorySegment w;
        long wo;
        int ds;
        try {
            ds = WqeCtrlSeg.ds(first, fo);
            int nbb = Math.max(1, (ds + 3) >>> 2);
            int opcode = WqeCtrlSeg.opcode(first, fo);
            if (ds == 0 || nbb > MAX_WQEBBS || nbb > avail || nbb > mask + 1) {
                return fail(pc, opcode, QP_OP, VENDOR_BAD_DS, 1);
            }
            if ((pc & mask) + nbb <= mask + 1 && ring.whole != null) {
                w = ring.whole;
                wo = off;
            } else {
                if (!ring.copyWrapped(off, nbb * 64, wqeCopy)) return fail(pc, opcode, PROT, VENDOR_DATA_SEG, nbb);
                w = wqeCopy;
                wo = 0;
            }
            executed++;
            if (executed == injectAt) return fail(pc, opcode, injectSyndrome, VENDOR_INJECTED, nbb);
            boolean eth = opcode == SendWqeOpcode.SEND$VALUE || opcode == SendWqeOpcode.LSO$VALUE;
            if (eth) {
                txRules.set(counterGiven, pc);
                int broken = txRules.firstBroken(w, wo, (long) ds << 4);
                if (broken >= 0) return fail(pc, opcode, QP_OP, txVendor[broken], nbb);
            } else if (opcode == SendWqeOpcode.NOP$VALUE) {
                nopRules.set(nopCounter, pc);
                int broken = nopRules.firstBroken(w, wo, (long) ds << 4);
                if (broken >= 0) return fail(pc, opcode, QP_OP, nopVendor[broken], nbb);
            } else if (opcode == SendWqeOpcode.UMR$VALUE && regUmr) {
                umrRules.set(umrCounter, pc);
                int broken = umrRules.firstBroken(w, wo, (long) ds << 4);
                if (broken >= 0) return fail(pc, opcode, QP_OP, umrVendor[broken], nbb);
            }
            int bytes;
            if (eth) {
                bytes = send(w, wo, ds, opcode == SendWqeOpcode.LSO$VALUE);
            } else if (opcode == SendWqeOpcode.NOP$VALUE) {
                bytes = 0;
            } else if (opcode == SendWqeOpcode.UMR$VALUE && regUmr) {
                int r = umr.execute(w, wo, pd, rlky, frame);
                bytes = r == OK ? 0 : -((r << 8) | VENDOR_UMR);
            } else {
                return fail(pc, opcode, QP_OP, VENDOR_BAD_OPCODE, nbb);
            }
            if (bytes < 0) {
                int code = -bytes;
                return fail(pc, opcode, code >>> 8, code & 0xff, nbb);
            }
            int ce = WqeCtrlSeg.ce(w, wo);
            if (ce == CompletionMode.CQE_ALWAYS$VALUE || ce == CompletionMode.CQE_AND_EQE$VALUE) {
                complete(pc, opcode, bytes, WqeCtrlSeg.se(w, wo), ce == CompletionMode.CQE_AND_EQE$VALUE);
            }
            return nbb;
        } catch (IllegalStateException | IndexOutOfBoundsException e) {
            // The ring's memory went away under the device (freed while mapped): a DMA fault.
            mem.dmaFaults++;
            return fail(pc, 0, PROT, VENDOR_DATA_SEG, 1);
        }
    }

    private static int err(int syndrome, int vendor) {
        return -((syndrome << 8) | vendor);
    }

    /**
     * The model's vendor syndrome for a broken rule of the spec's send WQEs: the syndromes it reported
     * before the rules came from the spec, by what each rule is about; {@code other} for the rest
     * (a UMR's own rules: {@link #VENDOR_UMR}).
     */
    static int vendorOf(String rule, int other) {
        return switch (rule) {
            case "size" -> other == VENDOR_UMR ? VENDOR_UMR : VENDOR_BAD_DS;
            case "wqe_index_is_counter", "qpn_is_sq" -> VENDOR_BAD_QPN_OR_INDEX;
            case "lso_needs_mss", "mss_only_for_lso" -> VENDOR_BAD_ETH_SEG;
            case "min_inline" -> VENDOR_INLINE_TOO_SHORT;
            case "data_in_mkey" -> VENDOR_DATA_SEG;
            default -> other;
        };
    }

    /** Vendor syndrome per rule of {@code wqe} (index of its rules(); the last: the size rule). */
    private static int[] vendors(PrmLayout.Wqe wqe, int other) {
        int[] v = new int[wqe.rules().size() + 1];
        for (int i = 0; i < v.length; i++) v[i] = vendorOf(i < wqe.rules().size() ? wqe.rules().get(i).name() : "size", other);
        return v;
    }

    /**
     * Gathers, offloads and transmits a SEND or LSO WQE whose spec rules hold (the segments fit ds,
     * mss goes with LSO, the inline headers reach the min inline mode); bytes put on the wire, or an
     * encoded error.
     */
    private int send(MemorySegment w, long wo, int ds, boolean lso) {
        long eth = wo + WqeCtrlSeg.SIZE;
        int mss = WqeEthSeg.mss(w, eth);
        boolean vlan = WqeEthSeg.insert_vlan(w, eth);
        int used = 2;
        long at = HEADROOM;
        int inlineHeaders = 0;
        if (!vlan) {
            inlineHeaders = WqeEthSeg.inline_hdr_sz(w, eth);
            if (inlineHeaders > 0) {
                int first = WqeEthSeg.inline_hdr_start$LENGTH; // in the Ethernet segment; the rest follows it
                int more = Math.max(0, inlineHeaders - first);
                used += (more + 15) >>> 4;
                if (used == ds && !lso) {
                    int sent = sendInline(w, eth, inlineHeaders);
                    if (sent != NOT_INLINE) return sent;
                }
                // inline_hdr_start ends the segment and the rest follows it: one run of WQE bytes, one copy
                Bytes.copy(w, eth + WqeEthSeg.inline_hdr_start$BYTE_OFFSET, frame, at, inlineHeaders);
                at += inlineHeaders;
            }
        }
        while (used < ds) {
            long seg = wo + ((long) used << 4);
            if (WqeInlineSeg.inline_flag(w, seg)) {
                int n = WqeInlineSeg.byte_count(w, seg);
                int units = (4 + n + 15) >>> 4; // within ds: the size rule held
                Bytes.copy(w, seg + WqeInlineSeg.data$BYTE_OFFSET, frame, at, n);
                at += n;
                used += units;
            } else {
                int n = WqeDataSeg.byte_count(w, seg);
                if (n < 0 || at - HEADROOM + n > (lso ? MAX_LSO : 65536)) return err(LENGTH, VENDOR_FRAME_LENGTH);
                int r = mem.copy(WqeDataSeg.lkey(w, seg), WqeDataSeg.addr(w, seg), n, frame, at, false, pd, rlky);
                if (r != OK) return err(r, VENDOR_DATA_SEG);
                at += n;
                used++;
            }
        }
        int len = (int) (at - HEADROOM);
        if (len < Ethernet.ETH_HLEN) return err(LENGTH, VENDOR_FRAME_LENGTH);
        int cs = WqeEthSeg.cs_flags(w, eth);
        // Only checksum offloads and LSO need the L3/L4 headers parsed.
        ParsedFrame f = lso || (cs & (EthCsFlags.L3_CSUM$MASK | EthCsFlags.L4_CSUM$MASK)) != 0 ? parsed.parse(frame, HEADROOM, len, false) : null;
        boolean svlan = vlan && WqeEthSeg.svlan(w, eth);
        int tci = vlan ? WqeEthSeg.vlan_tci(w, eth) : 0;
        if (lso) {
            if (f.l4 != ParsedFrame.L4.TCP && f.l4 != ParsedFrame.L4.UDP) return err(QP_OP, VENDOR_BAD_ETH_SEG);
            if (f.l4Offset + f.l4HeaderLength + mss > 65536 - 64) return err(LENGTH, VENDOR_FRAME_LENGTH);
            int seg = f.l4Offset + f.l4HeaderLength + Math.min(mss, f.payloadLength);
            if (seg + (vlan ? 4 : 0) > port.maxFrame()) return err(LENGTH, VENDOR_FRAME_LENGTH);
            lsoVlan = vlan;
            lsoSvlan = svlan;
            lsoTci = tci;
            TxOffload.segment(frame, HEADROOM, f, mss, lsoOut, HEADROOM, lsoSink);
            return len;
        }
        if (len + (vlan ? 4 : 0) > port.maxFrame()) return err(LENGTH, VENDOR_FRAME_LENGTH);
        if ((cs & EthCsFlags.L3_CSUM$MASK) != 0) TxOffload.fillL3Checksum(frame, HEADROOM, f);
        if ((cs & EthCsFlags.L4_CSUM$MASK) != 0) TxOffload.fillL4Checksum(frame, HEADROOM, f);
        long start = HEADROOM;
        if (vlan) {
            start = TxOffload.insertVlan(frame, start, svlan, tci);
            len += 4;
        }
        transmit(frame, start, len);
        return len;
    }

    /** {@link #sendInline}'s answer when the frame needs the staging buffer after all. */
    private static final int NOT_INLINE = Integer.MIN_VALUE;

    /**
     * A frame that lies whole in the WQE's inline headers and that the device leaves as it is (no
     * checksum to fill, no padding; no VLAN insert or LSO, checked by the caller) goes on the wire
     * straight from the WQE, as the DMA engine would stream it, instead of through the staging buffer
     * (64-byte frames, driver and device on one thread: 139-142 against 150-154 ns of CPU per frame in
     * paired rounds). Nothing downstream writes the frame (the wire copies before it corrupts).
     * Returns the bytes sent, an encoded error, or {@link #NOT_INLINE}.
     */
    private int sendInline(MemorySegment w, long eth, int len) {
        int cs = WqeEthSeg.cs_flags(w, eth);
        if (len < Ethernet.MIN_FRAME || (cs & (EthCsFlags.L3_CSUM$MASK | EthCsFlags.L4_CSUM$MASK)) != 0) return NOT_INLINE;
        if (len > port.maxFrame()) return err(LENGTH, VENDOR_FRAME_LENGTH);
        transmit(w, eth + WqeEthSeg.inline_hdr_start$BYTE_OFFSET, len);
        return len;
    }

    private void sendSegment(MemorySegment buf, long start, int len) {
        if (lsoVlan) {
            start = TxOffload.insertVlan(buf, start, lsoSvlan, lsoTci);
            len += 4;
        }
        transmit(buf, start, len);
    }

    private void transmit(MemorySegment buf, long start, int len) {
        len = TxOffload.pad(buf, start, len);
        long dmac = ParsedFrame.dmac(buf, start); // read once for the port's and the vport's counters
        if (port.transmit(buf, start, len, dmac)) counters.countTx(dmac, len);
        else counters.txDropped++;
    }

    private void complete(int pc, int opcode, int bytes, boolean se, boolean event) {
        CqState c = cq;
        if (c == null) return;
        if (!c.reserve()) return;
        try {
            c.txBody().wqe_counter(pc).s_wqe_opcode(opcode).qpn(sqn).byte_cnt(bytes).se(se).write();
            c.publish(CqeOpcode.REQ, event);
        } catch (IllegalStateException e) {
            c.lost();
        }
    }

    /** Error CQE for the WQE at {@code pc}, SQ to ERR; returns -1. */
    private int fail(int pc, int opcode, int syndrome, int vendor, int nbb) {
        if (trace != null) traceError(pc, opcode, syndrome, vendor);
        errors++;
        lastVendor = vendor;
        sq.setState(SqState.ERR$VALUE);
        counters.txErrors++;
        CqState c = cq;
        if (c != null) {
            try {
                if (c.reserve()) {
                    c.errBody().syndrome(syndrome).vendor_err_synd(vendor).s_wqe_opcode(opcode).qpn(sqn).wqe_counter(pc).write();
                    c.publish(CqeOpcode.REQ_ERR, false);
                }
            } catch (IllegalStateException e) {
                c.lost();
            }
        }
        // The failed WQE is consumed: after ERR -> RST -> RDY software starts from its own counter.
        sq.setConsumerCounter((pc + nbb) & PC_MASK);
        return -1;
    }

    /**
     * Traces a failed WQE: which, why, and its first WQEBB as the control segment's dump reads it
     * (whatever the bytes; a ring that went away is said so). Never throws into the device.
     */
    private void traceError(int pc, int opcode, int syndrome, int vendor) {
        StringBuilder b = new StringBuilder();
        String name = CqeErrorSyndrome.nameOf(syndrome);
        b.append("sq 0x").append(Integer.toHexString(sqn)).append(": WQE 0x").append(Integer.toHexString(pc)).append(" (opcode 0x")
                .append(Integer.toHexString(opcode)).append(") error CQE ").append(name != null ? name : "0x" + Integer.toHexString(syndrome))
                .append(", vendor syndrome 0x").append(Integer.toHexString(vendor)).append('\n');
        try {
            long off = (long) (pc & mask) << 6;
            MemorySegment first = ring.segment(off, 64);
            if (first == null) b.append("  (WQE not mapped)\n");
            else b.append(WqeCtrlSeg.layout().dump(first, ring.offsetIn(off)));
        } catch (RuntimeException e) {
            b.append("  (WQE not readable: ").append(e).append(")\n");
        }
        try {
            trace.accept(b.toString());
        } catch (RuntimeException e) {
            // the sink is the host's; its failure is not the device's
        }
    }
}

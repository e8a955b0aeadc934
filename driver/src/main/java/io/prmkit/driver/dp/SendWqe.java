package io.prmkit.driver.dp;

import io.prmkit.layout.PrmLayout;
import io.prmkit.mlx5.CompletionMode;
import io.prmkit.mlx5.InlineMode;
import io.prmkit.mlx5.Mkc;
import io.prmkit.mlx5.MkcAccessMode;
import io.prmkit.mlx5.PrmConstants;
import io.prmkit.mlx5.PrmField;
import io.prmkit.mlx5.PrmWqes;
import io.prmkit.mlx5.SendWqeOpcode;
import io.prmkit.mlx5.UmrCtrlFlags;
import io.prmkit.mlx5.UmrMkeyMask;
import io.prmkit.mlx5.WqeCtrlSeg;
import io.prmkit.mlx5.WqeDataSeg;
import io.prmkit.mlx5.WqeEthSeg;
import io.prmkit.mlx5.WqeNop;
import io.prmkit.mlx5.WqeUmrCtrlSeg;
import io.prmkit.mlx5.WqeUmrKlmSeg;
import io.prmkit.net.Ethhdr;
import io.prmkit.net.VlanHdr;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;

/**
 * The send WQEs the driver posts (PRM "Send WQE format"), written in place in the SQ ring with the
 * generated accessors: what each is made of and how big it is. A WQE is a control segment and the
 * segments its opcode needs, counted in 16-byte data segments ({@code ds}) and occupying
 * {@code ceil(ds * 16 / 64)} basic blocks (WQEBBs):
 * <ul>
 *   <li><b>Ethernet SEND / LSO</b> ({@link #ethDs}): ctrl, Ethernet segment (its {@code inline_hdr}
 *       holds the first 2 inline bytes, or a VLAN tag to insert), the other inline bytes rounded up
 *       to whole segments, and one data segment for the bytes not inline ({@link #ctrl},
 *       {@link #ethInline}, {@link #ethVlan}, {@link #data}). The common case, {@link #plain}, is one
 *       WQEBB: the 18-byte L2 header inline and a data segment.</li>
 *   <li><b>NOP</b> ({@link #nop}): one WQEBB, {@code ds} 1, pads the ring to its end.</li>
 *   <li><b>UMR</b> ({@link #umrDs}, {@link #umr}): ctrl, UMR control segment, the mkey context, and
 *       an inline KLM list padded to a multiple of 4 entries.</li>
 * </ul>
 * Where the WQE goes (ring slots, padding, doorbell) is {@link SendRing}'s.
 */
final class SendWqe {
    static final long WQEBB = PrmConstants.send_wqe_bb;
    static final int DS = (int) PrmConstants.send_wqe_ds;
    /** Where the Ethernet segment starts, and its inline bytes. */
    static final long ETH = WqeCtrlSeg.SIZE;
    static final long INLINE_START = ETH + WqeEthSeg.inline_hdr_start$BYTE_OFFSET;
    /** Inline bytes held in the Ethernet segment itself. */
    static final int INLINE_FIRST = (int) WqeEthSeg.inline_hdr_start$LENGTH;
    /** KLM lists are padded to a multiple of 4 entries, 64 bytes (kernel MLX5_UMR_KLM_ALIGNMENT). */
    static final int UMR_KLM_ALIGN = 4;
    /** {@code wqe_index} is the low bits of the producer counter. */
    static final int INDEX_MASK = (1 << WqeCtrlSeg.wqe_index$BIT_WIDTH) - 1;

    /** A plain WQE's size: the 18-byte L2 header inline and one data segment. */
    static final int PLAIN_DS = ethDs(FrameHeaders.MIN_L2_INLINE, true);
    /** Where a plain WQE's data segment starts. */
    static final long PLAIN_DATA = dataAt(FrameHeaders.MIN_L2_INLINE);

    static {
        // A plain WQE is one WQEBB, so a run of them never needs NOP padding at the ring end.
        if (wqebbs(PLAIN_DS) != 1) throw new AssertionError("a plain WQE of " + PLAIN_DS + " DS does not fit one WQEBB");
    }

    private SendWqe() {}

    /** WQEBBs a WQE of {@code ds} segments occupies. */
    static int wqebbs(int ds) {
        return (int) ((ds * DS + WQEBB - 1) / WQEBB);
    }

    /** Inline segments after the Ethernet segment for {@code inlineBytes} inline bytes. */
    private static int inlineDs(int inlineBytes) {
        return inlineBytes > INLINE_FIRST ? (inlineBytes - INLINE_FIRST + DS - 1) / DS : 0;
    }

    /** An Ethernet WQE's {@code ds}: ctrl + eth + inline bytes past the first 2 (+ one data segment). */
    static int ethDs(int inlineBytes, boolean data) {
        return 2 + inlineDs(inlineBytes) + (data ? 1 : 0);
    }

    /** Where an Ethernet WQE with {@code inlineBytes} inline bytes has its data segment. */
    static long dataAt(int inlineBytes) {
        return ETH + WqeEthSeg.SIZE + (long) inlineDs(inlineBytes) * DS;
    }

    /** The control segment: {@code ce} is a {@link CompletionMode} value. */
    static void ctrl(MemorySegment ring, long at, int opcode, int pc, int sqn, int ds, int ce) {
        WqeCtrlSeg.store(ring, at, PrmField.opc_mod, 0, PrmField.wqe_index, pc & INDEX_MASK, PrmField.opcode, opcode, PrmField.qpn, sqn,
                PrmField.ds, ds, PrmField.signature, 0, PrmField.dci_stream_channel_id, 0, PrmField.fm, 0, PrmField.ce, ce,
                PrmField.se, false, PrmField.imm, 0);
    }

    /** The Ethernet segment with {@code inlineBytes} inline headers (their first 2 bytes are copied by the caller). */
    static void ethInline(MemorySegment ring, long at, int cs, int mss, int inlineBytes) {
        WqeEthSeg.store$inline_hdr(ring, at + ETH, PrmField.swp_outer_l4_offset, 0, PrmField.swp_outer_l3_offset, 0,
                PrmField.swp_inner_l4_offset, 0, PrmField.swp_inner_l3_offset, 0, PrmField.cs_flags, cs, PrmField.swp_flags, 0,
                PrmField.mss, mss, PrmField.flow_table_metadata, 0, PrmField.insert_trailer, false, PrmField.trailer_hdr_assoc, 0,
                PrmField.inline_hdr_sz, inlineBytes);
    }

    /** The Ethernet segment asking the device to insert a VLAN tag (no inline headers). */
    static void ethVlan(MemorySegment ring, long at, int cs, int mss, int tci) {
        WqeEthSeg.store$vlan_insert(ring, at + ETH, PrmField.swp_outer_l4_offset, 0, PrmField.swp_outer_l3_offset, 0,
                PrmField.swp_inner_l4_offset, 0, PrmField.swp_inner_l3_offset, 0, PrmField.cs_flags, cs, PrmField.swp_flags, 0,
                PrmField.mss, mss, PrmField.flow_table_metadata, 0, PrmField.svlan, false, PrmField.vlan_tci, tci);
    }

    /** A data segment: {@code bytes} at {@code addr} through {@code lkey}. */
    static void data(MemorySegment ring, long at, int bytes, int lkey, long addr) {
        WqeDataSeg.store(ring, at, PrmField.byte_count, bytes, PrmField.lkey, lkey, PrmField.addr, addr);
    }

    /** A NOP (ds 1, one WQEBB, no completion unless it fails). */
    static void nop(MemorySegment ring, long at, int pc, int sqn) {
        WqeNop.store(ring, at, PrmField.opc_mod, 0, PrmField.wqe_index, pc & INDEX_MASK, PrmField.opcode, SendWqeOpcode.NOP$VALUE,
                PrmField.qpn, sqn, PrmField.ds, 1, PrmField.signature, 0, PrmField.dci_stream_channel_id, 0, PrmField.fm, 0, PrmField.ce, 0,
                PrmField.se, false, PrmField.imm, 0);
    }

    /**
     * The common Ethernet SEND in one WQEBB at {@code at}: ctrl, the Ethernet segment with the first 18
     * bytes of the frame at {@code mem[off..]} inline (L2 inline mode), one data segment for the rest
     * ({@code len - 18} bytes at {@code addr + 18}). Each segment is one generated static store: no
     * Writer object, nothing to allocate in C1 code.
     */
    static void plain(MemorySegment ring, long at, int pc, int sqn, int ce, int cs, MemorySegment mem, long off, int len, int lkey, long addr) {
        WqeCtrlSeg.store(ring, at, PrmField.opc_mod, 0, PrmField.wqe_index, pc & INDEX_MASK, PrmField.opcode, SendWqeOpcode.SEND$VALUE,
                PrmField.qpn, sqn, PrmField.ds, PLAIN_DS, PrmField.signature, 0, PrmField.dci_stream_channel_id, 0, PrmField.fm, 0,
                PrmField.ce, ce, PrmField.se, false, PrmField.imm, 0);
        WqeEthSeg.store$inline_hdr(ring, at + ETH, PrmField.swp_outer_l4_offset, 0, PrmField.swp_outer_l3_offset, 0,
                PrmField.swp_inner_l4_offset, 0, PrmField.swp_inner_l3_offset, 0, PrmField.cs_flags, cs, PrmField.swp_flags, 0,
                PrmField.mss, 0, PrmField.flow_table_metadata, 0, PrmField.insert_trailer, false, PrmField.trailer_hdr_assoc, 0,
                PrmField.inline_hdr_sz, FrameHeaders.MIN_L2_INLINE);
        copy18(mem, off, ring, at + INLINE_START);
        WqeDataSeg.store(ring, at + PLAIN_DATA, PrmField.byte_count, len - FrameHeaders.MIN_L2_INLINE, PrmField.lkey, lkey,
                PrmField.addr, addr + FrameHeaders.MIN_L2_INLINE);
    }

    /** {@code n} inline header bytes of the frame at {@code mem[off..]} into the WQE at {@code at}. */
    static void inline(MemorySegment mem, long off, MemorySegment ring, long at, int n) {
        if (n == FrameHeaders.MIN_L2_INLINE) copy18(mem, off, ring, at + INLINE_START);
        else if (n > 0) MemorySegment.copy(mem, off, ring, at + INLINE_START, n);
    }

    /** Inline headers with an 802.1Q tag put in after the MAC addresses (the kernel's way when it inlines). */
    static void inlineWithTag(MemorySegment from, long off, MemorySegment ring, long wqe, int ihs, short tci) {
        long at = wqe + INLINE_START;
        int macs = FrameHeaders.ETH_ADDRS_LEN;
        MemorySegment.copy(from, off, ring, at, macs);
        Ethhdr.h_proto$setUnchecked(ring, at, FrameHeaders.ETHERTYPE_VLAN);
        VlanHdr.h_vlan_TCI$setUnchecked(ring, at + FrameHeaders.ETH_HLEN, tci);
        // the frame's own ethertype follows as the tag's h_vlan_encapsulated_proto
        MemorySegment.copy(from, off + macs, ring, at + macs + FrameHeaders.VLAN_HLEN, ihs - macs);
    }

    /**
     * The 18-byte L2 inline header as one 2-byte and two 8-byte moves (cheaper than a copy call for so few
     * bytes): the frame's first bytes copied as a byte stream, whatever headers they hold.
     */
    private static void copy18(MemorySegment from, long off, MemorySegment ring, long at) {
        short b0 = (short) HDR18_B0.get(from, off);
        long b2 = (long) HDR18_B2.get(from, off);
        long b10 = (long) HDR18_B10.get(from, off);
        HDR18_B0.set(ring, at, b0);
        HDR18_B2.set(ring, at, b2);
        HDR18_B10.set(ring, at, b10);
    }

    /**
     * The 18 header bytes as one layout of three moves (2, 8 and 8 bytes): each of its handles checks
     * that all 18 bytes fit, the same test for the three, so C2 keeps one check per side instead of one
     * per move (measured: docs/datapath-bench-log.md, "Measurements that were in the datapath's comments").
     */
    private static final StructLayout HDR18 = MemoryLayout.structLayout(ValueLayout.JAVA_SHORT_UNALIGNED.withName("b0"),
            ValueLayout.JAVA_LONG_UNALIGNED.withName("b2"), ValueLayout.JAVA_LONG_UNALIGNED.withName("b10"));
    private static final VarHandle HDR18_B0 = hdr18("b0");
    private static final VarHandle HDR18_B2 = hdr18("b2");
    private static final VarHandle HDR18_B10 = hdr18("b10");

    private static VarHandle hdr18(String move) {
        return HDR18.varHandle(MemoryLayout.PathElement.groupElement(move));
    }

    /**
     * What the spec says of the WQE posted at producer counter {@code pc} in {@code ring} (of
     * {@code mask + 1} WQEBBs, read across its end): the rules of the spec's WQE declaration whose match
     * holds ({@code PrmWqes}: tx_wqe, nop_wqe, umr_wqe) that the WQE breaks, each in its sentence with the
     * values it read, given the SQ's number and {@code min_wqe_inline_mode}; for the message of a WQE
     * that completed in error. Allocates: the error path only. Rules over memory keys are not checked
     * here (the device holds them).
     */
    static String brokenRules(MemorySegment ring, int mask, int pc, int sqn, InlineMode inlineMode) {
        long at = (long) (pc & mask) * WQEBB;
        int nbb = Math.min(Math.max(1, wqebbs(WqeCtrlSeg.ds(ring, at))), mask + 1);
        MemorySegment wqe = MemorySegment.ofArray(new long[nbb * (int) WQEBB / 8]);
        for (int i = 0; i < nbb; i++) MemorySegment.copy(ring, (long) ((pc + i) & mask) * WQEBB, wqe, i * WQEBB, WQEBB);
        PrmLayout.Wqe spec = PrmWqes.matching(wqe, 0);
        if (spec == null) return "no WQE declaration of the spec has its opcode 0x" + Integer.toHexString(WqeCtrlSeg.opcode(wqe, 0));
        PrmLayout.Wqe.Report r = spec.check(wqe, 0, wqe.byteSize(), PrmLayout.Wqe.Context.none().with("sqn", sqn).with("wqe_counter", pc)
                .with("min_wqe_inline_mode", inlineMode.value));
        String name = spec.name().substring(spec.name().lastIndexOf('.') + 1);
        if (r.broken().isEmpty()) return "it breaks none of the spec's " + name + " rules";
        StringBuilder sb = new StringBuilder("it breaks the spec's ").append(name).append(r.broken().size() == 1 ? " rule " : " rules ");
        for (int i = 0; i < r.broken().size(); i++) sb.append(i == 0 ? "" : "; ").append(r.broken().get(i));
        return sb.toString();
    }

    /** KLM entries a UMR of {@code pieces} entries carries (padded). */
    static int umrKlms(int pieces) {
        return (pieces + UMR_KLM_ALIGN - 1) / UMR_KLM_ALIGN * UMR_KLM_ALIGN;
    }

    private static final long UMR_KLM_AT = WqeCtrlSeg.SIZE + WqeUmrCtrlSeg.SIZE + Mkc.SIZE;

    /** A UMR WQE's {@code ds} for {@code pieces} KLM entries. */
    static int umrDs(int pieces) {
        return (int) ((UMR_KLM_AT + umrKlms(pieces) * WqeUmrKlmSeg.SIZE) / DS);
    }

    /**
     * A UMR WQE (PRM "UMR") at {@code wqe} (a slice of its WQEBBs): the free indirect mkey
     * {@code mkey} becomes KLM-mapped over {@code [base, base + total)}, {@code pieces} equal slices of
     * the memory at {@code addr} through {@code lkey}, inline; always asks for a CQE. Set-up path
     * (Writers, not per packet).
     */
    static void umr(MemorySegment wqe, int pc, int sqn, int mkey, long base, long total, int pieces, int lkey, long addr) {
        int padded = umrKlms(pieces);
        WqeCtrlSeg.writer(wqe, 0)
                .opcode(SendWqeOpcode.UMR)
                .wqe_index(pc & INDEX_MASK)
                .qpn(sqn)
                .ds(umrDs(pieces))
                .ce(CompletionMode.CQE_ALWAYS)
                .imm(mkey)
                .write();
        WqeUmrCtrlSeg.writer(wqe, WqeCtrlSeg.SIZE)
                .umr_flags(UmrCtrlFlags.INLINE$MASK)
                .klm_octowords(padded)
                .mkey_mask(UmrMkeyMask.LEN.mask | UmrMkeyMask.START_ADDR.mask | UmrMkeyMask.LR.mask | UmrMkeyMask.LW.mask | UmrMkeyMask.FREE.mask)
                .write();
        Mkc.writer(wqe, WqeCtrlSeg.SIZE + WqeUmrCtrlSeg.SIZE)
                .free(false)
                .lr(true)
                .lw(true)
                .access_mode(MkcAccessMode.KLMS)
                .qpn(0xffffff)
                .mkey_7_0(mkey & 0xff)
                .start_addr(base)
                .len(total)
                .translations_octword_size(padded)
                .write();
        int piece = (int) (total / pieces);
        for (int i = 0; i < padded; i++) {
            long k = UMR_KLM_AT + i * WqeUmrKlmSeg.SIZE;
            if (i < pieces) WqeUmrKlmSeg.writer(wqe, k).byte_count(piece).mkey(lkey).address(addr + (long) i * piece).write();
            else WqeUmrKlmSeg.writer(wqe, k).write(); // padding entries are zero (MLX5_UMR_KLM_ALIGNMENT)
        }
    }
}

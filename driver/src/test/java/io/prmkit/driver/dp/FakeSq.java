package io.prmkit.driver.dp;

import io.prmkit.driver.eth.CqResources;
import io.prmkit.driver.eth.SqControl;
import io.prmkit.mlx5.CompletionMode;
import io.prmkit.mlx5.CqDoorbellRecord;
import io.prmkit.mlx5.Cqe64;
import io.prmkit.mlx5.CqeErrorSyndrome;
import io.prmkit.mlx5.CqeOpcode;
import io.prmkit.mlx5.ErrCqe;
import io.prmkit.mlx5.Mkc;
import io.prmkit.mlx5.MkcAccessMode;
import io.prmkit.mlx5.SendWqeOpcode;
import io.prmkit.mlx5.SqState;
import io.prmkit.mlx5.UmrCtrlFlags;
import io.prmkit.mlx5.WqDoorbellRecord;
import io.prmkit.mlx5.WqeCtrlSeg;
import io.prmkit.mlx5.WqeDataSeg;
import io.prmkit.mlx5.WqeEthSeg;
import io.prmkit.mlx5.WqeUmrCtrlSeg;
import io.prmkit.mlx5.WqeUmrKlmSeg;
import java.io.ByteArrayOutputStream;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;

/**
 * The test plays the device for one SQ: it reads the WQEs the driver wrote (generated getters
 * only), gathers each frame, writes CQEs with the device-side setters, and checks what a device would
 * check (wqe_index, no WQE across the ring end, no CQ overrun, lkeys).
 */
final class FakeSq {
    /** One decoded WQE. */
    record Wqe(int index, int opcode, int ds, int ce, int csFlags, int mss, int insertedVlan, int inlineSize, int slot, byte[] frame) {}

    final HostMemory host;
    final MemorySegment ring;
    final int size;
    final int sqn;
    final MemorySegment dbr;
    final CqResources cq;
    final List<Integer> validLkeys = new ArrayList<>();
    final List<Wqe> wqes = new ArrayList<>();
    final List<String> violations = new ArrayList<>();
    final List<String> transitions = new ArrayList<>();
    SqState state = SqState.RDY;
    int hw; // WQEBBs consumed
    int cqPc; // CQEs written

    FakeSq(HostMemory host, MemorySegment ring, int logWqebbs, int sqn, MemorySegment dbr, CqResources cq, int lkey) {
        this.host = host;
        this.ring = ring;
        this.size = 1 << logWqebbs;
        this.sqn = sqn;
        this.dbr = dbr;
        this.cq = cq;
        validLkeys.add(lkey);
    }

    SqControl control() {
        return (n, from, to) -> {
            transitions.add(from + "->" + to);
            if (n != sqn) violations.add("MODIFY_SQ of sqn " + n);
            if (state != from) violations.add("MODIFY_SQ " + from + "->" + to + " while " + state);
            state = to;
            if (to == SqState.RST) hw = 0;
        };
    }

    /** Executes every WQE the doorbell record announces; returns how many WQEs ran. */
    int process() {
        if (state != SqState.RDY) return 0;
        int target = WqDoorbellRecord.send_counter(dbr);
        int ran = 0;
        while ((hw & 0xffff) != target) {
            int slot = hw & (size - 1);
            long w = (long) slot * 64;
            int index = WqeCtrlSeg.wqe_index(ring, w);
            int opcode = WqeCtrlSeg.opcode(ring, w);
            int ds = WqeCtrlSeg.ds(ring, w);
            int ce = WqeCtrlSeg.ce(ring, w);
            if (index != (hw & 0xffff)) violations.add("WQE at " + slot + " has wqe_index " + index + ", expected " + (hw & 0xffff));
            if (WqeCtrlSeg.qpn(ring, w) != sqn) violations.add("WQE at " + slot + " names sqn " + WqeCtrlSeg.qpn(ring, w));
            int wqebbs = (ds + 3) / 4;
            if (ds == 0) {
                violations.add("ds 0 at " + slot);
                return ran;
            }
            if (slot + wqebbs > size) violations.add("WQE of " + wqebbs + " WQEBBs at slot " + slot + " crosses the ring end");
            boolean ok = true;
            int cs = 0, mss = 0, vlan = -1, inl = 0;
            byte[] frame = new byte[0];
            if (opcode == SendWqeOpcode.SEND$VALUE || opcode == SendWqeOpcode.LSO$VALUE) {
                long e = w + WqeCtrlSeg.SIZE;
                cs = WqeEthSeg.cs_flags(ring, e);
                mss = WqeEthSeg.mss(ring, e);
                ByteArrayOutputStream out = new ByteArrayOutputStream();
                long next;
                if (WqeEthSeg.insert_vlan(ring, e)) {
                    vlan = WqeEthSeg.vlan_tci(ring, e);
                    next = e + WqeEthSeg.SIZE;
                } else {
                    inl = WqeEthSeg.inline_hdr_sz(ring, e);
                    long start = e + WqeEthSeg.inline_hdr_start$BYTE_OFFSET;
                    out.writeBytes(ring.asSlice(start, inl).toArray(ValueLayout.JAVA_BYTE));
                    int extra = inl > 2 ? (inl - 2 + 15) / 16 : 0;
                    next = e + WqeEthSeg.SIZE + extra * 16L;
                }
                long end = w + ds * 16L;
                for (long d = next; d < end; d += WqeDataSeg.SIZE) {
                    int bc = WqeDataSeg.byte_count(ring, d);
                    int lkey = WqeDataSeg.lkey(ring, d);
                    long addr = WqeDataSeg.addr(ring, d);
                    MemorySegment src = validLkeys.contains(lkey) ? host.resolve(addr, bc) : resolveIndirect(lkey, addr, bc);
                    if (src == null) {
                        ok = false;
                        break;
                    }
                    out.writeBytes(src.toArray(ValueLayout.JAVA_BYTE));
                }
                frame = out.toByteArray();
                if (vlan >= 0) frame = insertTag(frame, vlan);
            } else if (opcode == SendWqeOpcode.UMR$VALUE) {
                ok = umr(w, WqeCtrlSeg.imm(ring, w), ds);
            } else if (opcode != SendWqeOpcode.NOP$VALUE) {
                violations.add("unexpected opcode " + opcode + " at " + slot);
            }
            if (!ok) {
                writeError(index, opcode);
                state = SqState.ERR;
                return ran;
            }
            wqes.add(new Wqe(index, opcode, ds, ce, cs, mss, vlan, inl, slot, frame));
            hw += wqebbs;
            ran++;
            if (ce == CompletionMode.CQE_ALWAYS$VALUE) writeCqe(index, opcode);
        }
        return ran;
    }

    /** Indirect mkeys registered by UMR: mkey -> {start, len, then (byte_count, key, address) triples}. */
    final java.util.Map<Integer, long[]> indirect = new java.util.HashMap<>();

    private boolean umr(long w, int mkey, int ds) {
        long u = w + WqeCtrlSeg.SIZE;
        long m = u + WqeUmrCtrlSeg.SIZE;
        long k = m + Mkc.SIZE;
        if ((WqeUmrCtrlSeg.umr_flags(ring, u) & UmrCtrlFlags.INLINE$MASK) == 0) violations.add("UMR without inline KLMs");
        int n = WqeUmrCtrlSeg.klm_octowords(ring, u);
        if (n % 4 != 0) violations.add("KLM list not padded to 4 entries: " + n);
        if (ds != (int) ((k - w) / 16) + n) violations.add("UMR ds " + ds + " does not match " + n + " KLMs");
        int mode = (Mkc.access_mode_4_2(ring, m) << 2) | Mkc.access_mode_1_0(ring, m);
        if (mode != MkcAccessMode.KLMS$VALUE) violations.add("UMR access mode " + mode);
        if (Mkc.mkey_7_0(ring, m) != (mkey & 0xff)) violations.add("UMR mkey variant byte");
        long[] t = new long[2 + 3 * n];
        t[0] = Mkc.start_addr(ring, m);
        t[1] = Mkc.len(ring, m);
        for (int i = 0; i < n; i++) {
            long e = k + i * WqeUmrKlmSeg.SIZE;
            t[2 + 3 * i] = Integer.toUnsignedLong(WqeUmrKlmSeg.byte_count(ring, e));
            t[3 + 3 * i] = WqeUmrKlmSeg.mkey(ring, e);
            t[4 + 3 * i] = WqeUmrKlmSeg.address(ring, e);
        }
        indirect.put(mkey, t);
        return true;
    }

    private MemorySegment resolveIndirect(int lkey, long addr, int len) {
        long[] t = indirect.get(lkey);
        if (t == null || addr < t[0] || addr + len > t[0] + t[1]) return null;
        long off = addr - t[0];
        for (int i = 2; i < t.length; i += 3) {
            if (off < t[i]) {
                if (off + len > t[i] || !validLkeys.contains((int) t[i + 1])) return null;
                return host.resolve(t[i + 2] + off, len);
            }
            off -= t[i];
        }
        return null;
    }

    static byte[] insertTag(byte[] f, int tci) {
        byte[] t = new byte[f.length + 4];
        System.arraycopy(f, 0, t, 0, 12);
        t[12] = (byte) 0x81;
        t[13] = 0;
        t[14] = (byte) (tci >> 8);
        t[15] = (byte) tci;
        System.arraycopy(f, 12, t, 16, f.length - 12);
        return t;
    }

    private long nextCqe() {
        int ci = CqDoorbellRecord.consumer_index(cq.doorbellRecord());
        if (((cqPc - ci) & 0xffffff) >= cq.entries()) violations.add("CQ overrun: " + cqPc + " written, " + ci + " consumed, " + cq.entries() + " entries");
        return (long) (cqPc & (cq.entries() - 1)) * Cqe64.SIZE;
    }

    private boolean owner() {
        return ((cqPc >>> cq.logSize()) & 1) != 0;
    }

    void writeCqe(int index, int opcode) {
        long off = nextCqe();
        Cqe64.Device.writer(cq.ring().segment(), off)
                .s_wqe_opcode(opcode)
                .qpn(sqn)
                .wqe_counter(index)
                .opcode(CqeOpcode.REQ)
                .owner(owner())
                .write();
        cqPc++;
    }

    void writeError(int index, int opcode) {
        long off = nextCqe();
        ErrCqe.Device.writer(cq.ring().segment(), off)
                .syndrome(CqeErrorSyndrome.LOCAL_PROT_ERR)
                .vendor_err_synd(0x0)
                .s_wqe_opcode(opcode)
                .qpn(sqn)
                .wqe_counter(index)
                .opcode(CqeOpcode.REQ_ERR)
                .owner(owner())
                .write();
        cqPc++;
    }

    /** Frames of the SEND/LSO WQEs executed so far. */
    List<byte[]> frames() {
        List<byte[]> f = new ArrayList<>();
        for (Wqe w : wqes) if (w.opcode() != SendWqeOpcode.NOP$VALUE) f.add(w.frame());
        return f;
    }
}

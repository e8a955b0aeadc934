package io.prmkit.softhca.datapath;

import io.prmkit.mlx5.CqeErrorSyndrome;
import io.prmkit.mlx5.Mkc;
import io.prmkit.mlx5.UmrCtrlFlags;
import io.prmkit.mlx5.UmrMkeyMask;
import io.prmkit.mlx5.WqeCtrlSeg;
import io.prmkit.mlx5.WqeDataSeg;
import io.prmkit.mlx5.WqeUmrCtrlSeg;
import io.prmkit.mlx5.WqeUmrKlmSeg;
import io.prmkit.softhca.device.DeviceObjects;
import io.prmkit.softhca.device.Resources;
import java.lang.foreign.MemorySegment;

/**
 * The UMR WQE (PRM "User-Mode Memory Registration"): control segment (imm = the target mkey), UMR
 * control segment, mkey segment (an {@code mkc}), then the translation entries, either inline (flag
 * INLINE, {@code klm_octowords} 16-byte units) or through one data segment that points at them. The
 * fields {@code mkey_mask} selects are copied into the target key's context, and the entries
 * replace its translation from {@code translation_offset} (with TRANSLATION_OFFSET_EN) or 0.
 * The target must exist, have {@code umr_en} and belong to the SQ's PD, else LOCAL_PROT_ERR. The
 * WQE's shape (its size against {@code ds}, the entries against {@code klm_octowords}, the list's
 * {@code byte_count}) is the spec's {@code umr_wqe}, checked by {@link SendQueueEngine} before this
 * runs. The KEY mask bit (changing the key's variant byte) is not modelled and is refused as
 * LOCAL_QP_OP_ERR, as is a translation longer than {@link #MAX_OCTOWORDS}.
 */
final class Umr {
    static final int OK = 0;
    private static final int QP_OP = CqeErrorSyndrome.LOCAL_QP_OP_ERR$VALUE;
    private static final int PROT = CqeErrorSyndrome.LOCAL_PROT_ERR$VALUE;
    private static final long CTRL = WqeCtrlSeg.SIZE;
    private static final long UMR_CTRL = CTRL;
    private static final long MKEY_SEG = UMR_CTRL + WqeUmrCtrlSeg.SIZE;
    private static final long ENTRIES = MKEY_SEG + Mkc.SIZE;
    /** Largest translation a UMR may write, in 16-byte units (the model's limit). */
    static final int MAX_OCTOWORDS = 4096;

    private final DeviceObjects objects;
    private final MemoryAccess mem;

    Umr(DeviceObjects objects, MemoryAccess mem) {
        this.objects = objects;
        this.mem = mem;
    }

    /**
     * Executes the UMR WQE at {@code wo}, whose {@code umr_wqe} rules hold; 0 or a CQE error syndrome.
     * {@code scratch} holds a fetched list.
     */
    int execute(MemorySegment w, long wo, int pd, boolean rlky, MemorySegment scratch) {
        long uc = wo + UMR_CTRL;
        int flags = WqeUmrCtrlSeg.umr_flags(w, uc);
        int octowords = WqeUmrCtrlSeg.klm_octowords(w, uc);
        long mask = WqeUmrCtrlSeg.mkey_mask(w, uc);
        if ((mask & UmrMkeyMask.KEY$MASK) != 0 || octowords > MAX_OCTOWORDS) return QP_OP;
        boolean inline = (flags & UmrCtrlFlags.INLINE$MASK) != 0;
        Resources.Mkey target = objects.mkey(WqeCtrlSeg.imm(w, wo));
        if (target == null) return PROT;
        MemorySegment mkc = target.mkc;
        if (!Mkc.umr_en(mkc) || Mkc.pd(mkc) != pd) return PROT;
        if ((flags & UmrCtrlFlags.CHECK_FREE$MASK) != 0 && !Mkc.free(mkc)) return PROT;
        if ((flags & UmrCtrlFlags.CHECK_NOT_FREE$MASK) != 0 && Mkc.free(mkc)) return PROT;
        MemorySegment list = null;
        long listOff = 0;
        int bytes = octowords * 16;
        if (octowords > 0) {
            if (inline) {
                list = w;
                listOff = wo + ENTRIES;
            } else {
                long d = wo + ENTRIES;
                int r = mem.copy(WqeDataSeg.lkey(w, d), WqeDataSeg.addr(w, d), bytes, scratch, 0, false, pd, rlky);
                if (r != OK) return r;
                list = scratch;
            }
        }
        long seg = wo + MKEY_SEG;
        if ((mask & UmrMkeyMask.LEN$MASK) != 0) {
            Mkc.len$set(mkc, Mkc.len(w, seg));
            Mkc.length64$set(mkc, Mkc.length64(w, seg));
        }
        if ((mask & UmrMkeyMask.PAGE_SIZE$MASK) != 0) Mkc.log_page_size$set(mkc, Mkc.log_page_size(w, seg));
        if ((mask & UmrMkeyMask.START_ADDR$MASK) != 0) Mkc.start_addr$set(mkc, Mkc.start_addr(w, seg));
        if ((mask & UmrMkeyMask.PD$MASK) != 0) Mkc.pd$set(mkc, Mkc.pd(w, seg));
        if ((mask & UmrMkeyMask.LR$MASK) != 0) Mkc.lr$set(mkc, Mkc.lr(w, seg));
        if ((mask & UmrMkeyMask.LW$MASK) != 0) Mkc.lw$set(mkc, Mkc.lw(w, seg));
        if ((mask & UmrMkeyMask.RR$MASK) != 0) Mkc.rr$set(mkc, Mkc.rr(w, seg));
        if ((mask & UmrMkeyMask.RW$MASK) != 0) Mkc.rw$set(mkc, Mkc.rw(w, seg));
        if ((mask & UmrMkeyMask.A$MASK) != 0) Mkc.a$set(mkc, Mkc.a(w, seg));
        if ((mask & UmrMkeyMask.FREE$MASK) != 0) Mkc.free$set(mkc, Mkc.free(w, seg));
        if (list != null) {
            long at = (flags & UmrCtrlFlags.TRANSLATION_OFFSET_EN$MASK) != 0 ? WqeUmrCtrlSeg.translation_offset(w, uc) * 16L : 0;
            MemorySegment old = target.translation();
            long size = Math.max(old == null ? 0 : old.byteSize(), at + bytes);
            MemorySegment t = MemorySegment.ofArray(new byte[(int) size]);
            if (old != null) MemorySegment.copy(old, 0, t, 0, old.byteSize());
            MemorySegment.copy(list, listOff, t, at, bytes);
            target.setTranslation(t);
            Mkc.translations_octword_size$set(mkc, (int) (size / WqeUmrKlmSeg.SIZE));
        }
        objects.changed(); // the key changed under the datapath's cached reads
        return OK;
    }
}

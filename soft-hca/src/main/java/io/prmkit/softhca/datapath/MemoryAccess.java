package io.prmkit.softhca.datapath;

import io.prmkit.mlx5.CmdPas;
import io.prmkit.mlx5.CqeErrorSyndrome;
import io.prmkit.mlx5.MkcAccessMode;
import io.prmkit.mlx5.Mkc;
import io.prmkit.mlx5.WqeUmrKlmSeg;
import io.prmkit.softhca.device.DeviceObjects;
import io.prmkit.softhca.device.Iommu;
import io.prmkit.softhca.device.Resources;
import java.lang.foreign.MemorySegment;

/**
 * Data segment addressing (PRM "Memory Region" / "Memory Key"): an lkey and an address become bus
 * addresses through the memory key's translation, with the key's bounds, access rights and
 * protection domain checked, and every byte then goes through the IOMMU. Copies move frame bytes
 * between host memory and a device buffer; the result is 0 or the CQE error syndrome to report:
 * LOCAL_PROT_ERR for an unknown or free key, a key of another PD, a missing right, an address outside
 * the key; LOCAL_PROT_ERR also for a DMA fault (the model's choice: the PRM reports the access as a
 * protection failure of the data segment).
 */
final class MemoryAccess {
    static final int OK = 0;
    static final int PROT = CqeErrorSyndrome.LOCAL_PROT_ERR$VALUE;
    /** An indirect (KLM) key may point at direct keys only: one level of indirection. */
    private static final int MAX_DEPTH = 2;
    private static final int PA = MkcAccessMode.PA$VALUE;
    private static final int MTT = MkcAccessMode.MTT$VALUE;
    private static final int KLMS = MkcAccessMode.KLMS$VALUE;

    private final DeviceObjects objects;
    private final Iommu iommu;
    long dmaFaults;

    MemoryAccess(DeviceObjects objects, Iommu iommu) {
        this.objects = objects;
        this.iommu = iommu;
    }

    /**
     * Copies {@code len} bytes between the host range ({@code lkey}, {@code addr}) and {@code buf} at
     * {@code bufOff}: into the host when {@code write}, else from it. {@code pd} is the queue's
     * protection domain; {@code reservedAllowed} whether the queue may use the reserved lkey (rlky).
     */
    int copy(int lkey, long addr, int len, MemorySegment buf, long bufOff, boolean write, int pd, boolean reservedAllowed) {
        // The common case first: the same PA key as the last copy in this direction, inside the range already checked.
        Fast f = write ? fastWrite : fastRead;
        if (lkey == f.key && pd == f.pd && addr >= f.lo && len <= f.hi - addr && len > 0 && objects.generation() == f.generation) {
            try {
                if (write) MemorySegment.copy(buf, bufOff, f.seg, addr - f.bus, len);
                else MemorySegment.copy(f.seg, addr - f.bus, buf, bufOff, len);
                return OK;
            } catch (IllegalStateException e) {
                f.key = -1; // freed since: the full path counts the fault
            }
        }
        return slowCopy(lkey, addr, len, buf, bufOff, write, pd, reservedAllowed);
    }

    private int slowCopy(int lkey, long addr, int len, MemorySegment buf, long bufOff, boolean write, int pd, boolean reservedAllowed) {
        if (len == 0) return OK;
        if (lkey == objects.reservedLkey) {
            return reservedAllowed ? dma(addr, len, buf, bufOff, write) : PROT;
        }
        return viaKey(lkey, addr, len, buf, bufOff, write, pd, 0);
    }

    /** A key's context read once (kept while {@code DeviceObjects.generation()} stays the same; UMR bumps it). */
    private static final class CachedMkc {
        int key = -1;
        Resources.Mkey mkey;
        boolean free, lr, lw, length64;
        int pd, mode;
        long start, len;

        void load(int k, Resources.Mkey m) {
            key = k;
            mkey = m;
            if (m == null) return;
            MemorySegment mkc = m.mkc;
            free = Mkc.free(mkc);
            lr = Mkc.lr(mkc);
            lw = Mkc.lw(mkc);
            length64 = Mkc.length64(mkc);
            pd = Mkc.pd(mkc);
            mode = Mkc.access_mode(mkc);
            start = Mkc.start_addr(mkc);
            len = Mkc.len(mkc);
        }
    }

    private final CachedMkc[] keys = {new CachedMkc(), new CachedMkc()};
    private int keyGeneration = -1;
    private int keyVictim;

    private CachedMkc key(int k) {
        int g = objects.generation();
        if (g != keyGeneration) {
            keyGeneration = g;
            for (CachedMkc c : keys) c.key = -1;
        }
        for (CachedMkc c : keys) if (c.key == k && c.mkey != null) return c;
        CachedMkc c = keys[keyVictim++ & 1];
        c.load(k, objects.mkey(k));
        return c;
    }

    private int viaKey(int key, long addr, int len, MemorySegment buf, long bufOff, boolean write, int pd, int depth) {
        CachedMkc k = key(key);
        Resources.Mkey m = k.mkey;
        if (m == null) return PROT;
        if (k.free || (write ? !k.lw : !k.lr)) return PROT;
        if (depth == 0 && k.pd != pd) return PROT;
        long start = k.start;
        if (!k.length64) {
            if (Long.compareUnsigned(addr, start) < 0 || Long.compareUnsigned(addr - start + len, k.len) > 0) return PROT;
        }
        int mode = k.mode;
        if (mode == PA) {
            int r = dma(addr, len, buf, bufOff, write);
            if (r == OK && depth == 0) remember(key, k, pd, write);
            return r;
        }
        if (mode == MTT && m.umem != null) return viaUmem(m, addr - start, len, buf, bufOff, write);
        if (mode == MTT) return viaMtt(m, addr, len, buf, bufOff, write);
        if (mode == KLMS && depth + 1 < MAX_DEPTH) return viaKlm(m, addr, len, buf, bufOff, write, pd, depth);
        return PROT;
    }

    /** A key translated by a umem (DEVX): byte {@code off} of the key is byte {@code umemOffset + off} of the umem. */
    private int viaUmem(Resources.Mkey m, long off, int len, MemorySegment buf, long bufOff, boolean write) {
        Resources.Umem u = m.umem;
        long at = m.umemOffset + off;
        if (at < 0 || at > u.bytes() - len) return PROT;
        while (len > 0) {
            int chunk = (int) Math.min(len, u.pageSize() - (at + u.pageOffset) % u.pageSize());
            int r = dma(u.busAddress(at), chunk, buf, bufOff, write);
            if (r != OK) return r;
            at += chunk;
            bufOff += chunk;
            len -= chunk;
        }
        return OK;
    }

    private int viaMtt(Resources.Mkey m, long addr, int len, MemorySegment buf, long bufOff, boolean write) {
        MemorySegment mtt = m.translation();
        int shift = Mkc.log_page_size(m.mkc);
        if (mtt == null || shift < 12 || shift > 40) return PROT;
        long pageMask = (1L << shift) - 1;
        long first = Mkc.start_addr(m.mkc) >>> shift;
        long entries = mtt.byteSize() / CmdPas.SIZE;
        while (len > 0) {
            long idx = (addr >>> shift) - first;
            if (idx < 0 || idx >= entries) return PROT;
            long off = idx * CmdPas.SIZE;
            long page = CmdPas.pa(mtt, off);
            int chunk = (int) Math.min(len, (pageMask + 1) - (addr & pageMask));
            int r = dma((page & ~pageMask) + (addr & pageMask), chunk, buf, bufOff, write);
            if (r != OK) return r;
            addr += chunk;
            bufOff += chunk;
            len -= chunk;
        }
        return OK;
    }

    private int viaKlm(Resources.Mkey m, long addr, int len, MemorySegment buf, long bufOff, boolean write, int pd, int depth) {
        MemorySegment klms = m.translation();
        if (klms == null) return PROT;
        long off = addr - Mkc.start_addr(m.mkc);
        long n = klms.byteSize() / WqeUmrKlmSeg.SIZE;
        long base = 0;
        for (long i = 0; i < n && len > 0; i++) {
            long e = i * WqeUmrKlmSeg.SIZE;
            long bc = Integer.toUnsignedLong(WqeUmrKlmSeg.byte_count(klms, e));
            if (off < base + bc) {
                long within = off - base;
                int chunk = (int) Math.min(len, bc - within);
                int r = viaKey(WqeUmrKlmSeg.mkey(klms, e), WqeUmrKlmSeg.address(klms, e) + within, chunk, buf, bufOff, write, pd, depth + 1);
                if (r != OK) return r;
                off += chunk;
                bufOff += chunk;
                len -= chunk;
            }
            base += bc;
        }
        return len == 0 ? OK : PROT;
    }

    /**
     * The last PA key a copy went through in one direction (gathers read, scatters write), with the bus
     * range in which its checks (the right for this direction, PD, key range) and its IOMMU mapping
     * hold: {@code [lo, hi)} of the host segment mapped at {@code bus}. Valid while
     * {@code DeviceObjects.generation()} stays the same (a command or a UMR changes it).
     */
    private static final class Fast {
        int key = -1;
        int generation;
        int pd;
        long lo, hi, bus;
        MemorySegment seg;
    }

    private final Fast fastRead = new Fast();
    private final Fast fastWrite = new Fast();

    private void remember(int key, CachedMkc k, int pd, boolean write) {
        long lo = lastMapBus;
        long hi = lastMapEnd;
        if (!k.length64) {
            long end = k.start + k.len;
            if (k.start < 0 || end < k.start) return; // a range the signed compares cannot hold: no shortcut
            lo = Math.max(lo, k.start);
            hi = Math.min(hi, end);
        }
        if (lo < 0 || hi <= lo) return;
        Fast f = write ? fastWrite : fastRead;
        f.key = key;
        f.generation = objects.generation();
        f.pd = pd;
        f.lo = lo;
        f.hi = hi;
        f.bus = lastMapBus;
        f.seg = lastMapSeg;
    }

    // The mapping the last successful dma() went through.
    private long lastMapBus, lastMapEnd;
    private MemorySegment lastMapSeg;

    // The last few IOMMU mappings used (bus start, bus end, host segment), most frames hit them.
    private static final int CACHED = 4;
    private final long[] cachedBus = new long[CACHED];
    private final long[] cachedEnd = new long[CACHED];
    private final MemorySegment[] cachedSeg = new MemorySegment[CACHED];
    private int victim;

    /** Moves bytes at bus address {@code bus} through the IOMMU; a fault is counted there and here. */
    int dma(long bus, int len, MemorySegment buf, long bufOff, boolean write) {
        MemorySegment host = null;
        long at = 0;
        long mapBus = 0;
        long mapEnd = 0;
        for (int i = 0; i < CACHED; i++) {
            if (bus >= cachedBus[i] && len <= cachedEnd[i] - bus && cachedSeg[i] != null) {
                host = cachedSeg[i];
                mapBus = cachedBus[i];
                mapEnd = cachedEnd[i];
                at = bus - mapBus;
                break;
            }
        }
        if (host == null) {
            Iommu.Mapping m = iommu.mapping(bus);
            if (m == null || len > m.end() - bus) {
                iommu.slice(bus, len); // counts the fault
                dmaFaults++;
                return PROT;
            }
            int v = victim++ & (CACHED - 1);
            cachedBus[v] = m.bus();
            cachedEnd[v] = m.end();
            cachedSeg[v] = m.segment();
            host = m.segment();
            mapBus = m.bus();
            mapEnd = m.end();
            at = bus - mapBus;
        }
        try {
            if (write) MemorySegment.copy(buf, bufOff, host, at, len);
            else MemorySegment.copy(host, at, buf, bufOff, len);
        } catch (IllegalStateException e) {
            // The region was freed while mapped (its arena closed): a fault, never a crash.
            dmaFaults++;
            return PROT;
        }
        lastMapBus = mapBus;
        lastMapEnd = mapEnd;
        lastMapSeg = host;
        return OK;
    }
}

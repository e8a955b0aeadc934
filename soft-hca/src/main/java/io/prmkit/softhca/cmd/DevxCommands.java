package io.prmkit.softhca.cmd;

import io.prmkit.mlx5.CreateUctxIn;
import io.prmkit.mlx5.CreateUctxOut;
import io.prmkit.mlx5.CreateUmemIn;
import io.prmkit.mlx5.CreateUmemOut;
import io.prmkit.mlx5.DestroyUctxIn;
import io.prmkit.mlx5.DestroyUmemIn;
import io.prmkit.mlx5.Mtt;
import io.prmkit.mlx5.PrmCommands;
import io.prmkit.mlx5.Uctx;
import io.prmkit.mlx5.Umem;
import io.prmkit.softhca.cmd.CommandSpec.Phase;
import io.prmkit.softhca.device.DeviceObjects.Kind;
import io.prmkit.softhca.device.Resources;
import io.prmkit.softhca.device.Queues;
import java.util.List;
import java.util.Map;

/**
 * DEVX (PRM "User context" and "UMEM"): user contexts, whose uid goes into the header of every
 * command of that user, and user memory registered by its MTT entries, which CQ, SQ, RQ and QP
 * contexts name by id and offset instead of a page list.
 *
 * <p>Rules the model keeps (the PRM's, and where it is silent, ours, in docs/soft-hca.md):
 * <ol>
 *   <li>A non-zero uid in a header must name a user context ({@link Commands#execute}; BAD_UID).
 *   <li>An object created with a uid belongs to it: destroying, modifying or querying it needs the
 *       same uid, 0 included (NOT_OWNER). A user context cannot go while it owns objects.
 *   <li>A umem with uid 0 needs {@code cmd_hca_cap.umem_uid_0} (mlx5_vfio registers all its memory so);
 *       a context may use a umem only of its own uid (UMEM_RANGE).
 *   <li>The pages of a umem are checked when a context uses a range of them (aligned, inside the
 *       umem, mapped for DMA), not at CREATE_UMEM: mlx5_vfio's one MTT entry covers a power of two
 *       that may reach past what it mapped.
 *   <li>A umem still used by a ring or doorbell record cannot be destroyed (OBJECT_IN_USE, as a CQ
 *       still used by a queue).
 * </ol>
 * A function without DEVX (neither {@code log_max_uctx} nor {@code umem_uid_0}, as the ConnectX-4 of
 * {@code CapsProfile.connectX4()}) answers these commands BAD_OP, as firmware that lacks them does.
 */
final class DevxCommands {
    private final HcaState hca;

    private DevxCommands(HcaState hca) {
        this.hca = hca;
    }

    static void register(Map<Integer, CommandSpec> specs, HcaState hca) {
        DevxCommands d = new DevxCommands(hca);
        BringUpCommands.put(specs, PrmCommands.CREATE_UCTX, Phase.INITIALIZED, d::createUctx);
        BringUpCommands.put(specs, PrmCommands.DESTROY_UCTX, Phase.INITIALIZED, d::destroyUctx);
        BringUpCommands.put(specs, PrmCommands.CREATE_UMEM, Phase.INITIALIZED, d::createUmem);
        BringUpCommands.put(specs, PrmCommands.DESTROY_UMEM, Phase.INITIALIZED, d::destroyUmem);
    }

    // ---- user contexts and ownership ----

    private void createUctx(Command c) {
        long logMax = Support.cap(hca, "log_max_uctx");
        if (logMax == 0) throw c.fail(Syndrome.BAD_OPCODE, "the function has no user contexts (log_max_uctx 0)");
        Support.checkCount(c, hca, hca.objects.count(Kind.UCTX), "log_max_uctx");
        int cap = Uctx.cap(c.in, CreateUctxIn.uctx$BYTE_OFFSET);
        long allowed = Support.cap(hca, "uctx_cap");
        if ((cap & ~allowed) != 0) throw c.fail(Syndrome.BAD_FIELD, "uctx cap 0x" + Integer.toHexString(cap) + " beyond uctx_cap 0x" + Long.toHexString(allowed));
        int uid = hca.nextNumber("uid", 1, 0xffff, n -> hca.objects.has(Kind.UCTX, n));
        if (uid < 0) throw c.fail(Syndrome.OUT_OF_NUMBERS, "uids 1..0xffff");
        hca.objects.addUserContext(uid, cap);
        CreateUctxOut.Device.uid$set(c.out, uid);
    }

    private void destroyUctx(Command c) {
        int uid = DestroyUctxIn.uid(c.in);
        if (!hca.objects.has(Kind.UCTX, uid)) throw c.fail(Syndrome.NO_SUCH_OBJECT, "user context " + uid);
        String owned = hca.objects.usedBy(Kind.UCTX, uid);
        if (owned != null) throw c.fail(Syndrome.OBJECT_IN_USE, "user context " + uid + " " + owned);
        hca.objects.destroy(Kind.UCTX, uid);
    }

    /** Records that the object {@code kind} {@code n} was created by {@code c} (owned by its uid). */
    static void own(HcaState hca, Command c, Kind kind, int n) {
        hca.objects.own(kind, n, c.uid);
    }

    /** Refuses {@code c} on an existing object {@code kind} {@code n} that another uid owns. */
    static void checkOwner(HcaState hca, Command c, Kind kind, int n) {
        int owner = hca.objects.owner(kind, n);
        if (owner != c.uid) {
            throw c.fail(Syndrome.NOT_OWNER, kind.label() + " 0x" + Integer.toHexString(n) + " belongs to uid " + owner + ", the command has uid " + c.uid);
        }
    }

    // ---- user memory ----

    private void createUmem(Command c) {
        boolean uid0 = Support.cap(hca, "umem_uid_0") != 0;
        if (!uid0 && Support.cap(hca, "log_max_uctx") == 0) throw c.fail(Syndrome.BAD_OPCODE, "the function has no DEVX (log_max_uctx 0, umem_uid_0 0)");
        if (c.uid == 0 && !uid0) throw c.fail(Syndrome.BAD_UID, "a umem with uid 0 needs umem_uid_0");
        Support.checkCount(c, hca, hca.objects.count(Kind.UMEM), "log_max_umem");
        long at = CreateUmemIn.umem$BYTE_OFFSET;
        if (Umem.ats(c.in, at)) throw c.fail(Syndrome.BAD_FIELD, "ats (untranslated addresses) is not modelled");
        int logPageSize = Umem.log_page_size(c.in, at);
        long pageSize = 4096L << logPageSize;
        long pageOffset = Integer.toUnsignedLong(Umem.page_offset(c.in, at));
        if (pageOffset >= pageSize) throw c.fail(Syndrome.BAD_FIELD, "page_offset " + pageOffset + " not inside the first " + pageSize + "-byte page");
        long n = Umem.num_of_mtt(c.in, at);
        long mttAt = at + Umem.mtt$BYTE_OFFSET;
        if (n <= 0 || n > (c.inLength() - mttAt) / Mtt.SIZE) throw c.fail(Syndrome.INPUT_TOO_SHORT, "num_of_mtt " + n + " but room for " + Math.max(0, (c.inLength() - mttAt) / Mtt.SIZE));
        long[] pages = new long[(int) n];
        boolean writable = true;
        for (int i = 0; i < n; i++) {
            long e = mttAt + (long) i * Mtt.SIZE;
            if (!Mtt.rd_en(c.in, e) && !Mtt.wr_en(c.in, e)) throw c.fail(Syndrome.BAD_FIELD, "MTT " + i + " allows neither read nor write");
            writable &= Mtt.wr_en(c.in, e);
            long pa = Mtt.ptag(c.in, e);
            if (pa % pageSize != 0) throw c.fail(Syndrome.BAD_PAGE_ADDRESS, "MTT " + i + " at 0x" + Long.toHexString(pa) + " is not aligned to the " + pageSize + "-byte page");
            pages[i] = pa;
        }
        int id = hca.nextNumber("umem", 1, 0xffffff, u -> hca.objects.has(Kind.UMEM, u));
        if (id < 0) throw c.fail(Syndrome.OUT_OF_NUMBERS, "umem ids");
        hca.objects.add(new Resources.Umem(id, c.uid, pages, logPageSize, pageOffset, writable));
        own(hca, c, Kind.UMEM, id);
        CreateUmemOut.Device.umem_id$set(c.out, id);
    }

    private void destroyUmem(Command c) {
        Resources.Umem u = hca.objects.umem(DestroyUmemIn.umem_id(c.in));
        if (u == null) throw c.fail(Syndrome.NO_SUCH_OBJECT, "umem " + DestroyUmemIn.umem_id(c.in));
        checkOwner(hca, c, Kind.UMEM, u.id);
        String user = hca.objects.usedBy(Kind.UMEM, u.id);
        if (user != null) throw c.fail(Syndrome.OBJECT_IN_USE, "umem " + u.id + " " + user);
        hca.objects.destroy(Kind.UMEM, u.id);
    }

    /** The umem {@code id} for a context of command {@code c}: it must exist and be of the command's uid. */
    private static Resources.Umem umem(Command c, HcaState hca, int id, String what) {
        Resources.Umem u = hca.objects.umem(id);
        if (u == null) throw c.fail(Syndrome.BAD_REFERENCE, what + " umem " + id);
        if (u.uid != c.uid) throw c.fail(Syndrome.UMEM_RANGE, what + " umem " + id + " belongs to uid " + u.uid + ", the command has uid " + c.uid);
        return u;
    }

    /** Refuses a range of a umem that is not inside it or not mapped for DMA. */
    private static void checkRange(Command c, HcaState hca, Resources.Umem u, long offset, long bytes, String what) {
        if (offset < 0 || bytes > u.bytes() || offset > u.bytes() - bytes) {
            throw c.fail(Syndrome.UMEM_RANGE, what + " bytes 0x" + Long.toHexString(offset) + "+0x" + Long.toHexString(bytes) + " outside umem " + u.id + " (0x" + Long.toHexString(u.bytes()) + " bytes)");
        }
        for (long o = offset; o < offset + bytes; ) {
            long bus = u.busAddress(o);
            long len = Math.min(offset + bytes - o, u.pageSize() - (o + u.pageOffset) % u.pageSize());
            if (!hca.iommu.isMapped(bus, len)) throw c.fail(Syndrome.RING_NOT_MAPPED, what + " in umem " + u.id + " at 0x" + Long.toHexString(bus) + " is not mapped for DMA");
            o += len;
        }
    }

    /**
     * A ring of {@code bytes} bytes at {@code offset} of umem {@code id} (aligned to 64 bytes: the
     * device reads and writes whole entries), recorded in {@code uses}.
     */
    static Queues.Ring ring(Command c, HcaState hca, int id, long offset, long bytes, boolean deviceWrites, List<Resources.Umem> uses, String what) {
        Resources.Umem u = umem(c, hca, id, what);
        if ((u.pageOffset + offset) % 64 != 0) throw c.fail(Syndrome.UMEM_RANGE, what + " at offset 0x" + Long.toHexString(offset) + " of umem " + id + " is not 64-byte aligned");
        if (deviceWrites && !u.writable) throw c.fail(Syndrome.UMEM_RANGE, what + " in umem " + id + ", whose MTT entries do not allow writes (wr_en)");
        checkRange(c, hca, u, offset, bytes, what);
        uses.add(u);
        return u.ring(offset);
    }

    /** The bus address of the 8-byte doorbell record at {@code offset} of umem {@code id}, recorded in {@code uses}. */
    static long doorbellRecord(Command c, HcaState hca, int id, long offset, List<Resources.Umem> uses, String what) {
        Resources.Umem u = umem(c, hca, id, what);
        if ((u.pageOffset + offset) % 8 != 0) throw c.fail(Syndrome.UMEM_RANGE, what + " doorbell record at offset 0x" + Long.toHexString(offset) + " of umem " + id + " is not 8-byte aligned");
        checkRange(c, hca, u, offset, 8, what + " doorbell record");
        uses.add(u);
        return u.busAddress(offset);
    }

    /**
     * The umem {@code id} that translates an mkey whose byte 0 is at {@code offset} of it and which is
     * {@code len} bytes long (-1: length64, unchecked); pages are checked when the datapath uses them.
     */
    static Resources.Umem translation(Command c, HcaState hca, int id, long offset, long len) {
        Resources.Umem u = umem(c, hca, id, "mkey");
        if (offset < 0 || offset > u.bytes() || (len >= 0 && len > u.bytes() - offset)) {
            throw c.fail(Syndrome.UMEM_RANGE, "mkey of 0x" + Long.toHexString(len) + " bytes from offset 0x" + Long.toHexString(offset) + " outside umem " + id + " (0x" + Long.toHexString(u.bytes()) + " bytes)");
        }
        return u;
    }
}

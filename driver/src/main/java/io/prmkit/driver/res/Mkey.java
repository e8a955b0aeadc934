package io.prmkit.driver.res;

import io.prmkit.driver.cmd.CommandTransport;
import io.prmkit.driver.core.DeviceObject;
import io.prmkit.driver.core.UmemMemory;
import io.prmkit.mlx5.CreateMkeyIn;
import io.prmkit.mlx5.CreateMkeyOut;
import io.prmkit.mlx5.DestroyMkeyIn;
import io.prmkit.mlx5.Mkc;
import io.prmkit.mlx5.MkcAccessMode;
import io.prmkit.mlx5.PrmCommands;

/**
 * A memory key (PRM CREATE_MKEY). {@link #physical} makes what Linux's mlx5e uses: physical-address
 * mode (no translation), local read and write, covering the whole 64-bit space, not bound to a QP;
 * WQE data segments then carry bus addresses with this key as lkey.
 */
public final class Mkey extends DeviceObject {

    private final int key;
    /** The key's low byte (mkey_7_0) rolls per created mkey, as Linux's mkey_key counter does, so a stale key stops matching. */
    private static final java.util.concurrent.atomic.AtomicInteger VARIANT = new java.util.concurrent.atomic.AtomicInteger(0x5a);

    private Mkey(CommandTransport cmd, CommandTransport.ObjectHandle handle, int index, int key) {
        super(cmd, handle, index);
        this.key = key;
    }

    public static Mkey physical(CommandTransport cmd, Pd pd) {
        var in = PrmCommands.CREATE_MKEY.input();
        var mkc = CreateMkeyIn.memory_key_mkey_entry(in);
        Mkc.access_mode$set(mkc, MkcAccessMode.PA);
        Mkc.lw$set(mkc, true);
        Mkc.lr$set(mkc, true);
        Mkc.length64$set(mkc, true);
        Mkc.pd$set(mkc, pd.id());
        Mkc.qpn$set(mkc, (1 << Mkc.qpn$BIT_WIDTH) - 1); // all ones: not bound to a QP
        Mkc.mkey_7_0$set(mkc, variant());
        var created = cmd.create(PrmCommands.CREATE_MKEY, in);
        int index = CreateMkeyOut.mkey_index(created.out());
        return new Mkey(cmd, created.handle(), index, index << Mkc.mkey_7_0$BIT_WIDTH | Mkc.mkey_7_0(mkc));
    }

    /**
     * An MTT mkey over the whole of {@code umem} (DEVX memory, {@link UmemMemory}): its addresses are
     * the umem's device addresses ({@code start_addr} its first byte, {@code len} its size), its
     * translation the umem's pages ({@code mkey_umem_id}, {@code mkey_umem_valid}, no entries follow),
     * local read and write, not bound to a QP; as DPDK registers a mempool over DEVX.
     */
    public static Mkey overUmem(CommandTransport cmd, Pd pd, UmemMemory umem) {
        var in = PrmCommands.CREATE_MKEY.input();
        CreateMkeyIn.mkey_umem_valid$set(in, true);
        CreateMkeyIn.mkey_umem_id$set(in, umem.umemId());
        CreateMkeyIn.mkey_umem_offset$set(in, 0);
        var mkc = CreateMkeyIn.memory_key_mkey_entry(in);
        Mkc.access_mode$set(mkc, MkcAccessMode.MTT);
        Mkc.lw$set(mkc, true);
        Mkc.lr$set(mkc, true);
        Mkc.pd$set(mkc, pd.id());
        Mkc.qpn$set(mkc, (1 << Mkc.qpn$BIT_WIDTH) - 1);
        Mkc.start_addr$set(mkc, umem.base());
        Mkc.len$set(mkc, umem.size());
        Mkc.log_page_size$set(mkc, Long.numberOfTrailingZeros(PAGE));
        // One 8-byte MTT entry per page, counted in 16-byte octwords (none follow: the umem is the table).
        Mkc.translations_octword_size$set(mkc, (int) (umem.size() / PAGE * 8 / 16));
        Mkc.mkey_7_0$set(mkc, variant());
        var created = cmd.create(PrmCommands.CREATE_MKEY, in);
        int index = CreateMkeyOut.mkey_index(created.out());
        return new Mkey(cmd, created.handle(), index, index << Mkc.mkey_7_0$BIT_WIDTH | Mkc.mkey_7_0(mkc));
    }

    private static final long PAGE = 4096;

    /**
     * A free indirect mkey for a UMR WQE to fill in (KLM access mode, {@code umr_en}, local read and
     * write, room for {@code klmEntries} 16-byte entries); not usable until the UMR completes.
     */
    public static Mkey forUmr(CommandTransport cmd, Pd pd, int klmEntries) {
        var in = PrmCommands.CREATE_MKEY.input();
        var mkc = CreateMkeyIn.memory_key_mkey_entry(in);
        Mkc.access_mode$set(mkc, MkcAccessMode.KLMS);
        Mkc.free$set(mkc, true);
        Mkc.umr_en$set(mkc, true);
        Mkc.lw$set(mkc, true);
        Mkc.lr$set(mkc, true);
        Mkc.pd$set(mkc, pd.id());
        Mkc.qpn$set(mkc, (1 << Mkc.qpn$BIT_WIDTH) - 1);
        Mkc.translations_octword_size$set(mkc, klmEntries);
        Mkc.mkey_7_0$set(mkc, variant());
        var created = cmd.create(PrmCommands.CREATE_MKEY, in);
        int index = CreateMkeyOut.mkey_index(created.out());
        return new Mkey(cmd, created.handle(), index, index << Mkc.mkey_7_0$BIT_WIDTH | Mkc.mkey_7_0(mkc));
    }

    private static int variant() {
        int v = VARIANT.getAndIncrement() & 0xff;
        return v == 0 ? VARIANT.getAndIncrement() & 0xff : v;
    }

    /** The key WQEs use as lkey: {@code (mkey_index << 8) | mkey_7_0}. */
    public int key() {
        return key;
    }

    @Override
    protected void destroy() {
        var in = PrmCommands.DESTROY_MKEY.input();
        DestroyMkeyIn.mkey_index$set(in, id());
        destroy(PrmCommands.DESTROY_MKEY, in);
    }
}

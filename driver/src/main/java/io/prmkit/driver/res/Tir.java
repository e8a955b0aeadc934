package io.prmkit.driver.res;

import io.prmkit.driver.cmd.CommandTransport;
import io.prmkit.driver.core.DeviceObject;
import io.prmkit.mlx5.CreateTirIn;
import io.prmkit.mlx5.CreateTirOut;
import io.prmkit.mlx5.DestroyTirIn;
import io.prmkit.mlx5.RxHashFieldSelect;
import io.prmkit.mlx5.RxHashFields;
import io.prmkit.mlx5.RxHashFn;
import io.prmkit.mlx5.RxHashL3Type;
import io.prmkit.mlx5.RxHashL4Type;
import io.prmkit.mlx5.TirDispType;
import io.prmkit.mlx5.Tirc;
import io.prmkit.mlx5.PrmCommands;
import java.lang.foreign.MemorySegment;
import java.util.EnumSet;

/**
 * A transport interface receive (PRM CREATE_TIR): where steering delivers packets. Direct: one RQ.
 * Indirect: an RQT, chosen by a Toeplitz hash over the outer IPv4 addresses and TCP ports with a
 * 40-byte key (RSS).
 */
public final class Tir extends DeviceObject {

    /**
     * The 40-byte key of Microsoft's RSS verification suite (the usual published test key), fixed
     * so that which RQ a flow lands on is repeatable across runs.
     */
    public static final byte[] DEFAULT_TOEPLITZ_KEY = {
            0x6d, 0x5a, 0x56, (byte) 0xda, 0x25, 0x5b, 0xe, (byte) 0xc2, 0x41, 0x67,
            0x25, 0x3d, 0x43, (byte) 0xa3, (byte) 0x8f, (byte) 0xb0, (byte) 0xd0, (byte) 0xca, 0x2b, (byte) 0xcb,
            (byte) 0xae, 0x7b, 0x30, (byte) 0xb4, 0x77, (byte) 0xcb, 0x2d, (byte) 0xa3, (byte) 0x80, 0x30,
            (byte) 0xf2, 0xc, 0x6a, 0x42, (byte) 0xb7, 0x3b, (byte) 0xbe, (byte) 0xac, 0x1, (byte) 0xfa};

    private Tir(CommandTransport cmd, CommandTransport.ObjectHandle handle, int tirn) {
        super(cmd, handle, tirn);
    }

    public static Tir direct(CommandTransport cmd, TransportDomain td, ReceiveQueue rq) {
        var in = PrmCommands.CREATE_TIR.input();
        MemorySegment tirc = CreateTirIn.ctx(in);
        Tirc.disp_type$set(tirc, TirDispType.DIRECT);
        Tirc.inline_rqn$set(tirc, rq.rqn());
        Tirc.transport_domain$set(tirc, td.id());
        return create(cmd, in);
    }

    public static Tir rss(CommandTransport cmd, TransportDomain td, Rqt rqt, byte[] key) {
        if (key.length != Tirc.rx_hash_toeplitz_key$COUNT * 4)
            throw new IllegalArgumentException("a Toeplitz key has " + Tirc.rx_hash_toeplitz_key$COUNT * 4 + " bytes, got " + key.length);
        var in = PrmCommands.CREATE_TIR.input();
        MemorySegment tirc = CreateTirIn.ctx(in);
        Tirc.disp_type$set(tirc, TirDispType.INDIRECT);
        Tirc.indirect_table$set(tirc, rqt.id());
        Tirc.rx_hash_fn$set(tirc, RxHashFn.TOEPLITZ);
        Tirc.transport_domain$set(tirc, td.id());
        MemorySegment k = MemorySegment.ofArray(key);
        for (int i = 0; i < Tirc.rx_hash_toeplitz_key$COUNT; i++)
            Tirc.rx_hash_toeplitz_key$set(tirc, i, k.get(io.prmkit.layout.PrmLayout.BE_INT, i * 4L));
        MemorySegment sel = Tirc.rx_hash_field_selector_outer(tirc);
        RxHashFieldSelect.l3_prot_type$set(sel, RxHashL3Type.of(0));
        RxHashFieldSelect.l4_prot_type$set(sel, RxHashL4Type.of(0));
        RxHashFieldSelect.selected_fields$set(sel, (int) RxHashFields.maskOf(
                EnumSet.of(RxHashFields.SRC_IP, RxHashFields.DST_IP, RxHashFields.L4_SPORT, RxHashFields.L4_DPORT)));
        return create(cmd, in);
    }

    private static Tir create(CommandTransport cmd, MemorySegment in) {
        var created = cmd.create(PrmCommands.CREATE_TIR, in);
        return new Tir(cmd, created.handle(), CreateTirOut.tirn(created.out()));
    }

    @Override
    protected void destroy() {
        var in = PrmCommands.DESTROY_TIR.input();
        DestroyTirIn.tirn$set(in, id());
        destroy(PrmCommands.DESTROY_TIR, in);
    }
}

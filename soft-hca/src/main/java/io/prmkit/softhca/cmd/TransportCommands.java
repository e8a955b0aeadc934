package io.prmkit.softhca.cmd;

import io.prmkit.mlx5.CreateRqtIn;
import io.prmkit.mlx5.CreateRqtOut;
import io.prmkit.mlx5.CreateTirIn;
import io.prmkit.mlx5.CreateTirOut;
import io.prmkit.mlx5.CreateTisIn;
import io.prmkit.mlx5.CreateTisOut;
import io.prmkit.mlx5.DestroyRqtIn;
import io.prmkit.mlx5.DestroyTirIn;
import io.prmkit.mlx5.DestroyTisIn;
import io.prmkit.mlx5.ModifyRqtIn;
import io.prmkit.mlx5.QueryRqtIn;
import io.prmkit.mlx5.QueryRqtOut;
import io.prmkit.mlx5.QueryTirIn;
import io.prmkit.mlx5.QueryTirOut;
import io.prmkit.mlx5.QueryTisIn;
import io.prmkit.mlx5.QueryTisOut;
import io.prmkit.mlx5.RqNum;
import io.prmkit.mlx5.RqtBitmask;
import io.prmkit.mlx5.Rqtc;
import io.prmkit.mlx5.RxHashFn;
import io.prmkit.mlx5.Tirc;
import io.prmkit.mlx5.TirDispType;
import io.prmkit.mlx5.Tisc;
import io.prmkit.mlx5.PrmCommands;
import io.prmkit.softhca.cmd.CommandSpec.Phase;
import io.prmkit.softhca.device.DeviceObjects.Kind;
import io.prmkit.softhca.device.Resources;
import io.prmkit.softhca.device.Queues;
import java.lang.foreign.MemorySegment;
import java.util.Map;

/**
 * PRM chapter "Transport objects": TIS (send), TIR (receive: direct to an RQ, or indirect through an
 * RQT with a hash: NONE, INVERTED_XOR8 and TOEPLITZ, symmetric or not) and RQT (a list of RQs, at most
 * 2^log_max_rqt_size entries).
 */
final class TransportCommands {
    private final HcaState hca;

    private TransportCommands(HcaState hca) {
        this.hca = hca;
    }

    static void register(Map<Integer, CommandSpec> specs, HcaState hca) {
        TransportCommands t = new TransportCommands(hca);
        BringUpCommands.put(specs, PrmCommands.CREATE_TIS, Phase.INITIALIZED, t::createTis);
        BringUpCommands.put(specs, PrmCommands.DESTROY_TIS, Phase.INITIALIZED, t::destroyTis);
        BringUpCommands.put(specs, PrmCommands.QUERY_TIS, Phase.INITIALIZED, t::queryTis);
        BringUpCommands.put(specs, PrmCommands.MODIFY_TIS, Phase.INITIALIZED,
                t::modifyTis);
        BringUpCommands.put(specs, PrmCommands.MODIFY_TIR, Phase.INITIALIZED,
                t::modifyTir);
        BringUpCommands.put(specs, PrmCommands.CREATE_TIR, Phase.INITIALIZED, t::createTir);
        BringUpCommands.put(specs, PrmCommands.DESTROY_TIR, Phase.INITIALIZED, t::destroyTir);
        BringUpCommands.put(specs, PrmCommands.QUERY_TIR, Phase.INITIALIZED, t::queryTir);
        BringUpCommands.put(specs, PrmCommands.CREATE_RQT, Phase.INITIALIZED, t::createRqt);
        BringUpCommands.put(specs, PrmCommands.MODIFY_RQT, Phase.INITIALIZED, t::modifyRqt);
        BringUpCommands.put(specs, PrmCommands.DESTROY_RQT, Phase.INITIALIZED, t::destroyRqt);
        BringUpCommands.put(specs, PrmCommands.QUERY_RQT, Phase.INITIALIZED, t::queryRqt);
    }

    private void createTis(Command c) {
        MemorySegment tisc = Support.copy(c.in, CreateTisIn.ctx$BYTE_OFFSET, Tisc.SIZE);
        Support.checkCount(c, hca, hca.objects.count(Kind.TIS), "log_max_tis");
        if (!hca.objects.has(Kind.TRANSPORT_DOMAIN, Tisc.transport_domain(tisc))) {
            throw c.fail(Syndrome.BAD_REFERENCE, "transport domain " + Tisc.transport_domain(tisc));
        }
        int tisn = hca.nextNumber("tis", 1);
        hca.objects.add(new Resources.Tis(tisn, tisc));
        DevxCommands.own(hca, c, Kind.TIS, tisn);
        CreateTisOut.Device.tisn$set(c.out, tisn);
    }

    private void destroyTis(Command c) {
        int tisn = DestroyTisIn.tisn(c.in);
        if (!hca.objects.has(Kind.TIS, tisn)) throw c.fail(Syndrome.NO_SUCH_OBJECT, "TIS " + tisn);
        DevxCommands.checkOwner(hca, c, Kind.TIS, tisn);
        String user = hca.objects.usedBy(Kind.TIS, tisn);
        if (user != null) throw c.fail(Syndrome.OBJECT_IN_USE, "TIS " + tisn + " " + user);
        hca.objects.destroy(Kind.TIS, tisn);
    }

    private void queryTis(Command c) {
        Resources.Tis t = hca.objects.tis(QueryTisIn.tisn(c.in));
        if (t == null) throw c.fail(Syndrome.NO_SUCH_OBJECT, "TIS " + QueryTisIn.tisn(c.in));
        DevxCommands.checkOwner(hca, c, Kind.TIS, QueryTisIn.tisn(c.in));
        MemorySegment.copy(t.tisc(), 0, c.out, QueryTisOut.tis_context$BYTE_OFFSET, Tisc.SIZE);
    }

    /** MODIFY_TIS: prio and LAG affinity, as the bitmask selects. */
    private void modifyTis(Command c) {
        Resources.Tis t = hca.objects.tis(io.prmkit.mlx5.ModifyTisIn.tisn(c.in));
        if (t == null) throw c.fail(Syndrome.NO_SUCH_OBJECT, "TIS " + io.prmkit.mlx5.ModifyTisIn.tisn(c.in));
        DevxCommands.checkOwner(hca, c, Kind.TIS, io.prmkit.mlx5.ModifyTisIn.tisn(c.in));
        long mask = io.prmkit.mlx5.ModifyTisIn.bitmask$BYTE_OFFSET;
        long ctx = io.prmkit.mlx5.ModifyTisIn.ctx$BYTE_OFFSET;
        if (io.prmkit.mlx5.ModifyTisBitmask.prio(c.in, mask)) Tisc.prio$set(t.tisc(), Tisc.prio(c.in, ctx));
        if (io.prmkit.mlx5.ModifyTisBitmask.lag_tx_port_affinity(c.in, mask)) {
            Tisc.lag_tx_port_affinity$set(t.tisc(), Tisc.lag_tx_port_affinity(c.in, ctx));
        }
        if (io.prmkit.mlx5.ModifyTisBitmask.strict_lag_tx_port_affinity(c.in, mask)) {
            Tisc.strict_lag_tx_port_affinity$set(t.tisc(), Tisc.strict_lag_tx_port_affinity(c.in, ctx));
        }
    }

    /** MODIFY_TIR: the hash settings and the self-loopback block (packet merge is not modelled). */
    private void modifyTir(Command c) {
        Resources.Tir t = hca.objects.tir(io.prmkit.mlx5.ModifyTirIn.tirn(c.in));
        if (t == null) throw c.fail(Syndrome.NO_SUCH_OBJECT, "TIR " + io.prmkit.mlx5.ModifyTirIn.tirn(c.in));
        DevxCommands.checkOwner(hca, c, Kind.TIR, io.prmkit.mlx5.ModifyTirIn.tirn(c.in));
        long mask = io.prmkit.mlx5.ModifyTirIn.bitmask$BYTE_OFFSET;
        long ctx = io.prmkit.mlx5.ModifyTirIn.ctx$BYTE_OFFSET;
        if (io.prmkit.mlx5.ModifyTirBitmask.packet_merge(c.in, mask)) throw c.fail(Syndrome.BAD_FIELD, "LRO (packet merge) is not modelled");
        if (io.prmkit.mlx5.ModifyTirBitmask.hash(c.in, mask)) {
            RxHashFn fn = Tirc.rx_hash_fn$enum(c.in, ctx);
            if (fn == null) throw c.fail(Syndrome.BAD_FIELD, "rx_hash_fn " + Tirc.rx_hash_fn(c.in, ctx));
            Tirc.rx_hash_fn$set(t.tirc(), fn);
            Tirc.rx_hash_symmetric$set(t.tirc(), Tirc.rx_hash_symmetric(c.in, ctx));
            long key = Tirc.rx_hash_toeplitz_key$BYTE_OFFSET;
            MemorySegment.copy(c.in, ctx + key, t.tirc(), key, Tirc.rx_hash_toeplitz_key$COUNT * Tirc.rx_hash_toeplitz_key$ELEMENT_BITS / 8);
            long sel = Tirc.rx_hash_field_selector_outer$BYTE_OFFSET;
            MemorySegment.copy(c.in, ctx + sel, t.tirc(), sel, io.prmkit.mlx5.RxHashFieldSelect.SIZE);
        }
        if (io.prmkit.mlx5.ModifyTirBitmask.self_lb_en(c.in, mask)) Tirc.self_lb_block$set(t.tirc(), Tirc.self_lb_block(c.in, ctx));
    }

    private void createTir(Command c) {
        MemorySegment tirc = Support.copy(c.in, CreateTirIn.ctx$BYTE_OFFSET, Tirc.SIZE);
        Support.checkCount(c, hca, hca.objects.count(Kind.TIR), "log_max_tir");
        if (!hca.objects.has(Kind.TRANSPORT_DOMAIN, Tirc.transport_domain(tirc))) {
            throw c.fail(Syndrome.BAD_REFERENCE, "transport domain " + Tirc.transport_domain(tirc));
        }
        TirDispType disp = Tirc.disp_type$enum(tirc);
        if (disp == null) throw c.fail(Syndrome.BAD_FIELD, "disp_type " + Tirc.disp_type(tirc));
        switch (disp) {
            case DIRECT -> {
                if (!hca.objects.has(Kind.RQ, Tirc.inline_rqn(tirc))) throw c.fail(Syndrome.BAD_REFERENCE, "RQ " + Tirc.inline_rqn(tirc));
            }
            case INDIRECT -> {
                if (!hca.objects.has(Kind.RQT, Tirc.indirect_table(tirc))) throw c.fail(Syndrome.BAD_REFERENCE, "RQT " + Tirc.indirect_table(tirc));
                if (Tirc.rx_hash_fn$enum(tirc) == null) throw c.fail(Syndrome.BAD_FIELD, "rx_hash_fn " + Tirc.rx_hash_fn(tirc) + " (NONE, INVERTED_XOR8 or TOEPLITZ)");
            }
        }
        if (Tirc.packet_merge_mask(tirc) != 0) throw c.fail(Syndrome.BAD_FIELD, "LRO (packet_merge_mask) is not modelled");
        int tirn = hca.nextNumber("tir", 1);
        hca.objects.add(new Resources.Tir(tirn, tirc));
        DevxCommands.own(hca, c, Kind.TIR, tirn);
        CreateTirOut.Device.tirn$set(c.out, tirn);
    }

    private void destroyTir(Command c) {
        int tirn = DestroyTirIn.tirn(c.in);
        if (!hca.objects.has(Kind.TIR, tirn)) throw c.fail(Syndrome.NO_SUCH_OBJECT, "TIR " + tirn);
        DevxCommands.checkOwner(hca, c, Kind.TIR, tirn);
        String user = hca.objects.usedBy(Kind.TIR, tirn);
        if (user != null) throw c.fail(Syndrome.OBJECT_IN_USE, "TIR " + tirn + " " + user);
        hca.objects.destroy(Kind.TIR, tirn);
    }

    private void queryTir(Command c) {
        Resources.Tir t = hca.objects.tir(QueryTirIn.tirn(c.in));
        if (t == null) throw c.fail(Syndrome.NO_SUCH_OBJECT, "TIR " + QueryTirIn.tirn(c.in));
        DevxCommands.checkOwner(hca, c, Kind.TIR, QueryTirIn.tirn(c.in));
        MemorySegment.copy(t.tirc(), 0, c.out, QueryTirOut.tir_context$BYTE_OFFSET, Tirc.SIZE);
    }

    /**
     * The RQ list of an rqtc at {@code at} in the input, checked against {@code max} entries: the
     * input's rqt_max_size on CREATE_RQT; on MODIFY_RQT the table's own (the bitmask selects only the
     * list, and Linux's mlx5e_rqt_redirect leaves rqt_max_size 0).
     */
    private int[] rqList(Command c, long at, int max) {
        int size = Rqtc.rqt_actual_size(c.in, at);
        long limit = 1L << Support.cap(hca, "log_max_rqt_size");
        if (size == 0 || size > max) throw c.fail(Syndrome.BAD_FIELD, "rqt_actual_size " + size + ", rqt_max_size " + max);
        if (max > limit) throw c.fail(Syndrome.SIZE_ABOVE_MAX, "rqt_max_size " + max + " > " + limit);
        long list = at + Rqtc.rq_num$BYTE_OFFSET;
        if (c.inLength() < list + (long) size * RqNum.SIZE) throw c.fail(Syndrome.INPUT_TOO_SHORT, size + " RQ numbers");
        int[] rqns = new int[size];
        for (int i = 0; i < size; i++) {
            rqns[i] = RqNum.rq_num(c.in, at + Rqtc.rq_num$offset(i));
            if (!hca.objects.has(Kind.RQ, rqns[i])) throw c.fail(Syndrome.BAD_REFERENCE, "RQ " + rqns[i] + " at entry " + i);
        }
        return rqns;
    }

    private void createRqt(Command c) {
        long at = CreateRqtIn.rqt_context$BYTE_OFFSET;
        Support.checkCount(c, hca, hca.objects.count(Kind.RQT), "log_max_rqt");
        int[] rqns = rqList(c, at, Rqtc.rqt_max_size(c.in, at));
        int rqtn = hca.nextNumber("rqt", 1);
        hca.objects.add(new Resources.Rqt(rqtn, Support.copy(c.in, at, Rqtc.SIZE), rqns));
        DevxCommands.own(hca, c, Kind.RQT, rqtn);
        CreateRqtOut.Device.rqtn$set(c.out, rqtn);
    }

    private void modifyRqt(Command c) {
        Resources.Rqt t = hca.objects.rqt(ModifyRqtIn.rqtn(c.in));
        if (t == null) throw c.fail(Syndrome.NO_SUCH_OBJECT, "RQT " + ModifyRqtIn.rqtn(c.in));
        DevxCommands.checkOwner(hca, c, Kind.RQT, ModifyRqtIn.rqtn(c.in));
        if (RqtBitmask.rqn_list(c.in, ModifyRqtIn.bitmask$BYTE_OFFSET)) {
            long at = ModifyRqtIn.ctx$BYTE_OFFSET;
            int[] rqns = rqList(c, at, Rqtc.rqt_max_size(t.rqtc));
            t.setRqns(rqns);
        }
    }

    private void destroyRqt(Command c) {
        int rqtn = DestroyRqtIn.rqtn(c.in);
        if (!hca.objects.has(Kind.RQT, rqtn)) throw c.fail(Syndrome.NO_SUCH_OBJECT, "RQT " + rqtn);
        DevxCommands.checkOwner(hca, c, Kind.RQT, rqtn);
        String user = hca.objects.usedBy(Kind.RQT, rqtn);
        if (user != null) throw c.fail(Syndrome.OBJECT_IN_USE, "RQT " + rqtn + " " + user);
        hca.objects.destroy(Kind.RQT, rqtn);
    }

    private void queryRqt(Command c) {
        Resources.Rqt t = hca.objects.rqt(QueryRqtIn.rqtn(c.in));
        if (t == null) throw c.fail(Syndrome.NO_SUCH_OBJECT, "RQT " + QueryRqtIn.rqtn(c.in));
        DevxCommands.checkOwner(hca, c, Kind.RQT, QueryRqtIn.rqtn(c.in));
        long at = QueryRqtOut.rqt_context$BYTE_OFFSET;
        MemorySegment.copy(t.rqtc, 0, c.out, at, Rqtc.SIZE);
        long room = (c.outLength() - at - Rqtc.rq_num$BYTE_OFFSET) / RqNum.SIZE;
        for (int i = 0; i < Math.min(room, t.size()); i++) RqNum.rq_num$set(c.out, at + Rqtc.rq_num$offset(i), t.rqn(i));
    }
}

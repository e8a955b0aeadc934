package io.prmkit.softhca.device;

import io.prmkit.mlx5.Cqc;
import io.prmkit.mlx5.FlowContext;
import io.prmkit.mlx5.DestFormatStruct;
import io.prmkit.mlx5.FlowDestinationType;
import io.prmkit.mlx5.FlowTableContext;
import io.prmkit.mlx5.FlowTableMissAction;
import io.prmkit.mlx5.Mkc;
import io.prmkit.mlx5.Qpc;
import io.prmkit.mlx5.Rqc;
import io.prmkit.mlx5.Sqc;
import io.prmkit.mlx5.TirDispType;
import io.prmkit.mlx5.Tirc;
import io.prmkit.mlx5.Tisc;
import java.lang.foreign.MemorySegment;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The objects commands created, by number: the seam between the control path (commands create,
 * modify and destroy) and the datapath (looks objects up by the numbers it finds in doorbells, WQEs
 * and contexts). Device thread only.
 *
 * <p>It keeps the rules that tie objects to each other, so no caller repeats them:
 * <ul>
 *   <li>references: an SQ or RQ is a user of its CQ, a QP of its send and receive CQs, and a queue
 *       or mkey of the umems its ring, doorbell record or translation is in ({@code add} counts
 *       them, {@link #destroy} gives them back); {@link #usedBy} says what still refers to an object
 *       (the command answers OBJECT_IN_USE);
 *   <li>ownership (DEVX): an object created with a non-zero uid belongs to it ({@link #own},
 *       {@link #owner}); {@link #destroy} forgets it; a user context owning anything is in use;
 *   <li>the NIC RX and TX root flow tables (SET_FLOW_TABLE_ROOT);
 *   <li>the generation: bumped by {@link #changed} after every command (and by a UMR), so the
 *       datapath keeps what it looked up (TIRs, RQs, compiled flow tables, key translations) only
 *       while {@link #generation} stays the same.
 * </ul>
 */
public final class DeviceObjects {

    /** The kinds of numbered objects, by the names {@code SoftHca.liveObjects} reports. */
    public enum Kind {
        EQ("eq"), CQ("cq"), SQ("sq"), RQ("rq"), QP("qp"), MKEY("mkey"), TIS("tis"), TIR("tir"), RQT("rqt"),
        FLOW_TABLE("flow_table"), FLOW_COUNTER("flow_counter"), Q_COUNTER("q_counter"), PD("pd"),
        TRANSPORT_DOMAIN("transport_domain"), UMEM("umem"), UCTX("uctx");

        private final String label;

        Kind(String label) {
            this.label = label;
        }

        /** The object kind's name ({@code cq}, {@code flow_table}, ...). */
        public String label() {
            return label;
        }
    }

    /**
     * The reserved lkey (QUERY_SPECIAL_CONTEXTS resd_lkey): WQE addresses are bus addresses. Ours:
     * key index 0, which CREATE_MKEY never hands out (indexes run 1..0xffffff), so no created mkey
     * can equal it; key byte 0xff.
     */
    public static final int RESERVED_LKEY = 0x0000_00ff;
    public final int reservedLkey = RESERVED_LKEY;
    public final Resources.VportCounters vportCounters = new Resources.VportCounters();
    public final PortState port = new PortState();

    private final Map<Integer, Queues.Eq> eqs = new HashMap<>();
    private final Map<Integer, Queues.Cq> cqs = new HashMap<>();
    private final Map<Integer, Queues.Sq> sqs = new HashMap<>();
    private final Map<Integer, Queues.Rq> rqs = new HashMap<>();
    private final Map<Integer, Resources.Qp> qps = new HashMap<>();
    /** Memory keys by key index (key >>> 8). */
    private final Map<Integer, Resources.Mkey> mkeys = new HashMap<>();
    private final Map<Integer, Resources.Tis> tises = new HashMap<>();
    private final Map<Integer, Resources.Tir> tirs = new HashMap<>();
    private final Map<Integer, Resources.Rqt> rqts = new HashMap<>();
    private final Map<Integer, Resources.FlowTable> flowTables = new HashMap<>();
    private final Map<Integer, Resources.FlowCounter> flowCounters = new HashMap<>();
    private final Map<Integer, Resources.QCounter> qCounters = new HashMap<>();
    /** Protection domains and transport domains: numbers only. */
    private final Map<Integer, Integer> pds = new HashMap<>();
    private final Map<Integer, Integer> transportDomains = new HashMap<>();
    private final Map<Integer, Resources.Umem> umems = new HashMap<>();
    /** User contexts (DEVX) by uid: their {@code uctx.cap}. */
    private final Map<Integer, Integer> uctxs = new HashMap<>();
    /** Objects created with a non-zero uid, by kind and number: the uid that owns them (absent: uid 0). */
    private final Map<Kind, Map<Integer, Integer>> owners = new EnumMap<>(Kind.class);
    private int nicRxRoot = -1;
    private int nicTxRoot = -1;
    private int generation;

    private Map<Integer, ?> map(Kind kind) {
        return switch (kind) {
            case EQ -> eqs;
            case CQ -> cqs;
            case SQ -> sqs;
            case RQ -> rqs;
            case QP -> qps;
            case MKEY -> mkeys;
            case TIS -> tises;
            case TIR -> tirs;
            case RQT -> rqts;
            case FLOW_TABLE -> flowTables;
            case FLOW_COUNTER -> flowCounters;
            case Q_COUNTER -> qCounters;
            case PD -> pds;
            case TRANSPORT_DOMAIN -> transportDomains;
            case UMEM -> umems;
            case UCTX -> uctxs;
        };
    }

    // ---- lookups (null when there is none) ----

    public Queues.Eq eq(int eqn) {
        return eqs.get(eqn);
    }

    public Queues.Cq cq(int cqn) {
        return cqs.get(cqn);
    }

    public Queues.Sq sq(int sqn) {
        return sqs.get(sqn);
    }

    public Queues.Rq rq(int rqn) {
        return rqs.get(rqn);
    }

    public Resources.Qp qp(int qpn) {
        return qps.get(qpn);
    }

    /** The memory key for {@code key}, or null when its index is unknown or its low byte differs. */
    public Resources.Mkey mkey(int key) {
        Resources.Mkey m = mkeys.get(key >>> 8);
        return m != null && m.key == key ? m : null;
    }

    /** The memory key at key index {@code index} (whatever its low byte). */
    public Resources.Mkey mkeyAt(int index) {
        return mkeys.get(index);
    }

    public Resources.Tis tis(int tisn) {
        return tises.get(tisn);
    }

    public Resources.Tir tir(int tirn) {
        return tirs.get(tirn);
    }

    public Resources.Rqt rqt(int rqtn) {
        return rqts.get(rqtn);
    }

    public Resources.FlowTable flowTable(int tableId) {
        return flowTables.get(tableId);
    }

    public Resources.FlowCounter flowCounter(int id) {
        return flowCounters.get(id);
    }

    public Resources.QCounter qCounter(int id) {
        return qCounters.get(id);
    }

    public Resources.Umem umem(int id) {
        return umems.get(id);
    }

    /** Whether object {@code n} of {@code kind} exists. */
    public boolean has(Kind kind, int n) {
        return map(kind).containsKey(n);
    }

    /** How many objects of {@code kind} exist (the command checks it against its {@code log_max_*}). */
    public int count(Kind kind) {
        return map(kind).size();
    }

    /** The EQ subscribed to {@code eventType} with the lowest number, or null. */
    public Queues.Eq subscriber(int eventType) {
        Queues.Eq best = null;
        for (Queues.Eq eq : eqs.values()) {
            if (eq.subscribes(eventType) && (best == null || eq.eqn < best.eqn)) best = eq;
        }
        return best;
    }

    /** The SQs now (a copy: the datapath's list of engines, rebuilt when the generation moves). */
    public List<Queues.Sq> sqs() {
        return List.copyOf(sqs.values());
    }

    // ---- creation: each object is added once its command has checked it ----

    public void add(Queues.Eq eq) {
        eqs.put(eq.eqn, eq);
    }

    public void add(Queues.Cq cq) {
        hold(cq.umems);
        cqs.put(cq.cqn, cq);
    }

    /** Adds the SQ; it is a user of its CQ from now on. */
    public void add(Queues.Sq sq) {
        use(Sqc.cqn(sq.sqc), 1);
        hold(sq.umems);
        sqs.put(sq.sqn, sq);
    }

    /** Adds the RQ; it is a user of its CQ from now on. */
    public void add(Queues.Rq rq) {
        use(Rqc.cqn(rq.rqc), 1);
        hold(rq.umems);
        rqs.put(rq.rqn, rq);
    }

    /** Adds the QP; it is a user of its send and receive CQs from now on. */
    public void add(Resources.Qp qp) {
        use(Qpc.cqn_snd(qp.qpc), 1);
        use(Qpc.cqn_rcv(qp.qpc), 1);
        hold(qp.umems);
        qps.put(qp.qpn, qp);
    }

    /** Adds the key at its index; a key translated by a umem holds it. */
    public void add(Resources.Mkey mkey) {
        if (mkey.umem != null) mkey.umem.users++;
        mkeys.put(mkey.index(), mkey);
    }

    public void add(Resources.Tis tis) {
        tises.put(tis.tisn(), tis);
    }

    public void add(Resources.Tir tir) {
        tirs.put(tir.tirn(), tir);
    }

    public void add(Resources.Rqt rqt) {
        rqts.put(rqt.rqtn, rqt);
    }

    public void add(Resources.FlowTable table) {
        flowTables.put(table.tableId, table);
    }

    public void add(Resources.FlowCounter counter) {
        flowCounters.put(counter.id, counter);
    }

    public void add(Resources.QCounter counter) {
        qCounters.put(counter.id, counter);
    }

    public void add(Resources.Umem umem) {
        umems.put(umem.id, umem);
    }

    /** A protection domain (ALLOC_PD). */
    public void addPd(int pd) {
        pds.put(pd, pd);
    }

    /** A transport domain (ALLOC_TRANSPORT_DOMAIN). */
    public void addTransportDomain(int td) {
        transportDomains.put(td, td);
    }

    /** A user context (CREATE_UCTX) with its {@code uctx.cap}. */
    public void addUserContext(int uid, int cap) {
        uctxs.put(uid, cap);
    }

    private void use(int cqn, int delta) {
        Queues.Cq cq = cqs.get(cqn);
        if (cq != null) cq.users += delta;
    }

    private static void hold(List<Resources.Umem> us) {
        for (Resources.Umem u : us) u.users++;
    }

    private static void release(List<Resources.Umem> us) {
        for (Resources.Umem u : us) u.users--;
    }

    // ---- references and destruction ----

    /**
     * What still refers to object {@code n} of {@code kind}, as the end of a sentence that starts with
     * the object ("serves CQ 1024", "is a flow destination"), or null when nothing does and it may
     * go. Kinds nothing refers to always answer null.
     */
    public String usedBy(Kind kind, int n) {
        switch (kind) {
            case EQ -> {
                for (Queues.Cq cq : cqs.values()) if (Cqc.c_eqn_or_apu_element(cq.cqc) == n) return "serves CQ " + cq.cqn;
            }
            case CQ -> {
                Queues.Cq cq = cqs.get(n);
                if (cq != null && cq.users > 0) return "serves " + cq.users + " queues";
            }
            case RQ -> {
                for (Resources.Tir t : tirs.values()) {
                    if (Tirc.disp_type$enum(t.tirc()) == TirDispType.DIRECT && Tirc.inline_rqn(t.tirc()) == n) return "is the direct RQ of TIR " + t.tirn();
                }
                for (Resources.Rqt t : rqts.values()) {
                    if (t.contains(n)) return "is in RQT " + t.rqtn;
                }
            }
            case TIS -> {
                for (Queues.Sq sq : sqs.values()) {
                    if (Sqc.tis_lst_sz(sq.sqc) == 1 && Sqc.tis_num_0(sq.sqc) == n) return "used by SQ " + sq.sqn;
                }
            }
            case RQT -> {
                for (Resources.Tir t : tirs.values()) {
                    if (Tirc.disp_type$enum(t.tirc()) == TirDispType.INDIRECT && Tirc.indirect_table(t.tirc()) == n) return "used by TIR " + t.tirn();
                }
            }
            case TIR -> {
                if (forwardsToTir(n)) return "is a flow destination";
            }
            case FLOW_TABLE -> {
                if (nicRxRoot == n || nicTxRoot == n) return "is a root";
                for (Resources.FlowTable o : flowTables.values()) {
                    if (FlowTableContext.table_miss_action$enum(o.context) == FlowTableMissAction.FWD && FlowTableContext.table_miss_id(o.context) == n) {
                        return "is the miss table of " + o.tableId;
                    }
                }
            }
            case PD -> {
                for (Resources.Mkey m : mkeys.values()) if (Mkc.pd(m.mkc) == n) return "used by mkey 0x" + Integer.toHexString(m.key);
            }
            case TRANSPORT_DOMAIN -> {
                for (Resources.Tis t : tises.values()) if (Tisc.transport_domain(t.tisc()) == n) return "used by TIS " + t.tisn();
                for (Resources.Tir t : tirs.values()) if (Tirc.transport_domain(t.tirc()) == n) return "used by TIR " + t.tirn();
            }
            case UMEM -> {
                Resources.Umem u = umems.get(n);
                if (u != null && u.users > 0) return "holds " + u.users + " rings, doorbell records or keys";
            }
            case UCTX -> {
                for (Map.Entry<Kind, Map<Integer, Integer>> e : owners.entrySet()) {
                    for (Map.Entry<Integer, Integer> o : e.getValue().entrySet()) {
                        if (o.getValue() == n) return "still owns " + e.getKey().label() + " 0x" + Integer.toHexString(o.getKey());
                    }
                }
            }
            default -> {}
        }
        return null;
    }

    /** Whether any flow entry forwards to TIR {@code tirn}. */
    private boolean forwardsToTir(int tirn) {
        for (Resources.FlowTable t : flowTables.values()) {
            for (Resources.FlowEntry e : t.entries()) {
                MemorySegment fc = e.flowContext();
                int n = FlowContext.destination_list_size(fc);
                for (int i = 0; i < n; i++) {
                    long at = FlowContext.destination$BYTE_OFFSET + (long) i * DestFormatStruct.SIZE;
                    if (at + DestFormatStruct.SIZE > fc.byteSize()) break;
                    if (DestFormatStruct.destination_type$enum(fc, at) == FlowDestinationType.TIR && DestFormatStruct.destination_id(fc, at) == tirn) {
                        return true;
                    }
                }
            }
        }
        return false;
    }

    /**
     * Destroys object {@code n} of {@code kind} (the command has checked {@link #usedBy}): forgets
     * its owner, and gives back what it held (a queue its CQ and umems, a key its umem).
     */
    public void destroy(Kind kind, int n) {
        Object gone = map(kind).remove(n);
        Map<Integer, Integer> o = owners.get(kind);
        if (o != null) o.remove(n);
        switch (gone) {
            case Queues.Cq cq -> release(cq.umems);
            case Queues.Sq sq -> {
                use(Sqc.cqn(sq.sqc), -1);
                release(sq.umems);
            }
            case Queues.Rq rq -> {
                use(Rqc.cqn(rq.rqc), -1);
                release(rq.umems);
            }
            case Resources.Qp qp -> {
                use(Qpc.cqn_snd(qp.qpc), -1);
                use(Qpc.cqn_rcv(qp.qpc), -1);
                release(qp.umems);
            }
            case Resources.Mkey m -> {
                if (m.umem != null) m.umem.users--;
            }
            case null, default -> {}
        }
    }

    // ---- ownership (DEVX user contexts) ----

    /** Records that object {@code n} of {@code kind} was created by {@code uid} (uid 0 owns what no one else does). */
    public void own(Kind kind, int n, int uid) {
        if (uid != 0) owners.computeIfAbsent(kind, k -> new HashMap<>()).put(n, uid);
    }

    /** The uid that owns object {@code n} of {@code kind}: 0 unless it was created with another. */
    public int owner(Kind kind, int n) {
        Map<Integer, Integer> m = owners.get(kind);
        Integer uid = m == null ? null : m.get(n);
        return uid == null ? 0 : uid;
    }

    // ---- flow steering roots ----

    /** The NIC RX root flow table (SET_FLOW_TABLE_ROOT), or -1. */
    public int rxRoot() {
        return nicRxRoot;
    }

    /** The NIC TX root flow table, or -1. */
    public int txRoot() {
        return nicTxRoot;
    }

    /** Makes {@code tableId} the NIC RX root (-1: none). */
    public void setRxRoot(int tableId) {
        nicRxRoot = tableId;
    }

    /** Makes {@code tableId} the NIC TX root (-1: none). */
    public void setTxRoot(int tableId) {
        nicTxRoot = tableId;
    }

    // ---- generation ----

    /** Objects changed (a command ran, a UMR rewrote a key): what the datapath looked up is stale. */
    public void changed() {
        generation++;
    }

    /** Moves with every {@link #changed}: a lookup made at another generation may be stale. */
    public int generation() {
        return generation;
    }

    /** Forgets every object (TEARDOWN_HCA). */
    public void clear() {
        for (Kind k : Kind.values()) map(k).clear();
        owners.clear();
        nicRxRoot = -1;
        nicTxRoot = -1;
    }
}

package io.prmkit.softhca.device;

import java.util.HashMap;
import java.util.Map;

/**
 * The registry of everything commands created, by number: the seam between the control path
 * (commands create, modify and destroy) and the datapath (looks objects up by the numbers it finds
 * in doorbells, WQEs and contexts). Used on the device thread only.
 */
public final class DeviceObjects {
    public final Map<Integer, Queues.Eq> eqs = new HashMap<>();
    public final Map<Integer, Queues.Cq> cqs = new HashMap<>();
    public final Map<Integer, Queues.Sq> sqs = new HashMap<>();
    public final Map<Integer, Queues.Rq> rqs = new HashMap<>();
    public final Map<Integer, Resources.Qp> qps = new HashMap<>();
    /** Memory keys by key index (key >>> 8). */
    public final Map<Integer, Resources.Mkey> mkeys = new HashMap<>();
    public final Map<Integer, Resources.Tis> tises = new HashMap<>();
    public final Map<Integer, Resources.Tir> tirs = new HashMap<>();
    public final Map<Integer, Resources.Rqt> rqts = new HashMap<>();
    public final Map<Integer, Resources.FlowTable> flowTables = new HashMap<>();
    public final Map<Integer, Resources.QCounter> qCounters = new HashMap<>();
    /** Flow counters by id: {packets, octets}, counted by the datapath. */
    public final Map<Integer, long[]> flowCounters = new HashMap<>();
    public final Resources.VportCounters vportCounters = new Resources.VportCounters();
    /** User memory by umem id. */
    public final Map<Integer, Resources.Umem> umems = new HashMap<>();
    /** User contexts (DEVX) by uid: their {@code uctx.cap}. */
    public final Map<Integer, Integer> uctxs = new HashMap<>();
    /**
     * Objects created with a non-zero uid, by kind ("cq", "sq", ...) and number: the uid that owns
     * them. An object not listed belongs to uid 0.
     */
    public final Map<String, Map<Integer, Integer>> owners = new HashMap<>();
    public final PortState port = new PortState();
    /** NIC RX root flow table id (SET_FLOW_TABLE_ROOT), or -1. */
    public int nicRxRoot = -1;
    /** NIC TX root flow table id, or -1. */
    public int nicTxRoot = -1;
    /**
     * The reserved lkey (QUERY_SPECIAL_CONTEXTS resd_lkey): WQE addresses are bus addresses. Ours:
     * key index 0, which CREATE_MKEY never hands out (indexes run 1..0xffffff), so no created mkey
     * can equal it; key byte 0xff.
     */
    public static final int RESERVED_LKEY = 0x0000_00ff;
    public final int reservedLkey = RESERVED_LKEY;

    /**
     * Bumped after every command (and by anyone else who changes objects); the datapath keeps
     * lookups (TIR, RQ, compiled flow tables) only while it stays the same. Device thread only.
     */
    public int generation;

    /** The memory key for {@code key}, or null when its index is unknown or its low byte differs. */
    public Resources.Mkey mkey(int key) {
        Resources.Mkey m = mkeys.get(key >>> 8);
        return m != null && m.key == key ? m : null;
    }

    /** Forgets every object (TEARDOWN_HCA). */
    public void clear() {
        eqs.clear();
        cqs.clear();
        sqs.clear();
        rqs.clear();
        qps.clear();
        mkeys.clear();
        tises.clear();
        tirs.clear();
        rqts.clear();
        flowTables.clear();
        qCounters.clear();
        flowCounters.clear();
        umems.clear();
        uctxs.clear();
        owners.clear();
        nicRxRoot = -1;
        nicTxRoot = -1;
    }
}

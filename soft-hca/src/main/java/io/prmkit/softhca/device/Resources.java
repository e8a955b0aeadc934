package io.prmkit.softhca.device;

import java.lang.foreign.MemorySegment;
import java.util.TreeMap;

/**
 * Objects other than queues that commands create (memory keys, TIS/TIR/RQT, flow steering,
 * counters). Contexts are device-side copies read through the generated accessors.
 */
public final class Resources {
    private Resources() {}

    /**
     * Memory key (PRM "Memory Region"): context {@code mkc}; {@code translation} holds the MTT
     * entries ({@code cmd_pas}-like, 8 bytes each) or KLMs (16 bytes each) as the driver gave them,
     * {@code translation_octword_size} 16-byte units. A {@code umr_en} key may be rewritten by a UMR WQE.
     */
    public static final class Mkey {
        /** The full key: {@code index << 8 | mkc.mkey_7_0}. */
        public final int key;
        public final MemorySegment mkc;
        /** With {@code mkey_umem_valid}: the umem that translates it, byte {@code start_addr + x} at {@code umemOffset + x} of it (held while the key exists). */
        public final Umem umem;
        public final long umemOffset;
        private MemorySegment translation;

        public Mkey(int key, MemorySegment mkc, MemorySegment translation) {
            this(key, mkc, translation, null, 0);
        }

        public Mkey(int key, MemorySegment mkc, MemorySegment translation, Umem umem, long umemOffset) {
            this.key = key;
            this.mkc = mkc;
            this.translation = translation;
            this.umem = umem;
            this.umemOffset = umemOffset;
        }

        /** The MTT entries or KLMs as created or last rewritten by a UMR (null: none). */
        public MemorySegment translation() {
            return translation;
        }

        /** A UMR WQE rewrote the translation (the key must be {@code umr_en}; the WQE was checked). */
        public void setTranslation(MemorySegment t) {
            translation = t;
        }

        public int index() {
            return key >>> 8;
        }
    }

    /**
     * A queue pair (PRM "QP context"): its {@code qpc} as created and updated by the transitions,
     * and its state ({@code QpState}). The RC datapath is not modelled yet.
     */
    public static final class Qp {
        public final int qpn;
        public final MemorySegment qpc;
        public final Queues.Ring ring;
        /** Bus address of the doorbell record: {@code qpc.dbr_addr}, or resolved in its umem. */
        public final long dbr;
        /** The umems its buffer and doorbell record are in (held while it exists). */
        public final java.util.List<Umem> umems;
        private int state;

        public Qp(int qpn, MemorySegment qpc, Queues.Ring ring, io.prmkit.mlx5.QpState state, long dbr, java.util.List<Umem> umems) {
            this.qpn = qpn;
            this.qpc = qpc;
            this.ring = ring;
            this.dbr = dbr;
            this.umems = java.util.List.copyOf(umems);
            setState(state);
        }

        /** A {@code QpState} value. */
        public int state() {
            return state;
        }

        /** Moves to {@code s} (the command checked the transition), in the context too (QUERY_QP reports it). */
        public void setState(io.prmkit.mlx5.QpState s) {
            state = (int) s.value;
            io.prmkit.mlx5.Qpc.state$set(qpc, s);
        }
    }

    /**
     * User memory (CREATE_UMEM, PRM "UMEM"): {@code pages} MTT entries of {@code 4 KiB << logPageSize}
     * bytes each, as bus addresses (DMA goes through the IOMMU like any other), the region starting
     * {@code pageOffset} bytes into the first. Contexts name it by id and an offset from its start.
     * {@code users} counts the rings and doorbell records that refer to it (it cannot go while any do).
     */
    public static final class Umem {
        public final int id;
        /** The user context it belongs to (0: the privileged driver). */
        public final int uid;
        public final long[] pages;
        public final int logPageSize;
        public final long pageOffset;
        /** Every MTT entry has wr_en: the device may write it (CQ buffers need that). */
        public final boolean writable;
        /** Rings, doorbell records and keys in it ({@link DeviceObjects} counts them). */
        int users;

        public Umem(int id, int uid, long[] pages, int logPageSize, long pageOffset, boolean writable) {
            this.id = id;
            this.uid = uid;
            this.pages = pages;
            this.logPageSize = logPageSize;
            this.pageOffset = pageOffset;
            this.writable = writable;
        }

        /** The rings, doorbell records and keys in it (it cannot go while any are). */
        public int users() {
            return users;
        }

        public long pageSize() {
            return 4096L << logPageSize;
        }

        /** Bytes from the region's start to the end of its last page. */
        public long bytes() {
            return pages.length * pageSize() - pageOffset;
        }

        /** The bus address of byte {@code offset} of the region (offset below {@link #bytes()}). */
        public long busAddress(long offset) {
            long o = offset + pageOffset;
            return pages[(int) (o / pageSize())] + o % pageSize();
        }

        /** The region from {@code offset} on as a ring (its page list, with the offset into the first page). */
        public Queues.Ring ring(long offset) {
            return new Queues.Ring(pages, logPageSize, pageOffset + offset);
        }
    }

    /** Transport interface send: context {@code tisc}. */
    public record Tis(int tisn, MemorySegment tisc) {}

    /** Transport interface receive: context {@code tirc} (direct to an RQ, or indirect through an RQT with RSS). */
    public record Tir(int tirn, MemorySegment tirc) {}

    /** RQ table: context {@code rqtc} and the RQ numbers it spreads over. */
    public static final class Rqt {
        public final int rqtn;
        public final MemorySegment rqtc;
        private int[] rqns;

        public Rqt(int rqtn, MemorySegment rqtc, int[] rqns) {
            this.rqtn = rqtn;
            this.rqtc = rqtc;
            this.rqns = rqns.clone();
        }

        /** How many entries the table has ({@code rqt_actual_size}). */
        public int size() {
            return rqns.length;
        }

        /** The RQ at entry {@code i}. */
        public int rqn(int i) {
            return rqns[i];
        }

        public boolean contains(int rqn) {
            for (int r : rqns) if (r == rqn) return true;
            return false;
        }

        /** MODIFY_RQT's new list (checked by the command); {@code rqt_actual_size} follows it. */
        public void setRqns(int[] list) {
            rqns = list.clone();
            io.prmkit.mlx5.Rqtc.rqt_actual_size$set(rqtc, rqns.length);
        }
    }

    /** A flow group: entries [start, end] match on {@code criteria} ({@code fte_match_param}) under {@code criteriaEnable}. */
    public record FlowGroup(int groupId, int start, int end, int criteriaEnable, MemorySegment criteria) {}

    /** A flow table entry: its {@code flow_context} (match value, action, destinations) as set. */
    public record FlowEntry(int index, int groupId, MemorySegment flowContext) {}

    /**
     * A flow table of a type ({@code FlowTableType}) with context {@code flow_table_context}: its
     * groups by id and its entries by flow index.
     */
    public static final class FlowTable {
        public final int tableId;
        public final int tableType;
        public final MemorySegment context;
        public final int size;
        private final TreeMap<Integer, FlowGroup> groups = new TreeMap<>();
        private final TreeMap<Integer, FlowEntry> entries = new TreeMap<>();

        public FlowTable(int tableId, int tableType, MemorySegment context, int size) {
            this.tableId = tableId;
            this.tableType = tableType;
            this.context = context;
            this.size = size;
        }

        public FlowGroup group(int groupId) {
            return groups.get(groupId);
        }

        public int groupCount() {
            return groups.size();
        }

        /** A group whose flow indexes meet {@code start..end}, or null. */
        public FlowGroup overlapping(long start, long end) {
            for (FlowGroup g : groups.values()) if (start <= g.end() && g.start() <= end) return g;
            return null;
        }

        public void add(FlowGroup g) {
            groups.put(g.groupId(), g);
        }

        public void removeGroup(int groupId) {
            groups.remove(groupId);
        }

        public FlowEntry entry(int index) {
            return entries.get(index);
        }

        /** Whether any entry sits at a flow index in {@code start..end}. */
        public boolean hasEntries(int start, int end) {
            return !entries.subMap(start, true, end, true).isEmpty();
        }

        /** Sets (adds or replaces) the entry at its flow index. */
        public void set(FlowEntry e) {
            entries.put(e.index(), e);
        }

        /** Deletes the entry at {@code index}; false when there was none. */
        public boolean removeEntry(int index) {
            return entries.remove(index) != null;
        }

        /** The entries in flow index order (a copy). */
        public FlowEntry[] entries() {
            return entries.values().toArray(new FlowEntry[0]);
        }
    }

    /** A flow counter (ALLOC_FLOW_COUNTER): packets and octets, read and cleared by QUERY_FLOW_COUNTER. */
    public static final class FlowCounter {
        public final int id;
        private long packets;
        private long octets;

        public FlowCounter(int id) {
            this.id = id;
        }

        public long packets() {
            return packets;
        }

        public long octets() {
            return octets;
        }

        /** Counts a frame of {@code bytes} bytes. */
        public void count(int bytes) {
            packets++;
            octets += bytes;
        }

        public void clear() {
            packets = 0;
            octets = 0;
        }
    }

    /** A Q counter set (ALLOC_Q_COUNTER); the datapath counts into it, QUERY_Q_COUNTER reads it. */
    public static final class QCounter {
        public final int id;
        private long outOfBuffer;

        public QCounter(int id) {
            this.id = id;
        }

        /** Frames dropped because the RQ had no WQE posted. */
        public long outOfBuffer() {
            return outOfBuffer;
        }

        public void countOutOfBuffer() {
            outOfBuffer++;
        }

        public void clear() {
            outOfBuffer = 0;
        }
    }

    /**
     * Vport traffic counters (QUERY_VPORT_COUNTER), counted per frame by the datapath on the device
     * thread: unicast, multicast and broadcast by destination MAC, bytes without FCS.
     */
    public static final class VportCounters {
        /** The counter groups of {@code query_vport_counter_out}, each packets and octets. */
        public enum Group { RX_ERROR, TX_ERROR, RX_UNICAST, TX_UNICAST, RX_MULTICAST, TX_MULTICAST, RX_BROADCAST, TX_BROADCAST }

        private long rxUnicastPackets, rxUnicastOctets, rxMulticastPackets, rxMulticastOctets, rxBroadcastPackets, rxBroadcastOctets;
        private long txUnicastPackets, txUnicastOctets, txMulticastPackets, txMulticastOctets, txBroadcastPackets, txBroadcastOctets;
        private long rxErrorPackets, rxErrorOctets, txErrorPackets, txErrorOctets;

        /** A frame of {@code len} bytes to {@code dmac} (48 bits) was sent. */
        public void countTx(long dmac, int len) {
            if (io.prmkit.softhca.wire.ParsedFrame.isBroadcast(dmac)) {
                txBroadcastPackets++;
                txBroadcastOctets += len;
            } else if (io.prmkit.softhca.wire.ParsedFrame.isMulticast(dmac)) {
                txMulticastPackets++;
                txMulticastOctets += len;
            } else {
                txUnicastPackets++;
                txUnicastOctets += len;
            }
        }

        /** A frame of {@code len} bytes to {@code dmac} was received into an RQ. */
        public void countRx(long dmac, int len) {
            if (io.prmkit.softhca.wire.ParsedFrame.isBroadcast(dmac)) {
                rxBroadcastPackets++;
                rxBroadcastOctets += len;
            } else if (io.prmkit.softhca.wire.ParsedFrame.isMulticast(dmac)) {
                rxMulticastPackets++;
                rxMulticastOctets += len;
            } else {
                rxUnicastPackets++;
                rxUnicastOctets += len;
            }
        }

        /** A received frame of {@code len} bytes went to the receive error counters. */
        public void countRxError(int len) {
            rxErrorPackets++;
            rxErrorOctets += len;
        }

        public long packets(Group g) {
            return switch (g) {
                case RX_ERROR -> rxErrorPackets;
                case TX_ERROR -> txErrorPackets;
                case RX_UNICAST -> rxUnicastPackets;
                case TX_UNICAST -> txUnicastPackets;
                case RX_MULTICAST -> rxMulticastPackets;
                case TX_MULTICAST -> txMulticastPackets;
                case RX_BROADCAST -> rxBroadcastPackets;
                case TX_BROADCAST -> txBroadcastPackets;
            };
        }

        public long octets(Group g) {
            return switch (g) {
                case RX_ERROR -> rxErrorOctets;
                case TX_ERROR -> txErrorOctets;
                case RX_UNICAST -> rxUnicastOctets;
                case TX_UNICAST -> txUnicastOctets;
                case RX_MULTICAST -> rxMulticastOctets;
                case TX_MULTICAST -> txMulticastOctets;
                case RX_BROADCAST -> rxBroadcastOctets;
                case TX_BROADCAST -> txBroadcastOctets;
            };
        }

        /** QUERY_VPORT_COUNTER with {@code clear}. */
        public void clear() {
            rxErrorPackets = rxErrorOctets = txErrorPackets = txErrorOctets = 0;
            rxBroadcastPackets = rxBroadcastOctets = txBroadcastPackets = txBroadcastOctets = 0;
            rxUnicastPackets = rxUnicastOctets = txUnicastPackets = txUnicastOctets = 0;
            rxMulticastPackets = rxMulticastOctets = txMulticastPackets = txMulticastOctets = 0;
        }
    }
}

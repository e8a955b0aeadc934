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
        public MemorySegment translation;
        /** With {@code mkey_umem_valid}: the umem that translates it, byte {@code start_addr + x} at {@code umemOffset + x} of it. */
        public Umem umem;
        public long umemOffset;

        public Mkey(int key, MemorySegment mkc, MemorySegment translation) {
            this.key = key;
            this.mkc = mkc;
            this.translation = translation;
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
        public int state;
        /** Bus address of the doorbell record: {@code qpc.dbr_addr}, or resolved in its umem. */
        public long dbr;
        /** The umems its buffer and doorbell record are in (released when it goes). */
        public final java.util.List<Umem> umems = new java.util.ArrayList<>();

        public Qp(int qpn, MemorySegment qpc, Queues.Ring ring, int state) {
            this.qpn = qpn;
            this.qpc = qpc;
            this.ring = ring;
            this.state = state;
            this.dbr = io.prmkit.mlx5.Qpc.dbr_addr(qpc);
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
        public int users;

        public Umem(int id, int uid, long[] pages, int logPageSize, long pageOffset, boolean writable) {
            this.id = id;
            this.uid = uid;
            this.pages = pages;
            this.logPageSize = logPageSize;
            this.pageOffset = pageOffset;
            this.writable = writable;
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
        public int[] rqns;

        public Rqt(int rqtn, MemorySegment rqtc, int[] rqns) {
            this.rqtn = rqtn;
            this.rqtc = rqtc;
            this.rqns = rqns;
        }
    }

    /** A flow group: entries [start, end] match on {@code criteria} ({@code fte_match_param}) under {@code criteriaEnable}. */
    public record FlowGroup(int groupId, int start, int end, int criteriaEnable, MemorySegment criteria) {}

    /** A flow table entry: its {@code flow_context} (match value, action, destinations) as set. */
    public record FlowEntry(int index, int groupId, MemorySegment flowContext) {}

    /** A flow table of a type ({@code FlowTableType}) with context {@code flow_table_context}. */
    public static final class FlowTable {
        public final int tableId;
        public final int tableType;
        public final MemorySegment context;
        public final int size;
        public final TreeMap<Integer, FlowGroup> groups = new TreeMap<>();
        public final TreeMap<Integer, FlowEntry> entries = new TreeMap<>();

        public FlowTable(int tableId, int tableType, MemorySegment context, int size) {
            this.tableId = tableId;
            this.tableType = tableType;
            this.context = context;
            this.size = size;
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
        public long outOfBuffer;
        public long rxWqeErr;
        public long rxWritePackets;

        public QCounter(int id) {
            this.id = id;
        }
    }

    /** Vport traffic counters (QUERY_VPORT_COUNTER), counted by the datapath. */
    public static final class VportCounters {
        public long rxUnicastPackets, rxUnicastOctets, rxMulticastPackets, rxMulticastOctets, rxBroadcastPackets, rxBroadcastOctets;
        public long txUnicastPackets, txUnicastOctets, txMulticastPackets, txMulticastOctets, txBroadcastPackets, txBroadcastOctets;
        public long rxErrorPackets, rxErrorOctets, txErrorPackets, txErrorOctets;
    }
}

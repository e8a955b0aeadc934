package io.prmkit.softhca.datapath;

import io.prmkit.mlx5.DestFormatStruct;
import io.prmkit.mlx5.ExtendedDestFormat;
import io.prmkit.mlx5.FlowContext;
import io.prmkit.mlx5.FlowContextAction;
import io.prmkit.mlx5.FlowDestinationType;
import io.prmkit.mlx5.FlowTableContext;
import io.prmkit.mlx5.FlowTableMissAction;
import io.prmkit.mlx5.FteMatchParam;
import io.prmkit.mlx5.FteMatchSetLyr24;
import io.prmkit.mlx5.Ipv4Layout;
import io.prmkit.mlx5.Ipv6Layout;
import io.prmkit.mlx5.Ipv6LayoutIpv4LayoutAuto;
import io.prmkit.layout.PrmLayout;
import io.prmkit.net.Ethhdr;
import io.prmkit.net.Iphdr;
import io.prmkit.net.Ipv6hdr;
import io.prmkit.net.VlanHdr;
import io.prmkit.softhca.device.DeviceObjects;
import io.prmkit.softhca.device.Resources;
import io.prmkit.softhca.wire.Ethernet;
import io.prmkit.softhca.wire.ParsedFrame;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.List;

/**
 * NIC receive steering (PRM "Flow Table"): the frame's outer headers are written into an
 * {@code fte_match_param} (through the generated setters), then the root table's entries are tried
 * in index order: an entry matches when, in every match block its group enables, the frame's bytes
 * and the entry's {@code match_value} agree under the group's criteria mask. Blocks the model does not
 * fill (misc, inner headers, ...) read as zero. The first match decides: DROP, or FWD_DEST to a TIR
 * or to another flow table (at most {@link #MAX_CHAIN} tables deep); a miss follows the table's miss
 * action (FWD to {@code table_miss_id}, otherwise drop).
 */
final class Steering {
    static final int MAX_CHAIN = 8;
    private static final ValueLayout.OfLong U64 = ValueLayout.JAVA_LONG_UNALIGNED;
    /** Byte offset and size of each match block, in match_criteria_enable bit order. */
    private static final long[] BLOCK_OFFSET;
    private static final long[] BLOCK_SIZE;

    static {
        List<PrmLayout.Field> blocks = FteMatchParam.layout().fields().stream().filter(f -> !f.reserved() && f.kind() == PrmLayout.Kind.STRUCT).toList();
        BLOCK_OFFSET = new long[blocks.size()];
        BLOCK_SIZE = new long[blocks.size()];
        for (int i = 0; i < blocks.size(); i++) {
            BLOCK_OFFSET[i] = blocks.get(i).byteOffset();
            BLOCK_SIZE[i] = blocks.get(i).bitWidth() / 8;
        }
    }

    private final DeviceObjects objects;
    private final MemorySegment pkt = Arena.ofAuto().allocate(FteMatchParam.SIZE, 8);
    /** Result of {@link #lookup}: TIR number, flow tag. */
    int tirn;
    int flowTag;
    // Tables compiled into arrays (entries in index order with their groups), until invalidated.
    private final java.util.Map<Integer, Compiled> compiled = new java.util.HashMap<>();
    private int lastTableId = -1;
    private Compiled lastCompiled;

    /**
     * A table as arrays, entries in index order, each with its group and what its flow context says,
     * decoded once: whether its group's criteria select anything (a catch-all entry matches without
     * filling the match parameters), the action, flow tag and first TIR or flow-table destination.
     */
    private record Compiled(Resources.FlowTable table, Resources.FlowEntry[] entries, Resources.FlowGroup[] groups,
                            boolean[] matchAll, boolean[] forwards, int[] flowTag, int[] tir, int[] nextTable,
                            boolean missForwards, int missTable) {}

    /** Drops compiled tables (a command may have changed them). */
    void invalidate() {
        compiled.clear();
        lastTableId = -1;
        lastCompiled = null;
    }

    private Compiled compiled(int tableId) {
        if (tableId == lastTableId) return lastCompiled;
        Compiled c = compiled.get(tableId);
        if (c == null) {
            Resources.FlowTable t = objects.flowTable(tableId);
            if (t != null) {
                Resources.FlowEntry[] es = t.entries();
                int n = es.length;
                Resources.FlowGroup[] gs = new Resources.FlowGroup[n];
                boolean[] all = new boolean[n];
                boolean[] fwd = new boolean[n];
                int[] tag = new int[n];
                int[] tir = new int[n];
                int[] next = new int[n];
                for (int i = 0; i < n; i++) {
                    gs[i] = t.group(es[i].groupId());
                    all[i] = gs[i] != null && selectsNothing(gs[i]);
                    decode(es[i].flowContext(), i, fwd, tag, tir, next);
                }
                MemorySegment tc = t.context;
                c = new Compiled(t, es, gs, all, fwd, tag, tir, next,
                        FlowTableContext.table_miss_action(tc) == FlowTableMissAction.FWD$VALUE, FlowTableContext.table_miss_id(tc));
                compiled.put(tableId, c);
            }
        }
        lastTableId = tableId;
        lastCompiled = c;
        return c;
    }
    long misses;
    long drops;

    Steering(DeviceObjects objects) {
        this.objects = objects;
    }

    private ParsedFrame frame;
    private MemorySegment frameBytes;
    private long frameOffset;
    private boolean filled;

    /** The frame to steer next; its match parameters are filled only if a group's mask needs them. */
    void frame(ParsedFrame f, MemorySegment fr, long off) {
        frame = f;
        frameBytes = fr;
        frameOffset = off;
        filled = false;
    }

    /** Fills the outer-header block of the frame's match parameters. */
    void fill(ParsedFrame f, MemorySegment fr, long off) {
        filled = true;
        long o = FteMatchParam.outer_headers$BYTE_OFFSET;
        FteMatchSetLyr24.clear(pkt, o);
        FteMatchSetLyr24.dmac$setUnchecked(pkt, o, Ethhdr.dest_mac(fr, off));
        FteMatchSetLyr24.smac$setUnchecked(pkt, o, Ethhdr.source_mac(fr, off)); // fte splits it 32 + 16, ethhdr 16 + 32
        FteMatchSetLyr24.ethertype$setUnchecked(pkt, o, f.ethertype);
        if (f.vlanCount > 0) {
            long tag = off + Ethernet.ETH_HLEN; // the outer tag
            FteMatchSetLyr24.cvlan_tag$set(pkt, o, f.outerTpid == Ethernet.TYPE_VLAN);
            FteMatchSetLyr24.svlan_tag$set(pkt, o, f.outerTpid == Ethernet.TYPE_QINQ);
            FteMatchSetLyr24.first_prio$setUnchecked(pkt, o, VlanHdr.pcp(fr, tag));
            FteMatchSetLyr24.first_cfi$set(pkt, o, VlanHdr.dei(fr, tag));
            FteMatchSetLyr24.first_vid$setUnchecked(pkt, o, VlanHdr.vid(fr, tag));
        }
        if (f.l3 == ParsedFrame.L3.NONE) return;
        boolean v4 = f.l3 == ParsedFrame.L3.IPV4;
        FteMatchSetLyr24.ip_version$setUnchecked(pkt, o, v4 ? 4 : 6);
        FteMatchSetLyr24.ip_protocol$setUnchecked(pkt, o, f.ipProtocol);
        FteMatchSetLyr24.ip_dscp$setUnchecked(pkt, o, f.ipDscp);
        FteMatchSetLyr24.frag$set(pkt, o, f.ipFragment);
        FteMatchSetLyr24.ttl_hoplimit$setUnchecked(pkt, o, f.ttl);
        long l3 = off + f.l3Offset;
        long src = o + FteMatchSetLyr24.src_ipv4_src_ipv6$BYTE_OFFSET;
        long dst = o + FteMatchSetLyr24.dst_ipv4_dst_ipv6$BYTE_OFFSET;
        if (v4) {
            FteMatchSetLyr24.ipv4_ihl$setUnchecked(pkt, o, f.l3HeaderLength / 4);
            Ipv4Layout.ipv4$set(pkt, src + Ipv6LayoutIpv4LayoutAuto.ipv4_layout$BYTE_OFFSET, Iphdr.saddr(fr, l3));
            Ipv4Layout.ipv4$set(pkt, dst + Ipv6LayoutIpv4LayoutAuto.ipv4_layout$BYTE_OFFSET, Iphdr.daddr(fr, l3));
        } else {
            MemorySegment.copy(fr, l3 + Ipv6hdr.saddr$BYTE_OFFSET, pkt, src + Ipv6LayoutIpv4LayoutAuto.ipv6_layout$BYTE_OFFSET + Ipv6Layout.ipv6$BYTE_OFFSET, Ipv6hdr.saddr$LENGTH);
            MemorySegment.copy(fr, l3 + Ipv6hdr.daddr$BYTE_OFFSET, pkt, dst + Ipv6LayoutIpv4LayoutAuto.ipv6_layout$BYTE_OFFSET + Ipv6Layout.ipv6$BYTE_OFFSET, Ipv6hdr.daddr$LENGTH);
        }
        if (f.l4 == ParsedFrame.L4.TCP) {
            FteMatchSetLyr24.tcp_sport$setUnchecked(pkt, o, f.srcPort);
            FteMatchSetLyr24.tcp_dport$setUnchecked(pkt, o, f.dstPort);
            FteMatchSetLyr24.tcp_flags$setUnchecked(pkt, o, f.tcpFlags);
        } else if (f.l4 == ParsedFrame.L4.UDP) {
            FteMatchSetLyr24.udp_sport$setUnchecked(pkt, o, f.srcPort);
            FteMatchSetLyr24.udp_dport$setUnchecked(pkt, o, f.dstPort);
        }
    }

    /** Whether a group's criteria select no bit at all (then every frame matches its entries). */
    private static boolean selectsNothing(Resources.FlowGroup g) {
        int enable = g.criteriaEnable();
        MemorySegment mask = g.criteria();
        for (int b = 0; b < BLOCK_OFFSET.length; b++) {
            if ((enable & (1 << b)) == 0) continue;
            for (long i = 0; i < BLOCK_SIZE[b]; i += 8) {
                if (mask.get(U64, BLOCK_OFFSET[b] + i) != 0) return false;
            }
        }
        return true;
    }

    /** Entry {@code i}'s action, flow tag and destinations, as {@link #lookup} follows them. */
    private static void decode(MemorySegment fc, int i, boolean[] fwd, int[] tag, int[] tir, int[] next) {
        int action = FlowContext.action(fc);
        fwd[i] = (action & FlowContextAction.DROP$MASK) == 0 && (action & FlowContextAction.FWD_DEST$MASK) != 0;
        tag[i] = FlowContext.flow_tag(fc);
        tir[i] = -1;
        next[i] = -1;
        int n = FlowContext.destination_list_size(fc);
        long stride = FlowContext.extended_destination(fc) ? ExtendedDestFormat.SIZE : DestFormatStruct.SIZE;
        for (int d = 0; d < n; d++) {
            long at = FlowContext.destination$BYTE_OFFSET + d * stride;
            if (at + DestFormatStruct.SIZE > fc.byteSize()) break;
            int type = DestFormatStruct.destination_type(fc, at);
            if (type == FlowDestinationType.TIR$VALUE) {
                tir[i] = DestFormatStruct.destination_id(fc, at);
                return; // the first TIR wins
            }
            if (type == FlowDestinationType.FLOW_TABLE$VALUE && next[i] < 0) next[i] = DestFormatStruct.destination_id(fc, at);
        }
    }

    /** Steers the frame given to {@link #frame}; true with {@link #tirn} set, false when dropped. */
    boolean lookup() {
        int tableId = objects.rxRoot();
        Compiled root = compiled(tableId);
        if (root != null && root.entries().length > 0 && root.matchAll()[0] && root.forwards()[0] && root.tir()[0] >= 0) {
            // the first entry matches every frame and forwards to a TIR (a port's default rule): decided
            flowTag = root.flowTag()[0];
            tirn = root.tir()[0];
            return true;
        }
        for (int depth = 0; depth < MAX_CHAIN && tableId >= 0; depth++) {
            Compiled ct = compiled(tableId);
            if (ct == null) break;
            int e = match(ct);
            if (e < 0) {
                misses++;
                if (ct.missForwards()) {
                    tableId = ct.missTable();
                    continue;
                }
                break;
            }
            if (!ct.forwards()[e]) break;
            flowTag = ct.flowTag()[e];
            if (ct.tir()[e] >= 0) {
                tirn = ct.tir()[e];
                return true;
            }
            tableId = ct.nextTable()[e];
        }
        drops++;
        return false;
    }

    /** Index of the first entry that matches the frame, or -1. */
    private int match(Compiled t) {
        Resources.FlowEntry[] es = t.entries();
        Resources.FlowGroup[] gs = t.groups();
        boolean[] all = t.matchAll();
        for (int i = 0; i < es.length; i++) {
            if (all[i] || (gs[i] != null && matches(gs[i], es[i].flowContext()))) return i;
        }
        return -1;
    }

    private boolean matches(Resources.FlowGroup g, MemorySegment fc) {
        int enable = g.criteriaEnable();
        MemorySegment mask = g.criteria();
        long value = FlowContext.match_value$BYTE_OFFSET;
        for (int b = 0; b < BLOCK_OFFSET.length; b++) {
            if ((enable & (1 << b)) == 0) continue;
            long o = BLOCK_OFFSET[b];
            for (long i = 0; i < BLOCK_SIZE[b]; i += 8) {
                long m = mask.get(U64, o + i);
                if (m == 0) continue;
                if (!filled) fill(frame, frameBytes, frameOffset);
                if (((pkt.get(U64, o + i) ^ fc.get(U64, value + o + i)) & m) != 0) return false;
            }
        }
        return true;
    }
}

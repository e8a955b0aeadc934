package io.prmkit.demo;

import io.prmkit.driver.dp.FrameHeaders;
import io.prmkit.driver.dp.PacketFlags;
import io.prmkit.driver.dp.PacketPool;
import io.prmkit.net.Ethhdr;
import io.prmkit.net.Iphdr;
import io.prmkit.net.Tcphdr;
import io.prmkit.net.VlanHdr;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * The demo's traffic, a pure function of a frame id: which kind of frame id is, its bytes and
 * offload requests ({@link #build}), and the exact frames the wire must carry for it
 * ({@link #expected}): tag inserted, checksums filled, short frames padded to 60 bytes, an LSO send
 * cut into {@code mss}-byte TCP segments. A received frame names its id in its headers
 * ({@link #identify}), so any frame can be checked byte for byte without keeping copies.
 *
 * <p>Kinds, by {@code id % 16}: UDP/IPv4 of {@code size} bytes (0-5, 12-15); VLAN-inserted UDP/IPv4
 * (6); TCP/IPv4 with IPv4 and TCP checksum offload (7); UDP/IPv4 with checksum offload (8); TCP/IPv6
 * and UDP/IPv6 with L4 checksum offload (9, 10); a UDP/IPv4 frame of 46..59 bytes the device pads
 * (11). Id {@link #LSO_ID} is an LSO send of {@link #LSO_PAYLOAD} TCP bytes in {@link #LSO_MSS}-byte
 * segments. Every UDP and plain TCP payload starts with {@link #ID_TAG} {@code | id}; an LSO
 * segment's sequence number is {@code id << 16} plus its payload offset.
 *
 * <p>The capture reads cleanly in Wireshark: each plain TCP flow (a source port,
 * {@link Frames#SOURCE_PORTS}) is one stream whose k-th frame's sequence number is
 * {@code 1 + k * payload}, so TCP analysis finds no gaps; a flow's frames all leave from one queue
 * ({@link #flow}), so none is seen out of order; and the tag keeps the first payload bytes from
 * looking like another protocol's header (with the bare id, ids from 65536 on made Wireshark's STUN
 * heuristic call a few frames malformed STUN).
 */
public final class TrafficMix {
    public static final int LSO_ID = 5;
    /** The LSO send's TCP payload: with its 54 header bytes it fits a 2 KiB buffer. */
    public static final int LSO_PAYLOAD = 1960;
    public static final int LSO_MSS = 500;
    public static final int MIN_FRAME = 60;
    /** Most wire frames one id becomes (the LSO send). */
    public static final int MAX_WIRE_FRAMES = (LSO_PAYLOAD + LSO_MSS - 1) / LSO_MSS;

    /**
     * The top four bits of a payload's first word (the id is the other 28; the demo sends at most
     * 10^8 frames): 0x50-0x55 is no first byte of STUN, QUIC, DTLS, WireGuard or uTP.
     */
    static final int ID_TAG = 0x5000_0000;
    private static final int ID_MASK = 0x0fff_ffff;
    /** Source ports the flows may use. */
    private static final int PORTS = Frames.SOURCE_PORT_MASK + 1;
    /** Ids of one kind recur every 16 ({@link #kind}). */
    private static final int KINDS_PERIOD = 16;

    public enum Kind { UDP4, VLAN_UDP4, TCP4_CSUM, UDP4_CSUM, TCP6_CSUM, UDP6_CSUM, SHORT_UDP4, LSO_TCP4 }

    private final int size;
    /** Ids id, id + flowStride, ... make up one flow (a source port); see {@link #flow}. */
    private final int flowStride;

    /** One queue; see {@link #TrafficMix(int, int)}. */
    public TrafficMix(int size) {
        this(size, 1);
    }

    /**
     * {@code size}: length of the plain frames (without FCS), at least 64, at most 1514;
     * {@code queues}: how many send queues share the ids, queue q sending the ids congruent to q
     * modulo {@code queues} (1..256).
     */
    public TrafficMix(int size, int queues) {
        if (size < 64 || size > 1514) throw new IllegalArgumentException("frame size " + size + " outside 64..1514");
        if (queues < 1 || queues > 256) throw new IllegalArgumentException("queue count " + queues + " outside 1..256");
        this.size = size;
        // The largest multiple of both 16 and the queue count that gives each flow its own port: a flow's
        // ids then have one kind and one queue. With a power of two up to 16 this is 4096, every port.
        int period = KINDS_PERIOD / gcd(KINDS_PERIOD, queues) * queues;
        this.flowStride = PORTS / period * period;
    }

    private static int gcd(int a, int b) {
        return b == 0 ? a : gcd(b, a % b);
    }

    /**
     * The flow of frame id, which names its source port ({@link Frames#sourcePort}): {@code id %
     * flowStride}, where the stride is a multiple of 16 and of the queue count, so the frames of one
     * flow are of one kind and leave from one queue, in order (a flow spread over queues would reach
     * the wire out of order, which Wireshark flags for TCP).
     */
    public int flow(int id) {
        return id % flowStride;
    }

    public int size() {
        return size;
    }

    public Kind kind(int id) {
        if (id == LSO_ID) return Kind.LSO_TCP4;
        return switch (id & 15) {
            case 6 -> Kind.VLAN_UDP4;
            case 7 -> Kind.TCP4_CSUM;
            case 8 -> Kind.UDP4_CSUM;
            case 9 -> Kind.TCP6_CSUM;
            case 10 -> Kind.UDP6_CSUM;
            case 11 -> Kind.SHORT_UDP4;
            default -> Kind.UDP4;
        };
    }

    /** Length the driver sends for id (before VLAN insertion and padding). */
    public int length(int id) {
        return switch (kind(id)) {
            case SHORT_UDP4 -> 46 + (id >>> 4) % 14;
            case LSO_TCP4 -> Frames.minLength(false, true) + LSO_PAYLOAD;
            case TCP6_CSUM, UDP6_CSUM -> Math.max(size, Frames.minLength(true, true) + 4);
            default -> size;
        };
    }

    /** Frames id puts on the wire. */
    public int wireFrames(int id) {
        return kind(id) == Kind.LSO_TCP4 ? (LSO_PAYLOAD + LSO_MSS - 1) / LSO_MSS : 1;
    }

    /** Largest frame {@link #expected} writes. */
    public int maxWireLength() {
        return Math.max(size, Frames.minLength(false, true) + LSO_MSS) + FrameHeaders.VLAN_HLEN;
    }

    /** Writes id's frame into buffer {@code h} of {@code pool} and sets its length and offload metadata. */
    public void build(PacketPool pool, int h, int id) {
        int len = length(id);
        if (len > pool.bufferSize()) throw new IllegalArgumentException("frame " + id + " of " + len + " bytes does not fit a " + pool.bufferSize() + "-byte buffer");
        writeFrame(pool.memory(), pool.offset(h), id, len, true);
        pool.setLength(h, len);
        int fl = 0;
        switch (kind(id)) {
            case VLAN_UDP4 -> {
                fl = PacketFlags.TX_VLAN;
                pool.setVlanTci(h, vlanTci(id));
            }
            case TCP4_CSUM, UDP4_CSUM -> fl = PacketFlags.TX_IP_CSUM | PacketFlags.TX_L4_CSUM;
            case TCP6_CSUM, UDP6_CSUM -> fl = PacketFlags.TX_L4_CSUM;
            case LSO_TCP4 -> {
                fl = PacketFlags.TX_LSO;
                pool.setMss(h, LSO_MSS);
            }
            default -> {}
        }
        pool.setFlags(h, fl);
    }

    static int vlanTci(int id) {
        return (3 << 13) | (1 + (id >>> 4) % 4094);
    }

    /** The frame as the driver sends it; offloaded checksums left 0 when {@code forDevice}, computed otherwise. */
    private void writeFrame(MemorySegment s, long off, int id, int len, boolean forDevice) {
        Kind k = kind(id);
        boolean ipv6 = k == Kind.TCP6_CSUM || k == Kind.UDP6_CSUM;
        boolean tcp = k == Kind.TCP4_CSUM || k == Kind.TCP6_CSUM || k == Kind.LSO_TCP4;
        boolean offloaded = k == Kind.TCP4_CSUM || k == Kind.UDP4_CSUM || ipv6 || k == Kind.LSO_TCP4;
        // Checksums once, below, after the id fields are in (not in build and again after them).
        Frames.build(s, off, len, ipv6, tcp, id, flow(id), true);
        if ((id & ID_MASK) != id) throw new IllegalArgumentException("frame id " + id + " outside 0.." + ID_MASK);
        int l4 = FrameHeaders.ETH_HLEN + (ipv6 ? Frames.IPV6_HLEN : Frames.IPV4_HLEN); // as build lays it out
        if (k == Kind.LSO_TCP4) {
            Tcphdr.seq$set(s, off + l4, id << 16);
        } else if (tcp) {
            long payload = l4 + Frames.TCP_HLEN;
            // the flow's (id / flowStride)-th frame; every frame of a kind has the same payload length
            Tcphdr.seq$set(s, off + l4, 1 + (id / flowStride) * (int) (len - payload));
            s.set(Frames.BE32, off + payload, ID_TAG | id); // the payload's first word
        } else {
            s.set(Frames.BE32, off + l4 + Frames.UDP_HLEN, ID_TAG | id); // the payload's first word
        }
        if (!(offloaded && forDevice)) Frames.setChecksums(s, off, len, ipv6, tcp);
    }

    /**
     * Writes the {@code segment}-th frame the wire must carry for {@code id} at {@code off} of
     * {@code out} (room: {@link #maxWireLength()} + the original frame for LSO) and returns its length.
     */
    public int expected(int id, int segment, MemorySegment out, long off) {
        Kind k = kind(id);
        int len = length(id);
        if (k == Kind.LSO_TCP4) {
            // Build the whole frame after the segment's room, then cut segment `segment` out of it.
            long whole = off + maxWireLength();
            writeFrame(out, whole, id, len, false);
            int hdr = FrameHeaders.headersEnd(out, whole, len);
            int pay = len - hdr;
            int from = segment * LSO_MSS;
            int chunk = Math.min(LSO_MSS, pay - from);
            MemorySegment.copy(out, whole, out, off, hdr);
            MemorySegment.copy(out, whole + hdr + from, out, off + hdr, chunk);
            long l3 = off + FrameHeaders.ETH_HLEN;
            long l4 = l3 + Frames.IPV4_HLEN;
            Iphdr.tot_len$setUnchecked(out, l3, Frames.IPV4_HLEN + Frames.TCP_HLEN + chunk);
            Iphdr.id$setUnchecked(out, l3, Iphdr.id(out, l3) + segment);
            Tcphdr.seq$set(out, l4, (id << 16) + from);
            if (from + chunk < pay) { // FIN and PSH only on the last segment
                Tcphdr.fin$set(out, l4, false);
                Tcphdr.psh$set(out, l4, false);
            }
            if (segment > 0) Tcphdr.cwr$set(out, l4, false); // CWR only on the first
            int seglen = hdr + chunk;
            Frames.setIpv4Checksum(out, off, seglen);
            Frames.setL4Checksum(out, off, seglen);
            return seglen;
        }
        writeFrame(out, off, id, len, false);
        if (k == Kind.VLAN_UDP4) {
            // the tag goes after the MAC addresses; the old ethertype becomes its encapsulated protocol
            int macs = FrameHeaders.ETH_ADDRS_LEN;
            MemorySegment.copy(out, off + macs, out, off + macs + FrameHeaders.VLAN_HLEN, len - macs);
            Ethhdr.h_proto$setUnchecked(out, off, FrameHeaders.ETHERTYPE_VLAN);
            VlanHdr.h_vlan_TCI$setUnchecked(out, off + FrameHeaders.ETH_HLEN, vlanTci(id));
            len += FrameHeaders.VLAN_HLEN;
        }
        if (len < MIN_FRAME) {
            for (long p = off + len; p < off + MIN_FRAME; p++) out.set(ValueLayout.JAVA_BYTE, p, (byte) 0);
            len = MIN_FRAME;
        }
        return len;
    }

    /**
     * The id and segment a received frame claims to be, as {@code id << 8 | segment}, or -1 when it
     * names none (then it is corrupt). The claim is checked by comparing with {@link #expected}.
     */
    public static long identify(MemorySegment s, long off, int len) {
        int l4 = FrameHeaders.l4Offset(s, off, len);
        int proto = FrameHeaders.ipProtocol(s, off, len);
        if (l4 < 0) return -1;
        long payload;
        if (proto == FrameHeaders.IPPROTO_TCP && len >= l4 + Frames.TCP_HLEN) {
            if (Tcphdr.source(s, off + l4) == Frames.sourcePort(LSO_ID)) { // the LSO send's flow (LSO_ID is below any flow stride, so its own flow)
                int seq = Tcphdr.seq(s, off + l4);
                return ((long) (seq >>> 16) << 8) | ((seq & 0xffff) / LSO_MSS);
            }
            payload = l4 + Frames.TCP_HLEN;
        } else if (proto == FrameHeaders.IPPROTO_UDP) {
            payload = l4 + Frames.UDP_HLEN;
        } else {
            return -1;
        }
        if (len < payload + 4) return -1;
        int word = s.get(Frames.BE32, off + payload); // the payload's first word
        return (word & ~ID_MASK) == ID_TAG ? (long) (word & ID_MASK) << 8 : -1;
    }
}

package io.prmkit.softhca.wire;

import static io.prmkit.softhca.wire.Ethernet.*;

import io.prmkit.net.Ethhdr;
import io.prmkit.net.Iphdr;
import io.prmkit.net.Ipv6hdr;
import io.prmkit.net.Tcphdr;
import io.prmkit.net.Udphdr;
import io.prmkit.net.VlanHdr;
import java.lang.foreign.MemorySegment;

/**
 * What the device does to an outgoing frame before it leaves (the Ethernet segment's offloads): VLAN
 * insertion, IPv4 header and TCP/UDP checksums, padding to the minimum frame, and LSO segmentation.
 * All work happens in place in a scratch buffer the caller owns; nothing is allocated. Header fields
 * are written with the net spec's generated setters ({@code io.prmkit.net}).
 */
public final class TxOffload {
    private TxOffload() {}

    /** Source of the padding bytes {@link #pad} copies. */
    private static final MemorySegment ZEROS = MemorySegment.ofArray(new byte[MIN_FRAME]);

    /**
     * Inserts an 802.1Q ({@code svlan} false) or 802.1ad tag after the MAC addresses of the frame at
     * {@code start}. The 12 address bytes move 4 bytes down, so the buffer needs 4 bytes of headroom
     * before {@code start}; returns the frame's new start (its length grows by 4).
     */
    public static long insertVlan(MemorySegment buf, long start, boolean svlan, int tci) {
        long ns = start - VLAN_HLEN;
        MemorySegment.copy(buf, start, buf, ns, ETH_ADDRS_LEN);
        // the old ethertype stays where it was: it is now the tag's h_vlan_encapsulated_proto
        Ethhdr.h_proto$setUnchecked(buf, ns, svlan ? TYPE_QINQ : TYPE_VLAN);
        VlanHdr.h_vlan_TCI$setUnchecked(buf, ns + ETH_HLEN, tci);
        return ns;
    }

    /** Zero-fills a frame shorter than 60 bytes up to 60 (the buffer must have room); returns the new length. */
    public static int pad(MemorySegment buf, long start, int len) {
        if (len >= MIN_FRAME) return len;
        MemorySegment.copy(ZEROS, 0, buf, start + len, MIN_FRAME - len); // no slice: nothing allocated per frame
        return MIN_FRAME;
    }

    /** Writes the IPv4 header checksum of the parsed frame (nothing for IPv6 or non-IP). */
    public static void fillL3Checksum(MemorySegment buf, long start, ParsedFrame f) {
        if (f.l3 != ParsedFrame.L3.IPV4) return;
        long h = start + f.l3Offset;
        Iphdr.check$setUnchecked(buf, h, 0);
        Iphdr.check$setUnchecked(buf, h, InternetChecksum.of(buf, h, f.l3HeaderLength));
    }

    /**
     * Writes the TCP or UDP checksum of the parsed frame, over the L4 length the IP header gives
     * (which a parsed frame clamps to the bytes present). A UDP checksum that computes to 0 is sent as 0xffff.
     */
    public static void fillL4Checksum(MemorySegment buf, long start, ParsedFrame f) {
        if (f.l4 != ParsedFrame.L4.TCP && f.l4 != ParsedFrame.L4.UDP) return;
        long l4 = start + f.l4Offset;
        int l4Len = f.l4HeaderLength + f.payloadLength;
        boolean tcp = f.l4 == ParsedFrame.L4.TCP;
        if (tcp) Tcphdr.check$setUnchecked(buf, l4, 0);
        else Udphdr.check$setUnchecked(buf, l4, 0);
        long sum = InternetChecksum.pseudoHeader(buf, start + f.l3Offset, f.l3 == ParsedFrame.L3.IPV6, f.ipProtocol, l4Len);
        int c = InternetChecksum.finish(InternetChecksum.add(buf, l4, l4Len, sum));
        if (tcp) {
            Tcphdr.check$setUnchecked(buf, l4, c);
        } else {
            Udphdr.check$setUnchecked(buf, l4, c == 0 ? 0xffff : c);
        }
    }

    /** Receives each segment LSO produces (in a buffer owned by the segmenter; copy before returning). */
    @FunctionalInterface
    public interface SegmentSink {
        void segment(MemorySegment buf, long start, int len);
    }

    /**
     * Large send offload: cuts the TCP (or UDP) payload of the parsed frame {@code f} at {@code src}
     * into pieces of {@code mss} bytes, each behind a copy of the L2-L4 headers, and hands each to
     * {@code sink} with its IP total length (IPv6 payload length), IPv4 id (+1 per segment), TCP
     * sequence number, TCP flags (FIN/PSH only on the last, CWR only on the first) or UDP length, and
     * checksums filled in. {@code out} needs room for the headers plus {@code mss}. Returns the
     * number of segments.
     */
    public static int segment(MemorySegment src, long start, ParsedFrame f, int mss, MemorySegment out, long outStart, SegmentSink sink) {
        int hdr = f.l4Offset + f.l4HeaderLength;
        int payload = f.payloadLength;
        int n = Math.max(1, (payload + mss - 1) / mss);
        long l3 = outStart + f.l3Offset;
        long l4 = outStart + f.l4Offset;
        boolean ipv4 = f.l3 == ParsedFrame.L3.IPV4;
        int id0 = ipv4 ? Iphdr.id(src, start + f.l3Offset) : 0;
        int seq0 = f.l4 == ParsedFrame.L4.TCP ? Tcphdr.seq(src, start + f.l4Offset) : 0;
        int flags0 = f.tcpFlags;
        for (int i = 0; i < n; i++) {
            int off = i * mss;
            int chunk = Math.min(mss, payload - off);
            MemorySegment.copy(src, start, out, outStart, hdr);
            MemorySegment.copy(src, start + hdr + off, out, outStart + hdr, chunk);
            int l4Len = f.l4HeaderLength + chunk;
            if (ipv4) {
                Iphdr.tot_len$setUnchecked(out, l3, f.l3HeaderLength + l4Len);
                Iphdr.id$setUnchecked(out, l3, id0 + i);
            } else {
                Ipv6hdr.payload_len$setUnchecked(out, l3, l4Len);
            }
            if (f.l4 == ParsedFrame.L4.TCP) {
                Tcphdr.seq$set(out, l4, seq0 + off);
                int flags = flags0;
                if (i != n - 1) flags &= ~(TCP_FIN | TCP_PSH);
                if (i != 0) flags &= ~TCP_CWR;
                // data offset and the upper reserved bits stay; the NS bit (res1's low bit) comes from flags
                Tcphdr.res1$setUnchecked(out, l4, (Tcphdr.res1(out, l4) & ~1) | ((flags >>> 8) & 1));
                Tcphdr.flag_byte$setUnchecked(out, l4, flags);
            } else {
                Udphdr.len$setUnchecked(out, l4, l4Len);
            }
            int len = hdr + chunk;
            ParsedFrame seg = SEG.get().parse(out, outStart, len, false);
            fillL3Checksum(out, outStart, seg);
            fillL4Checksum(out, outStart, seg);
            sink.segment(out, outStart, len);
        }
        return n;
    }

    // One parser per thread for segment re-parsing (allocated once per device thread).
    private static final ThreadLocal<ParsedFrame> SEG = ThreadLocal.withInitial(ParsedFrame::new);
}

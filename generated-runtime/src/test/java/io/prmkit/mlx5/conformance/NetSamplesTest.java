package io.prmkit.mlx5.conformance;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.prmkit.net.Ethhdr;
import io.prmkit.net.Iphdr;
import io.prmkit.net.Ipv6hdr;
import io.prmkit.net.Tcphdr;
import io.prmkit.net.Udphdr;
import io.prmkit.net.VlanHdr;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Path;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/**
 * The net spec's accessors by value: gcc fills the kernel's own struct ethhdr, vlan_hdr, iphdr,
 * ipv6hdr, tcphdr and udphdr through their named members (C bit fields included, so the host's
 * bit-field order is the compiler's business) and prints the bytes. The generated getters must read
 * the same values, and the generated setters must build the same bytes. The headers sit at odd
 * offsets (after a 14-byte Ethernet header, as in a frame), so unaligned access is exercised too.
 */
class NetSamplesTest {

    private static final Arena ARENA = Arena.ofShared();
    /** Where each header is placed in its test buffer: the IP header's place in an untagged frame. */
    private static final long AT = 14;

    @AfterAll
    static void close() {
        ARENA.close();
    }

    private static final Map<String, String[]> SAMPLES = new LinkedHashMap<>();

    static {
        SAMPLES.put("ethhdr", new String[] {"struct ethhdr", """
                const unsigned char d[6] = {0x02, 0x11, 0x22, 0x33, 0x44, 0x55}, s[6] = {0xa0, 0xb1, 0xc2, 0xd3, 0xe4, 0xf5};
                memcpy(v.h_dest, d, 6); memcpy(v.h_source, s, 6);
                v.h_proto = htobe16(ETH_P_IPV6);
                """});
        SAMPLES.put("vlan_hdr", new String[] {"struct vlan_hdr", """
                v.h_vlan_TCI = htobe16((5 << VLAN_PRIO_SHIFT) | VLAN_CFI_MASK | (0xabc & VLAN_VID_MASK));
                v.h_vlan_encapsulated_proto = htobe16(ETH_P_IP);
                """});
        SAMPLES.put("iphdr", new String[] {"struct iphdr", """
                v.version = 4; v.ihl = 6; v.tos = (46 << 2) | 1; v.tot_len = htobe16(1500);
                v.id = htobe16(0xbeef); v.frag_off = htobe16(0x2000 | 0x0123);
                v.ttl = 63; v.protocol = IPPROTO_UDP; v.check = htobe16(0x1234);
                v.saddr = htobe32(0x0a000001); v.daddr = htobe32(0xc0a80102);
                """});
        SAMPLES.put("ipv6hdr", new String[] {"struct ipv6hdr", """
                v.version = 6; v.priority = 0xb; v.flow_lbl[0] = 0x7a; v.flow_lbl[1] = 0xbc; v.flow_lbl[2] = 0xde;
                v.payload_len = htobe16(1440); v.nexthdr = IPPROTO_TCP; v.hop_limit = 255;
                for (int i = 0; i < 16; i++) { v.saddr.s6_addr[i] = (unsigned char)(0xf0 + i); v.daddr.s6_addr[i] = (unsigned char)i; }
                """});
        SAMPLES.put("tcphdr", new String[] {"struct tcphdr", """
                v.source = htobe16(1024); v.dest = htobe16(9000); v.seq = htobe32(0x80000005u); v.ack_seq = htobe32(7);
                v.doff = 8; v.res1 = 0x1; v.cwr = 1; v.ack = 1; v.psh = 1; v.fin = 1;
                v.window = htobe16(0xfedc); v.check = htobe16(0x5a5a); v.urg_ptr = htobe16(3);
                """});
        SAMPLES.put("tcphdr_syn", new String[] {"struct tcphdr", """
                v.doff = 5; v.ece = 1; v.urg = 1; v.rst = 1; v.syn = 1;
                """});
        SAMPLES.put("udphdr", new String[] {"struct udphdr", """
                v.source = htobe16(53); v.dest = htobe16(33000); v.len = htobe16(512); v.check = htobe16(0xffff);
                """});
    }

    private static Map<String, byte[]> images;

    private static synchronized Map<String, byte[]> images() {
        if (images == null) {
            GroundTruth truth = GroundTruth.locateKernel(); // the uapi headers of the kernel package: no mlx5dv.h needed
            StringBuilder src = new StringBuilder(NetHeaders.source(truth)).append("""
                    static void dump(const char *name, const void *p, size_t n) {
                        printf("%s\\t", name);
                        for (size_t i = 0; i < n; i++) printf("%02x", ((const unsigned char *)p)[i]);
                        printf("\\n");
                    }
                    int main(void) {
                    """);
            for (Map.Entry<String, String[]> e : SAMPLES.entrySet()) {
                src.append("    {\n        ").append(e.getValue()[0]).append(" v;\n        memset(&v, 0, sizeof v);\n");
                e.getValue()[1].lines().forEach(l -> src.append("        ").append(l).append('\n'));
                src.append("        dump(\"").append(e.getKey()).append("\", &v, sizeof v);\n    }\n");
            }
            src.append("    return 0;\n}\n");
            Map<String, String[]> out = new Gcc(truth.gcc(), Path.of("target", "mlx5-conformance"))
                    .run("net-samples", src.toString(), NetHeaders.includeDirs(truth));
            Map<String, byte[]> r = new LinkedHashMap<>();
            for (String k : SAMPLES.keySet()) {
                String[] line = out.get(k);
                if (line == null) throw new AssertionError("net samples program printed nothing for " + k);
                r.put(k, HexFormat.of().parseHex(line[1]));
            }
            images = r;
        }
        return images;
    }

    /** The kernel-built header at byte {@link #AT} of a buffer of 0x5a bytes. */
    private static MemorySegment kernel(String sample) {
        byte[] b = images().get(sample);
        MemorySegment s = ARENA.allocate(AT + b.length + 8, 8);
        s.fill((byte) 0x5a);
        MemorySegment.copy(b, 0, s, ValueLayout.JAVA_BYTE, AT, b.length);
        return s;
    }

    /** A buffer like {@link #kernel}'s with the header zeroed, to build into. */
    private static MemorySegment blank(String sample) {
        MemorySegment s = kernel(sample);
        s.asSlice(AT, images().get(sample).length).fill((byte) 0);
        return s;
    }

    private static void assertSameBytes(String sample, MemorySegment built) {
        assertArrayEquals(kernel(sample).toArray(ValueLayout.JAVA_BYTE), built.toArray(ValueLayout.JAVA_BYTE),
                sample + ": the setters built different bytes than the kernel struct");
    }

    @Test
    void ethernetHeader() {
        MemorySegment s = kernel("ethhdr");
        assertEquals(Ethhdr.SIZE, images().get("ethhdr").length);
        assertEquals(0x0211_2233, Ethhdr.h_dest_47_16(s, AT));
        assertEquals(0x4455, Ethhdr.h_dest_15_0(s, AT));
        assertEquals(0xa0b1, Ethhdr.h_source_47_32(s, AT));
        assertEquals(0xc2d3_e4f5, Ethhdr.h_source_31_0(s, AT));
        assertEquals(0x86dd, Ethhdr.h_proto(s, AT));
        byte[] mac = new byte[6];
        Ethhdr.h_source$copyTo(s, AT, mac);
        assertArrayEquals(HexFormat.of().parseHex("a0b1c2d3e4f5"), mac);

        MemorySegment b = blank("ethhdr");
        Ethhdr.h_dest_47_16$setUnchecked(b, AT, 0x0211_2233);
        Ethhdr.h_dest_15_0$setUnchecked(b, AT, 0x4455);
        Ethhdr.h_source$copyFrom(b, AT, HexFormat.of().parseHex("a0b1c2d3e4f5"));
        Ethhdr.h_proto$set(b, AT, 0x86dd);
        assertSameBytes("ethhdr", b);
    }

    @Test
    void vlanTagSplitsItsTciLikeTheKernelMasks() {
        MemorySegment s = kernel("vlan_hdr");
        assertEquals(5, VlanHdr.pcp(s, AT));
        assertTrue(VlanHdr.dei(s, AT));
        assertEquals(0xabc, VlanHdr.vid(s, AT));
        assertEquals((5 << 13) | 0x1000 | 0xabc, VlanHdr.h_vlan_TCI(s, AT));
        assertEquals(0x0800, VlanHdr.h_vlan_encapsulated_proto(s, AT));

        MemorySegment b = blank("vlan_hdr");
        VlanHdr.writer(b, AT).pcp(5).dei(true).vid(0xabc).h_vlan_encapsulated_proto(0x0800).write();
        assertSameBytes("vlan_hdr", b);
    }

    @Test
    void ipv4HeaderBitFieldsByValue() {
        MemorySegment s = kernel("iphdr");
        assertEquals(4, Iphdr.version(s, AT));
        assertEquals(6, Iphdr.ihl(s, AT));
        assertEquals((46 << 2) | 1, Iphdr.tos(s, AT));
        assertEquals(46, Iphdr.dscp(s, AT));
        assertEquals(1, Iphdr.ecn(s, AT));
        assertEquals(1500, Iphdr.tot_len(s, AT));
        assertEquals(0xbeef, Iphdr.id(s, AT));
        assertEquals(0x2123, Iphdr.frag_off(s, AT));
        assertTrue(Iphdr.frag_mf(s, AT));
        assertFalse(Iphdr.frag_df(s, AT));
        assertEquals(0x123, Iphdr.frag_offset(s, AT));
        assertEquals(63, Iphdr.ttl(s, AT));
        assertEquals(17, Iphdr.protocol(s, AT));
        assertEquals(0x1234, Iphdr.check(s, AT));
        assertEquals(0x0a00_0001, Iphdr.saddr(s, AT));
        assertEquals(0xc0a8_0102, Iphdr.daddr(s, AT));

        MemorySegment b = blank("iphdr");
        Iphdr.writer(b, AT).version(4).ihl(6).dscp(46).ecn(1).tot_len(1500).id(0xbeef).frag_mf(true).frag_offset(0x123)
                .ttl(63).protocol(17).check(0x1234).saddr(0x0a00_0001).daddr(0xc0a8_0102).write();
        assertSameBytes("iphdr", b);
    }

    @Test
    void ipv6HeaderTrafficClassAndFlowLabel() {
        MemorySegment s = kernel("ipv6hdr");
        assertEquals(6, Ipv6hdr.version(s, AT));
        assertEquals(0xb, Ipv6hdr.priority(s, AT));
        // the traffic class is priority and the high nibble of flow_lbl[0] (net/dsfield.h ipv6_get_dsfield)
        assertEquals(0xb7, Ipv6hdr.traffic_class(s, AT));
        assertEquals(0xabcde, Ipv6hdr.flow_label(s, AT));
        assertEquals(1440, Ipv6hdr.payload_len(s, AT));
        assertEquals(6, Ipv6hdr.nexthdr(s, AT));
        assertEquals(255, Ipv6hdr.hop_limit(s, AT));
        byte[] a = new byte[16];
        Ipv6hdr.saddr$copyTo(s, AT, a);
        assertEquals((byte) 0xf0, a[0]);
        assertEquals((byte) 0xff, a[15]);

        MemorySegment b = blank("ipv6hdr");
        Ipv6hdr.writer(b, AT).version(6).traffic_class(0xb7).flow_label(0xabcde).payload_len(1440).nexthdr(6).hop_limit(255).write();
        Ipv6hdr.saddr$copyFrom(b, AT, a);
        Ipv6hdr.daddr$copyFrom(b, AT, HexFormat.of().parseHex("000102030405060708090a0b0c0d0e0f"));
        assertSameBytes("ipv6hdr", b);
    }

    @Test
    void tcpHeaderFlagsByValue() {
        MemorySegment s = kernel("tcphdr");
        assertEquals(1024, Tcphdr.source(s, AT));
        assertEquals(9000, Tcphdr.dest(s, AT));
        assertEquals(0x8000_0005, Tcphdr.seq(s, AT));
        assertEquals(7, Tcphdr.ack_seq(s, AT));
        assertEquals(8, Tcphdr.doff(s, AT));
        assertEquals(1, Tcphdr.res1(s, AT));
        assertTrue(Tcphdr.cwr(s, AT));
        assertFalse(Tcphdr.ece(s, AT));
        assertFalse(Tcphdr.urg(s, AT));
        assertTrue(Tcphdr.ack(s, AT));
        assertTrue(Tcphdr.psh(s, AT));
        assertFalse(Tcphdr.rst(s, AT));
        assertFalse(Tcphdr.syn(s, AT));
        assertTrue(Tcphdr.fin(s, AT));
        assertEquals(0x80 | 0x10 | 0x08 | 0x01, Tcphdr.flag_byte(s, AT));
        assertEquals(0xfedc, Tcphdr.window(s, AT));
        assertEquals(0x5a5a, Tcphdr.check(s, AT));
        assertEquals(3, Tcphdr.urg_ptr(s, AT));
        MemorySegment syn = kernel("tcphdr_syn");
        assertEquals(0x40 | 0x20 | 0x04 | 0x02, Tcphdr.flag_byte(syn, AT));
        assertTrue(Tcphdr.ece(syn, AT) && Tcphdr.urg(syn, AT) && Tcphdr.rst(syn, AT) && Tcphdr.syn(syn, AT));

        MemorySegment b = blank("tcphdr");
        Tcphdr.writer(b, AT).source(1024).dest(9000).seq(0x8000_0005).ack_seq(7).doff(8).res1(1)
                .cwr(true).ack(true).psh(true).fin(true).window(0xfedc).check(0x5a5a).urg_ptr(3).write();
        assertSameBytes("tcphdr", b);
        MemorySegment b2 = blank("tcphdr_syn");
        Tcphdr.writer(b2, AT).doff(5).flag_byte(0x40 | 0x20 | 0x04 | 0x02).write();
        assertSameBytes("tcphdr_syn", b2);
    }

    @Test
    void udpHeader() {
        MemorySegment s = kernel("udphdr");
        assertEquals(53, Udphdr.source(s, AT));
        assertEquals(33000, Udphdr.dest(s, AT));
        assertEquals(512, Udphdr.len(s, AT));
        assertEquals(0xffff, Udphdr.check(s, AT));

        MemorySegment b = blank("udphdr");
        Udphdr.writer(b, AT).source(53).dest(33000).len(512).check(0xffff).write();
        assertSameBytes("udphdr", b);
    }
}

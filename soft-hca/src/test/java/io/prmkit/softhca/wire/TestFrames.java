package io.prmkit.softhca.wire;

import java.nio.ByteBuffer;

/** Builds test frames as byte arrays (network order), checksums left zero unless asked. */
public final class TestFrames {
    private TestFrames() {}

    public static final byte[] DMAC = {0x02, 0x00, 0x00, 0x00, 0x00, 0x01}; // the soft HCA's default permanent address
    public static final byte[] SMAC = {0x02, 0x00, 0x00, 0x00, 0x00, 0x02};

    public static byte[] ipv4(int proto, int sport, int dport, byte[] payload) {
        return ipv4(DMAC, proto, new byte[] {10, 0, 0, 1}, new byte[] {10, 0, 0, 2}, sport, dport, payload, 0);
    }

    public static byte[] ipv4(byte[] dmac, int proto, byte[] src, byte[] dst, int sport, int dport, byte[] payload, int tcpFlags) {
        int l4h = proto == Ethernet.PROTO_TCP ? 20 : 8;
        ByteBuffer b = ByteBuffer.allocate(14 + 20 + l4h + payload.length);
        b.put(dmac).put(SMAC).putShort((short) Ethernet.TYPE_IPV4);
        b.put((byte) 0x45).put((byte) 0).putShort((short) (20 + l4h + payload.length)).putShort((short) 0x1234).putShort((short) 0x4000)
                .put((byte) 64).put((byte) proto).putShort((short) 0).put(src).put(dst);
        l4(b, proto, sport, dport, payload, tcpFlags);
        return b.array();
    }

    public static byte[] ipv6(int proto, int sport, int dport, byte[] payload) {
        int l4h = proto == Ethernet.PROTO_TCP ? 20 : 8;
        ByteBuffer b = ByteBuffer.allocate(14 + 40 + l4h + payload.length);
        b.put(DMAC).put(SMAC).putShort((short) Ethernet.TYPE_IPV6);
        b.putInt(0x60000000).putShort((short) (l4h + payload.length)).put((byte) proto).put((byte) 64);
        for (int i = 0; i < 16; i++) b.put((byte) (i == 0 ? 0xfe : i == 15 ? 1 : 0));
        for (int i = 0; i < 16; i++) b.put((byte) (i == 0 ? 0xfe : i == 15 ? 2 : 0));
        l4(b, proto, sport, dport, payload, Ethernet.TCP_ACK);
        return b.array();
    }

    private static void l4(ByteBuffer b, int proto, int sport, int dport, byte[] payload, int tcpFlags) {
        b.putShort((short) sport).putShort((short) dport);
        if (proto == Ethernet.PROTO_TCP) {
            b.putInt(1000).putInt(0).put((byte) 0x50).put((byte) tcpFlags).putShort((short) 65535).putShort((short) 0).putShort((short) 0);
        } else {
            b.putShort((short) (8 + payload.length)).putShort((short) 0);
        }
        b.put(payload);
    }

    public static byte[] payload(int n, int seed) {
        byte[] p = new byte[n];
        for (int i = 0; i < n; i++) p[i] = (byte) (i * 7 + seed);
        return p;
    }
}

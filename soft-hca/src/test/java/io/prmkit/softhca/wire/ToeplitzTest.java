package io.prmkit.softhca.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.util.HexFormat;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The verification suite of Microsoft's RSS specification (the key every NIC documents). */
class ToeplitzTest {
    static final byte[] KEY = HexFormat.of().parseHex("6d5a56da255b0ec24167253d43a38fb0d0ca2bcbae7b30b477cb2da38030f20c6a42b73bbeac01fa");
    static final Toeplitz T = new Toeplitz(KEY);

    static byte[] input(String src, int sport, String dst, int dport, boolean ports) throws Exception {
        byte[] s = InetAddress.getByName(src).getAddress();
        byte[] d = InetAddress.getByName(dst).getAddress();
        ByteBuffer b = ByteBuffer.allocate(s.length * 2 + (ports ? 4 : 0));
        b.put(s).put(d);
        if (ports) b.putShort((short) sport).putShort((short) dport);
        return b.array();
    }

    @ParameterizedTest
    @CsvSource({
        "66.9.149.187, 2794, 161.142.100.80, 1766, 323e8fc2, 51ccc178",
        "199.92.111.2, 14230, 65.69.140.83, 4739, d718262a, c626b0ea",
        "24.19.198.95, 12898, 12.22.207.184, 38024, d2d0a5de, 5c2b394a",
        "38.27.205.30, 48228, 209.142.163.6, 2217, 82989176, afc7327f",
        "153.39.163.191, 44251, 202.188.127.2, 1303, 5d1809c5, 10e828a2",
        "3ffe:2501:200:1fff::7, 2794, 3ffe:2501:200:3::1, 1766, 2cc18cd5, 40207d3d",
        "3ffe:501:8::260:97ff:fe40:efab, 14230, ff02::1, 4739, 0f0c461c, dde51bbf",
        "3ffe:1900:4545:3:200:f8ff:fe21:67cf, 44251, fe80::200:f8ff:fe21:67cf, 38024, 4b61e985, 02d1feef",
    })
    void publishedVectors(String src, int sport, String dst, int dport, String ipOnly, String withPorts) throws Exception {
        assertEquals(Integer.parseUnsignedInt(ipOnly, 16), T.hash(input(src, sport, dst, dport, false)), "addresses only");
        assertEquals(Integer.parseUnsignedInt(withPorts, 16), T.hash(input(src, sport, dst, dport, true)), "with ports");
        byte[] in = input(src, sport, dst, dport, true);
        int a = in.length - 4;
        int h = T.hash(0, 0, java.lang.foreign.MemorySegment.ofArray(in), 0, a);
        h = T.hash16(h, a, sport);
        h = T.hash16(h, a + 2, dport);
        assertEquals(Integer.parseUnsignedInt(withPorts, 16), h, "incremental");
    }
}

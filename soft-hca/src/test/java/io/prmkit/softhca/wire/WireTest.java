package io.prmkit.softhca.wire;

import static org.junit.jupiter.api.Assertions.*;

import io.prmkit.dsl.HostTools;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class WireTest {
    private final Arena arena = Arena.ofAuto();
    private final List<byte[]> got = new ArrayList<>();
    private final List<String> events = new ArrayList<>();

    private MemorySegment seg(byte[] b) {
        MemorySegment s = arena.allocate(b.length);
        MemorySegment.copy(b, 0, s, ValueLayout.JAVA_BYTE, 0, b.length);
        return s;
    }

    private Port port(int n) {
        Port p = new Port(n);
        p.setSink((port, f, off, len) -> got.add(f.asSlice(off, len).toArray(ValueLayout.JAVA_BYTE)));
        p.setLinkListener((port, up) -> events.add(port.number() + (up ? " up" : " down")));
        return p;
    }

    @Test
    void loopbackDeliversToTheSamePortAndCounts() {
        Port p = port(1);
        assertFalse(p.linkUp());
        Wire w = Wire.loopback(p);
        assertTrue(p.linkUp());
        assertTrue(w.isLoopback());
        byte[] f = TestFrames.ipv4(Ethernet.PROTO_UDP, 1, 2, TestFrames.payload(100, 0));
        assertTrue(p.transmit(seg(f), 0, f.length));
        assertEquals(1, got.size());
        assertArrayEquals(f, got.get(0));
        PortCounters c = p.counters();
        assertEquals(1, c.txFrames());
        assertEquals(f.length, c.txOctets());
        assertEquals(1, c.rxFrames());
        assertEquals(1, c.rxUnicast());
        assertEquals(f.length, c.rxOctets());
        assertEquals(1, c.rxSizeHistogram(2)); // 142 + 4 bytes: 128..255
    }

    @Test
    void joinedPortsDeliverToTheOtherEnd() {
        Port a = new Port(1), b = port(2);
        List<byte[]> atA = new ArrayList<>();
        a.setSink((port, f, off, len) -> atA.add(f.asSlice(off, len).toArray(ValueLayout.JAVA_BYTE)));
        Wire w = Wire.join(a, b);
        assertSame(b, w.peer(a));
        byte[] f = TestFrames.ipv6(Ethernet.PROTO_TCP, 1, 2, TestFrames.payload(10, 0));
        a.transmit(seg(f), 0, f.length);
        assertEquals(1, got.size());
        assertTrue(atA.isEmpty());
        b.transmit(seg(f), 0, f.length);
        assertEquals(1, atA.size());
        assertThrows(IllegalStateException.class, () -> Wire.loopback(a));
    }

    @Test
    void carrierLossTakesBothEndsDownAndFramesAreLost() {
        Port a = port(1), b = port(2);
        Wire w = Wire.join(a, b);
        events.clear();
        w.setCarrier(false);
        assertEquals(List.of("1 down", "2 down"), events);
        byte[] f = TestFrames.ipv4(Ethernet.PROTO_UDP, 1, 2, new byte[30]);
        assertFalse(a.transmit(seg(f), 0, f.length));
        assertEquals(1, a.counters().txDiscards());
        assertEquals(1, a.counters().linkDownEvents());
        w.setCarrier(true);
        assertEquals(List.of("1 down", "2 down", "1 up", "2 up"), events);
        assertTrue(a.transmit(seg(f), 0, f.length));
        assertEquals(1, got.size());
        a.setAdminUp(false);
        assertFalse(a.linkUp());
        assertTrue(b.linkUp());
    }

    @Test
    void dropAndCorruptFaults() {
        Port p = port(1);
        Wire w = Wire.loopback(p);
        byte[] f = TestFrames.ipv4(Ethernet.PROTO_UDP, 1, 2, TestFrames.payload(50, 0));
        MemorySegment s = seg(f);
        ParsedFrame pf = new ParsedFrame().parse(s, 0, f.length, false);
        TxOffload.fillL3Checksum(s, 0, pf);
        TxOffload.fillL4Checksum(s, 0, pf);
        w.dropNext(2);
        for (int i = 0; i < 3; i++) p.transmit(s, 0, f.length);
        assertEquals(1, got.size());
        assertEquals(2, w.dropped());
        w.corruptNext(1, Wire.Corruption.FCS);
        p.transmit(s, 0, f.length);
        assertEquals(1, got.size());
        assertEquals(1, p.counters().rxFcsErrors());
        w.corruptNext(1, Wire.Corruption.PAYLOAD);
        p.transmit(s, 0, f.length);
        assertEquals(2, got.size());
        byte[] bad = got.get(1);
        ParsedFrame q = new ParsedFrame().parse(MemorySegment.ofArray(bad), 0, bad.length, true);
        assertFalse(q.l3ChecksumOk && q.l4ChecksumOk, "a corrupted frame fails a checksum");
        assertTrue(new ParsedFrame().parse(s, 0, f.length, true).l4ChecksumOk, "the sender's buffer is untouched");
        assertEquals(5, w.carried());
    }

    @Test
    void framesLongerThanTheMtuAreDroppedByTheReceiver() {
        Port p = port(1);
        Wire.loopback(p);
        p.setMtu(100); // a hardware MTU: frames of up to 96 bytes plus the 4-byte FCS
        assertEquals(96, p.maxFrame());
        byte[] f = TestFrames.ipv4(Ethernet.PROTO_UDP, 1, 2, new byte[96 - 42 + 1]);
        p.transmit(seg(f), 0, f.length);
        assertEquals(0, got.size());
        assertEquals(1, p.counters().rxTooLong());
        assertThrows(IllegalArgumentException.class, () -> p.setMtu(Port.MIN_MTU - 1));
        assertThrows(IllegalArgumentException.class, () -> p.setMtu(Port.MAX_MTU + 1));
    }

    /** The hardware MTU counts the whole frame with its FCS, whatever tags it carries (Linux sets IP MTU + 22). */
    @Test
    void theHardwareMtuBoundsTheFrameWithItsFcs() {
        Port a = new Port(1), b = port(2);
        a.setMtu(Port.MAX_MTU);
        Wire.join(a, b);
        assertEquals(1522, b.mtu(), "IP MTU 1500 + Ethernet header + VLAN tag + FCS");
        assertEquals(1518, b.maxFrame());
        byte[] exact = TestFrames.ipv4(Ethernet.PROTO_UDP, 1, 2, new byte[1518 - 42]);
        byte[] over = TestFrames.ipv4(Ethernet.PROTO_UDP, 1, 2, new byte[1518 - 42 + 1]);
        byte[] tagged = new byte[1518]; // an IP MTU of 1500 with one VLAN tag: exactly the allowed size too
        System.arraycopy(exact, 0, tagged, 0, 12);
        tagged[12] = (byte) 0x81;
        tagged[14] = 0x00;
        tagged[15] = 0x64;
        System.arraycopy(exact, 12, tagged, 16, 1518 - 16);
        a.transmit(seg(exact), 0, exact.length);
        a.transmit(seg(tagged), 0, tagged.length);
        assertEquals(2, got.size(), "frames of exactly the allowed size pass");
        assertEquals(0, b.counters().rxTooLong());
        a.transmit(seg(over), 0, over.length);
        assertEquals(2, got.size(), "one byte more is dropped");
        assertEquals(1, b.counters().rxTooLong());
    }

    @Test
    void aCaptureThatCannotBeWrittenStopsItselfNotTheWire() throws Exception {
        Path full = Path.of("/dev/full");
        HostTools.requireSystem(Files.exists(full), "Linux's /dev/full", "every write fails with ENOSPC");
        Port p = port(1);
        Wire w = Wire.loopback(p);
        PcapWriter tap = w.tap(full);
        byte[] f = TestFrames.ipv4(Ethernet.PROTO_UDP, 1, 2, TestFrames.payload(1400, 0));
        MemorySegment s = seg(f);
        // 1000 frames are more than the 1 MiB buffer holds, so the tap has tried to write
        int n = 1000;
        for (int i = 0; i < n; i++) assertTrue(p.transmit(s, 0, f.length), "frame " + i);
        assertEquals(n, got.size(), "every frame still reached the other end");
        assertEquals(n, w.carried());
        assertNotNull(tap.failure(), "the first write error is kept");
        assertEquals(0, tap.frames());
        IOException e = assertThrows(IOException.class, w::untap, "untap reports the incomplete capture");
        assertTrue(e.getMessage().contains("No space left on device"), e.getMessage());
        assertEquals(n, tap.missed(), "the frames buffered when it failed and every later one");
        w.untap(); // no tap left: nothing to report twice
    }

    @Test
    void aTapOnAPathThatCannotBeOpenedFailsAtOnceAndLeavesNoTap(@TempDir Path dir) throws Exception {
        Port p = port(1);
        Wire w = Wire.loopback(p);
        assertThrows(IOException.class, () -> w.tap(dir));
        assertThrows(IOException.class, () -> w.tap(dir.resolve("no-such-folder/wire.pcap")));
        byte[] f = TestFrames.ipv4(Ethernet.PROTO_UDP, 1, 2, TestFrames.payload(20, 0));
        assertTrue(p.transmit(seg(f), 0, f.length));
        assertEquals(1, got.size());
        w.untap();
    }

    /** A tap into an open channel (what {@code demo --pcap -} gives standard output): the same file, closed by untap. */
    @Test
    void aTapIntoAChannelWritesTheSamePcap() throws Exception {
        Port p = port(1);
        Wire w = Wire.loopback(p);
        var bytes = new java.io.ByteArrayOutputStream();
        var channel = java.nio.channels.Channels.newChannel(bytes);
        w.tap(new PcapWriter(channel, () -> 1_500_000_000_123_456_000L));
        byte[] f = TestFrames.ipv4(Ethernet.PROTO_UDP, 1, 2, TestFrames.payload(20, 0));
        p.transmit(seg(f), 0, f.length);
        p.transmit(seg(f), 0, f.length);
        w.untap();
        assertFalse(channel.isOpen(), "untap closes the channel: the reader sees the end of the capture");
        var b = java.nio.ByteBuffer.wrap(bytes.toByteArray()).order(java.nio.ByteOrder.LITTLE_ENDIAN);
        assertEquals(24 + 2 * (16 + f.length), b.limit());
        assertEquals(0xa1b2c3d4, b.getInt(0));
        assertEquals(1_500_000_000, b.getInt(24), "seconds");
        assertEquals(123_456, b.getInt(28), "microseconds");
        assertEquals(f.length, b.getInt(32));
    }

    @Test
    void pcapTapIsReadableByTshark(@TempDir Path dir) throws Exception {
        Port p = port(1);
        Wire w = Wire.loopback(p);
        Path file = dir.resolve("wire.pcap");
        w.tap(file);
        byte[] udp = TestFrames.ipv4(Ethernet.PROTO_UDP, 1111, 2222, TestFrames.payload(20, 0));
        MemorySegment s = seg(udp);
        ParsedFrame pf = new ParsedFrame().parse(s, 0, udp.length, false);
        TxOffload.fillL3Checksum(s, 0, pf);
        TxOffload.fillL4Checksum(s, 0, pf);
        p.transmit(s, 0, udp.length);
        byte[] tcp = TestFrames.ipv6(Ethernet.PROTO_TCP, 3333, 80, TestFrames.payload(5, 0));
        p.transmit(seg(tcp), 0, tcp.length);
        w.untap();
        byte[] bytes = Files.readAllBytes(file);
        assertEquals(24 + 16 + udp.length + 16 + tcp.length, bytes.length);
        assertEquals((byte) 0xd4, bytes[0]); // little-endian magic a1b2c3d4
        assertEquals(1, bytes[20]); // link type Ethernet

        String out = Tools.run("tshark", "-r", file.toString(), "-T", "fields", "-e", "frame.len", "-e", "udp.srcport", "-e", "tcp.dstport",
                "-e", "ip.checksum.status", "-o", "ip.check_checksum:TRUE");
        if (out == null) return;
        String[] lines = out.strip().split("\n");
        assertEquals(2, lines.length, out);
        assertTrue(lines[0].startsWith(udp.length + "\t1111"), lines[0]);
        assertTrue(lines[0].endsWith("\t1"), "tshark (1 = PROTO_CHECKSUM_E_GOOD) says the IPv4 checksum is good: " + lines[0]);
        assertTrue(lines[1].startsWith(tcp.length + "\t\t80"), lines[1]);
    }

    /**
     * A device's port is its datapath's: the public setters would unhook it (or change MTU and admin
     * state behind PMTU and PAOS), so they are refused, naming what to do instead; frames still reach
     * the device's sink, and the device side still sets what PMTU and PAOS say.
     */
    @Test
    void aDevicesPortRefusesTheSettersThatWouldUnhookItFromTheDevice() {
        Port p = new Port(1);
        Port peer = port(2);
        Wire.join(p, peer);
        events.clear();
        List<byte[]> device = new ArrayList<>();
        Port.DeviceSide side = p.attachDevice((port, f, off, len) -> device.add(f.asSlice(off, len).toArray(ValueLayout.JAVA_BYTE)),
                (port, up) -> events.add("device " + (up ? "up" : "down")));
        for (org.junit.jupiter.api.function.Executable e : List.<org.junit.jupiter.api.function.Executable>of(
                () -> p.setSink((port, f, off, len) -> {}), () -> p.setLinkListener((port, up) -> {}), () -> p.setMtu(2000),
                () -> p.setAdminUp(false))) {
            IllegalStateException x = assertThrows(IllegalStateException.class, e);
            assertTrue(x.getMessage().startsWith("port 1 belongs to its device: set"), x.getMessage());
        }
        assertEquals("port 1 belongs to a device already",
                assertThrows(IllegalStateException.class, () -> p.attachDevice((port, f, off, len) -> {}, null)).getMessage());
        assertEquals(Port.DEFAULT_MTU, p.mtu(), "the refused setMtu changed nothing");
        assertTrue(p.adminUp() && p.linkUp(), "the refused setAdminUp changed nothing");

        byte[] f = TestFrames.ipv4(Ethernet.PROTO_UDP, 1, 2, TestFrames.payload(100, 0));
        assertTrue(peer.transmit(seg(f), 0, f.length));
        assertEquals(1, device.size(), "frames still reach the device's sink");
        side.setMtu(2000);
        assertEquals(2000, p.mtu());
        side.setAdminUp(false);
        assertFalse(p.linkUp());
        assertEquals(List.of("device down"), events);
    }
}

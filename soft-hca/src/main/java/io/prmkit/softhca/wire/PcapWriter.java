package io.prmkit.softhca.wire;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.function.LongSupplier;

/**
 * A classic pcap file (magic a1b2c3d4, version 2.4, link type 1 = Ethernet, microsecond
 * timestamps) that a wire tap writes every frame into, as it would appear on the cable (no FCS).
 * Frames are buffered and written in blocks; one buffer is reused, nothing is allocated per frame.
 */
public final class PcapWriter implements AutoCloseable {
    public static final int LINKTYPE_ETHERNET = 1;
    public static final int SNAPLEN = 65535;
    private final FileChannel channel;
    private final ByteBuffer buf = ByteBuffer.allocateDirect(1 << 20).order(ByteOrder.LITTLE_ENDIAN);
    private final MemorySegment bufSegment = MemorySegment.ofBuffer(buf);
    private final LongSupplier clockNanos;
    private long frames;

    /** Creates (or truncates) {@code file}; {@code clockNanos} stamps each frame (nanoseconds since the epoch). */
    public PcapWriter(Path file, LongSupplier clockNanos) {
        this.clockNanos = clockNanos;
        try {
            channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.WRITE);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open pcap file " + file + ": " + e.getMessage(), e);
        }
        buf.putInt(0xa1b2c3d4).putShort((short) 2).putShort((short) 4).putInt(0).putInt(0).putInt(SNAPLEN).putInt(LINKTYPE_ETHERNET);
    }

    public PcapWriter(Path file) {
        this(file, () -> System.currentTimeMillis() * 1_000_000L);
    }

    /** Appends one frame (truncated to the snap length). */
    public synchronized void write(MemorySegment s, long off, int len) {
        int incl = Math.min(len, SNAPLEN);
        if (buf.remaining() < 16 + incl) flush();
        long t = clockNanos.getAsLong();
        buf.putInt((int) (t / 1_000_000_000L)).putInt((int) (t % 1_000_000_000L / 1000)).putInt(incl).putInt(len);
        MemorySegment.copy(s, off, bufSegment, buf.position(), incl);
        buf.position(buf.position() + incl);
        frames++;
    }

    public synchronized long frames() {
        return frames;
    }

    /** Writes buffered frames to the file. */
    public synchronized void flush() {
        buf.flip();
        try {
            while (buf.hasRemaining()) channel.write(buf);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write pcap file: " + e.getMessage(), e);
        } finally {
            buf.clear();
        }
    }

    @Override
    public synchronized void close() {
        flush();
        try {
            channel.close();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot close pcap file: " + e.getMessage(), e);
        }
    }
}

package io.prmkit.softhca.wire;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.channels.WritableByteChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.function.LongSupplier;

/**
 * A classic pcap file (magic a1b2c3d4, version 2.4, link type 1 = Ethernet, microsecond
 * timestamps) that a wire tap writes every frame into, as it would appear on the cable (no FCS).
 * Frames are buffered and written in blocks; one buffer is reused, nothing is allocated per frame.
 *
 * <p>A capture that cannot be written (disk full, a reader that closed its pipe) must not stop the
 * wire, any more than a failing tcpdump stops a NIC: {@link #write} never throws. The first write
 * error is kept, later frames are counted in {@link #missed()} instead, and {@link #close()} throws
 * that error, so whoever owns the file learns the capture is incomplete.
 */
public final class PcapWriter implements AutoCloseable {
    public static final int LINKTYPE_ETHERNET = 1;
    public static final int SNAPLEN = 65535;
    private final WritableByteChannel channel;
    private final ByteBuffer buf = ByteBuffer.allocateDirect(1 << 20).order(ByteOrder.LITTLE_ENDIAN);
    private final MemorySegment bufSegment = MemorySegment.ofBuffer(buf);
    private final LongSupplier clockNanos;
    private long frames;
    private long buffered;
    private long missed;
    private IOException failure;

    /**
     * Creates (or truncates) {@code file}, which may also be a named pipe or a device;
     * {@code clockNanos} stamps each frame (nanoseconds since the epoch).
     *
     * @throws IOException the file cannot be opened for writing (the caller says which and why)
     */
    public PcapWriter(Path file, LongSupplier clockNanos) throws IOException {
        this(FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.WRITE), clockNanos);
    }

    public PcapWriter(Path file) throws IOException {
        this(file, WALL_CLOCK);
    }

    /** A capture into an open channel (standard output, a socket), which {@link #close()} closes. */
    public PcapWriter(WritableByteChannel channel, LongSupplier clockNanos) {
        this.clockNanos = clockNanos;
        this.channel = channel;
        buf.putInt(0xa1b2c3d4).putShort((short) 2).putShort((short) 4).putInt(0).putInt(0).putInt(SNAPLEN).putInt(LINKTYPE_ETHERNET);
    }

    /** Nanoseconds since the epoch, to the millisecond. */
    public static final LongSupplier WALL_CLOCK = () -> System.currentTimeMillis() * 1_000_000L;

    /** Appends one frame (truncated to the snap length); after a write error only counts it as missed. */
    public synchronized void write(MemorySegment s, long off, int len) {
        int incl = Math.min(len, SNAPLEN);
        if (failure == null && buf.remaining() < 16 + incl) drain();
        if (failure != null) {
            missed++;
            return;
        }
        long t = clockNanos.getAsLong();
        buf.putInt((int) (t / 1_000_000_000L)).putInt((int) (t % 1_000_000_000L / 1000)).putInt(incl).putInt(len);
        MemorySegment.copy(s, off, bufSegment, buf.position(), incl);
        buf.position(buf.position() + incl);
        buffered++;
    }

    /** Frames in the file so far (written out, not counting those still buffered). */
    public synchronized long frames() {
        return frames;
    }

    /** Frames the capture lost to a write error: those buffered when it happened and all after it. */
    public synchronized long missed() {
        return missed;
    }

    /** The first write error, or null while the capture is complete. */
    public synchronized IOException failure() {
        return failure;
    }

    /** Writes buffered frames to the file; throws the capture's first write error if there was one. */
    public synchronized void flush() throws IOException {
        drain();
        if (failure != null) throw failure;
    }

    private void drain() {
        buf.flip();
        try {
            while (buf.hasRemaining()) channel.write(buf);
            frames += buffered;
        } catch (IOException e) {
            failure = e;
            missed += buffered;
        } finally {
            buffered = 0;
            buf.clear();
        }
    }

    /** Completes and closes the file; throws the capture's first write error (or the close's) if there was one. */
    @Override
    public synchronized void close() throws IOException {
        if (failure == null) drain();
        try {
            channel.close();
        } catch (IOException e) {
            if (failure == null) failure = e;
        }
        if (failure != null) throw failure;
    }
}

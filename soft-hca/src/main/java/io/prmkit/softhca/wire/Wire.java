package io.prmkit.softhca.wire;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A cable between two ports, or from a port back to itself (loopback). A frame put on the wire
 * reaches the other end at once, in the sending thread. A wire can be tapped into a pcap file (the
 * tap sees what the sender put on the cable, before faults), can lose its carrier (both ends see the
 * link go down), and can drop or corrupt chosen frames:
 * <ul>
 *   <li>{@link #dropNext(int)}: the next n frames vanish (counted in {@link #dropped()}).
 *   <li>{@link #corruptNext(int, Corruption)}: the next n frames arrive damaged: {@code FCS} flips a bit
 *       so the receiving MAC sees a bad frame check sequence and drops it (PPCNT FCS errors);
 *       {@code PAYLOAD} flips a bit in the middle of the L2 payload with a good FCS, as if damaged before the FCS
 *       was computed, so the frame is delivered and its L4 (or L3) checksum fails.
 * </ul>
 */
public final class Wire implements AutoCloseable {
    public enum Corruption { FCS, PAYLOAD }

    private final Port a;
    private final Port b;
    private volatile boolean carrier = true;
    private volatile PcapWriter tap;
    private final AtomicLong toDrop = new AtomicLong();
    private final AtomicLong toCorrupt = new AtomicLong();
    private volatile Corruption corruption = Corruption.FCS;
    // Counted by the sending thread; one set per direction, so two joined devices never share one.
    private long carriedA, carriedB;
    private long droppedA, droppedB;
    private long corruptedA, corruptedB;
    // A copy of a frame to damage (the sender's buffer stays intact); allocated once.
    private final MemorySegment scratchA = Arena.ofAuto().allocate(65536 + 64, 64);
    private final MemorySegment scratchB = Arena.ofAuto().allocate(65536 + 64, 64);

    private Wire(Port a, Port b) {
        this.a = a;
        this.b = b;
    }

    /** Plugs {@code port} into a wire that carries its frames back to itself. */
    public static Wire loopback(Port port) {
        Wire w = new Wire(port, port);
        port.attach(w);
        return w;
    }

    /** Joins two ports (of one device or of two) with a cable. */
    public static Wire join(Port a, Port b) {
        if (a == b) return loopback(a);
        Wire w = new Wire(a, b);
        a.attach(w);
        try {
            b.attach(w);
        } catch (IllegalStateException e) {
            a.attach(null);
            throw e;
        }
        return w;
    }

    public boolean isLoopback() {
        return a == b;
    }

    public Port end(int i) {
        return i == 0 ? a : b;
    }

    public Port peer(Port p) {
        return p == a ? b : a;
    }

    boolean carrier() {
        return carrier;
    }

    /** Makes the link go down (false) or come back (true) at both ends, as pulling or re-seating a cable. */
    public void setCarrier(boolean up) {
        carrier = up;
        a.refreshLink();
        if (b != a) b.refreshLink();
    }

    /**
     * Starts writing every frame into {@code file} (pcap, link type Ethernet); replaces an earlier tap.
     *
     * @throws IOException {@code file} cannot be opened (no tap is installed then), or the earlier tap's
     *     capture is incomplete (the new tap is installed)
     */
    public PcapWriter tap(Path file) throws IOException {
        return tap(new PcapWriter(file));
    }

    /**
     * Starts writing every frame into {@code w} (e.g. one over standard output); replaces an earlier tap.
     *
     * @throws IOException the earlier tap's capture is incomplete (the new tap is installed)
     */
    public PcapWriter tap(PcapWriter w) throws IOException {
        PcapWriter old = tap;
        tap = w;
        if (old != null) old.close();
        return w;
    }

    /**
     * Stops the tap and completes its file.
     *
     * @throws IOException the capture is incomplete: the first error writing it (the wire went on carrying frames)
     */
    public void untap() throws IOException {
        PcapWriter old = tap;
        tap = null;
        if (old != null) old.close();
    }

    public void dropNext(int frames) {
        toDrop.addAndGet(frames);
    }

    public void corruptNext(int frames, Corruption how) {
        corruption = how;
        toCorrupt.addAndGet(frames);
    }

    /** Frames put on the wire, dropped by a fault, and corrupted by a fault (read by the thread that sends, or after it stopped). */
    public long carried() {
        return carriedA + carriedB;
    }

    public long dropped() {
        return droppedA + droppedB;
    }

    public long corrupted() {
        return corruptedA + corruptedB;
    }

    void carry(Port from, MemorySegment frame, long off, int len) {
        boolean fromA = from == a;
        if (fromA) carriedA++;
        else carriedB++;
        PcapWriter t = tap;
        if (t != null) t.write(frame, off, len);
        Port to = from == a ? b : a;
        if (take(toDrop)) {
            if (fromA) droppedA++;
            else droppedB++;
            return;
        }
        if (take(toCorrupt)) {
            MemorySegment scratch = fromA ? scratchA : scratchB;
            if (fromA) corruptedA++;
            else corruptedB++;
            MemorySegment.copy(frame, off, scratch, 0, len);
            // the fault flips one bit in the middle of the payload: a byte of the stream, no header field
            long at = len > Ethernet.ETH_HLEN ? Ethernet.ETH_HLEN + (len - Ethernet.ETH_HLEN) / 2 : len - 1;
            scratch.set(ValueLayout.JAVA_BYTE, at, (byte) (scratch.get(ValueLayout.JAVA_BYTE, at) ^ 0x01));
            to.arrive(scratch, 0, len, corruption == Corruption.FCS);
            return;
        }
        to.arrive(frame, off, len, false);
    }

    /** Takes one from a fault budget if any is left (one volatile read when none is). */
    private static boolean take(AtomicLong budget) {
        for (long v; (v = budget.get()) > 0; ) {
            if (budget.compareAndSet(v, v - 1)) return true;
        }
        return false;
    }

    void unplug() {
        a.attach(null);
        if (b != a) b.attach(null);
    }

    /** Unplugs both ends and completes the tap's file; throws as {@link #untap()} does, after unplugging. */
    @Override
    public void close() throws IOException {
        try {
            untap();
        } finally {
            unplug();
        }
    }
}

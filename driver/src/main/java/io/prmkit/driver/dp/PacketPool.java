package io.prmkit.driver.dp;

import io.prmkit.driver.eth.EthPort;
import io.prmkit.platform.DmaMemory;
import io.prmkit.platform.DmaRegion;
import java.lang.foreign.MemorySegment;

/**
 * Packet buffers: one DMA region cut into fixed-size buffers, named by {@code int} handles
 * {@code 0 .. capacity() - 1} and kept on a free stack. A packet's metadata lives in one {@code int}
 * array, {@link #META_STRIDE} entries per handle, so nothing on the datapath is an object per packet.
 *
 * <p>One array with a fixed stride rather than one array per item: the receive path stores three or
 * four items per packet at {@code meta[4 * h + k]}, and C2 merges the range checks of those
 * neighbouring indexes into one pair where separate arrays cost a check (and a base and limit kept
 * in registers) each (measured: docs/datapath-bench-log.md).
 *
 * <p>The device reaches buffer {@code h} at {@link #deviceAddress(int)} through {@link #lkey()}: by
 * default the region's bus address through the PA mkey the pool was made with; {@link #useKey}
 * switches the pool to another address space (a UMR-registered mkey).
 *
 * <p>{@link #open} makes a pool the port owns: the port frees its memory after it has destroyed its
 * queues, so closing the pool before them (a try-with-resources block that declares the pool after the
 * port closes it first) only ends the pool's use; its buffers stay mapped while an RQ may still write
 * into them. Use after close is refused.
 *
 * <p>Not thread-safe: one pool per queue thread (buffers may travel from an RX queue to a TX queue
 * served by the same thread; TX completion returns them to the pool they came from).
 */
public final class PacketPool implements AutoCloseable, EthPort.Attachment {
    private final DmaRegion region;
    /** The port that frees the region (null: the pool frees it itself on close). */
    private final EthPort port;
    /** Closed by its user: every call refuses. Package-private: the queues check it once per call. */
    boolean closed;
    private final MemorySegment memory;
    private final int bufferSize;
    private final int capacity;
    private final int[] free;
    /** Free buffers on the stack; package-private so the queues can pop and push a burst with it in a local. */
    int top;
    private int lkey;
    private long addressBase;

    /** {@code int}s of {@link #meta} per buffer. */
    public static final int META_STRIDE = 4;
    /** Index in a buffer's {@link #meta} entries: frame length in bytes (TX: what to send; RX: what arrived). */
    public static final int LENGTH = 0;
    /** Index: {@link PacketFlags} bits, offload requests (TX) or what the device reported (RX). */
    public static final int FLAGS = 1;
    /** Index: the RSS hash the device computed (RX). */
    public static final int RSS_HASH = 2;
    /**
     * Index: VLAN TCI in bits 15:0, to insert (TX, with {@link PacketFlags#TX_VLAN}) or stripped (RX,
     * with {@link PacketFlags#RX_VLAN_STRIPPED}); TCP segment payload size for {@link PacketFlags#TX_LSO}
     * in bits 31:16. RX writes the whole word (MSS 0) when it strips a tag.
     */
    public static final int VLAN_MSS = 3;

    /** Per-packet metadata: buffer {@code h}'s items at {@code meta[h * META_STRIDE + LENGTH .. VLAN_MSS]}. */
    public final int[] meta;

    /**
     * A pool of {@code capacity} buffers of {@code bufferSize} bytes in the port's DMA memory, reached
     * through the port's mkey, owned by the port (see the class comment).
     */
    public static PacketPool open(EthPort port, int capacity, int bufferSize) {
        PacketPool p = new PacketPool(port.dma(), capacity, bufferSize, port.lkey(), port);
        try {
            port.attach(p);
        } catch (RuntimeException e) {
            p.region.close();
            throw e;
        }
        return p;
    }

    /**
     * A pool of {@code capacity} buffers of {@code bufferSize} bytes in one region of {@code dma}, reached
     * through {@code lkey}, that frees its memory on {@link #close} (for rings built without a port:
     * tests and benchmarks; on a port use {@link #open}).
     */
    public PacketPool(DmaMemory dma, int capacity, int bufferSize, int lkey) {
        this(dma, capacity, bufferSize, lkey, null);
    }

    private PacketPool(DmaMemory dma, int capacity, int bufferSize, int lkey, EthPort port) {
        if (capacity < 1) throw new IllegalArgumentException("a pool needs at least one buffer, not " + capacity);
        if (bufferSize < 64 || (bufferSize & 63) != 0) throw new IllegalArgumentException("buffer size " + bufferSize + " must be a multiple of 64, at least 64");
        this.port = port;
        this.region = dma.allocate((long) capacity * bufferSize, 4096);
        this.memory = region.segment();
        this.bufferSize = bufferSize;
        this.capacity = capacity;
        this.free = new int[capacity];
        for (int i = 0; i < capacity; i++) free[i] = capacity - 1 - i; // handle 0 on top
        this.top = capacity;
        this.lkey = lkey;
        this.addressBase = region.busAddress();
        this.meta = new int[capacity * META_STRIDE];
    }

    /** A free buffer's handle with its metadata cleared, or -1 when none is left. */
    public int alloc() {
        if (closed) throw closedException();
        if (top == 0) return -1;
        int h = free[--top];
        meta[h * META_STRIDE + LENGTH] = 0;
        meta[h * META_STRIDE + FLAGS] = 0;
        return h;
    }

    /** Up to {@code n} buffers into {@code out[0..]}; returns how many (all or none would force callers to loop). */
    public int alloc(int[] out, int n) {
        if (closed) throw closedException();
        // The stack top in a local, stored once: a field store per buffer otherwise (C2 does not sink it out of the loop).
        final int[] free = this.free;
        final int[] meta = this.meta;
        int top = this.top;
        int got = Math.min(n, top);
        for (int i = 0; i < got; i++) {
            int h = free[--top];
            meta[h * META_STRIDE + LENGTH] = 0;
            meta[h * META_STRIDE + FLAGS] = 0;
            out[i] = h;
        }
        this.top = top;
        return got;
    }

    public void free(int handle) {
        if (closed) throw closedException();
        if (top == capacity) throw new IllegalStateException("pool is full: buffer " + handle + " freed twice");
        free[top++] = handle;
    }

    /** Returns {@code handles[offset .. offset + n)} to the pool (all of them, or none when that would overfill it). */
    public void free(int[] handles, int offset, int n) {
        if (closed) throw closedException();
        final int[] free = this.free;
        int top = this.top;
        if (n > capacity - top) throw new IllegalStateException("pool is full: " + n + " buffers freed with room for " + (capacity - top) + " (a buffer freed twice)");
        for (int i = 0; i < n; i++) free[top++] = handles[offset + i];
        this.top = top;
    }

    /** Buffer {@code h}'s frame length in bytes. */
    public int length(int h) {
        return meta[h * META_STRIDE + LENGTH];
    }

    public void setLength(int h, int length) {
        meta[h * META_STRIDE + LENGTH] = length;
    }

    /** Buffer {@code h}'s {@link PacketFlags}. */
    public int flags(int h) {
        return meta[h * META_STRIDE + FLAGS];
    }

    public void setFlags(int h, int flags) {
        meta[h * META_STRIDE + FLAGS] = flags;
    }

    /** Buffer {@code h}'s RSS hash (RX). */
    public int rssHash(int h) {
        return meta[h * META_STRIDE + RSS_HASH];
    }

    /** Buffer {@code h}'s VLAN TCI (16 bits). */
    public int vlanTci(int h) {
        return meta[h * META_STRIDE + VLAN_MSS] & 0xffff;
    }

    /** Sets buffer {@code h}'s VLAN TCI (16 bits), keeping its MSS. */
    public void setVlanTci(int h, int tci) {
        int i = h * META_STRIDE + VLAN_MSS;
        meta[i] = (meta[i] & 0xffff0000) | (tci & 0xffff);
    }

    /** Buffer {@code h}'s LSO MSS (16 bits). */
    public int mss(int h) {
        return meta[h * META_STRIDE + VLAN_MSS] >>> 16;
    }

    /** Sets buffer {@code h}'s LSO MSS (16 bits), keeping its VLAN TCI. */
    public void setMss(int h, int mss) {
        int i = h * META_STRIDE + VLAN_MSS;
        meta[i] = (meta[i] & 0xffff) | (mss << 16);
    }

    /** Buffers currently free. */
    public int available() {
        return top;
    }

    public int capacity() {
        return capacity;
    }

    public int bufferSize() {
        return bufferSize;
    }

    /** The whole region (buffer {@code h} starts at {@link #offset(int)}). */
    public MemorySegment memory() {
        return memory;
    }

    public long offset(int handle) {
        return (long) handle * bufferSize;
    }

    /** Buffer {@code h}'s bytes (a slice; for tests and set-up code, the datapath uses {@link #memory()} and offsets). */
    public MemorySegment buffer(int handle) {
        return memory.asSlice(offset(handle), bufferSize);
    }

    /** The address of buffer {@code h} as the device sees it through {@link #lkey()}. */
    public long deviceAddress(int handle) {
        return addressBase + (long) handle * bufferSize;
    }

    public int lkey() {
        return lkey;
    }

    /** The device address of byte 0 of the region through {@link #lkey()} (see {@link #deviceAddress(int)}). */
    long addressBase() {
        return addressBase;
    }

    /** The free stack itself ({@link #top} entries valid), for the queues' bulk alloc and free. */
    int[] freeStack() {
        return free;
    }

    /** The region's bus address (what a KLM entry through a PA mkey points at). */
    public long busAddress() {
        return region.busAddress();
    }

    public long byteSize() {
        return region.size();
    }

    /**
     * From now on the device reaches this pool through {@code key}, at which byte 0 of the region has
     * address {@code base} (e.g. an indirect mkey registered by UMR over the region).
     */
    public void useKey(int key, long base) {
        this.lkey = key;
        this.addressBase = base;
    }

    /** Whether {@link #close} was called. */
    public boolean isClosed() {
        return closed;
    }

    IllegalStateException closedException() {
        return new IllegalStateException("the packet pool is closed");
    }

    /**
     * Ends the pool's use. A pool {@link #open}ed on a port keeps its memory until the port has
     * destroyed its queues (at once when the port is closed already); any other pool frees it now.
     */
    @Override
    public void close() {
        closed = true;
        if (port == null || port.isClosed()) region.close();
    }

    /** The port stops its queues: nothing to do, the device may still hold buffers. */
    @Override
    public void detach() {}

    /** The port's queues are destroyed: no device access can reach the buffers any more. */
    @Override
    public void release() {
        closed = true;
        region.close();
    }
}

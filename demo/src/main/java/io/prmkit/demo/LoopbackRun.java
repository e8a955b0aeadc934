package io.prmkit.demo;

import io.prmkit.driver.dp.PacketFlags;
import io.prmkit.driver.dp.PacketPool;
import io.prmkit.driver.dp.RxQueue;
import io.prmkit.driver.dp.TxQueue;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * One queue pair's share of a loopback run: sends frame ids {@code first, first + stride, ...}
 * ({@code count} of them) built by a {@link TrafficMix}, receives whatever RSS steers to its RQ and
 * checks it byte for byte with a {@link WireCheck}; optionally sends some frames from a
 * UMR-registered pool and one deliberately bad WQE, recovered from. Nothing is allocated per packet.
 * Run {@link #run()} on one thread per queue pair; the runs share {@code progress} (frames checked)
 * to know when every expected frame has arrived.
 */
public final class LoopbackRun implements Runnable {
    public static final int BURST = 32;
    /**
     * Empty turns (nothing sent, nothing received) a queue thread spins through before it yields its
     * core. With more queue threads than cores, threads that spin while they wait for frames take the
     * CPU the device thread needs to move them: 4 queues on 2 cores ran at 0.05 Mpps without yielding.
     */
    static final int IDLE_SPINS = 64;
    /** Empty turns after which a queue thread sleeps a little between polls instead of yielding. */
    static final int IDLE_YIELDS = 1024;
    static final long IDLE_PARK_NANOS = 20_000;
    /**
     * Frames sent before the bad WQE: early, while the datapath still runs in the interpreter and C1,
     * so its error paths (the device's DMA fault and error CQE, the driver's recovery) are in the
     * profiles C2 compiles from. Sent halfway, it was the first use of those paths in compiled code:
     * uncommon traps threw SendQueueEngine.send, ReceiveQueueEngine.deliver, TxQueue.sendPlain and a
     * dozen more away (-XX:+PrintCompilation) and C2 compiled them again inside the measured second
     * half. Default demo, three alternating runs each: second-half rate 1.43-1.88 Mpps at half, 2.71-3.18
     * at 2048 (3 December).
     */
    static final int BAD_WQE_AT = 2048;

    private final TxQueue tx;
    private final RxQueue rx;
    private final PacketPool txPool;
    private final TrafficMix mix;
    private final WireCheck check;
    private final int first;
    private final int stride;
    private final int count;
    private final AtomicLong progress;
    private final long expectedTotal;
    private final long idleTimeoutNanos;
    private AtomicLong sentWire;
    private int window = Integer.MAX_VALUE;
    private PacketPool umrPool;
    private int umrFrames;
    private PacketPool badPool;
    private final int[] bufs = new int[BURST];
    private final int[] rxBufs = new int[BURST];
    private long sentFrames;
    private long nanos;
    /** The allocation window: opens when {@code next} reaches allocFrom (and the bad WQE is done), closes with the last send. */
    private int allocFrom = -1;
    private long allocStart = -1;
    private long allocBytes = -1;
    private long allocSent;
    private long allocReceived;
    /** Frames received by this run's thread; the time and that count when the allocation window opened. */
    private long received;
    private long windowOpenNanos = -1;
    private long receivedAtOpen;
    private long windowNanos = -1;
    private volatile Throwable failure;

    /**
     * @param expectedTotal wire frames all runs together expect (the sum of {@link WireCheck#expectedFrames()})
     * @param idleTimeoutNanos give up when nothing arrives for this long (frames then count as lost)
     */
    public LoopbackRun(TxQueue tx, RxQueue rx, PacketPool txPool, TrafficMix mix, WireCheck check, int first, int stride, int count,
                       AtomicLong progress, long expectedTotal, long idleTimeoutNanos) {
        this.tx = tx;
        this.rx = rx;
        this.txPool = txPool;
        this.mix = mix;
        this.check = check;
        this.first = first;
        this.stride = stride;
        this.count = count;
        this.progress = progress;
        this.expectedTotal = expectedTotal;
        this.idleTimeoutNanos = idleTimeoutNanos;
    }

    /** Ids of this run's expected frames, for {@link WireCheck#sent} before the run starts. */
    public static void expect(WireCheck check, int first, int stride, int count) {
        for (int i = 0; i < count; i++) check.sent(first + i * stride);
    }

    /**
     * Flow control for a loopback without pause frames: all runs together keep at most
     * {@code frames} wire frames sent and not yet received ({@code sent} is shared), so no RQ can
     * run out of WQEs even if RSS sends everything to one (keep it below the RQ size).
     */
    public LoopbackRun withWindow(AtomicLong sent, int frames) {
        this.sentWire = sent;
        this.window = frames;
        return this;
    }

    /** The first {@code frames} frames go out of {@code pool} (registered by UMR beforehand). */
    public LoopbackRun withUmrPool(PacketPool pool, int frames) {
        this.umrPool = pool;
        this.umrFrames = frames;
        return this;
    }

    /**
     * After {@link #BAD_WQE_AT} frames (halfway through a shorter run), one WQE from {@code pool} (whose
     * lkey no mkey has) must fail and be recovered from.
     */
    public LoopbackRun withBadWqe(PacketPool pool) {
        this.badPool = pool;
        return this;
    }

    /**
     * Counts what this run's thread allocates from the moment {@code fromFrame} frames have been sent
     * (and the bad WQE, if any, has been recovered from: the recovery builds its error text) to its
     * last send, receiving and checking included; see {@link #allocatedBytes()}. Frames before that
     * point are the warm-up.
     */
    public LoopbackRun withAllocationWindow(int fromFrame) {
        if (!ThreadAllocation.supported()) throw new IllegalStateException("this JVM does not count allocated bytes per thread");
        this.allocFrom = fromFrame;
        return this;
    }

    @Override
    public void run() {
        try {
            long start = System.nanoTime();
            int next = 0;
            long lastArrival = start;
            int idle = 0;
            while (true) {
                int sentNow = 0;
                boolean room = sentWire == null || sentWire.get() - progress.get() <= window - BURST * TrafficMix.MAX_WIRE_FRAMES;
                if (next < count && room) {
                    int badAt = Math.min(count / 2, BAD_WQE_AT);
                    if (badPool != null && next >= badAt) {
                        sendBad();
                        badPool = null;
                    }
                    PacketPool pool = umrPool != null && next < umrFrames ? umrPool : txPool;
                    int limit = Math.min(BURST, count - next);
                    if (pool == umrPool) limit = Math.min(limit, umrFrames - next);
                    // the burst stops where the bad WQE goes: a run of one burst (32 frames) has no later burst to send it in
                    if (badPool != null) limit = Math.min(limit, badAt - next);
                    int n = pool.alloc(bufs, limit);
                    for (int i = 0; i < n; i++) mix.build(pool, bufs[i], first + (next + i) * stride);
                    int sent = n == 0 ? 0 : pool == txPool ? tx.send(pool, bufs, 0, n) : sendByPointer(pool, bufs, n);
                    for (int i = sent; i < n; i++) pool.free(bufs[i]);
                    if (sentWire != null) {
                        int wire = 0;
                        for (int i = 0; i < sent; i++) wire += mix.wireFrames(first + (next + i) * stride);
                        sentWire.addAndGet(wire);
                    }
                    if (allocStart >= 0 && allocBytes < 0) allocSent += sent;
                    next += sent;
                    sentNow = sent;
                    if (n == 0) tx.reap();
                    if (allocStart < 0 && allocFrom >= 0 && next >= allocFrom && badPool == null) {
                        allocStart = ThreadAllocation.current();
                        windowOpenNanos = System.nanoTime();
                        receivedAtOpen = received;
                    } else if (allocStart >= 0 && allocBytes < 0 && next >= count) {
                        // Closed with the last send, before the loop turns to draining: that turn runs code
                        // the JIT has not seen yet (interpreted once, which may allocate a little, once).
                        allocBytes = ThreadAllocation.current() - allocStart;
                    }
                } else {
                    tx.reap();
                }
                int got = rx.receive(rxBufs, BURST);
                PacketPool rp = rx.pool();
                for (int i = 0; i < got; i++) {
                    int h = rxBufs[i];
                    int tci = (rp.flags(h) & PacketFlags.RX_VLAN_STRIPPED) != 0 ? rp.vlanTci(h) : -1;
                    check.check(rp.memory(), rp.offset(h), rp.length(h), tci);
                    rp.free(h);
                }
                long now = System.nanoTime();
                if (got > 0) {
                    received += got;
                    progress.addAndGet(got);
                    lastArrival = now;
                    if (allocStart >= 0 && allocBytes < 0) allocReceived += got;
                }
                if (next >= count && progress.get() >= expectedTotal) break;
                if (next >= count && now - lastArrival > idleTimeoutNanos) break;
                if (got > 0 || sentNow > 0) {
                    idle = 0;
                } else if (++idle < IDLE_SPINS) {
                    Thread.onSpinWait();
                } else if (idle < IDLE_YIELDS) {
                    Thread.yield();
                } else {
                    LockSupport.parkNanos(IDLE_PARK_NANOS);
                }
            }
            // What is still in flight comes back to the pools.
            long end = System.nanoTime() + idleTimeoutNanos;
            while (tx.inFlight() > 0 && System.nanoTime() < end) {
                tx.reap();
                Thread.onSpinWait();
            }
            long done = System.nanoTime();
            nanos = done - start;
            if (windowOpenNanos >= 0) windowNanos = done - windowOpenNanos;
            sentFrames = next;
        } catch (Throwable t) {
            failure = t;
        }
    }

    /**
     * The bad WQE goes alone: every earlier WQE completed, so the flush that follows the error
     * (flush_in_error_en) takes nothing else with it; then reap until the queue has recovered.
     */
    private void sendBad() {
        long end = System.nanoTime() + idleTimeoutNanos;
        while (tx.inFlight() > 0 && System.nanoTime() < end) tx.reap();
        end = System.nanoTime() + idleTimeoutNanos;
        int h = badPool.alloc();
        mix.build(badPool, h, first);
        bufs[0] = h;
        long before = tx.recoveries();
        if (sendByPointer(badPool, bufs, 1) != 1) {
            badPool.free(h);
            return;
        }
        while (tx.recoveries() == before && System.nanoTime() < end) {
            tx.reap();
            Thread.onSpinWait();
        }
    }

    /**
     * Sends with a data segment whatever the frames' length: a frame carried whole inside the WQE has
     * no key for the device to use, so the UMR pool's mkey and the bad WQE's missing one would go
     * unread.
     */
    private int sendByPointer(PacketPool pool, int[] handles, int n) {
        int keep = tx.inlineMax();
        tx.inlineMax(0);
        try {
            return tx.send(pool, handles, 0, n);
        } finally {
            tx.inlineMax(keep);
        }
    }

    /** Packets handed to the SQ (the bad WQE not counted). */
    public long sentPackets() {
        return sentFrames;
    }

    /** Bytes this run's thread allocated in its allocation window; -1 when the window did not open and close (or none was asked for). */
    public long allocatedBytes() {
        return allocBytes;
    }

    /** Packets sent in the allocation window. */
    public long allocationWindowSent() {
        return allocSent;
    }

    /** Packets received (on this run's RQ, whichever queue sent them) in the allocation window. */
    public long allocationWindowReceived() {
        return allocReceived;
    }

    /**
     * Wall time from the opening of the allocation window (half the sends done: the datapath is
     * compiled by then) to the end of this run's traffic; -1 without a window.
     */
    public long windowNanos() {
        return windowNanos;
    }

    /** Frames this run's thread received from the opening of the allocation window on. */
    public long windowFrames() {
        return windowNanos < 0 ? 0 : received - receivedAtOpen;
    }

    /** Wall time of this run's traffic. */
    public long nanos() {
        return nanos;
    }

    /** What went wrong on this run's thread, or null. */
    public Throwable failure() {
        return failure;
    }
}

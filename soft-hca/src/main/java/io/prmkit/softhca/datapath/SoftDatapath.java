package io.prmkit.softhca.datapath;

import io.prmkit.mlx5.CqArmDoorbell;
import io.prmkit.mlx5.CqeRssIp;
import io.prmkit.mlx5.CqeRssL4;
import io.prmkit.mlx5.EqDoorbell;
import io.prmkit.mlx5.Eqe;
import io.prmkit.mlx5.EqeType;
import io.prmkit.mlx5.PortChangeSubtype;
import io.prmkit.mlx5.RxHashFieldSelect;
import io.prmkit.mlx5.RxHashFields;
import io.prmkit.mlx5.RxHashFn;
import io.prmkit.mlx5.TirDispType;
import io.prmkit.mlx5.Tirc;
import io.prmkit.mlx5.UarPage;
import io.prmkit.net.Iphdr;
import io.prmkit.net.Ipv6hdr;
import io.prmkit.softhca.device.Datapath;
import io.prmkit.softhca.device.DeviceContext;
import io.prmkit.softhca.device.Resources;
import io.prmkit.softhca.device.Queues;
import io.prmkit.softhca.wire.FrameSink;
import io.prmkit.softhca.wire.ParsedFrame;
import io.prmkit.softhca.wire.Port;
import io.prmkit.softhca.wire.Toeplitz;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The soft HCA's datapath: doorbells in, WQEs executed, frames out on the port, frames in through
 * steering into RQs, CQEs and completion events back. Doorbells arrive on the driver's thread
 * ({@link #uarWrite}) and are only recorded; the work runs on the device thread in {@link #poll}
 * (in step mode, inside the test's step). An SQ doorbell starts every SQ whose doorbell record
 * moved past what the device executed (at most {@link #BUDGET} WQEs per SQ per poll); CQ arm and EQ
 * doorbells are applied in the order written.
 *
 * <p>Frames from the wire arrive in {@link #receive}: on the device thread for a loopback wire, and
 * are then received at once; from the peer device's thread for a joined wire, and are then copied
 * into an inbox of {@link #INBOX_SLOTS} frames that this device's thread drains in its next poll (a
 * full inbox drops the frame, counted as a port discard), so all of a device's work stays on its own
 * thread.
 */
public final class SoftDatapath implements Datapath, FrameSink {
    /** WQEs one SQ may execute per poll before others get a turn. */
    public static final int BUDGET = 256;
    /** Frames a joined peer may have in flight to this device before they are dropped. */
    public static final int INBOX_SLOTS = 512;
    private static final int SLOT = 16 + Port.MAX_MTU + 64;
    private static final long CQ_DOORBELL = UarPage.cq_doorbell$BYTE_OFFSET;
    private static final long EQ_ARM = UarPage.eq_doorbell_arm$BYTE_OFFSET;
    private static final long EQ_NO_ARM = UarPage.eq_doorbell_no_arm$BYTE_OFFSET;
    private static final long BLUEFLAME = UarPage.bf_registers$BYTE_OFFSET;

    private final DeviceContext ctx;
    private final Port port;
    /** What the device sets on its port: MTU (PMTU) and admin state (PAOS). */
    private final Port.DeviceSide portSide;
    private final MemoryAccess mem;
    private final Counters counters;
    private final Steering steering;
    private final ParsedFrame rxParsed = new ParsedFrame();
    private final ReentrantLock lock = new ReentrantLock();
    private final Map<Integer, SendQueueEngine> sqEngines = new HashMap<>();
    private final Map<Integer, ReceiveQueueEngine> rqEngines = new HashMap<>();
    private final Map<Integer, CqState> cqStates = new HashMap<>();
    /** CQs with a compressed session held in this poll. */
    private final CqState.Sessions sessions = new CqState.Sessions();
    private final Map<Integer, TirState> tirStates = new HashMap<>();
    // Doorbells recorded on the driver's thread: kind and value, in order (a small ring under a lock).
    private final long[] pending = new long[2048];
    private int pendingHead;
    private int pendingCount;
    /**
     * Whether an SQ doorbell rang since the last poll: element {@link #RUNG} of an array of its own, so
     * the driver's store (once per burst, on its core) takes no cache line that holds fields the device
     * thread reads per frame (the fields of this object do).
     */
    private final int[] sqRung = new int[2 * RUNG + 1];
    private static final int RUNG = 16; // 64 bytes of ints on either side
    private static final java.lang.invoke.VarHandle RUNG_VH = java.lang.invoke.MethodHandles.arrayElementVarHandle(int[].class);
    private final MemorySegment word = Arena.ofAuto().allocate(8, 8);
    private static final java.lang.foreign.ValueLayout.OfLong BE64 =
            java.lang.foreign.ValueLayout.JAVA_LONG.withOrder(java.nio.ByteOrder.BIG_ENDIAN);
    private static final java.lang.foreign.ValueLayout.OfInt BE32 =
            java.lang.foreign.ValueLayout.JAVA_INT.withOrder(java.nio.ByteOrder.BIG_ENDIAN);
    private long rxDropped;
    // Lookups kept while DeviceObjects.generation() stays the same (no command ran since).
    private int seenGeneration = -1;
    private int lastTirn = -1;
    private TirState lastTir;
    private int lastRqn = -1;
    private ReceiveQueueEngine lastRq;
    /** The SQs' engines, in the registry's order (rebuilt when a command ran). */
    private SendQueueEngine[] sqList;
    private final java.util.concurrent.ConcurrentLinkedQueue<Boolean> linkEvents = new java.util.concurrent.ConcurrentLinkedQueue<>();
    private volatile MemorySegment inbox;
    private final java.util.concurrent.atomic.AtomicLong inHead = new java.util.concurrent.atomic.AtomicLong();
    private final java.util.concurrent.atomic.AtomicLong inTail = new java.util.concurrent.atomic.AtomicLong();
    /** Error injection set by {@link #failWqe}: SQ number, WQEs to let pass, syndrome. */
    private final Map<Integer, long[]> injections = new HashMap<>();
    private long vportFiltered;

    public SoftDatapath(DeviceContext ctx, Port port) {
        this.ctx = ctx;
        this.port = port;
        this.mem = new MemoryAccess(ctx.objects(), ctx.iommu());
        this.counters = new Counters(ctx.objects().vportCounters);
        this.steering = new Steering(ctx.objects());
        portSide = port.attachDevice(this, this::linkChanged);
        ctx.objects().port.setLinkUp(port.linkUp());
        ctx.objects().port.setCounters(port.counters()); // PPCNT reads the wire port's counters
    }

    public Port port() {
        return port;
    }

    /** The wire port's carrier changes become port change events ({@link #linkChanged}). */
    @Override
    public boolean setCarrier(boolean up) {
        io.prmkit.softhca.wire.Wire w = port.wire();
        if (w == null) return false;
        w.setCarrier(up);
        return true;
    }

    /**
     * Sends a line per compressed CQE session written, and per failed WQE its syndrome and control
     * segment, to {@code sink} (the device's trace; null: none).
     */
    @Override
    public void trace(java.util.function.Consumer<String> sink) {
        sessions.trace = sink;
    }

    // ---- doorbells (driver thread) ----

    @Override
    public void uarWrite(int uarIndex, long offset, long value, int bytes) {
        if (offset >= BLUEFLAME) {
            RUNG_VH.setVolatile(sqRung, RUNG, 1);
        } else if (offset == CQ_DOORBELL || offset == EQ_ARM || offset == EQ_NO_ARM) {
            synchronized (pending) {
                if (pendingCount + 2 <= pending.length) {
                    int tail = (pendingHead + pendingCount) % pending.length;
                    pending[tail] = offset << 8 | bytes;
                    pending[(tail + 1) % pending.length] = value;
                    pendingCount += 2;
                }
            }
        } else {
            return;
        }
        ctx.wake();
    }

    // ---- device thread ----

    @Override
    public boolean poll() {
        lock.lock();
        try {
            revalidate();
            boolean did = drainDoorbells();
            syncPort();
            did |= drainLinkEvents();
            did |= drainInbox();
            if ((int) RUNG_VH.getVolatile(sqRung, RUNG) != 0) {
                RUNG_VH.setVolatile(sqRung, RUNG, 0);
                if (sqList == null) {
                    java.util.List<Queues.Sq> sqs = ctx.objects().sqs();
                    sqList = new SendQueueEngine[sqs.size()];
                    for (int i = 0; i < sqList.length; i++) sqList[i] = sqEngine(sqs.get(i));
                }
                for (SendQueueEngine e : sqList) {
                    int n = e.process(BUDGET);
                    if (n > 0) did = true;
                    if (n == BUDGET) RUNG_VH.setVolatile(sqRung, RUNG, 1); // more to do: come back
                }
            }
            return did;
        } finally {
            // Compressed sessions end with the pass: the driver never waits for a held completion.
            sessions.flushAll();
            lock.unlock();
        }
    }

    private boolean drainDoorbells() {
        boolean did = false;
        while (true) {
            long kind;
            long value;
            synchronized (pending) {
                if (pendingCount == 0) return did;
                kind = pending[pendingHead];
                value = pending[(pendingHead + 1) % pending.length];
                pendingHead = (pendingHead + 2) % pending.length;
                pendingCount -= 2;
            }
            did = true;
            long offset = kind >>> 8;
            int bytes = (int) (kind & 0xff);
            if (offset == CQ_DOORBELL && bytes == 8) {
                word.set(BE64, 0, value);
                CqState c = cqState(CqArmDoorbell.cqn(word));
                if (c != null) c.arm(CqArmDoorbell.consumer_index(word));
            } else if (offset == EQ_ARM || offset == EQ_NO_ARM) {
                word.set(BE32, 0, (int) (bytes == 8 ? value >>> 32 : value));
                ctx.events().doorbell(EqDoorbell.eqn(word), EqDoorbell.consumer_index(word), offset == EQ_ARM);
            }
        }
    }

    /** The port follows the control path's PMTU and PAOS settings. */
    private void syncPort() {
        var p = ctx.objects().port;
        if (p.adminMtu() != port.mtu() && p.adminMtu() >= Port.MIN_MTU && p.adminMtu() <= Port.MAX_MTU) portSide.setMtu(p.adminMtu());
        boolean up = p.adminStatus() == 1;
        if (up != port.adminUp()) portSide.setAdminUp(up);
    }

    private SendQueueEngine sqEngine(Queues.Sq sq) {
        SendQueueEngine e = sqEngines.get(sq.sqn);
        if (e == null || e.sq != sq) {
            e = new SendQueueEngine(sq, ctx, mem, port, counters, null);
            e.trace = sessions.trace;
            sqEngines.put(sq.sqn, e);
            long[] inj = injections.remove(sq.sqn);
            if (inj != null) {
                e.injectAt = inj[0];
                e.injectSyndrome = (int) inj[1];
            }
        }
        e.cq = cqState(io.prmkit.mlx5.Sqc.cqn(sq.sqc));
        return e;
    }

    private CqState cqState(int cqn) {
        Queues.Cq cq = ctx.objects().cq(cqn);
        if (cq == null) return null;
        CqState s = cqStates.get(cqn);
        if (s == null || s.cq != cq) {
            s = new CqState(cq, ctx, sessions);
            cqStates.put(cqn, s);
        }
        return s;
    }

    private ReceiveQueueEngine rqEngine(int rqn) {
        Queues.Rq rq = ctx.objects().rq(rqn);
        if (rq == null) return null;
        ReceiveQueueEngine e = rqEngines.get(rqn);
        if (e == null || e.rq != rq) {
            e = new ReceiveQueueEngine(rq, ctx, mem, null);
            rqEngines.put(rqn, e);
        }
        e.cq = cqState(io.prmkit.mlx5.Rqc.cqn(rq.rqc));
        return e;
    }

    // ---- receive ----

    @Override
    public void receive(Port from, MemorySegment frame, long off, int len) {
        receive(from, frame, off, len, ParsedFrame.dmac(frame, off));
    }

    @Override
    public void receive(Port from, MemorySegment frame, long off, int len, long dmac) {
        if (lock.isHeldByCurrentThread()) {
            rx(frame, off, len, dmac); // loopback: we are the device thread
            return;
        }
        // From a joined peer's thread (one producer per port): into the inbox for our own thread.
        if (inbox == null) {
            synchronized (inHead) {
                if (inbox == null) inbox = Arena.ofAuto().allocate((long) SLOT * INBOX_SLOTS, 64);
            }
        }
        long t = inTail.get();
        if (t - inHead.get() >= INBOX_SLOTS || len > SLOT - 16) {
            port.counters().countRxDiscard();
            return;
        }
        long at = (t % INBOX_SLOTS) * SLOT;
        inbox.set(java.lang.foreign.ValueLayout.JAVA_INT, at, len);
        MemorySegment.copy(frame, off, inbox, at + 16, len);
        inTail.set(t + 1);
        ctx.wake();
    }

    private boolean drainInbox() {
        MemorySegment in = inbox;
        if (in == null) return false;
        boolean did = false;
        for (long h = inHead.get(); h != inTail.get(); h++) {
            long at = (h % INBOX_SLOTS) * SLOT;
            rx(in, at + 16, in.get(java.lang.foreign.ValueLayout.JAVA_INT, at), ParsedFrame.dmac(in, at + 16));
            inHead.set(h + 1);
            did = true;
        }
        return did;
    }

    /** Forgets cached lookups when a command may have changed the objects. */
    private void revalidate() {
        int g = ctx.objects().generation();
        if (g == seenGeneration) return;
        seenGeneration = g;
        lastTirn = -1;
        lastTir = null;
        lastRqn = -1;
        lastRq = null;
        sqList = null;
        tirStates.clear();
        steering.invalidate();
    }

    private void rx(MemorySegment frame, long off, int len, long dmac) {
        if (!ctx.objects().port.accepts(dmac)) {
            // Not for this vport (its MACs and promiscuous modes): dropped before steering.
            vportFiltered++;
            port.counters().countRxDiscard();
            return;
        }
        revalidate();
        ParsedFrame f = rxParsed.parse(frame, off, len, true);
        steering.frame(f, frame, off);
        steering.flowTag = 0;
        if (!steering.lookup()) {
            rxDropped++;
            port.counters().countRxDiscard();
            return;
        }
        TirState t;
        if (steering.tirn == lastTirn) {
            t = lastTir;
        } else {
            t = tirState(steering.tirn);
            lastTirn = steering.tirn;
            lastTir = t;
        }
        if (t == null) {
            rxDropped++;
            port.counters().countRxDiscard();
            return;
        }
        int rqn;
        int hash = 0;
        if (t.indirect) {
            Resources.Rqt rqt = t.rqt;
            if (rqt == null || rqt.size() == 0) {
                rxDropped++;
                port.counters().countRxDiscard();
                return;
            }
            hash = t.hash(f, frame, off);
            int n = rqt.size();
            rqn = rqt.rqn((n & (n - 1)) == 0 ? hash & (n - 1) : Integer.remainderUnsigned(hash, n));
        } else {
            rqn = t.rqn;
        }
        ReceiveQueueEngine e;
        if (rqn == lastRqn) {
            e = lastRq;
        } else {
            e = rqEngine(rqn);
            lastRqn = rqn;
            lastRq = e;
        }
        if (e == null || !e.deliver(frame, off, len, f, hash, t.lastIp, t.lastL4, steering.flowTag)) {
            rxDropped++;
            port.counters().countRxDiscard();
            return;
        }
        counters.countRx(dmac, len);
    }

    private TirState tirState(int tirn) {
        Resources.Tir tir = ctx.objects().tir(tirn);
        if (tir == null) return null;
        TirState s = tirStates.get(tirn);
        if (s == null || s.tir != tir) {
            s = new TirState(tir, ctx.objects());
            tirStates.put(tirn, s);
        }
        return s;
    }

    /**
     * A TIR's dispatch, read once from its context: direct RQ, or RQT with its hash. The hash functions
     * are the PRM's: TOEPLITZ over the selected fields (with {@code rx_hash_symmetric}, each selected
     * address pair and port pair is fed smaller first, so both directions of a flow hash alike: the
     * PRM asks only for that property, the ordering is this model's way to get it), and INVERTED_XOR8:
     * the XOR of the selected bytes, bit-reversed (Linux's mlx5e_bits_invert undoes that reversal
     * when it fills an RQT for ETH_RSS_HASH_XOR). Selected fields: source and destination address,
     * L4 ports of the selected protocol, and the IPsec SPI (ESP, or AH's SPI at its offset 4).
     */
    private static final class TirState {
        static final int PROTO_ESP = 50;
        static final int PROTO_AH = 51;
        final Resources.Tir tir;
        final boolean indirect;
        final int rqn;
        final int rqtn;
        /** The RQT, resolved when the state is built (states are dropped when a command runs). */
        final Resources.Rqt rqt;
        final int fn;
        final Toeplitz toeplitz;
        final boolean symmetric;
        final boolean ipv6;
        final boolean udp;
        final int fields;
        int lastIp;
        int lastL4;

        TirState(Resources.Tir tir, io.prmkit.softhca.device.DeviceObjects objects) {
            this.tir = tir;
            MemorySegment c = tir.tirc();
            indirect = Tirc.disp_type(c) == TirDispType.INDIRECT$VALUE;
            rqn = Tirc.inline_rqn(c);
            rqtn = Tirc.indirect_table(c);
            rqt = indirect ? objects.rqt(rqtn) : null;
            fn = indirect ? Tirc.rx_hash_fn(c) : RxHashFn.NONE$VALUE;
            if (fn == RxHashFn.TOEPLITZ$VALUE) {
                byte[] key = new byte[Tirc.rx_hash_toeplitz_key$COUNT * 4];
                MemorySegment.copy(c, Tirc.rx_hash_toeplitz_key$BYTE_OFFSET, MemorySegment.ofArray(key), 0, key.length);
                toeplitz = new Toeplitz(key);
            } else {
                toeplitz = null;
            }
            symmetric = Tirc.rx_hash_symmetric(c);
            long sel = Tirc.rx_hash_field_selector_outer$BYTE_OFFSET;
            ipv6 = RxHashFieldSelect.l3_prot_type(c, sel);
            udp = RxHashFieldSelect.l4_prot_type(c, sel);
            fields = RxHashFieldSelect.selected_fields(c, sel);
        }

        /** Continues the hash with {@code len} bytes at {@code at}, which sit at input position {@code pos}. */
        private int feed(int h, int pos, MemorySegment fr, long at, int len) {
            if (toeplitz != null) return toeplitz.hash(h, pos, fr, at, len);
            for (int i = 0; i < len; i++) h ^= fr.get(java.lang.foreign.ValueLayout.JAVA_BYTE, at + i) & 0xff;
            return h;
        }

        private int feed16(int h, int pos, int v) {
            return toeplitz != null ? toeplitz.hash16(h, pos, v) : h ^ (v >>> 8) ^ (v & 0xff);
        }

        /** Whether the {@code len}-byte address at {@code a} is above the one at {@code b} (unsigned, network order). */
        private static boolean above(MemorySegment fr, long a, long b, int len) {
            for (int i = 0; i < len; i++) {
                int x = fr.get(java.lang.foreign.ValueLayout.JAVA_BYTE, a + i) & 0xff;
                int y = fr.get(java.lang.foreign.ValueLayout.JAVA_BYTE, b + i) & 0xff;
                if (x != y) return x > y;
            }
            return false;
        }

        /** The hash over the selected fields, when the frame is of the selected L3 type; 0 otherwise. */
        int hash(ParsedFrame f, MemorySegment fr, long off) {
            lastIp = CqeRssIp.NONE$VALUE;
            lastL4 = CqeRssL4.NONE$VALUE;
            if (fn == RxHashFn.NONE$VALUE || f.l3 != (ipv6 ? ParsedFrame.L3.IPV6 : ParsedFrame.L3.IPV4)) return 0;
            long l3 = off + f.l3Offset;
            int alen = ipv6 ? Ipv6hdr.saddr$LENGTH : (int) (Iphdr.saddr$BIT_WIDTH / 8);
            long src = l3 + (ipv6 ? Ipv6hdr.saddr$BYTE_OFFSET : Iphdr.saddr$BIT_OFFSET / 8);
            long dst = l3 + (ipv6 ? Ipv6hdr.daddr$BYTE_OFFSET : Iphdr.daddr$BIT_OFFSET / 8);
            boolean srcIp = (fields & RxHashFields.SRC_IP$MASK) != 0;
            boolean dstIp = (fields & RxHashFields.DST_IP$MASK) != 0;
            if (symmetric && srcIp && dstIp && above(fr, src, dst, alen)) {
                long t = src;
                src = dst;
                dst = t;
            }
            int h = 0;
            int pos = 0;
            if (srcIp) {
                h = feed(h, pos, fr, src, alen);
                pos += alen;
            }
            if (dstIp) {
                h = feed(h, pos, fr, dst, alen);
                pos += alen;
            }
            if (pos > 0) lastIp = ipv6 ? CqeRssIp.IPV6$VALUE : CqeRssIp.IPV4$VALUE;
            boolean sport = (fields & RxHashFields.L4_SPORT$MASK) != 0;
            boolean dport = (fields & RxHashFields.L4_DPORT$MASK) != 0;
            if (f.l4 == (udp ? ParsedFrame.L4.UDP : ParsedFrame.L4.TCP) && (sport || dport)) {
                int sp = f.srcPort;
                int dp = f.dstPort;
                if (symmetric && sport && dport && sp > dp) {
                    sp = f.dstPort;
                    dp = f.srcPort;
                }
                if (sport) {
                    h = feed16(h, pos, sp);
                    pos += 2;
                }
                if (dport) h = feed16(h, pos, dp);
                lastL4 = udp ? CqeRssL4.UDP$VALUE : CqeRssL4.TCP$VALUE;
            } else if ((fields & RxHashFields.IPSEC_SPI$MASK) != 0 && (f.ipProtocol == PROTO_ESP || f.ipProtocol == PROTO_AH) && f.l4 == ParsedFrame.L4.OTHER) {
                int at = f.l4Offset + (f.ipProtocol == PROTO_AH ? 4 : 0);
                if (at + 4 <= f.length) {
                    h = feed(h, pos, fr, off + at, 4);
                    lastL4 = CqeRssL4.IPSEC_SPI$VALUE;
                }
            }
            return fn == RxHashFn.INVERTED_XOR8$VALUE ? Integer.reverse(h & 0xff) >>> 24 : h;
        }
    }

    // ---- link ----

    /**
     * The port's link changed (possibly on the peer device's thread, for a joined wire): recorded
     * here, and turned into the PORT_CHANGE event on this device's thread at its next poll.
     */
    private void linkChanged(Port p, boolean up) {
        linkEvents.add(up);
        ctx.wake();
    }

    private boolean drainLinkEvents() {
        boolean did = false;
        for (Boolean up; (up = linkEvents.poll()) != null; ) {
            did = true;
            ctx.objects().port.setLinkUp(up);
            int num = port.number();
            int sub = (int) (up ? PortChangeSubtype.ACTIVE : PortChangeSubtype.DOWN).value;
            CqState.post(() -> ctx.events().post(EqeType.PORT_CHANGE$VALUE, sub, e -> Eqe.Device.port_num$set(e, num)));
        }
        return did;
    }

    // ---- faults and counters for tests and commands ----

    /**
     * Makes the {@code nth} WQE (1 = the next one) that SQ {@code sqn} executes from now on fail with
     * an error CQE of {@code syndrome} (vendor syndrome 0x7f), as a device fault would.
     */
    @Override
    public void failWqe(int sqn, long nth, int syndrome) {
        lock.lock();
        try {
            SendQueueEngine e = sqEngines.get(sqn);
            if (e != null && ctx.objects().sq(sqn) == e.sq) {
                e.injectAt = e.executed + nth;
                e.injectSyndrome = syndrome;
            } else {
                injections.put(sqn, new long[] {nth, syndrome});
            }
        } finally {
            lock.unlock();
        }
    }

    /** Frames from a joined peer this device has taken from its inbox, each one steered and delivered or dropped. */
    public long peerFramesTaken() {
        return inHead.get();
    }

    /** Frames the vport did not take (not to its MACs, no promiscuous mode for them). */
    public long vportFiltered() {
        return vportFiltered;
    }

    /** Frames received but dropped (no steering match, no TIR/RQ, no WQE). */
    public long rxDropped() {
        return rxDropped;
    }

    /** DMA faults the datapath met (also counted by the IOMMU). */
    public long dmaFaults() {
        return mem.dmaFaults;
    }
}

package io.prmkit.softhca.wire;

import static io.prmkit.softhca.wire.Ethernet.ETH_HLEN;
import static io.prmkit.softhca.wire.Ethernet.VLAN_HLEN;

import java.lang.foreign.MemorySegment;

/**
 * One Ethernet port of a device: link state, MTU, counters, and the wire it is plugged into. The
 * device transmits through {@link #transmit}; frames from the wire reach the device's {@link FrameSink}.
 * A port without a wire has no link. Link changes are reported to a {@link LinkListener} (the device
 * turns them into PORT_CHANGE events).
 *
 * <p>A device's port belongs to its datapath ({@link #attachDevice}, once): its sink, listener, MTU
 * and administrative state are then the device's to set, as PMTU and PAOS tell it, through the
 * {@link DeviceSide} only; the public setters refuse. A port a test or tool drives itself (the far
 * end of a cable) keeps them.
 */
public final class Port {
    /** Told when the port's operational link state changes. */
    @FunctionalInterface
    public interface LinkListener {
        void linkChanged(Port port, boolean up);
    }

    /** The frame check sequence every frame ends with on a cable (the model does not carry it). */
    public static final int FCS_LEN = 4;
    /**
     * What the hardware MTU (PMTU admin_mtu) adds to the IP MTU: Ethernet header, one VLAN tag and
     * the FCS, as Linux's MLX5E_SW2HW_MTU counts it.
     */
    public static final int HW_MTU_OVERHEAD = ETH_HLEN + VLAN_HLEN + FCS_LEN;
    /** Hardware MTU of a port nobody configured: IP MTU 1500. */
    public static final int DEFAULT_MTU = 1500 + HW_MTU_OVERHEAD;
    /** Smallest hardware MTU (ours): the IP minimum, 68 (RFC 791), plus the overhead. */
    public static final int MIN_MTU = 68 + HW_MTU_OVERHEAD;
    /** Largest hardware MTU the port accepts (PMTU max_mtu): 9600 is the model's choice. */
    public static final int MAX_MTU = 9600;

    private final int number;
    private final PortCounters counters = new PortCounters();
    private volatile int mtu = DEFAULT_MTU;
    private volatile boolean adminUp = true;
    private volatile boolean linkUp;
    private volatile Wire wire;
    private volatile FrameSink sink;
    private volatile LinkListener listener;
    /** The device that owns the port, or null: a port a test or tool drives. */
    private volatile DeviceSide device;

    public Port(int number) {
        this.number = number;
    }

    /** Port number, 1-based as the PRM counts them. */
    public int number() {
        return number;
    }

    public PortCounters counters() {
        return counters;
    }

    /**
     * The hardware MTU (PMTU admin_mtu): the largest frame the MAC sends or accepts, counting the
     * Ethernet header, any VLAN tags and the FCS.
     */
    public int mtu() {
        return mtu;
    }

    /** Sets the hardware MTU of a port no device owns (a device's follows PMTU). */
    public void setMtu(int mtu) {
        requireNoDevice("setMtu");
        mtu(mtu);
    }

    private void mtu(int mtu) {
        if (mtu < MIN_MTU || mtu > MAX_MTU) {
            throw new IllegalArgumentException("port " + number + ": hardware MTU " + mtu + " outside " + MIN_MTU + ".." + MAX_MTU);
        }
        this.mtu = mtu;
    }

    /** Largest frame, without its FCS, the port sends or accepts, whatever VLAN tags it carries. */
    public int maxFrame() {
        return mtu - FCS_LEN;
    }

    public boolean linkUp() {
        return linkUp;
    }

    public boolean adminUp() {
        return adminUp;
    }

    /** Administrative state of a port no device owns (a device's follows PAOS admin_status): a port taken down loses its link. */
    public void setAdminUp(boolean up) {
        requireNoDevice("setAdminUp");
        adminUp(up);
    }

    private void adminUp(boolean up) {
        adminUp = up;
        refreshLink();
    }

    public Wire wire() {
        return wire;
    }

    /** Where frames from the wire go, on a port no device owns (a test's far end of a cable). */
    public void setSink(FrameSink sink) {
        requireNoDevice("setSink");
        this.sink = sink;
    }

    /** Who hears of link changes, on a port no device owns. */
    public void setLinkListener(LinkListener listener) {
        requireNoDevice("setLinkListener");
        this.listener = listener;
    }

    /**
     * Hands the port to a device's datapath: frames from the wire go to {@code sink}, link changes to
     * {@code listener}, and MTU and administrative state are set through the returned side only.
     *
     * @throws IllegalStateException when a device owns the port already
     */
    public synchronized DeviceSide attachDevice(FrameSink sink, LinkListener listener) {
        if (device != null) throw new IllegalStateException("port " + number + " belongs to a device already");
        this.sink = sink;
        this.listener = listener;
        DeviceSide d = new DeviceSide();
        device = d;
        return d;
    }

    private void requireNoDevice(String what) {
        if (device != null) {
            throw new IllegalStateException("port " + number + " belongs to its device: " + what
                    + " would unhook it from the device's datapath (the device sets MTU and admin state from PMTU and PAOS; tap its wire to see frames)");
        }
    }

    /** What the device that owns a port may set on it: the MTU (PMTU) and the administrative state (PAOS). */
    public final class DeviceSide {
        private DeviceSide() {
        }

        public void setMtu(int mtu) {
            mtu(mtu);
        }

        public void setAdminUp(boolean up) {
            adminUp(up);
        }
    }

    void attach(Wire w) {
        if (wire != null && w != null) throw new IllegalStateException("port " + number + " is already plugged into a wire");
        wire = w;
        refreshLink();
    }

    /** Unplugs the port from its wire (the link goes down). */
    public void unplug() {
        Wire w = wire;
        if (w != null) w.unplug();
    }

    void refreshLink() {
        Wire w = wire;
        boolean up = adminUp && w != null && w.carrier();
        if (up == linkUp) return;
        linkUp = up;
        if (!up) counters.countLinkDown();
        LinkListener l = listener;
        if (l != null) l.linkChanged(this, up);
    }

    /**
     * Puts a finished frame (VLAN tags in place, checksums filled, padded) on the wire. Returns false,
     * counting a discard, when the link is down; the frame is then lost, as on a cable.
     */
    public boolean transmit(MemorySegment frame, long off, int len) {
        return transmit(frame, off, len, ParsedFrame.dmac(frame, off));
    }

    /** As {@link #transmit(MemorySegment, long, int)}, with the frame's destination MAC already read. */
    public boolean transmit(MemorySegment frame, long off, int len, long dmac) {
        Wire w = wire;
        if (!linkUp || w == null) {
            counters.countTxDiscard();
            return false;
        }
        counters.countTx(dmac, len);
        w.carry(this, frame, off, len);
        return true;
    }

    /** A frame arrives from the wire: the MAC checks it and hands it to the device. */
    void arrive(MemorySegment frame, long off, int len, boolean fcsBad) {
        counters.countRxSeen(len);
        if (fcsBad) {
            counters.countRxFcsError();
            return;
        }
        if (!linkUp) {
            counters.countRxDiscard();
            return;
        }
        if (len > maxFrame()) {
            counters.countRxTooLong();
            return;
        }
        long dmac = ParsedFrame.dmac(frame, off);
        counters.countRxGood(dmac, len);
        FrameSink s = sink;
        if (s == null) {
            counters.countRxDiscard();
            return;
        }
        s.receive(this, frame, off, len, dmac);
    }

    @Override
    public String toString() {
        return "port " + number + (linkUp ? " (link up, hardware MTU " : " (link down, hardware MTU ") + mtu + ")";
    }
}

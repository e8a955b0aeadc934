package io.prmkit.driver.eth;

import io.prmkit.driver.Mlx5Exception;
import io.prmkit.driver.cmd.CommandTransport;
import io.prmkit.driver.core.Caps;
import io.prmkit.driver.core.DeviceAccess;
import io.prmkit.driver.core.DeviceObject;
import io.prmkit.driver.core.KernelSteering;
import io.prmkit.driver.core.Mlx5Device;
import io.prmkit.driver.core.Mlx5Function;
import io.prmkit.driver.core.UmemMemory;
import io.prmkit.driver.core.Unwind;
import io.prmkit.driver.res.CompletionQueue;
import io.prmkit.driver.res.FlowEntry;
import io.prmkit.driver.res.FlowGroup;
import io.prmkit.driver.res.FlowTable;
import io.prmkit.driver.res.KernelFlowRule;
import io.prmkit.driver.res.Mkey;
import io.prmkit.driver.res.Pd;
import io.prmkit.driver.res.QCounter;
import io.prmkit.driver.res.ReceiveQueue;
import io.prmkit.driver.res.Rqt;
import io.prmkit.driver.res.SendQueue;
import io.prmkit.driver.res.Tir;
import io.prmkit.driver.res.Tis;
import io.prmkit.driver.res.TransportDomain;
import io.prmkit.mlx5.AccessRegisterOpMod;
import io.prmkit.mlx5.CmdHcaCap;
import io.prmkit.mlx5.EqeType;
import io.prmkit.mlx5.Eth2863CntrsGrpDataLayout;
import io.prmkit.mlx5.Eth8023CntrsGrpDataLayout;
import io.prmkit.mlx5.EthCntrsGrpDataLayoutAuto;
import io.prmkit.mlx5.InlineMode;
import io.prmkit.mlx5.MacAddressLayout;
import io.prmkit.mlx5.ModifyNicVportContextIn;
import io.prmkit.mlx5.ModifyNicVportFieldSelect;
import io.prmkit.mlx5.NicVportContext;
import io.prmkit.mlx5.PerProtocolNetworkingOffloadCaps;
import io.prmkit.mlx5.PmtuReg;
import io.prmkit.mlx5.PortChangeSubtype;
import io.prmkit.mlx5.PpcntGrp;
import io.prmkit.mlx5.PpcntReg;
import io.prmkit.mlx5.QueryNicVportContextOut;
import io.prmkit.mlx5.QueryVportCounterOut;
import io.prmkit.mlx5.QueryVportStateIn;
import io.prmkit.mlx5.QueryVportStateOut;
import io.prmkit.mlx5.SqState;
import io.prmkit.mlx5.TrafficCounter;
import io.prmkit.mlx5.VportOperState;
import io.prmkit.mlx5.VportStateOpMod;
import io.prmkit.mlx5.PrmCommands;
import io.prmkit.mlx5.PrmRegisters;
import io.prmkit.platform.DmaMemory;
import java.lang.foreign.MemorySegment;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;

/**
 * An Ethernet port on an mlx5 function, built the way Linux's mlx5e builds its channels (PRM
 * "Ethernet" chapters): PD, transport domain, a physical-address mkey, a TIS and a Q counter; per
 * queue pair an SQ with its CQ and an RQ with its CQ (both moved to RDY); an RQT over the RQs and
 * an RSS TIR (Toeplitz over IPv4 addresses and TCP ports); a NIC RX flow table whose entry forwards
 * the frames {@link EthPortConfig#rxMatch} matches (every frame by default) to that TIR, made the root; then MTU (vport context and PMTU) and promiscuous mode.
 * On a function whose NIC receive tables the kernel keeps ({@link KernelSteering}: DEVX on a card
 * bound to mlx5_core) that rule goes into the kernel's tables instead, and MTU, MAC and
 * promiscuous mode stay the kernel's ({@code ip link}): asking for them is refused before any command.
 * The rings go to the datapath through {@link #txResources}/{@link #rxResources}.
 *
 * <p>Link state follows PORT_CHANGE events (and {@link #refreshLinkState}). Everything is closed
 * in reverse order by {@link #close()}, also by the device's close.
 *
 * <p>The port owns what the datapath builds on it ({@code PacketPool.open}, {@code TxQueue.open},
 * {@code RxQueue.open} register themselves as {@link Attachment}s), so the close order is the port's
 * job whatever order the user closes things in: first every queue stops ({@link Attachment#detach}),
 * then the port's device objects are destroyed (SQs, RQs, CQs, mkey, ...: the device reaches no
 * buffer any more), and only then is buffer memory unmapped ({@link Attachment#release}). One queue
 * per SQ and per RQ: a second is refused.
 */
public final class EthPort implements AutoCloseable {

    private final DeviceAccess dev;
    private final CommandTransport cmd;
    private final EthPortConfig config;
    private final Deque<DeviceObject> objects = new ArrayDeque<>();
    private final List<SendQueue> sqs = new ArrayList<>();
    private final List<ReceiveQueue> rqs = new ArrayList<>();
    private final Mlx5Device.AsyncEventListener listener = this::event;
    /** What the datapath built on this port, in the order it was attached; the queue on each SQ and RQ. */
    private final List<Attachment> attachments = new ArrayList<>();
    private Attachment[] sqOwners;
    private Attachment[] rqOwners;
    private QCounter counter;
    private Mkey mkey;
    private Pd pd;
    private int bfHalf;
    /** The receive CQs compress completions (EthPortConfig.cqeCompression and the device's cap). */
    private boolean rxCqeCompression;
    private volatile boolean linkUp;
    private volatile long linkChanges;
    private boolean closed;

    private EthPort(DeviceAccess dev, EthPortConfig config) {
        this.dev = dev;
        this.cmd = dev.commands();
        this.config = config;
    }

    /**
     * Builds a port on {@code dev} (closed by its own close, or by the device's); on failure undoes
     * what it built and rethrows.
     */
    public static EthPort open(Mlx5Function dev, EthPortConfig config) {
        return dev.attach(access -> Unwind.finishOrClose(new EthPort(access, config), EthPort::build));
    }

    /**
     * Something the datapath built on this port and the port closes (a queue, a buffer pool). Its close
     * comes in two steps around the destruction of the port's device objects.
     */
    public interface Attachment {
        /** The port is closing: stop using its queues (called before its SQs, RQs and CQs are destroyed). */
        default void detach() {}

        /** The port's device objects are gone: free what the device could reach until now (buffer memory). */
        default void release() {}
    }

    /** Attaches {@code a} to this port (closed with it; see {@link Attachment}). */
    public synchronized void attach(Attachment a) {
        checkOpen();
        attachments.add(a);
    }

    /**
     * SQ {@code i} for the one TX queue {@code queue} that may use it: attaches the queue and returns
     * the SQ as the datapath takes it. A second claim of the same SQ is refused.
     */
    public synchronized SqResources claimSq(int i, Attachment queue) {
        SqResources r = txResources(i);
        checkOpen();
        if (sqOwners[i] != null) throw new IllegalStateException("SQ " + i + " (sqn 0x" + Integer.toHexString(r.sqn()) + ") of this port already has a TX queue: one queue per SQ");
        sqOwners[i] = queue;
        attachments.add(queue);
        return r;
    }

    /** RQ {@code i} for the one RX queue {@code queue} that may use it (see {@link #claimSq}). */
    public synchronized RqResources claimRq(int i, Attachment queue) {
        RqResources r = rxResources(i);
        checkOpen();
        if (rqOwners[i] != null) throw new IllegalStateException("RQ " + i + " (rqn 0x" + Integer.toHexString(r.rqn()) + ") of this port already has an RX queue: one queue per RQ");
        rqOwners[i] = queue;
        attachments.add(queue);
        return r;
    }

    /** The DMA memory packet buffers are allocated in (reached by the device through {@link #lkey()}). */
    public DmaMemory dma() {
        return dev.dma();
    }

    /** Whether {@link #close} has begun. */
    public synchronized boolean isClosed() {
        return closed;
    }

    private void checkOpen() {
        if (closed) throw new IllegalStateException("the Ethernet port is closed");
    }

    private <T extends DeviceObject> T keep(T o) {
        objects.push(o);
        return o;
    }

    private void build() {
        KernelSteering kernel = dev.kernelSteering().orElse(null);
        if (kernel != null) {
            if (config.promiscuous()) throw kernelKeeps(kernel, "promiscuous mode", "promisc on");
            if (config.mtu() != EthPortConfig.defaults().mtu()) throw kernelKeeps(kernel, "the MTU", "mtu " + config.mtu());
        }
        Caps caps = dev.caps();
        MemorySegment gen = caps.general();
        Caps.require(CmdHcaCap.eth_net_offloads(gen), "Ethernet port", "cmd_hca_cap.eth_net_offloads");
        Caps.require(CmdHcaCap.nic_flow_table(gen), "Ethernet port receive steering", "cmd_hca_cap.nic_flow_table");
        Caps.requireLog(config.queuePairs(), CmdHcaCap.log_max_sq(gen), "Ethernet port SQs", "cmd_hca_cap.log_max_sq");
        Caps.requireLog(config.queuePairs(), CmdHcaCap.log_max_rq(gen), "Ethernet port RQs", "cmd_hca_cap.log_max_rq");
        Caps.requireLog(2L * config.queuePairs(), CmdHcaCap.log_max_cq(gen), "Ethernet port CQs", "cmd_hca_cap.log_max_cq");
        int logBf = CmdHcaCap.log_bf_reg_size(gen);
        bfHalf = logBf == 0 ? 0 : (1 << logBf) / 2;
        InlineMode inline = minInline(caps);

        pd = keep(Pd.allocate(cmd));
        var td = keep(TransportDomain.allocate(cmd));
        // Packet buffers: by bus address through a physical-address mkey, or, in DEVX memory, through an mkey over its umem.
        mkey = keep(dev.dma() instanceof UmemMemory umem ? Mkey.overUmem(cmd, pd, umem) : Mkey.physical(cmd, pd));
        var tis = keep(Tis.create(cmd, td));
        if (CmdHcaCap.max_qp_cnt(gen) > 0) counter = keep(QCounter.allocate(cmd));
        int eqn = dev.asyncEqn();
        rxCqeCompression = switch (config.cqeCompression()) {
            case AUTO -> CmdHcaCap.cqe_compression(gen);
            case ON -> true; // CompletionQueue.create says what is missing when the device lacks it
            case OFF -> false;
        };
        sqOwners = new Attachment[config.queuePairs()];
        rqOwners = new Attachment[config.queuePairs()];
        for (int i = 0; i < config.queuePairs(); i++) {
            var txCq = keep(CompletionQueue.create(cmd, dev.dma(), caps, dev.uar(), eqn, config.logSqWqeBbs()));
            sqs.add(keep(SendQueue.create(cmd, dev.dma(), caps, dev.uar(), pd, tis, txCq, mkey, config.logSqWqeBbs(), inline)));
            var rxCq = keep(CompletionQueue.create(cmd, dev.dma(), caps, dev.uar(), eqn, config.logRqWqes(), rxCqeCompression));
            rqs.add(keep(ReceiveQueue.create(cmd, dev.dma(), caps, pd, rxCq, mkey, counter, config.logRqWqes())));
        }
        var rqt = keep(Rqt.create(cmd, caps, rqs, config.rqtSize()));
        var tir = keep(Tir.rss(cmd, td, rqt, Tir.DEFAULT_TOEPLITZ_KEY));
        RxMatch rx = config.rxMatch();
        if (kernel != null) {
            // The kernel keeps the NIC RX root: the rule goes into its tables (rdma-core's mlx5dv_create_flow), to our TIR.
            keep(KernelFlowRule.forwardToTir(cmd, kernel, rx.criteriaEnable(), rx::mask, rx::value, tir));
        } else {
            // The receive rule: one group (its mask) and entry (its value) in the root NIC RX table.
            var table = keep(FlowTable.nicRx(cmd, caps, 0, 1));
            var group = keep(FlowGroup.create(table, 0, 0, rx.criteriaEnable(), rx.isAll() ? null : rx::mask));
            keep(FlowEntry.forwardToTir(group, 0, rx.isAll() ? null : rx::value, tir));
            table.setRoot();
            setMtu(config.mtu());
            setPromiscuous(config.promiscuous());
        }
        dev.addEventListener(listener);
        refreshLinkState();
    }

    /**
     * The inline mode every WQE honours: per the Ethernet cap {@code wqe_inline_mode} (0: L2 headers
     * inline, 1: what the vport context says, 2: none needed), as Linux's mlx5_query_min_inline.
     */
    private InlineMode minInline(Caps caps) {
        int mode = PerProtocolNetworkingOffloadCaps.wqe_inline_mode(caps.eth());
        if (mode == 2) return InlineMode.NONE;
        if (mode == 1) {
            var in = PrmCommands.QUERY_NIC_VPORT_CONTEXT.input();
            var out = cmd.execute(PrmCommands.QUERY_NIC_VPORT_CONTEXT, in);
            InlineMode m = NicVportContext.min_wqe_inline_mode$enum(QueryNicVportContextOut.nic_vport_context(out));
            return m != null ? m : InlineMode.L2;
        }
        return InlineMode.L2;
    }

    /**
     * Bytes the hardware MTU adds to the IP MTU: Ethernet header, one VLAN tag and the FCS (Linux's
     * MLX5E_SW2HW_MTU); PMTU and the vport context take the hardware MTU.
     */
    public static final int HW_MTU_OVERHEAD = 14 + 4 + 4;

    /**
     * Sets the IP MTU {@code mtu}: checks it against PMTU max_mtu (ACCESS_REG read), then writes the
     * hardware MTU ({@code mtu + HW_MTU_OVERHEAD}) to PMTU admin_mtu and the vport context's mtu.
     */
    public void setMtu(int mtu) {
        refuseOnKernelKept("the MTU", "mtu " + mtu);
        int hw = mtu + HW_MTU_OVERHEAD;
        int max = PmtuReg.max_mtu(pmtu(false, 0));
        if (max != 0 && hw > max)
            throw new Mlx5Exception("MTU " + mtu + " needs a hardware MTU of " + hw + " bytes; the port allows " + max
                    + " (PMTU max_mtu), so at most MTU " + (max - HW_MTU_OVERHEAD));
        pmtu(true, hw);
        modifyVport(fs -> ModifyNicVportFieldSelect.mtu$set(fs, true), ctx -> NicVportContext.mtu$set(ctx, hw));
    }

    /** ACCESS_REG on PMTU of port 1: a read, or a write of admin_mtu; returns the register as the device answered. */
    private MemorySegment pmtu(boolean write, int adminMtu) {
        return cmd.accessRegister(PrmRegisters.PMTU, (write ? AccessRegisterOpMod.WRITE : AccessRegisterOpMod.READ).value, reg -> {
            PmtuReg.local_port$set(reg, 1);
            if (write) PmtuReg.admin_mtu$set(reg, adminMtu);
        });
    }

    /** The IP MTU in effect (PMTU oper_mtu less {@link #HW_MTU_OVERHEAD}). */
    public int mtu() {
        return PmtuReg.oper_mtu(pmtu(false, 0)) - HW_MTU_OVERHEAD;
    }

    /** Promiscuous mode (vport promisc_all). */
    public void setPromiscuous(boolean on) {
        refuseOnKernelKept("promiscuous mode", "promisc " + (on ? "on" : "off"));
        modifyVport(fs -> ModifyNicVportFieldSelect.promisc$set(fs, true), ctx -> NicVportContext.promisc_all$set(ctx, on));
    }

    /** Refuses a vport setting on a function the kernel keeps, before any command (the kernel would refuse MODIFY_NIC_VPORT_CONTEXT). */
    private void refuseOnKernelKept(String what, String ipLink) {
        KernelSteering kernel = dev.kernelSteering().orElse(null);
        if (kernel != null) throw kernelKeeps(kernel, what, ipLink);
    }

    private static Mlx5Exception kernelKeeps(KernelSteering kernel, String what, String ipLink) {
        return new Mlx5Exception("the kernel keeps " + kernel.name() + ", and " + what + " is its own (it refuses MODIFY_NIC_VPORT_CONTEXT from DEVX): "
                + "set it with ip link set dev <its netdev> " + ipLink + ".");
    }

    private void modifyVport(java.util.function.Consumer<MemorySegment> select, java.util.function.Consumer<MemorySegment> value) {
        var in = PrmCommands.MODIFY_NIC_VPORT_CONTEXT.input();
        select.accept(ModifyNicVportContextIn.field_select(in));
        value.accept(ModifyNicVportContextIn.nic_vport_context(in));
        cmd.execute(PrmCommands.MODIFY_NIC_VPORT_CONTEXT, in);
    }

    /** Sets the vport's MAC address (MODIFY_NIC_VPORT_CONTEXT, permanent_address). */
    public void setMacAddress(byte[] mac) {
        if (mac.length != 6) throw new IllegalArgumentException("a MAC address has 6 bytes, got " + mac.length);
        refuseOnKernelKept("the MAC address", "address " + java.util.HexFormat.ofDelimiter(":").formatHex(mac));
        long v = 0;
        for (byte b : mac) v = v << 8 | (b & 0xff);
        long addr = v;
        modifyVport(fs -> ModifyNicVportFieldSelect.permanent_address$set(fs, true), ctx -> {
            MemorySegment m = NicVportContext.permanent_address(ctx);
            MacAddressLayout.mac_addr$set(m, addr);
        });
    }

    /** The vport context as the device has it now (QUERY_NIC_VPORT_CONTEXT); read it with {@code NicVportContext}. */
    public MemorySegment vportContext() {
        var in = PrmCommands.QUERY_NIC_VPORT_CONTEXT.input();
        var out = cmd.execute(PrmCommands.QUERY_NIC_VPORT_CONTEXT, in);
        return QueryNicVportContextOut.nic_vport_context(out);
    }

    /** The vport's permanent MAC address (QUERY_NIC_VPORT_CONTEXT), as 6 bytes. */
    public byte[] macAddress() {
        MemorySegment mac = NicVportContext.permanent_address(vportContext());
        long v = MacAddressLayout.mac_addr(mac);
        byte[] b = new byte[6];
        for (int i = 0; i < 6; i++) b[i] = (byte) (v >>> (40 - 8 * i));
        return b;
    }

    /** QUERY_VPORT_STATE: the operational link state, now. */
    public boolean refreshLinkState() {
        var in = PrmCommands.QUERY_VPORT_STATE.input();
        QueryVportStateIn.op_mod$set(in, VportStateOpMod.VNIC_VPORT);
        var out = cmd.execute(PrmCommands.QUERY_VPORT_STATE, in);
        linkUp = QueryVportStateOut.state(out) == VportOperState.UP.value;
        return linkUp;
    }

    /** PORT_CHANGE events (interrupt thread): DOWN and ACTIVE flip the link state. */
    private void event(int type, MemorySegment eqe) {
        if (type != EqeType.PORT_CHANGE$VALUE) return;
        int sub = io.prmkit.mlx5.Eqe.event_sub_type(eqe);
        if (sub == PortChangeSubtype.DOWN.value) linkUp = false;
        else if (sub == PortChangeSubtype.ACTIVE.value) linkUp = true;
        else return;
        linkChanges++;
    }

    /** The link state as last reported (by event or {@link #refreshLinkState}). */
    public boolean linkUp() {
        return linkUp;
    }

    /** Link state changes seen in PORT_CHANGE events. */
    public long linkChanges() {
        return linkChanges;
    }

    /** Whether the receive CQs were created with CQE compression (RxQueue decodes both kinds either way). */
    public boolean cqeCompression() {
        return rxCqeCompression;
    }

    public int queuePairs() {
        return config.queuePairs();
    }

    public SendQueue sendQueue(int i) {
        return sqs.get(i);
    }

    public ReceiveQueue receiveQueue(int i) {
        return rqs.get(i);
    }

    /**
     * SQ {@code i} as the TX datapath takes it (a view, for tools and tests; a queue on it claims it with
     * {@link #claimSq}); its error recovery runs MODIFY_SQ through this port.
     */
    public SqResources txResources(int i) {
        SendQueue sq = sqs.get(i);
        return new SqResources(sq.ringRegion(), sq.logWqeBbs(), sq.sqn(), sq.doorbellRecord(), sq.uar().bar(), sq.doorbellOffset(), bfHalf,
                cq(sq.cq()), sq.minInline(), (sqn, from, to) -> sq.modify(from, to));
    }

    /** RQ {@code i} as the RX datapath takes it (a view; a queue claims it with {@link #claimRq}). */
    public RqResources rxResources(int i) {
        ReceiveQueue rq = rqs.get(i);
        return new RqResources(rq.ringRegion(), rq.logWqes(), rq.rqn(), rq.doorbellRecord(), cq(rq.cq()));
    }

    private static CqResources cq(CompletionQueue cq) {
        return new CqResources(cq.ringRegion(), cq.logSize(), cq.cqn(), cq.doorbellRecord());
    }

    /**
     * A free indirect mkey in the port's PD for the datapath to register a region into with a UMR WQE
     * ({@code TxQueue.registerUmr}); destroyed with the port. Needs the {@code reg_umr_sq} cap for the SQs.
     */
    public int umrMkey(int klmEntries) {
        return keep(Mkey.forUmr(cmd, pd, klmEntries)).key();
    }

    /** The lkey of the port's physical-address mkey (for packet buffers). */
    public int lkey() {
        return mkey.key();
    }

    /**
     * Runs three firmware commands (QUERY_VPORT_COUNTER, QUERY_Q_COUNTER, ACCESS_REG PPCNT IEEE 802.3
     * group) and returns what they report: a control-path call that blocks for the commands, not a getter.
     */
    public PortStats queryStats() {
        var in = PrmCommands.QUERY_VPORT_COUNTER.input();
        var v = cmd.execute(PrmCommands.QUERY_VPORT_COUNTER, in);

        var ppcnt = cmd.accessRegister(PrmRegisters.PPCNT, AccessRegisterOpMod.READ.value, reg -> {
            PpcntReg.local_port$set(reg, 1);
            PpcntReg.grp$set(reg, PpcntGrp.IEEE_802_3);
        });
        MemorySegment c = EthCntrsGrpDataLayoutAuto.eth_802_3_cntrs_grp_data_layout(PpcntReg.counter_set(ppcnt));
        var rfc2863 = cmd.accessRegister(PrmRegisters.PPCNT, AccessRegisterOpMod.READ.value, reg -> {
            PpcntReg.local_port$set(reg, 1);
            PpcntReg.grp$set(reg, PpcntGrp.RFC_2863);
        });
        MemorySegment d = EthCntrsGrpDataLayoutAuto.eth_2863_cntrs_grp_data_layout(PpcntReg.counter_set(rfc2863));

        return new PortStats(
                TrafficCounter.packets(QueryVportCounterOut.received_eth_unicast(v)), TrafficCounter.octets(QueryVportCounterOut.received_eth_unicast(v)),
                TrafficCounter.packets(QueryVportCounterOut.transmitted_eth_unicast(v)), TrafficCounter.octets(QueryVportCounterOut.transmitted_eth_unicast(v)),
                TrafficCounter.packets(QueryVportCounterOut.received_eth_multicast(v)), TrafficCounter.packets(QueryVportCounterOut.transmitted_eth_multicast(v)),
                TrafficCounter.packets(QueryVportCounterOut.received_eth_broadcast(v)), TrafficCounter.packets(QueryVportCounterOut.transmitted_eth_broadcast(v)),
                TrafficCounter.packets(QueryVportCounterOut.received_errors(v)), TrafficCounter.packets(QueryVportCounterOut.transmit_errors(v)),
                counter != null ? counter.outOfBuffer() : 0,
                Eth8023CntrsGrpDataLayout.a_frames_transmitted_ok(c),
                Eth8023CntrsGrpDataLayout.a_frames_received_ok(c),
                Eth8023CntrsGrpDataLayout.a_octets_transmitted_ok(c),
                Eth8023CntrsGrpDataLayout.a_octets_received_ok(c),
                Eth8023CntrsGrpDataLayout.a_frame_check_sequence_errors(c),
                Eth2863CntrsGrpDataLayout.if_in_discards(d));
    }

    /**
     * Stops every attached queue, destroys every device object in reverse order of creation, then frees
     * the attached buffer memory; keeps going past failures and throws the first.
     */
    @Override
    public void close() {
        List<Attachment> attached;
        synchronized (this) {
            if (closed) return;
            closed = true;
            attached = new ArrayList<>(attachments);
            attachments.clear();
        }
        dev.removeEventListener(listener);
        dev.detach(this);
        for (Attachment a : attached.reversed()) a.detach();
        Mlx5Exception first = null;
        try {
            destroyObjects();
        } catch (Mlx5Exception e) {
            first = e;
        }
        // Only now can nothing on the device reach a buffer: a pool freed while an RQ still held its
        // buffers would be a DMA fault behind an IOMMU.
        for (Attachment a : attached.reversed()) a.release();
        if (first != null && dev.fatalError() == null) throw first;
    }

    private void destroyObjects() {
        Mlx5Exception first = null;
        while (!objects.isEmpty()) {
            DeviceObject o = objects.pop();
            try {
                o.close();
            } catch (Mlx5Exception e) {
                if (first == null) first = e;
                else first.addSuppressed(e);
            }
        }
        if (first != null) throw first;
    }

    /** SQ state helper for recovery tests and tools. */
    public void modifySq(int i, SqState from, SqState to) {
        sqs.get(i).modify(from, to);
    }
}

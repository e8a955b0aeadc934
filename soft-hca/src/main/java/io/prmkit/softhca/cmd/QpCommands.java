package io.prmkit.softhca.cmd;

import io.prmkit.mlx5.Ads;
import io.prmkit.mlx5.CreateQpIn;
import io.prmkit.mlx5.CreateQpOut;
import io.prmkit.mlx5.DestroyQpIn;
import io.prmkit.layout.PrmLayout;
import io.prmkit.mlx5.Qp2errIn;
import io.prmkit.mlx5.Qp2rstIn;
import io.prmkit.mlx5.QpMtu;
import io.prmkit.mlx5.QpOptpar;
import io.prmkit.mlx5.QpServiceType;
import io.prmkit.mlx5.QpState;
import io.prmkit.mlx5.Qpc;
import io.prmkit.mlx5.QueryQpIn;
import io.prmkit.mlx5.QueryQpOut;
import io.prmkit.mlx5.PrmCommands;
import io.prmkit.softhca.device.DeviceObjects.Kind;
import io.prmkit.softhca.cmd.CommandSpec.Phase;
import io.prmkit.softhca.device.Resources;
import io.prmkit.softhca.device.Queues;
import java.lang.foreign.MemorySegment;
import java.util.EnumSet;
import java.util.Map;

/**
 * PRM chapter "QP state machine": CREATE_QP (in RST), the modify commands with their legal source
 * states (an illegal one is BAD_RES_STATE), the qpc fields each transition takes and the optional
 * ones it accepts in opt_param_mask (others: BAD_PARAM), 2ERR and 2RST from any state, QUERY_QP and
 * DESTROY_QP. Service types RC, UC, UD and raw Ethernet. The RC datapath is a later issue.
 */
final class QpCommands {
    private final HcaState hca;

    private QpCommands(HcaState hca) {
        this.hca = hca;
    }

    /** One modify command (its structures from the spec's declaration), where it starts and where it goes. */
    private record Transition(PrmLayout.Command command, QpState from, QpState to) {
        PrmLayout.Struct in() {
            return command.in();
        }
    }

    static void register(Map<Integer, CommandSpec> specs, HcaState hca) {
        QpCommands q = new QpCommands(hca);
        BringUpCommands.put(specs, PrmCommands.CREATE_QP, Phase.INITIALIZED, q::create);
        BringUpCommands.put(specs, PrmCommands.DESTROY_QP, Phase.INITIALIZED, q::destroy);
        BringUpCommands.put(specs, PrmCommands.QUERY_QP, Phase.INITIALIZED, q::query);
        for (Transition t : new Transition[] {
            new Transition(PrmCommands.RST2INIT_QP, QpState.RST, QpState.INIT),
            new Transition(PrmCommands.INIT2RTR_QP, QpState.INIT, QpState.RTR),
            new Transition(PrmCommands.RTR2RTS_QP, QpState.RTR, QpState.RTS),
            new Transition(PrmCommands.RTS2RTS_QP, QpState.RTS, QpState.RTS),
            new Transition(PrmCommands.SQERR2RTS_QP, QpState.SQER, QpState.RTS),
        }) {
            BringUpCommands.put(specs, t.command(), Phase.INITIALIZED, c -> q.modify(c, t));
        }
        BringUpCommands.put(specs, PrmCommands.QP_2ERR, Phase.INITIALIZED, c -> q.force(c, Qp2errIn.qpn(c.in), QpState.ERR));
        BringUpCommands.put(specs, PrmCommands.QP_2RST, Phase.INITIALIZED, c -> q.force(c, Qp2rstIn.qpn(c.in), QpState.RST));
    }

    /**
     * The optional fields a transition accepts per service type (the table Linux's mlx5_ib keeps as
     * opt_mask, from the IB spec's QP attribute tables); RST2INIT takes none.
     */
    static EnumSet<QpOptpar> optional(QpState from, QpState to, QpServiceType st) {
        boolean rc = st == QpServiceType.RC, uc = st == QpServiceType.UC, ud = st == QpServiceType.UD;
        EnumSet<QpOptpar> none = EnumSet.noneOf(QpOptpar.class);
        if (from == QpState.INIT && to == QpState.RTR) {
            if (rc) return EnumSet.of(QpOptpar.ALT_ADDR_PATH, QpOptpar.RRE, QpOptpar.RAE, QpOptpar.RWE, QpOptpar.PKEY_INDEX);
            if (uc) return EnumSet.of(QpOptpar.ALT_ADDR_PATH, QpOptpar.RWE, QpOptpar.PKEY_INDEX);
            if (ud) return EnumSet.of(QpOptpar.PKEY_INDEX, QpOptpar.Q_KEY);
        } else if ((from == QpState.RTR || from == QpState.RTS) && to == QpState.RTS) {
            if (rc) return EnumSet.of(QpOptpar.ALT_ADDR_PATH, QpOptpar.RRE, QpOptpar.RAE, QpOptpar.RWE, QpOptpar.PM_STATE, QpOptpar.RNR_TIMEOUT);
            if (uc) return EnumSet.of(QpOptpar.ALT_ADDR_PATH, QpOptpar.RWE, QpOptpar.PM_STATE);
            if (ud) return EnumSet.of(QpOptpar.Q_KEY);
        } else if (from == QpState.SQER && to == QpState.RTS) {
            if (uc) return EnumSet.of(QpOptpar.RWE);
            if (ud) return EnumSet.of(QpOptpar.Q_KEY);
        }
        return none;
    }

    private Resources.Qp qp(Command c, int qpn) {
        Resources.Qp qp = hca.objects.qp(qpn);
        if (qp == null) throw c.fail(Syndrome.NO_SUCH_OBJECT, "QP " + qpn);
        DevxCommands.checkOwner(hca, c, Kind.QP, qpn);
        return qp;
    }

    private void create(Command c) {
        long at = CreateQpIn.qpc$BYTE_OFFSET;
        MemorySegment qpc = Support.copy(c.in, at, Qpc.SIZE);
        Support.checkCount(c, hca, hca.objects.count(Kind.QP), "log_max_qp");
        if (Qpc.state$enum(qpc) != QpState.RST) throw c.fail(Syndrome.BAD_FIELD, "a new QP starts in RST, not state " + Qpc.state(qpc));
        QpServiceType st = Qpc.st$enum(qpc);
        if (st != QpServiceType.RC && st != QpServiceType.UC && st != QpServiceType.UD && st != QpServiceType.RAW_DATAGRAM) {
            throw c.fail(Syndrome.BAD_FIELD, "service type " + Qpc.st(qpc) + " (RC, UC, UD, raw)");
        }
        if (CreateQpIn.opt_param_mask(c.in) != 0) throw c.fail(Syndrome.OPT_PARAM_NOT_ALLOWED, "CREATE_QP takes no optional fields");
        if (!hca.objects.has(Kind.PD, Qpc.pd(qpc))) throw c.fail(Syndrome.BAD_REFERENCE, "PD " + Qpc.pd(qpc));
        if (!hca.uars.contains(Qpc.uar_page(qpc))) throw c.fail(Syndrome.BAD_REFERENCE, "UAR " + Qpc.uar_page(qpc));
        Queues.Cq snd = hca.objects.cq(Qpc.cqn_snd(qpc));
        Queues.Cq rcv = hca.objects.cq(Qpc.cqn_rcv(qpc));
        if (snd == null) throw c.fail(Syndrome.BAD_REFERENCE, "send CQ " + Qpc.cqn_snd(qpc));
        if (rcv == null) throw c.fail(Syndrome.BAD_REFERENCE, "receive CQ " + Qpc.cqn_rcv(qpc));
        Support.checkLogSize(c, hca, Qpc.log_sq_size(qpc), "log_max_qp_sz");
        Support.checkLogSize(c, hca, Qpc.log_rq_size(qpc), "log_max_qp_sz");
        if (Qpc.page_offset(qpc) != 0) throw c.fail(Syndrome.BAD_FIELD, "page_offset " + Qpc.page_offset(qpc));
        java.util.List<Resources.Umem> uses = new java.util.ArrayList<>();
        long dbr = Qpc.dbr_addr(qpc);
        if (Qpc.dbr_umem_valid(qpc)) dbr = DevxCommands.doorbellRecord(c, hca, Qpc.dbr_umem_id(qpc), dbr, uses, "QP");
        else Support.checkDoorbellRecord(c, hca, dbr);
        // RQ WQEs are 16 << log_rq_stride bytes, SQ WQE basic blocks 64 bytes; the RQ comes first in the buffer.
        long rq = (1L << Qpc.log_rq_size(qpc)) * (16L << Qpc.log_rq_stride(qpc));
        long sq = Qpc.no_sq(qpc) ? 0 : (1L << Qpc.log_sq_size(qpc)) * 64;
        Queues.Ring ring = CreateQpIn.wq_umem_valid(c.in)
                ? DevxCommands.ring(c, hca, CreateQpIn.wq_umem_id(c.in), CreateQpIn.wq_umem_offset(c.in), rq + sq, false, uses, "QP buffer")
                : Support.ring(c, hca, CreateQpIn.pas$BYTE_OFFSET, rq + sq, Qpc.log_page_size(qpc));
        int qpn = hca.nextNumber("qp", 0x1000);
        Resources.Qp qp = new Resources.Qp(qpn, qpc, ring, QpState.RST, dbr, uses);
        hca.objects.add(qp);
        DevxCommands.own(hca, c, Kind.QP, qpn);
        CreateQpOut.Device.qpn$set(c.out, qpn);
    }

    private void modify(Command c, Transition t) {
        Resources.Qp qp = qp(c, DeviceInput.qpn(c, t.in()));
        if (qp.state() != t.from().value) {
            throw c.fail(Syndrome.BAD_STATE_TRANSITION, t.command().simpleName() + " on a QP in " + QpState.nameOf(qp.state()));
        }
        long mask = Integer.toUnsignedLong((int) DeviceInput.field(c, t.in(), "opt_param_mask"));
        EnumSet<QpOptpar> opt = QpOptpar.of(mask);
        QpServiceType st = Qpc.st$enum(qp.qpc);
        EnumSet<QpOptpar> allowed = optional(t.from(), t.to(), st);
        if (QpOptpar.maskOf(opt) != mask || !allowed.containsAll(opt)) {
            throw c.fail(Syndrome.OPT_PARAM_NOT_ALLOWED, "opt_param_mask " + QpOptpar.describe(mask) + " for " + t.command().simpleName() + " of a " + st + " QP");
        }
        long ctx = DeviceInput.offset(t.in(), "qpc");
        MemorySegment in = c.in.asSlice(ctx, Qpc.SIZE);
        boolean connected = st == QpServiceType.RC || st == QpServiceType.UC;
        long path = Qpc.primary_address_path$BYTE_OFFSET;
        switch (t.to()) {
            case INIT -> {
                if (Ads.vhca_port_num(in, path) > 1) throw c.fail(Syndrome.BAD_FIELD, "port " + Ads.vhca_port_num(in, path));
                Ads.pkey_index$set(qp.qpc, path, Ads.pkey_index(in, path));
                Ads.vhca_port_num$set(qp.qpc, path, Ads.vhca_port_num(in, path));
                Qpc.rre$set(qp.qpc, Qpc.rre(in));
                Qpc.rwe$set(qp.qpc, Qpc.rwe(in));
                Qpc.rae$set(qp.qpc, Qpc.rae(in));
                Qpc.q_key$set(qp.qpc, Qpc.q_key(in));
            }
            case RTR -> {
                if (connected) {
                    QpMtu mtu = Qpc.mtu$enum(in);
                    if (mtu == null || mtu == QpMtu.RAW_ETHERNET_QP) throw c.fail(Syndrome.BAD_FIELD, "path MTU " + Qpc.mtu(in));
                    int bytes = switch (mtu) {
                        case MTU_256 -> 256;
                        case MTU_512 -> 512;
                        case MTU_1K -> 1024;
                        case MTU_2K -> 2048;
                        default -> 4096;
                    };
                    // The path MTU counts payload bytes; it must fit the IP MTU the port's hardware MTU leaves (ours).
                    int ip = hca.objects.port.ipMtu();
                    if (bytes > ip) throw c.fail(Syndrome.MTU_ABOVE_PORT, "path MTU " + bytes + " > IP MTU " + ip + " (admin_mtu " + hca.objects.port.adminMtu() + ")");
                    Qpc.mtu$set(qp.qpc, mtu);
                    Qpc.remote_qpn$set(qp.qpc, Qpc.remote_qpn(in));
                    Qpc.next_rcv_psn$set(qp.qpc, Qpc.next_rcv_psn(in));
                    Qpc.log_rra_max$set(qp.qpc, Qpc.log_rra_max(in));
                    Qpc.min_rnr_nak$set(qp.qpc, Qpc.min_rnr_nak(in));
                    MemorySegment.copy(in, path, qp.qpc, path, Ads.SIZE);
                }
                if (opt.contains(QpOptpar.Q_KEY)) Qpc.q_key$set(qp.qpc, Qpc.q_key(in));
            }
            case RTS -> {
                if (t.from() == QpState.RTR) {
                    Qpc.next_send_psn$set(qp.qpc, Qpc.next_send_psn(in));
                    if (connected) {
                        Qpc.retry_count$set(qp.qpc, Qpc.retry_count(in));
                        Qpc.rnr_retry$set(qp.qpc, Qpc.rnr_retry(in));
                        Qpc.log_sra_max$set(qp.qpc, Qpc.log_sra_max(in));
                        Ads.ack_timeout$set(qp.qpc, path, Ads.ack_timeout(in, path));
                    }
                }
                if (opt.contains(QpOptpar.RNR_TIMEOUT)) Qpc.min_rnr_nak$set(qp.qpc, Qpc.min_rnr_nak(in));
                if (opt.contains(QpOptpar.Q_KEY)) Qpc.q_key$set(qp.qpc, Qpc.q_key(in));
            }
            default -> {}
        }
        if (opt.contains(QpOptpar.RRE)) Qpc.rre$set(qp.qpc, Qpc.rre(in));
        if (opt.contains(QpOptpar.RWE)) Qpc.rwe$set(qp.qpc, Qpc.rwe(in));
        if (opt.contains(QpOptpar.RAE)) Qpc.rae$set(qp.qpc, Qpc.rae(in));
        if (opt.contains(QpOptpar.PKEY_INDEX)) Ads.pkey_index$set(qp.qpc, path, Ads.pkey_index(in, path));
        qp.setState(t.to());
    }

    /** 2ERR and 2RST: legal from every state. */
    private void force(Command c, int qpn, QpState to) {
        qp(c, qpn).setState(to);
    }

    private void query(Command c) {
        Resources.Qp qp = qp(c, QueryQpIn.qpn(c.in));
        MemorySegment.copy(qp.qpc, 0, c.out, QueryQpOut.qpc$BYTE_OFFSET, Qpc.SIZE);
    }

    private void destroy(Command c) {
        Resources.Qp qp = qp(c, DestroyQpIn.qpn(c.in));
        hca.objects.destroy(Kind.QP, qp.qpn);
    }

    /** Reads the common fields of the modify inputs through their layout metadata. */
    private static final class DeviceInput {
        static int qpn(Command c, PrmLayout.Struct in) {
            return (int) field(c, in, "qpn");
        }

        static long field(Command c, PrmLayout.Struct in, String name) {
            return io.prmkit.softhca.device.DeviceFields.get(in, c.in, 0, name);
        }

        static long offset(PrmLayout.Struct in, String name) {
            return io.prmkit.softhca.device.DeviceFields.field(in, name).byteOffset();
        }
    }
}

package io.prmkit.softhca;

import static io.prmkit.softhca.Cmds.assertFails;
import static io.prmkit.softhca.Cmds.header;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.prmkit.mlx5.Ads;
import io.prmkit.mlx5.CmdOpcode;
import io.prmkit.mlx5.CreateQpIn;
import io.prmkit.mlx5.CreateQpOut;
import io.prmkit.mlx5.DestroyQpIn;
import io.prmkit.mlx5.DestroyQpOut;
import io.prmkit.mlx5.Init2rtrQpIn;
import io.prmkit.mlx5.Init2rtrQpOut;
import io.prmkit.mlx5.Qp2errIn;
import io.prmkit.mlx5.Qp2errOut;
import io.prmkit.mlx5.Qp2rstIn;
import io.prmkit.mlx5.Qp2rstOut;
import io.prmkit.mlx5.QpMtu;
import io.prmkit.mlx5.QpOptpar;
import io.prmkit.mlx5.QpServiceType;
import io.prmkit.mlx5.QpState;
import io.prmkit.mlx5.Qpc;
import io.prmkit.mlx5.QueryQpIn;
import io.prmkit.mlx5.QueryQpOut;
import io.prmkit.mlx5.Rst2initQpIn;
import io.prmkit.mlx5.Rst2initQpOut;
import io.prmkit.mlx5.Rtr2rtsQpIn;
import io.prmkit.mlx5.Rtr2rtsQpOut;
import io.prmkit.mlx5.Rts2rtsQpIn;
import io.prmkit.mlx5.Rts2rtsQpOut;
import io.prmkit.mlx5.Sqerr2rtsQpIn;
import io.prmkit.mlx5.Sqerr2rtsQpOut;
import io.prmkit.softhca.cmd.Syndrome;
import java.lang.foreign.MemorySegment;
import org.junit.jupiter.api.Test;

/** The QP state machine: legal and illegal transitions, opt_param_mask, path MTU against the port. */
class QpCommandsTest {

    static MemorySegment createIn(TestHost h, ObjectCommandsTest.Base b, QpServiceType st) {
        MemorySegment in = header(CmdOpcode.CREATE_QP, CreateQpIn.SIZE + 8);
        long q = CreateQpIn.qpc$BYTE_OFFSET;
        Qpc.st$set(in, q, st);
        Qpc.pd$set(in, q, b.pd());
        Qpc.uar_page$set(in, q, b.uar());
        Qpc.cqn_snd$set(in, q, b.cqn());
        Qpc.cqn_rcv$set(in, q, b.cqn());
        Qpc.log_rq_size$set(in, q, 4);
        Qpc.log_rq_stride$set(in, q, 2);
        Qpc.log_sq_size$set(in, q, 4);
        Qpc.dbr_addr$set(in, q, Objs.page(h).busAddress());
        CreateQpIn.pas$set(in, 0, Objs.page(h).busAddress());
        return in;
    }

    static int create(TestHost h, ObjectCommandsTest.Base b) {
        return CreateQpOut.qpn(h.exec(createIn(h, b, QpServiceType.RC), CreateQpOut.SIZE).ok().out());
    }

    static TestHost.Result rst2init(TestHost h, int qpn, long opt) {
        MemorySegment in = header(CmdOpcode.RST2INIT_QP, Rst2initQpIn.SIZE);
        Rst2initQpIn.qpn$set(in, qpn);
        Rst2initQpIn.opt_param_mask$set(in, (int) opt);
        long q = Rst2initQpIn.qpc$BYTE_OFFSET;
        Ads.vhca_port_num$set(in, q + Qpc.primary_address_path$BYTE_OFFSET, 1);
        Qpc.rwe$set(in, q, true);
        return h.exec(in, Rst2initQpOut.SIZE);
    }

    static TestHost.Result init2rtr(TestHost h, int qpn, QpMtu mtu) {
        MemorySegment in = header(CmdOpcode.INIT2RTR_QP, Init2rtrQpIn.SIZE);
        Init2rtrQpIn.qpn$set(in, qpn);
        long q = Init2rtrQpIn.qpc$BYTE_OFFSET;
        Qpc.mtu$set(in, q, mtu);
        Qpc.remote_qpn$set(in, q, 0x1234);
        Qpc.next_rcv_psn$set(in, q, 77);
        return h.exec(in, Init2rtrQpOut.SIZE);
    }

    static TestHost.Result rtr2rts(TestHost h, int qpn) {
        MemorySegment in = header(CmdOpcode.RTR2RTS_QP, Rtr2rtsQpIn.SIZE);
        Rtr2rtsQpIn.qpn$set(in, qpn);
        Qpc.next_send_psn$set(in, Rtr2rtsQpIn.qpc$BYTE_OFFSET, 99);
        Qpc.retry_count$set(in, Rtr2rtsQpIn.qpc$BYTE_OFFSET, 7);
        return h.exec(in, Rtr2rtsQpOut.SIZE);
    }

    static MemorySegment query(TestHost h, int qpn) {
        MemorySegment in = header(CmdOpcode.QUERY_QP, QueryQpIn.SIZE);
        QueryQpIn.qpn$set(in, qpn);
        return h.exec(in, QueryQpOut.SIZE).ok().out().asSlice(QueryQpOut.qpc$BYTE_OFFSET, Qpc.SIZE);
    }

    static void setPortMtu(TestHost h, int hardwareMtu) {
        MemorySegment w = PortAndVportCommandsTest.reg(io.prmkit.mlx5.RegisterId.PMTU, io.prmkit.mlx5.PmtuReg.layout(), true);
        io.prmkit.mlx5.PmtuReg.local_port$set(w, PortAndVportCommandsTest.REG, 1);
        io.prmkit.mlx5.PmtuReg.admin_mtu$set(w, PortAndVportCommandsTest.REG, hardwareMtu);
        PortAndVportCommandsTest.access(h, w).ok();
    }

    /** admin_mtu is a hardware MTU (IP MTU + 22, as Linux writes it); the path MTU must fit the IP MTU it leaves. */
    @Test
    void pathMtuIsCheckedAgainstTheIpMtuNotTheHardwareMtu() {
        try (TestHost h = ObjectCommandsTest.up()) {
            ObjectCommandsTest.Base b = ObjectCommandsTest.Base.of(h);
            int qpn = create(h, b);
            rst2init(h, qpn, 0).ok();
            setPortMtu(h, 1024 + 22 - 1);
            assertFails(init2rtr(h, qpn, QpMtu.MTU_1K), Syndrome.MTU_ABOVE_PORT, CmdOpcode.INIT2RTR_QP);
            setPortMtu(h, 1024 + 22);
            init2rtr(h, qpn, QpMtu.MTU_1K).ok();
        }
    }

    @Test
    void rcQpWalksRstInitRtrRts() {
        try (TestHost h = ObjectCommandsTest.up()) {
            ObjectCommandsTest.Base b = ObjectCommandsTest.Base.of(h);
            int qpn = create(h, b);
            assertEquals(QpState.RST.value, Qpc.state(query(h, qpn)));
            assertFails(init2rtr(h, qpn, QpMtu.MTU_1K), Syndrome.BAD_STATE_TRANSITION, CmdOpcode.INIT2RTR_QP);
            assertFails(rst2init(h, qpn, QpOptpar.RRE$MASK), Syndrome.OPT_PARAM_NOT_ALLOWED, CmdOpcode.RST2INIT_QP);
            rst2init(h, qpn, 0).ok();
            assertEquals(QpState.INIT.value, Qpc.state(query(h, qpn)));
            assertFails(init2rtr(h, qpn, QpMtu.MTU_2K), Syndrome.MTU_ABOVE_PORT, CmdOpcode.INIT2RTR_QP);
            assertFails(init2rtr(h, qpn, QpMtu.RAW_ETHERNET_QP), Syndrome.BAD_FIELD, CmdOpcode.INIT2RTR_QP);
            init2rtr(h, qpn, QpMtu.MTU_1K).ok();
            MemorySegment rtr = query(h, qpn);
            assertEquals(QpState.RTR.value, Qpc.state(rtr));
            assertEquals(0x1234, Qpc.remote_qpn(rtr));
            assertEquals(QpMtu.MTU_1K.value, Qpc.mtu(rtr));
            rtr2rts(h, qpn).ok();
            assertEquals(99, Qpc.next_send_psn(query(h, qpn)));

            MemorySegment r2r = header(CmdOpcode.RTS2RTS_QP, Rts2rtsQpIn.SIZE);
            Rts2rtsQpIn.qpn$set(r2r, qpn);
            Rts2rtsQpIn.opt_param_mask$set(r2r, (int) QpOptpar.RNR_TIMEOUT$MASK);
            Qpc.min_rnr_nak$set(r2r, Rts2rtsQpIn.qpc$BYTE_OFFSET, 12);
            h.exec(r2r, Rts2rtsQpOut.SIZE).ok();
            assertEquals(12, Qpc.min_rnr_nak(query(h, qpn)));
            Rts2rtsQpIn.opt_param_mask$set(r2r, (int) QpOptpar.Q_KEY$MASK); // a datagram field on an RC QP
            assertFails(h.exec(r2r, Rts2rtsQpOut.SIZE), Syndrome.OPT_PARAM_NOT_ALLOWED, CmdOpcode.RTS2RTS_QP);

            MemorySegment sqerr = header(CmdOpcode.SQERR2RTS_QP, Sqerr2rtsQpIn.SIZE);
            Sqerr2rtsQpIn.qpn$set(sqerr, qpn);
            assertFails(h.exec(sqerr, Sqerr2rtsQpOut.SIZE), Syndrome.BAD_STATE_TRANSITION, CmdOpcode.SQERR2RTS_QP);

            MemorySegment err = header(CmdOpcode.QP_2ERR, Qp2errIn.SIZE);
            Qp2errIn.qpn$set(err, qpn);
            h.exec(err, Qp2errOut.SIZE).ok();
            assertEquals(QpState.ERR.value, Qpc.state(query(h, qpn)));
            assertFails(rtr2rts(h, qpn), Syndrome.BAD_STATE_TRANSITION, CmdOpcode.RTR2RTS_QP);
            MemorySegment rst = header(CmdOpcode.QP_2RST, Qp2rstIn.SIZE);
            Qp2rstIn.qpn$set(rst, qpn);
            h.exec(rst, Qp2rstOut.SIZE).ok();
            rst2init(h, qpn, 0).ok();

            MemorySegment d = header(CmdOpcode.DESTROY_QP, DestroyQpIn.SIZE);
            DestroyQpIn.qpn$set(d, qpn);
            h.exec(d, DestroyQpOut.SIZE).ok();
            assertFails(h.exec(d, DestroyQpOut.SIZE), Syndrome.NO_SUCH_OBJECT, CmdOpcode.DESTROY_QP);
            Qp2errIn.qpn$set(err, qpn);
            assertFails(h.exec(err, Qp2errOut.SIZE), Syndrome.NO_SUCH_OBJECT, CmdOpcode.QP_2ERR);
            assertFails(h.exec(rst, Qp2rstOut.SIZE), Syndrome.NO_SUCH_OBJECT, CmdOpcode.QP_2RST);
        }
    }

    @Test
    void udQpAcceptsQkeyAtRtr() {
        try (TestHost h = ObjectCommandsTest.up()) {
            ObjectCommandsTest.Base b = ObjectCommandsTest.Base.of(h);
            int qpn = CreateQpOut.qpn(h.exec(createIn(h, b, QpServiceType.UD), CreateQpOut.SIZE).ok().out());
            rst2init(h, qpn, 0).ok();
            MemorySegment in = header(CmdOpcode.INIT2RTR_QP, Init2rtrQpIn.SIZE);
            Init2rtrQpIn.qpn$set(in, qpn);
            Init2rtrQpIn.opt_param_mask$set(in, (int) QpOptpar.Q_KEY$MASK);
            Qpc.q_key$set(in, Init2rtrQpIn.qpc$BYTE_OFFSET, 0x11111111);
            h.exec(in, Init2rtrQpOut.SIZE).ok();
            assertEquals(0x11111111, Qpc.q_key(query(h, qpn)));
        }
    }

    @Test
    void createQpChecksItsContext() {
        try (TestHost h = ObjectCommandsTest.up()) {
            ObjectCommandsTest.Base b = ObjectCommandsTest.Base.of(h);
            assertFails(h.exec(createIn(h, b, QpServiceType.DCI), CreateQpOut.SIZE), Syndrome.BAD_FIELD, CmdOpcode.CREATE_QP);
            MemorySegment in = createIn(h, b, QpServiceType.RC);
            Qpc.cqn_rcv$set(in, CreateQpIn.qpc$BYTE_OFFSET, b.cqn() + 77);
            assertFails(h.exec(in, CreateQpOut.SIZE), Syndrome.BAD_REFERENCE, CmdOpcode.CREATE_QP);
            in = createIn(h, b, QpServiceType.RC);
            Qpc.state$set(in, CreateQpIn.qpc$BYTE_OFFSET, QpState.RTS);
            assertFails(h.exec(in, CreateQpOut.SIZE), Syndrome.BAD_FIELD, CmdOpcode.CREATE_QP);
            in = createIn(h, b, QpServiceType.RC);
            Qpc.log_sq_size$set(in, CreateQpIn.qpc$BYTE_OFFSET, 0xf);
            Qpc.log_rq_size$set(in, CreateQpIn.qpc$BYTE_OFFSET, 0);
            assertFails(h.exec(in, CreateQpOut.SIZE), Syndrome.INPUT_TOO_SHORT, CmdOpcode.CREATE_QP); // 2 MiB of SQ, one page given
            in = createIn(h, b, QpServiceType.RC);
            CreateQpIn.opt_param_mask$set(in, 1);
            assertFails(h.exec(in, CreateQpOut.SIZE), Syndrome.OPT_PARAM_NOT_ALLOWED, CmdOpcode.CREATE_QP);
        }
    }
}

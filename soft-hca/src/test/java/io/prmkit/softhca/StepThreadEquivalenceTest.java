package io.prmkit.softhca;

import static io.prmkit.softhca.Cmds.header;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.prmkit.mlx5.CmdOpcode;
import io.prmkit.mlx5.QueryHcaCapOpMod;
import io.prmkit.mlx5.QpMtu;
import io.prmkit.mlx5.QueryPagesOpMod;
import io.prmkit.mlx5.SqState;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The same command script gives byte-identical answers in step mode and with the device thread. */
class StepThreadEquivalenceTest {

    /** Bring-up, objects, a QP walk and a series of refused commands; every answer recorded as text. */
    static List<String> script(ExecutionMode mode) {
        List<String> log = new ArrayList<>();
        try (TestHost h = TestHost.started(mode)) {
            java.util.function.Consumer<TestHost.Result> rec =
                    r -> log.add(r.delivery() + " " + HexFormat.of().formatHex(r.out().toArray(java.lang.foreign.ValueLayout.JAVA_BYTE)));
            Cmds.bringUp(h);
            Cmds.queryCap(h, QueryHcaCapOpMod.GENERAL_DEVICE_CUR);
            log.add("regular " + Cmds.queryPages(h, QueryPagesOpMod.REGULAR_PAGES));
            ObjectCommandsTest.Base b = ObjectCommandsTest.Base.of(h);
            log.add(b.toString());
            int sqn = Objs.sq(h, Objs.sqIn(h, b.cqn(), b.tisn(), b.pd(), b.uar()));
            rec.accept(Objs.modifySq(h, sqn, SqState.RST$VALUE, SqState.ERR$VALUE));
            rec.accept(Objs.modifySq(h, sqn, SqState.RST$VALUE, SqState.RDY$VALUE));
            rec.accept(Objs.modifySq(h, sqn, SqState.RST$VALUE, SqState.RDY$VALUE));
            int rq = Objs.rq(h, Objs.rqIn(h, b.cqn(), b.pd(), 0));
            int rqt = Objs.rqt(h, rq, rq);
            rec.accept(h.exec(Objs.tirIndirectIn(b.td(), rqt), io.prmkit.mlx5.CreateTirOut.SIZE));
            int qpn = QpCommandsTest.create(h, b);
            rec.accept(QpCommandsTest.init2rtr(h, qpn, QpMtu.MTU_1K));
            rec.accept(QpCommandsTest.rst2init(h, qpn, 0));
            rec.accept(QpCommandsTest.init2rtr(h, qpn, QpMtu.MTU_4K));
            rec.accept(QpCommandsTest.init2rtr(h, qpn, QpMtu.MTU_1K));
            rec.accept(QpCommandsTest.rtr2rts(h, qpn));
            rec.accept(h.exec(header(CmdOpcode.INIT_HCA, io.prmkit.mlx5.InitHcaIn.SIZE), io.prmkit.mlx5.InitHcaOut.SIZE));
            rec.accept(h.exec(header(CmdOpcode.SET_ISSI, 8), 16));
            rec.accept(CommandInterfaceTest.bigCommand(h, p -> io.prmkit.mlx5.CmdMailboxBlock.token$set(p.inBlocks().get(0), 3)));
            log.add("faults " + h.hca.iommu().faults() + " completed " + h.hca.commandsCompleted());
        }
        return log;
    }

    @Test
    void stepAndThreadModesAnswerAlike() {
        List<String> step = script(ExecutionMode.STEP);
        List<String> thread = script(ExecutionMode.THREAD);
        assertEquals(step.size(), thread.size());
        for (int i = 0; i < step.size(); i++) assertEquals(step.get(i), thread.get(i), "answer " + i);
    }
}

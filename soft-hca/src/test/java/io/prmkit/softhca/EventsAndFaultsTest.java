package io.prmkit.softhca;

import static io.prmkit.softhca.Cmds.header;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.prmkit.mlx5.CmdOpcode;
import io.prmkit.mlx5.CmdOwner;
import io.prmkit.mlx5.CmdQueueEntry;
import io.prmkit.mlx5.CmdStatus;
import io.prmkit.mlx5.CreateEqIn;
import io.prmkit.mlx5.EqDoorbell;
import io.prmkit.mlx5.Eqe;
import io.prmkit.mlx5.EqeType;
import io.prmkit.mlx5.HealthSyndrome;
import io.prmkit.mlx5.InitSeg;
import io.prmkit.mlx5.NopIn;
import io.prmkit.mlx5.NopOut;
import io.prmkit.mlx5.PortChangeSubtype;
import io.prmkit.mlx5.QueryPagesOpMod;
import io.prmkit.mlx5.UarPage;
import io.prmkit.platform.DmaRegion;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Command-completion, page-request and port-change events; injected faults; tracing. */
class EventsAndFaultsTest {

    /** An EQ of 64 entries on vector 0, subscribed to {@code types}; its ring is returned through {@code ring}. */
    static int eq(TestHost h, int uar, DmaRegion ring, EqeType... types) {
        long mask = 0;
        for (EqeType t : types) mask |= 1L << t.value;
        MemorySegment in = Objs.eqIn(h, uar, 6, 0, mask);
        CreateEqIn.pas$set(in, 0, ring.busAddress());
        return Objs.eq(h, in);
    }

    static void armEq(TestHost h, int uar, int eqn, int consumed) {
        MemorySegment word = TestHost.in(4);
        EqDoorbell.eqn$set(word, eqn);
        EqDoorbell.consumer_index$set(word, consumed);
        h.bar.write32(uar * 4096L + UarPage.eq_doorbell_arm$BYTE_OFFSET, word.get(TestHost.BE_INT, 0));
    }

    @Test
    void commandCompletionEventsInterruptWhenArmed() {
        try (TestHost h = ObjectCommandsTest.up()) {
            List<Integer> irqs = new ArrayList<>();
            h.f.interrupts().bind(0, irqs::add);
            int uar = Objs.uar(h);
            DmaRegion ring = Objs.page(h);
            int eqn = eq(h, uar, ring, EqeType.CMD);
            // CREATE_EQ completes after the EQ exists: its own completion is the first event, and a new EQ is armed.
            assertEquals(List.of(0), irqs);
            MemorySegment first = ring.segment().asSlice(0, Eqe.SIZE);
            assertEquals(EqeType.CMD.value, Eqe.event_type(first));
            assertEquals(1, Eqe.cmd_vector(first), "slot 0 completed");
            assertEquals(false, Eqe.owner(first), "first pass: owner 0");
            h.exec(header(CmdOpcode.NOP, NopIn.SIZE), NopOut.SIZE).ok();
            assertEquals(EqeType.CMD.value, Eqe.event_type(ring.segment().asSlice(Eqe.SIZE, Eqe.SIZE)));
            assertEquals(1, irqs.size(), "a fired EQ stays quiet until armed again");
            armEq(h, uar, eqn, 1); // one consumed, one pending: arming fires at once
            h.hca.runUntilIdle();
            assertEquals(2, irqs.size());
            armEq(h, uar, eqn, 2);
            h.hca.runUntilIdle();
            assertEquals(2, irqs.size(), "nothing pending: armed, no interrupt");
            h.exec(header(CmdOpcode.NOP, NopIn.SIZE), NopOut.SIZE).ok();
            assertEquals(3, irqs.size());
            assertEquals(EqeType.CMD.value, Eqe.event_type(ring.segment().asSlice(2 * Eqe.SIZE, Eqe.SIZE)));
        }
    }

    @Test
    void interruptsRunOnTheDeviceThreadNotInTheDoorbellStore() throws Exception {
        try (TestHost h = TestHost.started(ExecutionMode.THREAD)) {
            Cmds.bringUp(h);
            java.util.concurrent.LinkedBlockingQueue<Thread> seen = new java.util.concurrent.LinkedBlockingQueue<>();
            h.f.interrupts().bind(0, v -> seen.add(Thread.currentThread()));
            int uar = Objs.uar(h);
            eq(h, uar, Objs.page(h), EqeType.CMD);
            Thread t = seen.poll(10, java.util.concurrent.TimeUnit.SECONDS);
            assertTrue(t != null, "the completion of CREATE_EQ interrupted");
            assertTrue(t != Thread.currentThread(), "the handler ran on " + t.getName() + ", not the driver's thread");
            assertTrue(t.getName().startsWith("soft-hca-"), t.getName());
        }
    }

    @Test
    void injectedCommandFailure() {
        try (TestHost h = TestHost.started(ExecutionMode.STEP)) {
            h.hca.faults().failNext(CmdOpcode.NOP, CmdStatus.INT_ERR, 0xdead);
            TestHost.Result r = h.exec(header(CmdOpcode.NOP, NopIn.SIZE), NopOut.SIZE);
            assertEquals(0, r.delivery());
            assertEquals(CmdStatus.INT_ERR.value, r.status());
            assertEquals(0xdead, r.syndrome());
            h.exec(header(CmdOpcode.NOP, NopIn.SIZE), NopOut.SIZE).ok();
        }
    }

    @Test
    void swallowedCommandNeverCompletes() {
        try (TestHost h = TestHost.started(ExecutionMode.STEP)) {
            h.hca.faults().neverComplete(CmdOpcode.NOP, true);
            MemorySegment entry = h.cmdq.segment().asSlice(0, CmdQueueEntry.SIZE);
            CmdQueueEntry.type$set(entry, 7);
            CmdQueueEntry.input_length$set(entry, 16);
            CmdQueueEntry.output_length$set(entry, 16);
            NopIn.opcode$set(entry, CmdQueueEntry.command_input_inline_data$BYTE_OFFSET, CmdOpcode.NOP);
            CmdQueueEntry.ownership$set(entry, CmdOwner.HW);
            h.bar.write32(InitSeg.command_doorbell_vector$BIT_OFFSET / 8, 1);
            h.hca.runUntilIdle();
            assertEquals(CmdOwner.HW, CmdQueueEntry.ownership$enum(entry));
            h.hca.faults().neverComplete(CmdOpcode.NOP, false);
            h.exec(header(CmdOpcode.NOP, NopIn.SIZE), NopOut.SIZE).ok();
        }
    }

    @Test
    void fatalHealthStopsTheDevice() {
        try (TestHost h = TestHost.started(ExecutionMode.STEP)) {
            h.hca.faults().fatal(HealthSyndrome.HW_FATAL_ERR);
            h.hca.runUntilIdle();
            assertEquals(HealthSyndrome.HW_FATAL_ERR.value, CommandInterfaceTest.healthSyndrome(h));
            assertTrue(h.hca.isFatal());
            int beat = InitSeg.health_counter(h.initSeg(InitSeg.health_counter$BIT_OFFSET / 8));
            MemorySegment entry = h.cmdq.segment().asSlice(0, CmdQueueEntry.SIZE);
            CmdQueueEntry.type$set(entry, 7);
            CmdQueueEntry.input_length$set(entry, 16);
            CmdQueueEntry.output_length$set(entry, 16);
            CmdQueueEntry.ownership$set(entry, CmdOwner.HW);
            h.bar.write32(InitSeg.command_doorbell_vector$BIT_OFFSET / 8, 1);
            h.hca.runUntilIdle();
            assertEquals(CmdOwner.HW, CmdQueueEntry.ownership$enum(entry), "a dead device completes nothing");
            assertEquals(beat, InitSeg.health_counter(h.initSeg(InitSeg.health_counter$BIT_OFFSET / 8)), "and its heartbeat stops");
        }
    }

    @Test
    void pageRequestsAtRunTime() {
        try (TestHost h = ObjectCommandsTest.up()) {
            int uar = Objs.uar(h);
            DmaRegion ring = Objs.page(h);
            eq(h, uar, ring, EqeType.PAGE_REQUEST, EqeType.PORT_CHANGE);
            h.hca.faults().requestPages(5);
            h.hca.runUntilIdle();
            MemorySegment eqe = ring.segment().asSlice(0, Eqe.SIZE);
            assertEquals(EqeType.PAGE_REQUEST.value, Eqe.event_type(eqe));
            assertEquals(5, Eqe.num_pages(eqe));
            assertEquals(5, Cmds.queryPages(h, QueryPagesOpMod.REGULAR_PAGES));
            Cmds.givePages(h, 5, new ArrayList<>()).ok();
            assertEquals(0, Cmds.takePages(h, 5).size(), "every page is needed");
            h.hca.faults().requestPages(-3);
            h.hca.runUntilIdle();
            assertEquals(-3, Eqe.num_pages(ring.segment().asSlice(Eqe.SIZE, Eqe.SIZE)));
            assertEquals(3, Cmds.takePages(h, 10).size());

            h.hca.faults().link(false);
            h.hca.runUntilIdle();
            MemorySegment port = ring.segment().asSlice(2 * Eqe.SIZE, Eqe.SIZE);
            assertEquals(EqeType.PORT_CHANGE.value, Eqe.event_type(port));
            assertEquals(PortChangeSubtype.DOWN.value, Eqe.event_sub_type(port));
            assertEquals(1, Eqe.port_num(port));
            assertEquals(io.prmkit.mlx5.VportOperState.DOWN.value, PortAndVportCommandsTest.vportState(h));
            h.hca.faults().link(true);
            h.hca.runUntilIdle();
            assertEquals(PortChangeSubtype.ACTIVE.value, Eqe.event_sub_type(ring.segment().asSlice(3 * Eqe.SIZE, Eqe.SIZE)));
        }
    }

    @Test
    void traceDecodesAndHexdumps() {
        List<String> lines = new ArrayList<>();
        try (TestHost h = TestHost.started(new SoftHca.Options().trace(lines::add), ExecutionMode.STEP)) {
            h.exec(header(CmdOpcode.NOP, NopIn.SIZE), NopOut.SIZE).ok();
        }
        String all = String.join("\n", lines);
        assertTrue(all.contains("cmd[0]: dump command NOP(0x80d) INPUT"), all);
        assertTrue(all.contains("cmd[0]: 000: 080d0000 00000000 00000000 00000000"), all);
        assertTrue(all.contains("nop_in"), "decoded with the generated dump: " + all);
        assertTrue(all.contains("cmd[0]: dump command NOP(0x80d) OUTPUT"), all);
        assertFalse(all.contains("Exception"));
    }
}

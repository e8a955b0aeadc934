package io.prmkit.softhca;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.prmkit.mlx5.CmdOpcode;
import io.prmkit.mlx5.CmdStatus;
import io.prmkit.mlx5.EnableHcaOut;
import io.prmkit.mlx5.QueryHcaCapOut;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The command trace takes any bytes: inputs and outputs shorter than their structures, longer, or
 * garbage, decoded as far as they go, and neither the trace nor a sink that throws can make the
 * device fail (before, an 8-byte input made dump() throw and the device went fatal).
 */
class TracingTest {

    @Test
    void shortInputsAndOutputsAreTracedAndTheDeviceLives() {
        List<String> trace = new ArrayList<>();
        try (TestHost h = TestHost.started(new SoftHca.Options().trace(trace::add), ExecutionMode.STEP)) {
            // ENABLE_HCA with only its 8-byte header: too short, answered BAD_INP_LEN, traced
            TestHost.Result r = h.exec(Cmds.header(CmdOpcode.ENABLE_HCA, 8), EnableHcaOut.SIZE);
            assertEquals(0, r.delivery());
            assertEquals(CmdStatus.BAD_INP_LEN_ERR.value, r.status());
            String in = trace.stream().filter(l -> l.contains("ENABLE_HCA(0x104) INPUT")).findFirst().orElseThrow();
            assertTrue(in.contains("enable_hca_in (16 bytes)"), in);
            assertTrue(in.contains("(only 8 of 16 bytes given; the rest read as 0)"), in);
            assertTrue(in.contains("cmd[0]: 000: 01040000 00000000"), in);
            assertFalse(h.hca.isFatal());
            assertNull(h.hca.error());
            // the device still works: ENABLE_HCA at its full length
            h.exec(Cmds.header(CmdOpcode.ENABLE_HCA, 16), EnableHcaOut.SIZE).ok();
            // a QUERY_HCA_CAP with garbage after the header and an output too short for its page
            MemorySegment q = Cmds.header(CmdOpcode.QUERY_HCA_CAP, 16, 1);
            q.set(java.lang.foreign.ValueLayout.JAVA_INT_UNALIGNED, 12, 0xdeadbeef);
            h.exec(q, 16);
            assertFalse(h.hca.isFatal());
            assertTrue(trace.stream().noneMatch(l -> l.contains(Tracer.TRACE_FAILED)), () -> String.join("\n", trace));
            h.exec(Cmds.header(CmdOpcode.QUERY_HCA_CAP, 16, 1), QueryHcaCapOut.SIZE).ok();
        }
    }

    @Test
    void aSinkThatThrowsDoesNotStopTheDevice() {
        try (TestHost h = TestHost.started(new SoftHca.Options().trace(line -> {
            throw new IllegalStateException("the host's log is full");
        }), ExecutionMode.STEP)) {
            h.exec(Cmds.header(CmdOpcode.ENABLE_HCA, 4 + 4), EnableHcaOut.SIZE);
            h.exec(Cmds.header(CmdOpcode.ENABLE_HCA, 16), EnableHcaOut.SIZE).ok();
            assertFalse(h.hca.isFatal());
            assertNull(h.hca.error());
        }
    }
}

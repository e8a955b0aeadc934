package io.prmkit.driver.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.prmkit.mlx5.CmdHcaCap;
import io.prmkit.softhca.CapsProfile;
import io.prmkit.softhca.SoftHca;
import java.util.List;
import org.junit.jupiter.api.Test;

class BringUpTest {

    private final SoftHcaFixture fx = new SoftHcaFixture();

    private static List<String> names(List<String> trace) {
        return trace.stream().map(l -> l.substring(0, l.indexOf(' '))).toList();
    }

    @Test
    void bringUpAndTeardownRunInPrmOrderAndGiveEveryPageBack() {
        try (SoftHca hca = SoftHca.create(SoftHcaFixture.device().pages(8, 32, 16)
                .caps(CapsProfile.defaults().withGeneral("driver_version", 1)))) {
            long dmaBefore = hca.function().dma().allocatedBytes();
            try (Mlx5Device dev = Mlx5Device.open(hca.function(), fx.options())) {
                assertEquals(1, dev.issi());
                assertEquals(8 + 32 + 16, dev.pages().lent());
                assertTrue(CmdHcaCap.log_max_cq(dev.caps().general()) > 0);
                assertNull(dev.fatalError());
                long events = dev.commands().eventCompletions();
                var in = io.prmkit.driver.cmd.CommandInterface.input(io.prmkit.mlx5.NopIn.SIZE);
                io.prmkit.mlx5.NopIn.opcode$set(in, io.prmkit.mlx5.CmdOpcode.NOP);
                dev.commands().execute(in, io.prmkit.mlx5.NopIn.layout(), io.prmkit.mlx5.NopOut.SIZE, io.prmkit.mlx5.NopOut.layout());
                assertTrue(SoftHcaFixture.await(() -> dev.commands().eventCompletions() > events, 10),
                        "once the async EQ exists, commands complete by command-completion EQEs");
            }
            // The transcript of one bring-up and teardown (command, status, time), for the record.
            fx.trace.forEach(l -> System.out.println("transcript: " + l));
            List<String> order = names(fx.trace);
            List<String> expected = List.of("ENABLE_HCA", "QUERY_ISSI", "SET_ISSI", "QUERY_PAGES", "MANAGE_PAGES", "ACCESS_REG",
                    "QUERY_HCA_CAP", "QUERY_HCA_CAP", "SET_HCA_CAP");
            assertEquals(expected, order.subList(0, expected.size()), String.join("\n", fx.trace));
            int init = order.indexOf("INIT_HCA");
            assertTrue(init > order.lastIndexOf("SET_HCA_CAP"), "INIT_HCA after caps");
            assertEquals("MANAGE_PAGES", order.get(init - 1), "init pages just before INIT_HCA");
            assertEquals("SET_DRIVER_VERSION", order.get(init + 1));
            int teardown = order.indexOf("TEARDOWN_HCA");
            assertEquals("DISABLE_HCA", order.get(order.size() - 1));
            assertEquals("MANAGE_PAGES", order.get(order.size() - 2), "pages reclaimed after TEARDOWN_HCA, before DISABLE_HCA");
            assertTrue(teardown > init);
            for (String line : fx.trace) assertTrue(line.contains("status=OK"), line);
            assertEquals(dmaBefore, hca.function().dma().allocatedBytes(), "every DMA byte freed");
        }
    }
}

package io.prmkit.driver.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.prmkit.driver.cmd.CommandException;
import io.prmkit.driver.cmd.CommandInterface;
import io.prmkit.driver.cmd.CommandTrace;
import io.prmkit.mlx5.CmdOpcode;
import io.prmkit.mlx5.DeliveryStatus;
import io.prmkit.mlx5.NopIn;
import io.prmkit.mlx5.NopOut;
import io.prmkit.layout.PrmLayout;
import io.prmkit.softhca.SoftHca;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/** The command path end to end on soft-hca: delivery status errors and the detailed trace. */
class CommandPathTest {

    private final SoftHcaFixture fx = new SoftHcaFixture();

    @Test
    void aDeliveryStatusIsReportedWithItsMeaningAndTheSlotIsReused() {
        try (SoftHca hca = SoftHca.create();
             Mlx5Device dev = Mlx5Device.open(hca.function(), fx.options())) {
            var in = CommandInterface.input(NopIn.SIZE);
            NopIn.opcode$set(in, CmdOpcode.NOP);
            PrmLayout.Field reserved = NopIn.layout().fields().stream().filter(PrmLayout.Field::reserved).findFirst().orElseThrow();
            NopIn.layout().set(in, 0, reserved, 1); // a reserved input bit set: the firmware must refuse to read it
            CommandException e = assertThrows(CommandException.class,
                    () -> dev.commands().execute(in, NopIn.layout(), NopOut.SIZE, NopOut.layout()));
            assertEquals(DeliveryStatus.RES_FLD_NOT_CLR_ERR$VALUE, e.deliveryStatus());
            assertTrue(e.getMessage().contains("delivery status RES_FLD_NOT_CLR_ERR (0x9): Reserved fields not cleared"), e.getMessage());
            assertEquals(0, dev.commands().retiredSlots());
            var ok = CommandInterface.input(NopIn.SIZE);
            NopIn.opcode$set(ok, CmdOpcode.NOP);
            dev.commands().execute(ok, NopIn.layout(), NopOut.SIZE, NopOut.layout());
        }
    }

    @Test
    void theDetailedTraceDecodesInputAndOutputOfEachCommand() {
        List<String> blocks = new CopyOnWriteArrayList<>();
        try (SoftHca hca = SoftHca.create();
             Mlx5Device dev = Mlx5Device.open(hca.function(), fx.options().withTrace(CommandTrace.lines(blocks::add, true)))) {
            String enable = blocks.stream().filter(b -> b.startsWith("ENABLE_HCA")).findFirst().orElseThrow();
            assertTrue(enable.contains("\n    in:  enable_hca_in (16 bytes)"), enable);
            assertTrue(enable.contains("opcode = 0x104 ENABLE_HCA"), enable);
            assertTrue(enable.contains("\n    out: enable_hca_out (12 bytes)"), enable);
            String issi = blocks.stream().filter(b -> b.startsWith("QUERY_ISSI")).findFirst().orElseThrow();
            assertTrue(issi.contains("supported_issi_dw0 = "), issi);
        }
    }
}

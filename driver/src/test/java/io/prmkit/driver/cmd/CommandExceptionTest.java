package io.prmkit.driver.cmd;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.prmkit.mlx5.CmdOpcode;
import io.prmkit.mlx5.CmdStatus;
import io.prmkit.mlx5.EnableHcaIn;
import io.prmkit.mlx5.EnableHcaOut;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class CommandExceptionTest {

    @Test
    void commandStatusNamesCommandOpModStatusMeaningSyndromeAndSlot() {
        var e = new CommandException(CmdOpcode.CREATE_CQ$VALUE, 0, 3, 0, CmdStatus.BAD_PARAM_ERR$VALUE, 0x1f3a2b01);
        String m = e.getMessage();
        assertTrue(m.startsWith("CREATE_CQ (0x400) op_mod 0x0 on slot 3: status BAD_PARAM_ERR (0x3): Bad parameter"), m);
        assertTrue(m.contains("syndrome 0x1f3a2b01"), m);
        assertEquals(CmdStatus.BAD_PARAM_ERR, e.statusEnum());
    }

    @Test
    void deliveryStatusIsReportedInsteadOfTheCommandStatus() {
        var e = new CommandException(CmdOpcode.QUERY_HCA_CAP$VALUE, 1, 0, 0x2, 0, 0);
        assertTrue(e.getMessage().contains("delivery status TOKEN_ERR (0x2)"), e.getMessage());
    }

    /** Where the command's input declares its op_mod with an enum, the name says which variant ran: which capability page, which page stage. */
    @Test
    void anOpModWithAnEnumIsNamed() {
        assertEquals("QUERY_HCA_CAP (0x100) op_mod 0x1 (GENERAL_DEVICE_CUR)", CommandException.commandName(CmdOpcode.QUERY_HCA_CAP$VALUE, 1));
        assertEquals("QUERY_HCA_CAP (0x100) op_mod 0xe (FLOW_TABLE_MAX)", CommandException.commandName(CmdOpcode.QUERY_HCA_CAP$VALUE, 0xe));
        assertEquals("QUERY_PAGES (0x107) op_mod 0x2 (INIT_PAGES)", CommandException.commandName(CmdOpcode.QUERY_PAGES$VALUE, 2));
        assertEquals("ACCESS_REG (0x805) op_mod 0x1 (READ)", CommandException.commandName(CmdOpcode.ACCESS_REG$VALUE, 1));
        assertEquals("QUERY_HCA_CAP (0x100) op_mod 0x7f", CommandException.commandName(CmdOpcode.QUERY_HCA_CAP$VALUE, 0x7f), "a value the enum lacks stays a number");
        assertEquals("CREATE_CQ (0x400) op_mod 0x0", CommandException.commandName(CmdOpcode.CREATE_CQ$VALUE, 0), "no enum, no name");
    }

    /**
     * The spec decides which commands have named op_mods: every generated {@code *_in} whose op_mod
     * field has an enum type must get its names from commandName (through the spec's command
     * declarations, PrmCommands), so a new one fails here until a command declares it.
     */
    @Test
    void everyOpModEnumOfTheSpecIsNamed() throws Exception {
        java.nio.file.Path where = java.nio.file.Path.of(CmdOpcode.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        List<String> classes = new ArrayList<>();
        if (java.nio.file.Files.isDirectory(where)) {
            try (var files = java.nio.file.Files.list(where.resolve("io/prmkit/mlx5"))) {
                files.map(f -> f.getFileName().toString()).forEach(classes::add);
            }
        } else {
            try (var jar = new java.util.jar.JarFile(where.toFile())) {
                jar.stream().map(e -> e.getName()).filter(n -> n.startsWith("io/prmkit/mlx5/") && n.indexOf('/', 15) < 0)
                        .map(n -> n.substring(15)).forEach(classes::add);
            }
        }
        List<String> unnamed = new ArrayList<>();
        int checked = 0;
        for (String file : classes) {
            if (!file.endsWith("In.class")) continue;
            Class<?> c = Class.forName("io.prmkit.mlx5." + file.substring(0, file.length() - 6));
            var layout = (io.prmkit.layout.PrmLayout.Struct) c.getMethod("layout").invoke(null);
            var opMod = layout.field("op_mod");
            if (opMod.isEmpty() || opMod.get().enumType().isEmpty()) continue;
            checked++;
            // the enum's first named value, and whether any opcode's command name carries it
            long v = 0;
            while (opMod.get().valueName().apply(v) == null) v++;
            String want = "op_mod 0x" + Long.toHexString(v) + " (" + opMod.get().valueName().apply(v) + ")";
            final long value = v;
            boolean named = java.util.Arrays.stream(CmdOpcode.values())
                    .anyMatch(o -> CommandException.commandName((int) o.value, (int) value).endsWith(want));
            if (!named) unnamed.add(layout.name() + " (" + opMod.get().enumType() + ")");
        }
        assertTrue(checked >= 8, "the spec's *_in structures with an op_mod enum: " + checked);
        assertEquals(List.of(), unnamed, "op_mod enums commandName does not name");
    }

    @Test
    void unknownOpcodeAndStatusStillReadable() {
        var e = new CommandException(0x9999, 7, -1, 0, 0x77, 5);
        assertTrue(e.getMessage().startsWith("opcode 0x9999 op_mod 0x7: status unknown (0x77)"), e.getMessage());
    }

    @Test
    void timeoutSaysSlotAndDuration() {
        var e = new CommandTimeoutException(CmdOpcode.INIT_HCA$VALUE, 0, 2, 1500);
        assertTrue(e.getMessage().contains("INIT_HCA (0x102) op_mod 0x0 on slot 2: no completion within 1500 ms"), e.getMessage());
        assertTrue(CommandTimeoutException.noFreeSlot(CmdOpcode.NOP$VALUE, 0, 10).getMessage().contains("no free command slot"));
    }

    @Test
    void traceLineAndDetail() {
        MemorySegment in = CommandInterface.input(EnableHcaIn.SIZE);
        EnableHcaIn.opcode$set(in, CmdOpcode.ENABLE_HCA);
        MemorySegment out = CommandInterface.input(EnableHcaOut.SIZE);
        List<String> lines = new ArrayList<>();
        CommandTrace t = CommandTrace.lines(lines::add, false);
        var entry = new CommandTrace.Exchange(CmdOpcode.ENABLE_HCA$VALUE, 0, 16, 12, 0, 0, 0, 0, 85_000, in, EnableHcaIn.layout(), out,
                EnableHcaOut.layout(), null);
        t.command(entry);
        assertEquals("ENABLE_HCA (0x104) op_mod 0x0 in=16 out=12 slot=0 status=OK time=0.085ms", lines.get(0));
        CommandTrace.lines(lines::add, true).command(entry);
        assertTrue(lines.get(1).contains("in:  enable_hca_in"), lines.get(1));
        assertTrue(lines.get(1).contains("opcode = 0x104 ENABLE_HCA"), lines.get(1));
        var failed = new CommandTrace.Exchange(CmdOpcode.ENABLE_HCA$VALUE, 0, 16, 12, 1, 0, 3, 0xabc, 1_000, in, null, out, null, "x");
        assertTrue(failed.line().endsWith("slot=1 status=BAD_PARAM_ERR syndrome=0xabc time=0.001ms"), failed.line());
    }
}

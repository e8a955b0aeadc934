package io.prmkit.mlx5;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.prmkit.dsl.PrmCompiler;
import io.prmkit.dsl.SourceFile;
import io.prmkit.dsl.ir.CommandLayout;
import io.prmkit.dsl.ir.EnumLayout;
import io.prmkit.dsl.ir.LayoutModel;
import io.prmkit.dsl.ir.QualifiedName;
import io.prmkit.layout.PrmLayout;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The generated command and register registries (PrmCommands, PrmRegisters) against the bundled spec and the accessors. */
class CommandRegistryTest {

    private static LayoutModel model() throws IOException {
        List<SourceFile> files = new ArrayList<>();
        for (String p : Files.readAllLines(Path.of("src/main/resources/prm/index.txt"))) {
            if (p.isBlank()) continue;
            files.add(new SourceFile(p, Files.readString(Path.of("src/main/prm", p), StandardCharsets.UTF_8)));
        }
        return PrmCompiler.compile(files).model().orElseThrow();
    }

    /** Every opcode whose kernel-named {@code <opcode>_in} and {@code <opcode>_out} the spec declares has a command with them. */
    @Test
    void everyOpcodeWithBothStructuresIsDeclared() throws IOException {
        LayoutModel m = model();
        EnumLayout opcodes = m.enumType(new QualifiedName("mlx5", "cmd_opcode")).orElseThrow();
        int checked = 0;
        for (EnumLayout.EnumValue v : opcodes.values()) {
            String base = v.name().toLowerCase(java.util.Locale.ROOT);
            if (m.struct(base + "_in").isEmpty() || m.struct(base + "_out").isEmpty()) continue;
            CommandLayout c = m.command("mlx5", v.value()).orElse(null);
            assertNotNull(c, v.name() + " has " + base + "_in and " + base + "_out but no command declaration");
            assertEquals(base + "_in", c.in().name(), v.name());
            assertEquals(base + "_out", c.out().name(), v.name());
            checked++;
        }
        assertTrue(checked > 60, "only " + checked + " opcodes have both structures");
        for (CommandLayout c : m.commands()) {
            PrmLayout.Command g = PrmCommands.byOpcode((int) c.opcode());
            assertNotNull(g, c.name().toString());
            assertEquals(c.name().toString(), g.name());
            assertEquals(c.in().toString(), g.in().name());
            assertEquals(c.out().toString(), g.out().name());
            assertEquals(c.inBytes(), g.inBytes());
            assertEquals(c.oldestInputBytes(), g.oldestInputBytes());
            assertSame(g, PrmCommands.byName(c.name().name()));
            for (EnumLayout.EnumValue v : c.opMods()) assertEquals(v.name(), g.opModName(v.value()), c.name() + " op_mod " + v.value());
        }
        assertEquals(m.commands().size(), PrmCommands.all().size());
        assertEquals(m.registers().size(), PrmRegisters.all().size());
    }

    @Test
    void commandsCarryTheirStructuresAndOldestLengths() {
        PrmLayout.Command init = PrmCommands.byOpcode(CmdOpcode.INIT_HCA$VALUE);
        assertSame(PrmCommands.INIT_HCA, init);
        assertSame(InitHcaIn.layout(), init.in());
        assertSame(InitHcaOut.layout(), init.out());
        assertEquals(InitHcaIn.SIZE, init.inBytes());
        assertEquals(0x10, init.oldestInputBytes(), "a ConnectX-4 accepted Linux's 16-byte INIT_HCA");
        assertEquals(QueryHcaCapIn.SIZE, PrmCommands.QUERY_HCA_CAP.oldestInputBytes(), "no older length known: the whole input");
        assertEquals("GENERAL_DEVICE_CUR", PrmCommands.QUERY_HCA_CAP.opModName(QueryHcaCapOpMod.GENERAL_DEVICE_CUR$VALUE));
        assertEquals("mlx5.query_hca_cap_op_mod", PrmCommands.QUERY_HCA_CAP.opModType());
        assertNull(PrmCommands.QUERY_HCA_CAP.opModName(0x7777));
        assertNull(PrmCommands.CREATE_CQ.opModName(0), "CREATE_CQ names no op_mod");
        assertNull(PrmCommands.byOpcode(0x7777));
        assertNull(PrmCommands.byName("NO_SUCH_COMMAND"));
    }

    @Test
    void inputHasTheOpcodeAndOpModSet() {
        MemorySegment in = PrmCommands.QUERY_HCA_CAP.input(0, QueryHcaCapOpMod.ETHERNET_OFFLOADS_CUR$VALUE);
        assertEquals(QueryHcaCapIn.SIZE, in.byteSize());
        assertEquals(CmdOpcode.QUERY_HCA_CAP$VALUE, QueryHcaCapIn.opcode(in));
        assertEquals(QueryHcaCapOpMod.ETHERNET_OFFLOADS_CUR$VALUE, QueryHcaCapIn.op_mod(in));
        MemorySegment cq = PrmCommands.CREATE_CQ.input(3 * 8, 0);
        assertEquals(CreateCqIn.SIZE + 24, cq.byteSize());
        assertEquals(CmdOpcode.CREATE_CQ$VALUE, CreateCqIn.opcode(cq));
        assertThrows(IllegalArgumentException.class, () -> PrmCommands.QUERY_HCA_CAP.input(0, 0x1_0000), "op_mod wider than 16 bits");
        assertThrows(IllegalArgumentException.class, () -> PrmCommands.CREATE_CQ.input(-4, 0));
    }

    @Test
    void registerFramingIsOneCodePathForReadAndWrite() {
        PrmLayout.Register pmtu = PrmRegisters.byId(RegisterId.PMTU$VALUE);
        assertSame(PrmRegisters.PMTU, pmtu);
        assertSame(PmtuReg.layout(), pmtu.layout());
        assertSame(PrmCommands.ACCESS_REG, pmtu.command());
        assertEquals(AccessRegisterIn.register_data$BYTE_OFFSET, pmtu.inDataOffset());
        assertEquals(AccessRegisterOut.register_data$BYTE_OFFSET, pmtu.outDataOffset());
        for (var mod : AccessRegisterOpMod.values()) {
            MemorySegment in = pmtu.input(mod.value);
            assertEquals(AccessRegisterIn.register_data$BYTE_OFFSET + PmtuReg.SIZE, in.byteSize());
            assertEquals(CmdOpcode.ACCESS_REG$VALUE, AccessRegisterIn.opcode(in));
            assertEquals(mod.value, AccessRegisterIn.op_mod(in));
            assertEquals(RegisterId.PMTU$VALUE, AccessRegisterIn.register_id(in));
            MemorySegment reg = pmtu.data(in, false);
            assertEquals(PmtuReg.SIZE, reg.byteSize());
            PmtuReg.local_port$set(reg, 1);
            assertEquals(1, PmtuReg.local_port(in, AccessRegisterIn.register_data$BYTE_OFFSET), "the slice is the register inside the input");
        }
        MemorySegment out = MemorySegment.ofArray(new byte[(int) pmtu.outputLength()]);
        assertEquals(AccessRegisterOut.register_data$BYTE_OFFSET + PmtuReg.SIZE, out.byteSize());
        PmtuReg.max_mtu$set(pmtu.data(out, true), 9216);
        assertEquals(9216, PmtuReg.max_mtu(out, AccessRegisterOut.register_data$BYTE_OFFSET));
        assertThrows(IndexOutOfBoundsException.class, () -> pmtu.data(MemorySegment.ofArray(new byte[0x14]), true));
        assertSame(PrmRegisters.PPCNT, PrmRegisters.byName("PPCNT"));
        assertNull(PrmRegisters.byId(0x1));
    }
}

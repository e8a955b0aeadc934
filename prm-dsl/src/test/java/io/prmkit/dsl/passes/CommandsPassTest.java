package io.prmkit.dsl.passes;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.prmkit.dsl.CompileResult;
import io.prmkit.dsl.PrmCompiler;
import io.prmkit.dsl.SourceFile;
import io.prmkit.dsl.ir.CommandLayout;
import io.prmkit.dsl.ir.EnumLayout;
import io.prmkit.dsl.ir.LayoutModel;
import io.prmkit.dsl.ir.QualifiedName;
import io.prmkit.dsl.ir.RegisterLayout;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** What the commands pass puts in the model for well-formed command and register declarations. */
class CommandsPassTest {
    private static final String SPEC = """
            package p;
            enum op width 16 { NOP = 0x80d; INIT = 0x102; ACCESS = 0x805; }
            enum mods width 16 { WRITE = 0; READ = 1; }
            enum regs width 16 { PMTU = 0x5003; PAOS = 0x5006; }
            struct init_in size 0x10 {
                0x00 [31:16] opcode enum op;
                0x00 [15:0] reserved;
                0x04 [31:16] reserved;
                0x04 [15:0] op_mod;
                0x08 reserved : u8[8];
            }
            struct plain_out size 0x10 {
                0x00 [31:24] status;
                0x00 [23:0] reserved;
                0x04 syndrome : u32;
                0x08 reserved : u8[8];
            }
            struct reg_in size 0x10 {
                0x00 [31:16] opcode enum op;
                0x00 [15:0] reserved;
                0x04 [31:16] reserved;
                0x04 [15:0] op_mod enum mods;
                0x08 [31:16] reserved;
                0x08 [15:0] register_id enum regs;
                0x0c argument : u32;
                0x10 register_data : u32[];
            }
            struct reg_out size 0x10 {
                0x00 [31:24] status;
                0x00 [23:0] reserved;
                0x04 syndrome : u32;
                0x08 reserved : u8[8];
                0x10 register_data : u32[];
            }
            struct pmtu_reg size 0x10 { 0x00 reserved : u8[16]; }
            /// Brings the function up.
            command INIT ref "PRM INIT_HCA" { in init_in oldest 0xc; out plain_out; op_mod { ONE = 1 "the first"; TWO = 2; } }
            command OTHER_NAME { opcode NOP; in init_in; out plain_out; }
            command ACCESS { in reg_in; out reg_out; register register_id data register_data; }
            register PMTU ref "PRM PMTU" { layout pmtu_reg; }
            register OTHER { id 0x5006; layout pmtu_reg; }
            """;

    private static LayoutModel model() {
        CompileResult r = PrmCompiler.compile(List.of(new SourceFile("p.prm", SPEC)));
        assertTrue(r.model().isPresent(), r.diagnostics().toString());
        return r.model().get();
    }

    @Test
    void commandsCarryOpcodeStructuresOldestLengthAndOpMods() {
        LayoutModel m = model();
        assertEquals(List.of("ACCESS", "INIT", "OTHER_NAME"), m.commands().stream().map(c -> c.name().name()).toList());
        CommandLayout init = m.command("INIT").orElseThrow();
        assertEquals(0x102, init.opcode());
        assertEquals(Optional.of(new QualifiedName("p", "op")), init.opcodeEnum());
        assertEquals(new QualifiedName("p", "init_in"), init.in());
        assertEquals(new QualifiedName("p", "plain_out"), init.out());
        assertEquals(0x10, init.inBytes());
        assertEquals(0xc, init.oldestInputBytes());
        assertEquals(List.of("ONE", "TWO"), init.opMods().stream().map(EnumLayout.EnumValue::name).toList());
        assertEquals(Optional.of("TWO"), init.opModName(2));
        assertEquals(Optional.empty(), init.opModEnum());
        assertEquals("Brings the function up.", init.doc().text());
        assertEquals("PRM INIT_HCA", init.doc().prmRef());

        CommandLayout other = m.command(0x80d).orElseThrow();
        assertEquals("OTHER_NAME", other.name().name());
        assertEquals(0x10, other.oldestInputBytes(), "no 'oldest': the whole input");
        assertTrue(other.opMods().isEmpty());
        assertTrue(other.registers().isEmpty());

        CommandLayout access = m.command("ACCESS").orElseThrow();
        assertEquals(Optional.of(new QualifiedName("p", "mods")), access.opModEnum(), "from reg_in.op_mod's enum");
        assertEquals(Optional.of("READ"), access.opModName(1));
        assertEquals(new CommandLayout.RegisterCarrier("register_id", "register_data", 0x10, 0x10), access.registers().orElseThrow());
    }

    @Test
    void registersCarryIdLayoutAndCommand() {
        LayoutModel m = model();
        assertEquals(List.of("OTHER", "PMTU"), m.registers().stream().map(r -> r.name().name()).toList());
        RegisterLayout pmtu = m.registers().get(1);
        assertEquals(0x5003, pmtu.id());
        assertEquals(new QualifiedName("p", "pmtu_reg"), pmtu.layout());
        assertEquals(new QualifiedName("p", "ACCESS"), pmtu.command());
        assertEquals("PRM PMTU", pmtu.doc().prmRef());
        assertEquals(0x5006, m.registers().get(0).id());
    }
}

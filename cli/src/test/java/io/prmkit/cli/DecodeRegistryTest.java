package io.prmkit.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.prmkit.cli.PrmkitCliTest.Run;
import io.prmkit.generator.Names;
import io.prmkit.mlx5.CmdOpcode;
import io.prmkit.mlx5.PrmCommands;
import io.prmkit.mlx5.PrmLayout;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HexFormat;
import java.util.Locale;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The command registry end to end: every command the bundled spec declares decodes with
 * {@code decode --command} (an input built by the registry, so the opcode picks the declared
 * structure) and {@code --output}; every opcode of CmdOpcode whose input and output structures are
 * generated under the kernel's names is declared.
 */
class DecodeRegistryTest {
    @TempDir
    Path tmp;

    private String dump(MemorySegment s) throws IOException {
        Path p = Files.createTempFile(tmp, "cmd", ".hex");
        Files.writeString(p, HexFormat.of().formatHex(s.toArray(java.lang.foreign.ValueLayout.JAVA_BYTE)));
        return p.toString();
    }

    @Test
    void everyDeclaredCommandDecodesAsInputAndOutput() throws IOException {
        assertTrue(PrmCommands.all().size() > 60, "commands: " + PrmCommands.all().size());
        for (PrmLayout.Command c : PrmCommands.all()) {
            String hex = "0x" + Integer.toHexString(c.opcode());
            Run in = PrmkitCliTest.run("decode", "--command", dump(c.input()));
            assertEquals(0, in.exitCode(), c + ": " + in.err());
            assertTrue(in.out().startsWith("command " + c.simpleName() + " (" + hex + ") input: " + c.in().simpleName()), in.out());
            assertTrue(in.out().contains("opcode = " + hex), c + ": " + in.out());
            MemorySegment out = MemorySegment.ofArray(new byte[(int) c.outBytes()]);
            Run o = PrmkitCliTest.run("decode", "--output", c.simpleName().toLowerCase(Locale.ROOT), dump(out));
            assertEquals(0, o.exitCode(), c + ": " + o.err());
            assertTrue(o.out().startsWith("command " + c.simpleName() + " (" + hex + ") output: " + c.out().simpleName()), o.out());
            assertTrue(o.out().contains("status: OK (0x0)"), c + ": " + o.out());
            Run byOpcode = PrmkitCliTest.run("decode", "--output", hex, dump(out));
            assertEquals(0, byOpcode.exitCode(), c + ": " + byOpcode.err());
        }
    }

    @Test
    void everyOpcodeWithGeneratedStructuresIsDeclared() {
        int checked = 0;
        for (CmdOpcode op : CmdOpcode.values()) {
            String base = "io.prmkit.mlx5." + Names.upperCamel(op.name().toLowerCase(Locale.ROOT));
            if (!exists(base + "In") || !exists(base + "Out")) continue;
            PrmLayout.Command c = PrmCommands.byOpcode((int) op.value);
            assertNotNull(c, op + " has generated " + base + "In/Out but no command declaration");
            assertEquals(op.name().toLowerCase(Locale.ROOT) + "_in", c.in().simpleName());
            checked++;
        }
        assertTrue(checked > 60, "opcodes with both structures: " + checked);
    }

    private static boolean exists(String cls) {
        try {
            Class.forName(cls, false, DecodeRegistryTest.class.getClassLoader());
            return true;
        } catch (ClassNotFoundException e) {
            return false;
        }
    }
}

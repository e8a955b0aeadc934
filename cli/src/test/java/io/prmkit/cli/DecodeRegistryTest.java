package io.prmkit.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.prmkit.cli.PrmkitCliTest.Run;
import io.prmkit.generator.Names;
import io.prmkit.mlx5.CmdIn;
import io.prmkit.mlx5.CmdOpcode;
import io.prmkit.mlx5.CmdOut;
import io.prmkit.mlx5.CmdStatus;
import io.prmkit.mlx5.PrmCommands;
import io.prmkit.layout.PrmLayout;
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

    /**
     * Every opcode of CmdOpcode (issue 36 item 8: 121 of 196 had no output structure, so decode said
     * "unknown command" and showed not even the status): as an output, status and syndrome explained
     * through cmd_out, and for an opcode without declared structures every later byte as a raw word;
     * as an input, its title and, undeclared, its raw words too.
     */
    @Test
    void everyOpcodeDecodesAsInputAndOutput() throws IOException {
        java.util.SplittableRandom r = new java.util.SplittableRandom(36_8);
        int declared = 0;
        int undeclared = 0;
        PrmLayout.Struct outHeader = CmdOut.layout();
        PrmLayout.Struct inHeader = CmdIn.layout();
        for (CmdOpcode op : CmdOpcode.values()) {
            PrmLayout.Command c = PrmCommands.byOpcode((int) op.value);
            String title = "command " + op.name() + " (0x" + Long.toHexString(op.value) + ")";
            byte[] outBytes = new byte[c != null ? (int) c.outBytes() : 0x40];
            for (int i = 0; i < outBytes.length; i++) outBytes[i] = (byte) r.nextInt(256);
            MemorySegment out = MemorySegment.ofArray(outBytes);
            long syndrome = r.nextLong(1, 1L << 32);
            outHeader.set(out, 0, outHeader.field("status").orElseThrow(), CmdStatus.BAD_PARAM_ERR.value);
            outHeader.set(out, 0, outHeader.field("syndrome").orElseThrow(), syndrome);
            Run o = PrmkitCliTest.run("decode", "--output", op.name(), dump(out));
            assertEquals(0, o.exitCode(), op + ": " + o.err());
            assertTrue(o.out().contains("\nstatus: BAD_PARAM_ERR (0x3): Bad parameter"), op + ":\n" + o.out());
            assertTrue(o.out().contains("\nsyndrome: 0x" + Long.toHexString(syndrome) + " "), op + ":\n" + o.out());

            byte[] inBytes = new byte[c != null ? (int) c.inBytes() : 0x30];
            for (int i = 0; i < inBytes.length; i++) inBytes[i] = (byte) r.nextInt(256);
            MemorySegment in = MemorySegment.ofArray(inBytes);
            inHeader.set(in, 0, inHeader.field("opcode").orElseThrow(), op.value);
            Run i = PrmkitCliTest.run("decode", "--command", dump(in));
            assertEquals(0, i.exitCode(), op + ": " + i.err());
            if (c != null) {
                assertTrue(o.out().startsWith(title + " output: " + c.out().simpleName() + "\n"), o.out());
                assertTrue(i.out().startsWith(title + " input: " + c.in().simpleName()), i.out());
                declared++;
            } else {
                assertTrue(o.out().startsWith(title + " output: the bundled spec declares no structures for this command; its header cmd_out"
                        + " and the rest as raw words\n"), o.out());
                assertRawWords(outBytes, (int) CmdOut.SIZE, o.out());
                assertTrue(i.out().startsWith(title + " input: the bundled spec declares no structures for this command; its header cmd_in"),
                        i.out());
                assertTrue(i.out().contains("opcode = 0x" + Long.toHexString(op.value) + " " + op.name() + "\n"), i.out());
                assertRawWords(inBytes, (int) CmdIn.SIZE, i.out());
                undeclared++;
            }
        }
        assertEquals(CmdOpcode.values().length, declared + undeclared);
        assertTrue(declared >= PrmCommands.all().size() && undeclared > 100, declared + " declared, " + undeclared + " not");
    }

    /** Every whole big-endian word of {@code b} from {@code from} on, on the line of its 16-byte row with that row's offset. */
    private static void assertRawWords(byte[] b, int from, String out) {
        assertTrue(out.contains("\nraw words after the header (0x" + Integer.toHexString(from) + "..0x" + Integer.toHexString(b.length - 1) + ", "), out);
        for (int row = from; row < b.length; row += 16) {
            StringBuilder line = new StringBuilder(String.format("\n  0x%04x:", row));
            for (int w = row; w + 4 <= Math.min(row + 16, b.length); w += 4) line.append(' ').append(HexFormat.of().formatHex(b, w, w + 4));
            assertTrue(out.contains(line), "missing" + line + " in:\n" + out);
        }
    }

    /** An opcode no command has (not in CmdOpcode): its status and raw words still; a name that is no opcode is refused. */
    @Test
    void anOpcodeTheSpecDoesNotNameStillShowsItsHeader() throws IOException {
        int unknown = 0xfff0;
        while (CmdOpcode.of(unknown) != null) unknown++;
        byte[] b = new byte[0x14];
        b[0x10] = 0x12;
        Run o = PrmkitCliTest.run("decode", "--output", "0x" + Integer.toHexString(unknown), dump(MemorySegment.ofArray(b)));
        assertEquals(0, o.exitCode(), o.err());
        assertTrue(o.out().startsWith("command opcode 0x" + Integer.toHexString(unknown) + " output: no command of the bundled spec has this opcode"
                + " (it is not in cmd_opcode); its header cmd_out and the rest as raw words\n"), o.out());
        assertTrue(o.out().contains("\n  0x000c: 00000000 12000000\n"), o.out());
        assertTrue(o.out().contains("\nstatus: OK (0x0)"), o.out());
        Run big = PrmkitCliTest.run("decode", "--output", "0x10000", dump(MemorySegment.ofArray(b)));
        assertEquals(1, big.exitCode());
        assertEquals("prmkit decode: opcode 0x10000 does not fit the opcode field (0 to 0xffff)\n", big.err());
        Run name = PrmkitCliTest.run("decode", "--output", "CREATE_NOTHING", dump(MemorySegment.ofArray(b)));
        assertEquals(1, name.exitCode());
        assertTrue(name.err().startsWith("prmkit decode: unknown command 'CREATE_NOTHING' (give a command of cmd_opcode"), name.err());
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

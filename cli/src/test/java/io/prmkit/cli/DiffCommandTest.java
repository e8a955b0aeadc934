package io.prmkit.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.prmkit.cli.PrmkitCliTest.Run;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

class DiffCommandTest {
    private static final String ENUMS = """
            package p;
            enum e width 8 { A = 1; B = 2; }
            enum f width 8 { A = 1; B = 2; }
            flags fl width 8 { X = 0x1; Y = 0x2; }
            """;

    @TempDir
    Path dir;

    private Path spec(String name, String body) throws IOException {
        return Files.writeString(dir.resolve(name), ENUMS + "struct s size 0x8 {\n" + body + "}\n");
    }

    /** A join whose parts changed is a breaking change of its own line (the parts themselves did not move). */
    @Test
    void aChangedJoinIsReported() throws IOException {
        Path old = spec("old.prm", "    0x00 [31:16] v_high;\n    0x00 [15:0] v_low;\n    0x04 x : u32;\n    join v = v_high, v_low;\n");
        Path neu = spec("new.prm", "    0x00 [31:16] v_high;\n    0x00 [15:0] v_low;\n    0x04 x : u32;\n    join v = v_low, v_high;\n");
        Run run = PrmkitCliTest.run("diff", old.toString(), neu.toString());
        assertEquals(DiffCommand.BREAKING, run.exitCode(), run.out() + run.err());
        assertEquals("""
                Breaking changes (1):
                  p.s.v: join v_high [31:16], v_low [15:0] -> v_low [31:16], v_high [15:0]

                1 change: 1 breaking, 0 additive
                """, run.out().replace("\r\n", "\n"));
    }

    /**
     * Attribute changes that change the generated API or what validate() accepts are reported: an enum or
     * flags binding removed or changed (its $enum accessors go or change type), a writable field made
     * read-only (its setters move to Device), a range or mbz added; a binding added or a field made
     * writable is additive. They were not reported at all: "no changes", exit 0.
     */
    @Test
    void attributeChangesAreReportedBreakingWhereTheyBreakCallers() throws IOException {
        Path old = spec("old.prm", """
                    0x00 [31:24] a enum e;
                    0x00 [23:16] b enum e;
                    0x00 [15:8]  c;
                    0x00 [7:0]   d flags fl;
                    0x04 [31:24] g;
                    0x04 [23:16] h;
                    0x04 [15:8]  i ro;
                    0x04 [7:0]   j range 1..63;
                """);
        Path neu = spec("new.prm", """
                    0x00 [31:24] a;
                    0x00 [23:16] b enum f;
                    0x00 [15:8]  c enum e;
                    0x00 [7:0]   d;
                    0x04 [31:24] g ro;
                    0x04 [23:16] h mbz;
                    0x04 [15:8]  i;
                    0x04 [7:0]   j range 1..31;
                """);
        Run run = PrmkitCliTest.run("diff", old.toString(), neu.toString());
        assertEquals(DiffCommand.BREAKING, run.exitCode(), run.out() + run.err());
        assertEquals("", run.err());
        assertEquals("""
                Other additive changes (2):
                  p.s.c: enum binding added: p.e
                  p.s.i: access ro -> rw

                Breaking changes (6):
                  p.s.a: enum binding removed (was p.e)
                  p.s.b: enum binding p.e -> p.f
                  p.s.d: flags binding removed (was p.fl)
                  p.s.g: access rw -> ro (its setters move to the Device class)
                  p.s.h: constraints none -> mbz (validate() refuses values it accepted)
                  p.s.j: constraints range 1..63 -> range 1..31 (validate() refuses values it accepted)

                8 changes: 6 breaking, 2 additive
                """, run.out().replace("\r\n", "\n"));
        // relaxed: the other way round, nothing breaks but the bindings removed and the setters gone
        Run back = PrmkitCliTest.run("diff", "--format", "json", neu.toString(), old.toString());
        assertEquals(DiffCommand.BREAKING, back.exitCode(), back.out());
    }

    /** {@code prmkit diff old new > /dev/full} with a breaking diff: the write failure wins, exit 1 (it was 3). */
    @Test
    void aFailedWriteToStandardOutputIsExitOneEvenWhenBreaking() throws IOException {
        Path old = spec("old.prm", "    0x00 [31:0] a;\n    0x04 [31:0] b;\n");
        Path neu = spec("new.prm", "    0x00 [31:0] a;\n    0x04 [31:0] reserved;\n");
        StringWriter err = new StringWriter();
        CommandLine cli = PrmkitCli.commandLine();
        cli.setOut(StandardOutput.over(new OutputStream() {
            @Override
            public void write(int b) throws IOException {
                throw new IOException("No space left on device");
            }
        }));
        cli.setErr(new PrintWriter(err, true));
        assertEquals(new Run(1, "", "prmkit diff: cannot write to standard output: No space left on device\n"),
                new Run(cli.execute("diff", old.toString(), neu.toString()), "", err.toString()));
    }
}

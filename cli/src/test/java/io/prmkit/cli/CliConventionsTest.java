package io.prmkit.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.prmkit.cli.PrmkitCliTest.Run;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** The conventions every command shares: exit codes, message prefixes, help sections, stdout errors. */
class CliConventionsTest {
    @TempDir
    Path dir;

    private static List<String> commands() {
        return PrmkitCli.commandLine().getSubcommands().keySet().stream().filter(n -> !n.equals("help")).toList();
    }

    @Test
    void everyCommandsHelpListsTheSharedExitCodes() {
        for (String command : commands()) {
            Run run = PrmkitCliTest.run("help", command);
            assertEquals(0, run.exitCode(), command);
            String help = run.out();
            assertTrue(help.contains("Exit codes:\n  0 "), command + ":\n" + help);
            assertTrue(help.contains("\n  1 "), command + ":\n" + help);
            assertTrue(help.matches("(?s).*\n  2 +usage error \\(unknown option, missing or bad argument\\)\n.*"), command + ":\n" + help);
            assertTrue(help.matches("(?s).*\n  70 +internal error \\(a bug in prmkit\\)\n.*"), command + ":\n" + help);
            assertTrue(help.matches("(?s).*\n  141 +the reader of standard output went away.*"), command + ":\n" + help);
        }
    }

    @Test
    void everyCommandExitsTwoOnAnUnknownOptionWithItsOwnPrefix() {
        for (String command : commands()) {
            Run run = PrmkitCliTest.run(command, "--no-such-option");
            assertEquals(2, run.exitCode(), command + ": " + run.err());
            assertTrue(run.err().startsWith("prmkit " + command + ": "), run.err());
            assertTrue(run.err().contains("Unknown option: '--no-such-option'") || run.err().contains("Missing required"), run.err());
            assertTrue(run.err().endsWith("Run 'prmkit help " + command + "' for usage.\n"), run.err());
            assertEquals("", run.out());
        }
    }

    /** An empty path argument (an unset shell variable) is a usage error in words, not the current folder. */
    @Test
    void anEmptyPathIsAUsageError() {
        for (String[] args : List.of(new String[] {"generate", "-o", ""}, new String[] {"doc", "-o", ""}, new String[] {"check", ""},
                new String[] {"demo", "--pcap", ""}, new String[] {"import-ifc", "-o", "", "x.h"}, new String[] {"diff", "", "x.prm"})) {
            Run run = PrmkitCliTest.run(args);
            assertEquals(2, run.exitCode(), String.join(" ", args) + ": " + run.err());
            assertTrue(run.err().startsWith("prmkit " + args[0] + ": ") && run.err().contains("an empty path (name a file or folder"), run.err());
            assertEquals("", run.out());
        }
    }

    /** {@code prmkit layout ok.prm > /dev/full}: output that cannot be written is an error, not exit 0. */
    @Test
    void aFailedWriteToStandardOutputIsAnError() throws IOException {
        assertEquals(new PrmkitCliTest.Run(1, "", "prmkit layout: cannot write to standard output: No space left on device\n"),
                layoutWritingTo(failing("No space left on device")));
    }

    /** {@code prmkit layout | head -1}: the reader has what it wanted; the command ends as on SIGPIPE, saying nothing. */
    @Test
    void aReaderThatWentAwayEndsTheCommandQuietly() throws IOException {
        assertEquals(new PrmkitCliTest.Run(141, "", ""), layoutWritingTo(failing("Broken pipe")));
    }

    private PrmkitCliTest.Run layoutWritingTo(OutputStream stdout) throws IOException {
        Path spec = Files.writeString(dir.resolve("ok.prm"), "package p;\nstruct a { 0x00 [31:0] x; }\n");
        StringWriter err = new StringWriter();
        CommandLine cli = PrmkitCli.commandLine();
        cli.setOut(StandardOutput.over(stdout));
        cli.setErr(new PrintWriter(err, true));
        return new PrmkitCliTest.Run(cli.execute("layout", spec.toString()), "", err.toString());
    }

    private static OutputStream failing(String why) {
        return new OutputStream() {
            @Override
            public void write(int b) throws IOException {
                throw new IOException(why);
            }
        };
    }

    /** An Error (out of memory, stack overflow) goes through the same one-line internal-error path as exceptions. */
    @Test
    void anErrorIsAnInternalErrorInOneLine() {
        StringWriter err = new StringWriter();
        CommandLine cli = PrmkitCli.commandLine();
        cli.addSubcommand("deep", new CommandLine(new Deep()));
        cli.setErr(new PrintWriter(err, true));
        assertEquals(PrmkitCli.INTERNAL_ERROR, cli.execute("deep"));
        assertEquals("prmkit deep: internal error: java.lang.StackOverflowError: too deep"
                + " (a bug in prmkit; run with PRMKIT_DEBUG=1 for the stack trace)", err.toString().strip());
        assertFalse(err.toString().contains("\tat "), err.toString());
    }

    @CommandLine.Command(name = "deep")
    static final class Deep implements Runnable {
        @Override
        public void run() {
            throw new StackOverflowError("too deep");
        }
    }
}

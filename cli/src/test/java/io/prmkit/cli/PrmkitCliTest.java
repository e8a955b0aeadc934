package io.prmkit.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import picocli.CommandLine;

class PrmkitCliTest {

    /** Output and exit code of one run of the CLI. */
    record Run(int exitCode, String out, String err) {}

    static Run run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cli = PrmkitCli.commandLine();
        cli.setOut(new PrintWriter(out, true));
        cli.setErr(new PrintWriter(err, true));
        int exitCode = cli.execute(args);
        return new Run(exitCode, out.toString(), err.toString());
    }

    /** A bug inside a command reaches the user as one line naming it, not as a stack trace. */
    /**
     * Help text reads as written: picocli wraps each description element as a paragraph at 80
     * columns, so an element must be a whole paragraph (ending in '.' or ':'), and an indented
     * example line must fit unwrapped. Lines broken by hand at 110 columns came out broken twice.
     */
    @Test
    void everyCommandsHelpIsWholeParagraphsAndFitsEightyColumns() {
        for (var e : PrmkitCli.commandLine().getSubcommands().entrySet()) {
            if (e.getValue().getCommand() instanceof CommandLine.HelpCommand) continue;
            for (String d : e.getValue().getCommandSpec().usageMessage().description()) {
                if (d.startsWith("  ")) assertTrue(d.length() <= 80, e.getKey() + ": example line over 80 columns: " + d);
                else assertTrue(d.endsWith(".") || d.endsWith(":"), e.getKey() + ": description element is not a whole paragraph: " + d);
            }
            String help = run("help", e.getKey()).out();
            for (String line : help.split("\n")) assertTrue(line.length() <= 80, e.getKey() + ": help line over 80 columns: " + line);
        }
    }

    @Test
    void anEscapedExceptionIsOneLineAndExitCode70() {
        StringWriter err = new StringWriter();
        CommandLine cli = PrmkitCli.commandLine();
        cli.addSubcommand("boom", new CommandLine(new Boom()));
        cli.setErr(new PrintWriter(err, true));
        int exitCode = cli.execute("boom");
        assertEquals(PrmkitCli.INTERNAL_ERROR, exitCode);
        assertEquals("prmkit boom: internal error: java.lang.IllegalStateException: wrong turn"
                + " (a bug in prmkit; run with PRMKIT_DEBUG=1 for the stack trace)", err.toString().strip());
    }

    @CommandLine.Command(name = "boom")
    static final class Boom implements Runnable {
        @Override
        public void run() {
            throw new IllegalStateException("wrong turn");
        }
    }

    @Test
    void helpPrintsUsageAndExitsZero() {
        Run run = run("--help");

        assertEquals(0, run.exitCode());
        assertEquals("", run.err());
        assertTrue(run.out().startsWith("Usage: prmkit [-hV] [COMMAND]"), run.out());
        assertTrue(run.out().contains("Turns the NVIDIA mlx5 Programmer's Reference Manual into code."), run.out());
        assertTrue(run.out().contains("-h, --help"), run.out());
        assertTrue(run.out().contains("-V, --version"), run.out());
        assertTrue(run.out().contains("Commands:"), run.out());
        assertTrue(run.out().contains("help"), run.out());
    }

    @Test
    void helpSubcommandPrintsTheSameUsage() {
        assertEquals(run("--help").out(), run("help").out());
    }

    @Test
    void versionIsTheProjectVersion() {
        Run run = run("--version");

        assertEquals(0, run.exitCode());
        assertTrue(run.out().matches("prmkit \\d+\\.\\d+\\.\\d+(-SNAPSHOT)?\\R"), run.out());
    }

    @Test
    void noSubcommandIsAUsageError() {
        Run run = run();

        assertEquals(CommandLine.ExitCode.USAGE, run.exitCode());
        assertEquals("prmkit: Missing required subcommand\nRun 'prmkit --help' for usage.\n", run.err());
    }

    @ParameterizedTest
    @ValueSource(strings = {"--no-such-option", "-x", "--generate", "--help-me"})
    void unknownOptionsAreUsageErrors(String option) {
        Run run = run(option);

        assertEquals(CommandLine.ExitCode.USAGE, run.exitCode());
        assertTrue(run.err().startsWith("prmkit: Unknown option: '" + option + "'"), run.err());
        assertTrue(run.err().endsWith("Run 'prmkit --help' for usage.\n"), run.err());
        assertEquals("", run.out());
    }
}

package io.prmkit.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** The {@code prmkit} command: a container for the subcommands. */
@Command(
        name = "prmkit",
        mixinStandardHelpOptions = true,
        versionProvider = PrmkitCli.Version.class,
        description = "Turns the NVIDIA mlx5 Programmer's Reference Manual into code.",
        subcommands = {CommandLine.HelpCommand.class, CheckCommand.class, LayoutCommand.class, GenerateCommand.class,
            ImportIfcCommand.class, DiffCommand.class, BenchCommand.class, DocCommand.class, DecodeCommand.class})
public final class PrmkitCli implements Runnable {

    @Spec
    CommandSpec spec;

    public static void main(String[] args) {
        System.exit(commandLine().execute(args));
    }

    /** The command line with all subcommands registered. */
    public static CommandLine commandLine() {
        return new CommandLine(new PrmkitCli()).setExecutionExceptionHandler(PrmkitCli::internalError);
    }

    /** Exit code for a bug in prmkit itself (sysexits' EX_SOFTWARE), distinct from bad input (1). */
    static final int INTERNAL_ERROR = 70;

    /**
     * Bad input is reported by the commands themselves; anything that still escapes is a bug in prmkit.
     * Say so in one line rather than dump a stack trace on the user; PRMKIT_DEBUG=1 shows the trace.
     */
    private static int internalError(Exception e, CommandLine cl, CommandLine.ParseResult parsed) {
        java.io.PrintWriter err = cl.getErr();
        err.println(cl.getCommandSpec().qualifiedName() + ": internal error: " + e
                + " (a bug in prmkit; run with PRMKIT_DEBUG=1 for the stack trace)");
        if (System.getenv("PRMKIT_DEBUG") != null) e.printStackTrace(err);
        err.flush();
        return INTERNAL_ERROR;
    }

    /** Called when no subcommand is given. */
    @Override
    public void run() {
        throw new ParameterException(spec.commandLine(), "Missing required subcommand");
    }

    /** The project version, from a resource filled in by the build. */
    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            Properties properties = new Properties();
            try (InputStream in = PrmkitCli.class.getResourceAsStream("version.properties")) {
                if (in != null) {
                    properties.load(in);
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            return new String[] {"prmkit " + properties.getProperty("version", "(unknown version)")};
        }
    }
}

package io.prmkit.cli;

import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParseResult;
import picocli.CommandLine.Spec;

/**
 * The {@code prmkit} command: a container for the subcommands, and the one place that decides the
 * CLI's conventions, so every subcommand (also ones added later) follows them:
 * <ul>
 *   <li>messages are {@code prmkit COMMAND: ...}; spec problems are {@code file:line:col: error: ...};</li>
 *   <li>exit codes: 0 success, 1 errors in the input or output, 2 usage error, 70 a bug in prmkit
 *       (commands may add their own, e.g. diff's 3 for breaking changes);</li>
 *   <li>every help text ends with that exit-code list;</li>
 *   <li>a failed write to standard output is an error (exit 1), not silently lost output.</li>
 * </ul>
 */
@Command(
        name = "prmkit",
        mixinStandardHelpOptions = true,
        versionProvider = PrmkitCli.Version.class,
        description = "Turns the NVIDIA mlx5 Programmer's Reference Manual into code.",
        subcommands = {CommandLine.HelpCommand.class, DemoCommand.class, DevicesCommand.class, CheckCommand.class, LayoutCommand.class, GenerateCommand.class,
            ImportIfcCommand.class, DiffCommand.class, BenchCommand.class, DocCommand.class, DecodeCommand.class})
public final class PrmkitCli implements Runnable {

    @Spec
    CommandSpec spec;

    private static final String LOG_FORMAT = "java.util.logging.SimpleFormatter.format";

    /** Success. */
    static final int OK = 0;
    /** Errors in the input (specs, headers, files that cannot be read) or in writing the output. */
    static final int INPUT_ERROR = 1;
    /** Bad options or arguments (picocli's convention). */
    static final int USAGE = CommandLine.ExitCode.USAGE;
    /** A bug in prmkit itself (sysexits' EX_SOFTWARE). */
    static final int INTERNAL_ERROR = 70;

    public static void main(String[] args) {
        // The driver logs through System.Logger (java.util.logging here): one line a record, as the CLI's
        // own messages, not JUL's default two with a date. A -D of the same property wins.
        if (System.getProperty(LOG_FORMAT) == null) System.setProperty(LOG_FORMAT, "[%4$s] %3$s: %5$s%6$s%n");
        CommandLine cl = commandLine();
        // Our own writer over fd 1, not System.out: a PrintWriter over System.out cannot report write errors.
        cl.setOut(StandardOutput.open());
        // One writer for standard error too, set here so that every subcommand shares it: picocli would
        // otherwise make each CommandLine its own on first use, and System.exit flushes none of them (a
        // diagnostic printed with print, not println, was lost: diff's "no such file" printed nothing).
        PrintWriter err = new PrintWriter(new OutputStreamWriter(new FileOutputStream(FileDescriptor.err), StandardCharsets.UTF_8), true);
        cl.setErr(err);
        int exitCode = cl.execute(args);
        cl.getOut().flush();
        err.flush();
        System.exit(exitCode);
    }

    /** The command line with all subcommands registered and the conventions above installed. */
    public static CommandLine commandLine() {
        CommandLine cl = new CommandLine(new PrmkitCli())
                .setExecutionExceptionHandler((e, cmd, parsed) -> internalError(e, cmd))
                .setParameterExceptionHandler(PrmkitCli::usageError)
                .setExecutionStrategy(PrmkitCli::execute);
        // An empty path ("-o ''", an unset shell variable) is the current folder to Path.of: refuse it instead
        cl.registerConverter(Path.class, PrmkitCli::path);
        documentExitCodes(cl);
        return cl;
    }

    /** A path argument: any text but the empty one. */
    private static Path path(String text) {
        if (text.isEmpty()) throw new CommandLine.TypeConversionException("an empty path (name a file or folder; '.' is the current folder)");
        return Path.of(text);
    }

    /** Runs the chosen command; an Error (out of memory, stack overflow) is an internal error too, and stdout must have been written. */
    private static int execute(ParseResult parsed) {
        CommandLine leaf = parsed.asCommandLineList().get(parsed.asCommandLineList().size() - 1);
        int exitCode;
        try {
            exitCode = new CommandLine.RunLast().execute(parsed);
        } catch (Error e) {
            // Out of memory, stack overflow, a broken class path: a bug or a limit of prmkit, said in one line too.
            return internalError(e, leaf);
        }
        if (leaf.getOut().checkError() || System.out.checkError()) {
            StandardOutput own = leaf.getOut() instanceof StandardOutput o ? o : null;
            // | head: the reader has all it wanted; a message about it would only be noise
            if (own != null && own.readerGone()) return StandardOutput.READER_GONE;
            String why = own != null && own.firstError() != null && own.firstError().getMessage() != null ? ": " + own.firstError().getMessage() : "";
            leaf.getErr().println(leaf.getCommandSpec().qualifiedName() + ": cannot write to standard output" + why);
            leaf.getErr().flush();
            // what was not written cannot be relied on: 1, whatever the command found (diff's 3 for breaking changes)
            return exitCode == USAGE ? exitCode : INPUT_ERROR;
        }
        return exitCode;
    }

    /**
     * Bad input is reported by the commands themselves; anything that still escapes is a bug in prmkit.
     * Say so in one line rather than dump a stack trace on the user; PRMKIT_DEBUG=1 shows the trace.
     */
    static int internalError(Throwable e, CommandLine cl) {
        PrintWriter err = cl.getErr();
        err.println(cl.getCommandSpec().qualifiedName() + ": internal error: " + e
                + " (a bug in prmkit; run with PRMKIT_DEBUG=1 for the stack trace)");
        if (System.getenv("PRMKIT_DEBUG") != null) e.printStackTrace(err);
        err.flush();
        return INTERNAL_ERROR;
    }

    /** A usage error: what is wrong in one line, then where to find the usage (not the whole usage text). */
    private static int usageError(ParameterException e, String[] args) {
        CommandLine cl = e.getCommandLine();
        PrintWriter err = cl.getErr();
        String name = cl.getCommandSpec().qualifiedName();
        // picocli leaves an empty positional argument unmatched (check ''): say what it is
        boolean empty = e instanceof CommandLine.UnmatchedArgumentException u && u.getUnmatched().contains("");
        err.println(name + ": " + (empty ? "an empty path (name a file or folder; '.' is the current folder)" : e.getMessage()));
        if (!empty) CommandLine.UnmatchedArgumentException.printSuggestions(e, err);
        err.println(cl.getParent() == null ? "Run 'prmkit --help' for usage." : "Run 'prmkit help " + cl.getCommandName() + "' for usage.");
        err.flush();
        return USAGE;
    }

    /**
     * Gives every command's help the same exit-code section: the codes all commands share, with a
     * command's own wording for 0 and 1 and its own extra codes (from its {@code exitCodeList}).
     */
    static void documentExitCodes(CommandLine cl) {
        CommandLine.Model.UsageMessageSpec usage = cl.getCommandSpec().usageMessage();
        Map<String, String> own = usage.exitCodeList();
        Map<String, String> codes = new LinkedHashMap<>();
        codes.put("0", own.getOrDefault("0", "success"));
        codes.put("1", own.getOrDefault("1", "errors in the input (printed as file:line:col: error: ...), "
                + "or a file that cannot be read or written"));
        codes.put("2", "usage error (unknown option, missing or bad argument)");
        own.forEach((k, v) -> {
            if (!codes.containsKey(k)) codes.put(k, v);
        });
        codes.put(String.valueOf(INTERNAL_ERROR), "internal error (a bug in prmkit)");
        codes.put(String.valueOf(StandardOutput.READER_GONE), "the reader of standard output went away (as in | head); nothing printed");
        usage.exitCodeListHeading("%nExit codes:%n").exitCodeList(codes);
        for (CommandLine sub : cl.getSubcommands().values()) {
            if (!(sub.getCommand() instanceof CommandLine.HelpCommand)) documentExitCodes(sub);
        }
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

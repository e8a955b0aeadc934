package io.prmkit.cli;

import io.prmkit.dsl.Words;
import io.prmkit.dsl.ir.CommandLayout;
import io.prmkit.dsl.ir.EnumLayout;
import io.prmkit.dsl.ir.LayoutModel;
import io.prmkit.dsl.ir.QualifiedName;
import io.prmkit.dsl.ir.StructLayout;
import io.prmkit.generator.Names;
import io.prmkit.hex.HexInput;
import io.prmkit.layout.PrmLayout;
import io.prmkit.pipeline.InputFile;
import io.prmkit.pipeline.Inputs;
import java.io.PrintWriter;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code prmkit decode}: a hex dump read through the bundled mlx5 spec. The bytes are printed with
 * the generated {@code dump()} (every non-zero field with its PRM position, value and enum name,
 * reserved bits flagged) followed by the generated {@code validate()} findings. {@code --command}
 * decodes the input structure of the command the spec declares for the opcode in the mailbox
 * header, {@code --output} the output structure of a given command (for an opcode without declared
 * structures the common header, {@code cmd_in} or {@code cmd_out}, and the rest as raw words), {@code --cqe} the normal or error CQE by the opcode
 * nibble of the last byte.
 */
@Command(
        name = "decode",
        mixinStandardHelpOptions = true,
        sortOptions = false,
        description = {
            "Decodes a hex dump with the bundled mlx5 spec: every non-zero field with its PRM position, value and enum name, "
                    + "reserved bits that are set, then what validate() finds (rules, ranges, must-be-zero bits).",
            "The dump may be plain hex, xxd, hexdump -C, od -Ax -tx1, or the kernel's print_hex_dump lines with or without an offset or "
                    + "address column (log prefixes, ASCII columns and the kernel's text lines around a dump are skipped). "
                    + "FILE defaults to standard input.",
            "Examples:",
            "  prmkit decode wqe_ctrl_seg wqe.hex",
            "  prmkit decode --cqe cqe.txt           # cqe64, or err_cqe + syndrome",
            "  prmkit decode --command mailbox.hex   # the opcode's input structure",
            "  prmkit decode --output CREATE_CQ out.hex",
            "  prmkit decode --wqe --given min_wqe_inline_mode=L2 wqe.hex",
            "  prmkit decode --sq --pc 0x1c ring.hex   # WQEs up to the counter"},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:decoded (validate() findings and broken WQE rules do not change it)", "1:bad input: an unreadable file, bad hex, an unknown structure or opcode, too few bytes"})
public final class DecodeCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Parameters(paramLabel = "STRUCT|FILE", arity = "0..2",
            description = "The structure to decode the bytes as (e.g. wqe_eth_seg), then the dump FILE (- or none: standard input). "
                    + "With --command, --output or --cqe only FILE.")
    List<String> args = new ArrayList<>();

    @Option(names = "--command", description = "The bytes are a command input mailbox; its opcode picks the command's input structure (none declared: header and raw words). "
            + "With --command and --output the first 8 bytes or more will do (a command queue entry holds 16 inline).")
    boolean command;

    @Option(names = "--output", paramLabel = "OPCODE",
            description = "The bytes are the output of command OPCODE (a name like CREATE_CQ or an opcode like 0x400); status and syndrome are explained. "
                    + "A command the spec has no structures for shows its header and the rest as raw words.")
    String output;

    @Option(names = "--cqe", description = "The bytes are a 64-byte CQE: cqe64, or err_cqe when the opcode is REQ_ERR or RESP_ERR. "
            + "Two or more entries are a CQ dump, read entry by entry, a compressed session's mini CQEs one line per completion.")
    boolean cqe;

    @Option(names = "--cqe-size", paramLabel = "BYTES", defaultValue = "64",
            description = "With --cqe: 64 or 128 (a 128-byte CQE holds its cqe64 in the second half). Default: ${DEFAULT-VALUE}.")
    int cqeSize;

    @Option(names = "--wqe", description = "The bytes are one WQE, walked segment by segment with the spec's WQE declaration "
            + "(the one whose match holds, or name it: --wqe rx_wqe_cyc FILE); each broken rule is explained.")
    boolean wqe;

    @Option(names = "--sq", description = "The bytes are a send queue ring of 64-byte basic blocks; its WQEs from --cc up to "
            + "the producer counter --pc are decoded as --wqe does.")
    boolean sq;

    @Option(names = "--pc", paramLabel = "COUNTER", description = "With --sq: the producer counter (basic blocks posted).")
    String pc;

    @Option(names = "--cc", paramLabel = "COUNTER",
            description = "With --sq: the counter of the first WQE to decode. Default: a ring's length before --pc, or 0.")
    String cc;

    @Option(names = "--given", paramLabel = "NAME=VALUE", description = "With --wqe or --sq: a value the WQE's rules need "
            + "from the device, e.g. min_wqe_inline_mode=L2 or 'mkey(0x1234).len=4096'. Rules without theirs are not checked.")
    List<String> givens = new ArrayList<>();

    @Option(names = "--le-groups",
            description = "Multi-byte hex groups were printed as little-endian numbers (print_hex_dump with groupsize > 1 on x86, xxd -e).")
    boolean littleEndianGroups;

    /** Bad input: one line, exit 1. A problem of the input file is {@code file[:line]: error: ...}, others {@code prmkit decode: ...}. */
    private static final class Failure extends Exception {
        final boolean located;

        Failure(String message) {
            this(message, false);
        }

        Failure(String message, boolean located) {
            super(message);
            this.located = located;
        }
    }

    private PrintWriter out;
    private LayoutModel model;

    @Override
    public Integer call() {
        out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        int modes = (command ? 1 : 0) + (output != null ? 1 : 0) + (cqe ? 1 : 0) + (wqe ? 1 : 0) + (sq ? 1 : 0);
        if (modes > 1) throw new ParameterException(spec.commandLine(), "--command, --output, --cqe, --wqe and --sq exclude each other");
        if (!sq && (pc != null || cc != null)) throw new ParameterException(spec.commandLine(), "--pc and --cc apply to --sq only");
        if (sq && pc == null) throw new ParameterException(spec.commandLine(), "--sq needs the producer counter: --pc COUNTER");
        if (!wqe && !sq && !givens.isEmpty()) throw new ParameterException(spec.commandLine(), "--given applies to --wqe and --sq only");
        if (wqe && args.size() == 2) return decodeWqe(err, args.get(0), args.get(1));
        if (wqe || sq) {
            if (args.size() > 1) throw new ParameterException(spec.commandLine(), "with --wqe the arguments are [WQE] FILE, with --sq FILE (got "
                    + String.join(" ", args) + ")");
            return decodeWqe(err, null, args.isEmpty() ? "-" : args.get(0));
        }
        if (modes == 0 && args.isEmpty()) {
            throw new ParameterException(spec.commandLine(),
                    "name the structure to decode as (e.g. prmkit decode wqe_eth_seg FILE), or use --command, --output, --cqe, --wqe or --sq");
        }
        if (!cqe && spec.commandLine().getParseResult().hasMatchedOption("--cqe-size")) {
            throw new ParameterException(spec.commandLine(), "--cqe-size applies to --cqe only (prmkit decode --cqe --cqe-size 128 FILE)");
        }
        if (modes == 1 && args.size() > 1) {
            throw new ParameterException(spec.commandLine(),
                    "with --command, --output or --cqe the only argument is the FILE (got " + String.join(" ", args) + ")");
        }
        try {
            model = SpecInput.bundledModel(spec);
        } catch (SpecInput.Failed e) {
            return PrmkitCli.INPUT_ERROR;
        }
        try {
            // Names first: a misspelt structure or opcode must not wait for a dump typed at the terminal.
            StructLayout named = modes == 0 ? struct(args.get(0)) : null;
            Target target = output != null ? target(output) : null;
            String file = modes == 0 ? (args.size() > 1 ? args.get(1) : "-") : (args.isEmpty() ? "-" : args.get(0));
            byte[] bytes = read(file);
            if (command) {
                decodeCommandInput(bytes);
            } else if (output != null) {
                decodeCommandOutput(bytes, target);
            } else if (cqe) {
                decodeCqe(bytes);
            } else {
                decode(named, bytes, 0);
            }
            out.flush();
            return PrmkitCli.OK;
        } catch (Failure e) {
            out.flush();
            if (e.located) {
                err.println(e.getMessage());
                err.flush();
            } else {
                SpecInput.say(spec, err, e.getMessage());
            }
            return PrmkitCli.INPUT_ERROR;
        }
    }

    /** {@code --wqe [NAME] FILE} and {@code --sq FILE}. */
    private Integer decodeWqe(PrintWriter err, String name, String file) {
        try {
            model = SpecInput.bundledModel(spec);
        } catch (SpecInput.Failed e) {
            return PrmkitCli.INPUT_ERROR;
        }
        try {
            WqeDecoder d = new WqeDecoder(out, model, givens);
            // Names and numbers first: a misspelt WQE must not wait for a dump typed at the terminal.
            io.prmkit.layout.PrmLayout.Wqe named = name == null ? null : d.named(name);
            Long pcValue = pc == null ? null : WqeDecoder.number(pc, "--pc");
            Long ccValue = cc == null ? null : WqeDecoder.number(cc, "--cc");
            if (named != null) d.context(named);
            byte[] bytes = read(file);
            if (sq) d.decodeRing(bytes, pcValue, ccValue);
            else d.decodeOne(bytes, named);
            out.flush();
            return PrmkitCli.OK;
        } catch (WqeDecoder.Bad e) {
            out.flush();
            SpecInput.say(spec, err, e.getMessage());
            return PrmkitCli.INPUT_ERROR;
        } catch (Failure e) {
            out.flush();
            if (e.located) {
                err.println(e.getMessage());
                err.flush();
            } else {
                SpecInput.say(spec, err, e.getMessage());
            }
            return PrmkitCli.INPUT_ERROR;
        }
    }

    /**
     * Reads the dump through the pipeline's reader, as specs are read: at most
     * {@link Inputs#MAX_FILE_BYTES} (a dump of a few KB is usual; /dev/zero must not fill the heap),
     * strict UTF-8, problems in words. A binary file is named as such, with the way to turn it into
     * a dump, since that is the likely mistake.
     */
    private byte[] read(String file) throws Failure {
        String source = file.equals("-") ? "<stdin>" : file;
        // Typed at a terminal, a dump ends with Ctrl-D; without this line the command looks hung.
        java.io.Console console = System.console();
        if (file.equals("-") && console != null && console.isTerminal()) {
            spec.commandLine().getErr().println("prmkit decode: reading the dump from the terminal; end it with Ctrl-D (or name a FILE)");
            spec.commandLine().getErr().flush();
        }
        if (file.equals("-") && StandardInput.closedAtStart()) {
            throw new Failure("standard input is closed, and the dump was to come from it: name the dump's FILE or pipe the dump in");
        }
        InputFile in;
        try {
            in = file.equals("-") ? Inputs.read(System.in, source) : Inputs.read(Path.of(file), source);
        } catch (Inputs.Problem p) {
            throw new Failure(source + ": error: " + p.diagnostic().message(), true);
        }
        int nul = indexOfNul(in.bytes());
        Inputs.Decoded d = Inputs.decode(in);
        if (nul >= 0 || !d.ok()) {
            int at = d.ok() ? nul : nul >= 0 ? Math.min(nul, d.badOffset()) : d.badOffset();
            throw new Failure(String.format("%s: error: binary, not a hex dump (byte 0x%02x at offset %d); for raw bytes run "
                    + "xxd %s | prmkit decode ...", source, in.bytes()[at] & 0xff, at, file.equals("-") ? "FILE" : file), true);
        }
        String text = d.file().text();
        try {
            return HexInput.parse(text, source, littleEndianGroups);
        } catch (HexInput.BadHex e) {
            throw new Failure(e.getMessage(), true);
        }
    }

    private static int indexOfNul(byte[] b) {
        for (int i = 0; i < b.length; i++) if (b[i] == 0) return i;
        return -1;
    }

    private StructLayout struct(String name) throws Failure {
        Optional<StructLayout> s = name.contains(".") ? model.struct(QualifiedName.parse(name)) : model.struct(name);
        if (s.isPresent()) return s.get();
        List<String> close = model.structs().stream().map(x -> x.name().name())
                .filter(n -> n.contains(name.toLowerCase(Locale.ROOT)) || name.toLowerCase(Locale.ROOT).contains(n)).sorted().limit(5).toList();
        throw new Failure("unknown structure '" + name + "'" + (close.isEmpty() ? "" : " (did you mean " + String.join(", ", close) + "?)"));
    }

    private void decode(StructLayout s, byte[] bytes, int offset) throws Failure {
        decode(s, bytes, offset, false);
    }

    /**
     * {@code prefixOk}: a command's input or output may be given as its first bytes only, the 16 a
     * command queue entry holds inline (status and syndrome are in the first 8 of an output); the
     * rest is read as zero and, like every zero field, not shown.
     */
    private void decode(StructLayout s, byte[] bytes, int offset, boolean prefixOk) throws Failure {
        PrmLayout.Struct layout = generated(s);
        long have = bytes.length - offset;
        if (have < layout.sizeBytes()) {
            if (!prefixOk || have < COMMAND_HEADER_BYTES) {
                throw new Failure(s.name().name() + " needs " + (prefixOk ? "at least " + COMMAND_HEADER_BYTES + " of its " : "")
                        + layout.sizeBytes() + " bytes, the input has " + have);
            }
            byte[] padded = java.util.Arrays.copyOfRange(bytes, offset, offset + (int) layout.sizeBytes());
            out.print(layout.dump(MemorySegment.ofArray(padded), 0));
            out.println("  (only the first " + have + " of " + layout.sizeBytes() + " bytes were given: the rest is not decoded)");
            return;
        }
        MemorySegment seg = MemorySegment.ofArray(bytes);
        out.print(layout.dump(seg, offset));
        long extra = have - layout.sizeBytes();
        if (extra > 0) {
            boolean flexible = s.flexibleArray().isPresent();
            out.println("  (" + extra + " more bytes " + (flexible ? "after the fixed part: the flexible array " + s.flexibleArray().get().name()
                    : "after the structure, not decoded") + ")");
        }
        List<String> problems = layout.validate(seg, offset, c -> true);
        if (problems.isEmpty()) {
            out.println("validate: ok");
        } else {
            out.println("validate: " + Words.plural(problems.size(), "problem"));
            problems.forEach(p -> out.println("  " + p));
        }
    }

    /** The generated class's layout metadata (the same accessors a driver uses). */
    private static PrmLayout.Struct generated(StructLayout s) throws Failure {
        String cls = "io.prmkit." + s.name().pkg() + "." + Names.upperCamel(s.name().name());
        try {
            return (PrmLayout.Struct) Class.forName(cls).getMethod("layout").invoke(null);
        } catch (ReflectiveOperationException | ClassCastException e) {
            throw new Failure("no generated class " + cls + " for " + s.name() + " (" + e.getClass().getSimpleName() + ")");
        }
    }

    /** Every command input and output starts with an 8-byte header (opcode and op_mod; status and syndrome). */
    private static final int COMMAND_HEADER_BYTES = 8;

    /**
     * A command input: the declared command's input structure, decoded whole; an opcode the spec
     * declares no command for, its header ({@code cmd_in}: opcode and op_mod) and the rest as raw words.
     */
    private void decodeCommandInput(byte[] bytes) throws Failure {
        if (bytes.length < 2) throw new Failure("a command input starts with a 2-byte opcode, the input has " + bytes.length + " byte");
        long opcode = headerOpcode(bytes);
        Optional<CommandLayout> declared = model.command(PACKAGE, opcode);
        if (declared.isEmpty()) {
            StructLayout h = header(IN_HEADER);
            out.println("command " + title(opcode) + " input: " + undeclared(opcode) + "; its header " + h.name().name()
                    + " and the rest as raw words");
            decodeHeader(h, bytes);
            return;
        }
        CommandLayout c = declared.get();
        StructLayout s = structOf(c.in());
        out.println("command " + c.name().name() + " (0x" + Long.toHexString(opcode) + ") input: " + s.name().name()
                + c.opModName(opMod(bytes, s)).map(m -> ", op_mod " + m).orElse(""));
        decode(s, bytes, 0, true);
    }

    /**
     * A command output: the declared command's output structure, decoded whole; an opcode the spec
     * declares no command for, its header ({@code cmd_out}) and the rest as raw words. Either way
     * status and syndrome are read through {@code cmd_out}, the header every output begins with, and
     * explained.
     */
    private void decodeCommandOutput(byte[] bytes, Target target) throws Failure {
        StructLayout h = header(OUT_HEADER);
        if (target.declared().isPresent()) {
            CommandLayout c = target.declared().get();
            StructLayout s = structOf(c.out());
            out.println("command " + c.name().name() + " (0x" + Long.toHexString(c.opcode()) + ") output: " + s.name().name());
            decode(s, bytes, 0, true);
        } else {
            out.println("command " + title(target.opcode()) + " output: " + undeclared(target.opcode()) + "; its header "
                    + h.name().name() + " and the rest as raw words");
            decodeHeader(h, bytes);
        }
        PrmLayout.Struct layout = generated(h);
        MemorySegment seg = MemorySegment.ofArray(java.util.Arrays.copyOf(bytes, (int) Math.max(bytes.length, layout.sizeBytes())));
        long status = layout.get(seg, 0, layout.field("status").orElseThrow());
        out.println("status: " + describe(enumOf("cmd_status"), status));
        long syndrome = layout.get(seg, 0, layout.field("syndrome").orElseThrow());
        out.println("syndrome: 0x" + Long.toHexString(syndrome) + (syndrome == 0 ? "" : " (firmware-specific: quote it with the status when asking for help)"));
    }

    /** The headers every command input and output begins with (mlx5_ifc.h's cmd_in and cmd_out). */
    private static final String IN_HEADER = "cmd_in";
    private static final String OUT_HEADER = "cmd_out";

    private StructLayout header(String name) throws Failure {
        return model.struct(QualifiedName.parse(PACKAGE + "." + name)).orElseThrow(() -> new Failure("the bundled spec has no structure " + name));
    }

    /** {@code CREATE_CQ (0x400)}, or {@code opcode 0x9999} for a number the opcode enum does not name. */
    private String title(long opcode) throws Failure {
        return opcodeName(opcode).map(n -> n + " (0x" + Long.toHexString(opcode) + ")").orElse("opcode 0x" + Long.toHexString(opcode));
    }

    /** Why an opcode is decoded by its header only. */
    private String undeclared(long opcode) throws Failure {
        return opcodeName(opcode).isPresent() ? "the bundled spec declares no structures for this command"
                : "no command of the bundled spec has this opcode (it is not in " + opcodeEnum().name().name() + ")";
    }

    /**
     * The header {@code h} decoded (an input shorter than the header is read as zero-padded, as a
     * prefix of any command is), then every byte after it as big-endian 32-bit words, four a line
     * with their offset: what the spec cannot name is shown, not dropped.
     */
    private void decodeHeader(StructLayout h, byte[] bytes) throws Failure {
        decode(h, java.util.Arrays.copyOf(bytes, (int) Math.min(bytes.length, h.sizeBytes())), 0, true);
        int from = (int) h.sizeBytes();
        if (bytes.length <= from) return;
        int words = (bytes.length - from) / 4;
        int tail = (bytes.length - from) % 4;
        out.println("raw words after the header (0x" + Integer.toHexString(from) + "..0x" + Integer.toHexString(bytes.length - 1) + ", "
                + Words.plural(words, "word") + (tail == 0 ? "" : " and " + Words.plural(tail, "byte")) + "):");
        for (int row = from; row < bytes.length; row += 16) {
            StringBuilder line = new StringBuilder(String.format("  0x%04x:", row));
            for (int w = row; w < Math.min(row + 16, bytes.length); w += 4) {
                line.append(' ');
                if (w + 4 <= bytes.length) {
                    line.append(String.format("%08x", ((bytes[w] & 0xff) << 24) | ((bytes[w + 1] & 0xff) << 16) | ((bytes[w + 2] & 0xff) << 8) | (bytes[w + 3] & 0xff)));
                } else {
                    for (int k = w; k < bytes.length; k++) line.append(String.format("%02x", bytes[k]));
                }
            }
            out.println(line);
        }
    }

    /**
     * One CQE, or a run of them (a CQ ring dump: the input holds two or more whole entries). In a run,
     * a compressed session's title is followed by the entries it owns: those holding its mini CQE
     * arrays (the next one, then every eighth after the title) are shown as one line per completion,
     * the others are said to be inside the session, as the driver and the kernel skip them.
     */
    private void decodeCqe(byte[] bytes) throws Failure {
        if (cqeSize != 64 && cqeSize != 128) throw new ParameterException(spec.commandLine(), "--cqe-size is 64 or 128, not " + cqeSize);
        int entries = bytes.length / cqeSize;
        if (entries < 2) {
            decodeCqe(bytes, 0, bytes.length);
            return;
        }
        out.println("CQ dump: " + Words.plural(entries, "entry") + " of " + cqeSize + " bytes");
        PrmLayout.Struct cqe = generated(struct("cqe64"));
        PrmLayout.Struct mini = generated(struct("mini_cqe8"));
        MemorySegment seg = MemorySegment.ofArray(bytes);
        int half = cqeSize == 128 ? 64 : 0;
        for (int i = 0; i < entries; i++) {
            out.println();
            out.println("entry " + i + " (offset 0x" + Integer.toHexString(i * cqeSize) + "):");
            long n = decodeCqe(bytes, i * cqeSize, (i + 1) * cqeSize);
            if (n >= 0) i = session(seg, cqe, mini, half, i, n, entries);
        }
        int rest = bytes.length - entries * cqeSize;
        if (rest > 0) out.println("(" + rest + " more bytes, not a whole entry, not decoded)");
    }

    /** Mini CQEs in one CQE-sized entry of a compressed session. */
    private static final int MINIS_PER_ENTRY = 8;

    /**
     * The entries after the title at {@code title} of a session of {@code n} completions, which spans
     * entries {@code title .. title + n - 1}: completions {@code f .. f + 7} are the mini CQEs of entry
     * {@code title + max(1, f)}; the entries between are skipped. Returns the session's last entry in the dump.
     */
    private int session(MemorySegment seg, PrmLayout.Struct cqe, PrmLayout.Struct mini, int half, int title, long n, int entries) {
        long counter = cqe.get(seg, (long) title * cqeSize + half, cqe.field("wqe_counter").orElseThrow());
        long end = title + n - 1;
        int last = (int) Math.min(end, entries - 1);
        int shown = title;
        for (long first = 0; first < n; first += MINIS_PER_ENTRY) {
            int e = (int) (title + Math.max(1, first));
            if (e > last) break;
            if (e > shown + 1) skipped(shown + 1, e - 1, title);
            int count = (int) Math.min(MINIS_PER_ENTRY, n - first);
            out.println();
            out.println("entry " + e + " (offset 0x" + Integer.toHexString(e * cqeSize) + "): mini CQEs of the session at entry " + title
                    + ", completions " + first + "-" + (first + count - 1));
            for (int k = 0; k < count; k++) {
                long m = (long) e * cqeSize + half + (long) k * mini.sizeBytes();
                out.println("  mini " + k + ": completion " + (first + k) + ", wqe_counter 0x" + Long.toHexString((counter + first + k) & 0xffff)
                        + ", byte_cnt " + mini.get(seg, m, mini.field("byte_cnt").orElseThrow())
                        + ", rx_hash_result 0x" + Long.toHexString(mini.get(seg, m, mini.field("rx_hash_result").orElseThrow())));
            }
            shown = e;
        }
        if (last > shown) skipped(shown + 1, last, title);
        if (end > last) out.println("  (the session runs past the end of the dump: " + (end - last) + " more entries)");
        return last;
    }

    /** Entries {@code from .. to} of the session at {@code title} that hold no mini CQEs: read by nobody. */
    private void skipped(int from, int to, int title) {
        out.println();
        out.println((from == to ? "entry " + from + " (offset 0x" + Integer.toHexString(from * cqeSize) + ")"
                : "entries " + from + "-" + to + " (offsets 0x" + Integer.toHexString(from * cqeSize) + "-0x" + Integer.toHexString(to * cqeSize) + ")")
                + ": inside the session at entry " + title + " (not read)");
    }

    /**
     * Decodes the CQE at {@code base}, the input taken to end at {@code end}; returns the completions
     * of the compressed session it is the title of, else -1.
     */
    private long decodeCqe(byte[] bytes, int base, int end) throws Failure {
        StructLayout cqe64 = struct("cqe64");
        PrmLayout.Struct layout = generated(cqe64);
        // A 128-byte CQE keeps the cqe64 in its second half (the first holds inline data), as the kernel reads it.
        int at = base + (cqeSize == 128 ? 64 : 0);
        if (bytes.length < at + layout.sizeBytes()) {
            throw new Failure("a " + cqeSize + "-byte CQE needs " + (at + layout.sizeBytes()) + " bytes, the input has " + bytes.length);
        }
        MemorySegment seg = MemorySegment.ofArray(bytes);
        long opcode = layout.get(seg, at, layout.field("opcode").orElseThrow());
        EnumLayout opcodes = enumOf("cqe_opcode");
        String name = opcodes.byValue(opcode).map(EnumLayout.EnumValue::name).orElse("unknown");
        boolean error = name.equals("REQ_ERR") || name.equals("RESP_ERR");
        StructLayout s = error ? struct("err_cqe") : cqe64;
        out.println("CQE opcode " + name + " (0x" + Long.toHexString(opcode) + "): " + s.name().name()
                + (cqeSize == 128 ? " (bytes 0x40..0x7f of the 128-byte CQE)" : ""));
        decode(s, end == bytes.length ? bytes : java.util.Arrays.copyOf(bytes, end), at);
        long format = layout.get(seg, at, layout.field("cqe_format").orElseThrow());
        long session = -1;
        if (!error && enumOf("cqe_format").byValue(format).map(EnumLayout.EnumValue::name).orElse("").equals("COMPRESSED")) {
            // What the driver (RxQueue.startSession) and the kernel (mlx5e_decompress_cqes_start) read next.
            long n = layout.get(seg, at, layout.field("byte_cnt").orElseThrow());
            long counter = layout.get(seg, at, layout.field("wqe_counter").orElseThrow());
            out.println("compressed session title: byte_cnt = " + n + " completions, wqe_counter 0x" + Long.toHexString(counter)
                    + " and on; each completion's byte count and hash is a mini CQE (prmkit decode mini_cqe8): completions 0-7 in the"
                    + " next CQ entry, 8-15 in the entry 8 after this one, 16-23 in the entry 16 after it, and so on");
            if (n >= 1) session = n;
        }
        if (error) {
            PrmLayout.Struct err = generated(s);
            long syndrome = err.get(seg, at, err.field("syndrome").orElseThrow());
            out.println("syndrome: " + describe(enumOf("cqe_error_syndrome"), syndrome));
            long vendor = err.get(seg, at, err.field("vendor_err_synd").orElseThrow());
            if (vendor != 0) out.println("vendor syndrome: 0x" + Long.toHexString(vendor) + " (device-specific)");
        }
        return session;
    }

    /** The spec package of the bundled mlx5 commands. */
    private static final String PACKAGE = "mlx5";

    /** A command's structure (the model holds every one: a LayoutModel invariant). */
    private StructLayout structOf(io.prmkit.dsl.ir.QualifiedName name) throws Failure {
        return model.struct(name).orElseThrow(() -> new Failure("the bundled spec has no structure " + name));
    }

    /** The opcode in a command input's header, read through {@code cmd_in}; a short input is read as zero-padded. */
    private long headerOpcode(byte[] bytes) throws Failure {
        PrmLayout.Struct in = generated(header(IN_HEADER));
        byte[] head = java.util.Arrays.copyOf(bytes, (int) Math.max(bytes.length, in.sizeBytes()));
        return in.get(MemorySegment.ofArray(head), 0, in.field("opcode").orElseThrow());
    }

    /** The op_mod of a command input, when its structure has one and the input holds it. */
    private long opMod(byte[] bytes, StructLayout s) throws Failure {
        PrmLayout.Struct in = generated(s);
        Optional<PrmLayout.Field> f = in.field("op_mod");
        if (f.isEmpty() || f.get().kind() != PrmLayout.Kind.BITS || bytes.length < COMMAND_HEADER_BYTES) return -1;
        return in.get(MemorySegment.ofArray(bytes), 0, f.get());
    }

    /** The opcode enum: the one {@code cmd_in}'s opcode field is bound to. */
    private EnumLayout opcodeEnum() throws Failure {
        StructLayout h = header(IN_HEADER);
        return h.members().stream().filter(m -> m.name().equals("opcode")).findFirst().flatMap(m -> m.enumType()).flatMap(model::enumType)
                .orElseThrow(() -> new Failure("the bundled spec's " + IN_HEADER + ".opcode names no enum"));
    }

    /** The name the opcode enum gives {@code opcode}, if any. */
    private Optional<String> opcodeName(long opcode) throws Failure {
        return opcodeEnum().byValue(opcode).map(EnumLayout.EnumValue::name);
    }

    /** What {@code --output} names: an opcode, and the command the spec declares for it, if any. */
    private record Target(long opcode, Optional<CommandLayout> declared) {}

    /**
     * The command named (case ignored, e.g. create_cq: a declared command or any name of the opcode
     * enum) or numbered (0x400, 1024: any opcode the 16-bit field holds) by {@code text}.
     */
    private Target target(String text) throws Failure {
        String t = text.strip();
        long v;
        try {
            v = t.startsWith("0x") || t.startsWith("0X") ? Long.parseLong(t.substring(2), 16) : Long.parseLong(t);
        } catch (NumberFormatException e) {
            for (CommandLayout c : model.commands()) {
                if (c.name().pkg().equals(PACKAGE) && c.name().name().equalsIgnoreCase(t)) return new Target(c.opcode(), Optional.of(c));
            }
            Optional<EnumLayout.EnumValue> named = opcodeEnum().values().stream().filter(x -> x.name().equalsIgnoreCase(t)).findFirst();
            if (named.isEmpty()) {
                throw new Failure("unknown command '" + t + "' (give a command of " + opcodeEnum().name().name() + ", e.g. CREATE_CQ, or an opcode like 0x400)");
            }
            v = named.get().value();
        }
        long max = (1L << opcodeEnum().width()) - 1;
        if (v < 0 || v > max) throw new Failure("opcode " + t + " does not fit the opcode field (0 to 0x" + Long.toHexString(max) + ")");
        return new Target(v, model.command(PACKAGE, v));
    }

    private EnumLayout enumOf(String name) throws Failure {
        return model.enums().stream().filter(e -> e.name().name().equals(name)).findFirst()
                .orElseThrow(() -> new Failure("the bundled spec has no enum " + name));
    }

    /** {@code LOCAL_PROT_ERR (0x4): Local protection error. Likely cause: ...}, or {@code unknown (0x77)}. */
    static String describe(EnumLayout e, long value) {
        Optional<EnumLayout.EnumValue> v = e.byValue(value);
        if (v.isEmpty()) return "unknown (0x" + Long.toHexString(value) + ", not in enum " + e.name().name() + ")";
        StringBuilder sb = new StringBuilder(v.get().name()).append(" (0x").append(Long.toHexString(value)).append(')');
        if (!v.get().doc().text().isEmpty()) sb.append(": ").append(v.get().doc().text());
        if (!v.get().detail().isEmpty()) sb.append(". Likely cause: ").append(v.get().detail());
        return sb.toString();
    }
}

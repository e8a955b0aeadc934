package io.prmkit.dsl.importer;

import io.prmkit.dsl.CompileResult;
import io.prmkit.dsl.Diagnostic;
import io.prmkit.dsl.PrmCompiler;
import io.prmkit.dsl.Severity;
import io.prmkit.dsl.SourceFile;
import io.prmkit.dsl.SourceLocation;
import io.prmkit.dsl.importer.CModel.Aggregate;
import io.prmkit.dsl.importer.CModel.BitField;
import io.prmkit.dsl.importer.CModel.Decl;
import io.prmkit.dsl.importer.CModel.Define;
import io.prmkit.dsl.importer.CModel.EnumDecl;
import io.prmkit.dsl.importer.CModel.EnumValue;
import io.prmkit.dsl.importer.CModel.Expr;
import io.prmkit.dsl.importer.CModel.Inline;
import io.prmkit.dsl.importer.CModel.Member;
import io.prmkit.dsl.importer.CModel.TypeRef;
import io.prmkit.dsl.ir.LayoutModel;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Translates headers written in the Linux mlx5_ifc convention (each PRM field an {@code u8} array
 * with one element per bit) into prm DSL text. The output is DSL, not IR, so it can be reviewed,
 * checked by the normal compiler and diffed like a hand-written spec.
 *
 * <p>Translation: {@code struct mlx5_ifc_X_bits} becomes {@code struct X} (prefix and suffix
 * dropped, every member name kept verbatim, reserved ones included) in the sequential form with an
 * explicit {@code size}; {@code u8 f[0xN]} becomes {@code f : 0xN}; {@code u8 f[C][0xN]} an array
 * ({@code u8[C]} for bytes); {@code u8 f[][0xN]} a flexible array; nested, arrayed and flexible
 * struct/union members keep their type; a named inline union ({@code union {...} f;}) becomes a
 * top-level union named {@code <outer>_<f>}; an unnamed one an inline DSL union. Fields the DSL
 * cannot hold as one scalar (wider than 64 bits, or a long run not dword-aligned) become arrays
 * of equal elements covering the same bits. A {@code reserved_at_X} whose X is not its offset (a
 * typo in the header) gets the offset's name. Named enums become DSL enums; an anonymous enum
 * becomes an enum named by its values' common prefix, or constants when there is none; integer
 * #defines become constants. Every such adaptation is a note or warning at its header line;
 * anything that cannot be translated is an error there, and then there is no output at all.
 * See docs/import-ifc.md.
 */
public final class IfcImporter {

    private static final Pattern RESERVED_AT = Pattern.compile("reserved_at_([0-9a-fA-F]+)");
    /** Words that start a DSL item and so can never be a name (see Prm.g4's name rule). */
    private static final Set<String> HARD_KEYWORDS = Set.of("package", "import", "struct", "union", "enum", "flags", "const", "rule");

    /** Type names the DSL resolves itself: a structure of that name could never be used as a member's type. */
    private static final Set<String> BUILTIN_TYPES = Set.of("u8", "u16", "u32", "u64");

    private final ImportOptions options;
    private final List<Diagnostic> diags = new ArrayList<>();
    private final Map<String, Agg> aggsByTag = new HashMap<>();
    private final Map<String, String> topNames = new HashMap<>(); // DSL name -> what claimed it
    private final Map<String, Define> defines = new HashMap<>();
    private final Map<String, Long> constValues = new HashMap<>();
    private final Set<String> evaluating = new HashSet<>();
    private final Map<EnumDecl, String> enumNames = new IdentityHashMap<>();
    private final Map<EnumDecl, List<Long>> enumValues = new IdentityHashMap<>();
    private final Map<Aggregate, Long> sizes = new IdentityHashMap<>();
    private final Set<Aggregate> sizing = java.util.Collections.newSetFromMap(new IdentityHashMap<>());

    private record Agg(Aggregate agg, String file, String dslName) {}

    private record Header(SourceFile src, List<Decl> decls, String outName) {}

    /** An error already recorded as a diagnostic; unwinds the current declaration. */
    private static final class Abort extends RuntimeException {
        Abort() {
            super(null, null, false, false);
        }
    }

    private IfcImporter(ImportOptions options) {
        this.options = options;
    }

    private static final Pattern INCLUDE = Pattern.compile("(?m)^[ \\t]*#[ \\t]*include[ \\t]+\"([^\"]+)\"");

    /**
     * Reads the headers (names in diagnostics are the paths as given) and imports them. A header's
     * {@code #include "x.h"} that exists next to it is imported too (before it), so
     * {@code mlx5_ifc.h} alone brings {@code mlx5_ifc_fpga.h} along.
     */
    public static ImportResult importHeaders(List<Path> headers, ImportOptions options) throws IOException {
        Map<Path, SourceFile> files = new java.util.LinkedHashMap<>();
        for (Path h : headers) {
            read(h, files, new HashSet<>());
        }
        return importSources(List.copyOf(files.values()), options);
    }

    private static void read(Path h, Map<Path, SourceFile> files, Set<Path> stack) throws IOException {
        Path key = h.toAbsolutePath().normalize();
        if (files.containsKey(key) || !stack.add(key)) return;
        String text = Files.readString(h, StandardCharsets.UTF_8);
        Matcher m = INCLUDE.matcher(text);
        while (m.find()) {
            Path inc = h.resolveSibling(m.group(1));
            if (Files.isRegularFile(inc)) read(inc, files, stack);
        }
        files.put(key, new SourceFile(h.toString(), text));
    }

    /** Imports header texts; headers may use each other's structures, enums and #defines. */
    public static ImportResult importSources(List<SourceFile> headers, ImportOptions options) {
        return new IfcImporter(options).run(headers);
    }

    private ImportResult run(List<SourceFile> sources) {
        List<Header> headers = new ArrayList<>();
        Set<String> outNames = new HashSet<>();
        for (SourceFile s : sources) {
            IfcParser.Parsed parsed = IfcParser.parse(s.name(), s.text());
            diags.addAll(parsed.diagnostics());
            String base = Path.of(s.name()).getFileName().toString().replaceFirst("\\.[^.]*$", "");
            String out = base + ".prm";
            if (!outNames.add(out)) {
                error(new SourceLocation(s.name(), 0, 0), "two headers would both be written to " + out + "; rename one");
            }
            headers.add(new Header(s, parsed.decls(), out));
        }
        declareNames(headers);
        evaluateEnums(headers);
        List<SourceFile> out = new ArrayList<>();
        Map<String, List<SourceLocation>> origins = new HashMap<>();
        for (Header h : headers) {
            Unmarked u = unmark(emit(h));
            out.add(new SourceFile(h.outName(), u.text()));
            origins.put(h.outName(), u.lines());
        }
        LayoutModel model = null;
        if (diags.stream().noneMatch(Diagnostic::isError)) model = check(out, origins);
        // a failing member can be reached twice (sizing, then emission): report it once
        List<Diagnostic> notes = new ArrayList<>(new java.util.LinkedHashSet<>(diags));
        notes.sort(Comparator.comparing(Diagnostic::location));
        boolean failed = notes.stream().anyMatch(Diagnostic::isError);
        return new ImportResult(failed ? List.of() : out, notes, failed ? java.util.Optional.empty() : java.util.Optional.of(model));
    }

    // ---- the import's own check: no DSL leaves here that does not compile ---------------------

    /**
     * Every emitted line that comes from a header construct starts with a marker naming the
     * construct's header line and column ({@link #mark}); {@link #unmark} strips them and keeps the
     * position of each line, so a compiler message about the DSL can be told at the header line.
     */
    private final List<SourceLocation> marks = new ArrayList<>();

    private static final char MARK = '\u0001', MARK_END = '\u0002';

    private String mark(String file, int line, int col) {
        marks.add(new SourceLocation(file, line, col));
        return MARK + Integer.toString(marks.size() - 1) + MARK_END;
    }

    /** DSL text without markers; {@code lines.get(i)} is the header position of line i + 1 (the last marked line above it). */
    private record Unmarked(String text, List<SourceLocation> lines) {}

    private Unmarked unmark(String marked) {
        StringBuilder text = new StringBuilder(marked.length());
        List<SourceLocation> lines = new ArrayList<>();
        SourceLocation current = null;
        for (String line : marked.split("\n", -1)) {
            if (!line.isEmpty() && line.charAt(0) == MARK) {
                int end = line.indexOf(MARK_END);
                current = marks.get(Integer.parseInt(line.substring(1, end)));
                line = line.substring(end + 1);
            } else if (!line.isEmpty() && !Character.isWhitespace(line.charAt(0)) && line.charAt(0) != '}') {
                current = null; // an unmarked top-level line (a comment, the package): no header line of its own
            }
            lines.add(current);
            text.append(line).append('\n');
        }
        text.setLength(text.length() - 1);
        return new Unmarked(text.toString(), lines);
    }

    /**
     * Compiles what was emitted. The translation rules above are meant to emit only DSL that
     * compiles; where a header shape slips past them, the compiler's message is reported at the
     * header line the DSL came from (with the DSL line), the import fails and nothing is written.
     */
    private LayoutModel check(List<SourceFile> out, Map<String, List<SourceLocation>> origins) {
        CompileResult compiled = PrmCompiler.compile(out);
        if (compiled.model().isPresent()) return compiled.model().get();
        Map<String, SourceFile> byName = new HashMap<>();
        for (SourceFile f : out) byName.put(f.name(), f);
        for (Diagnostic d : compiled.errors()) {
            SourceLocation dsl = d.location();
            List<SourceLocation> lines = origins.get(dsl.file());
            SourceLocation at = lines != null && dsl.line() >= 1 && dsl.line() <= lines.size() ? lines.get(dsl.line() - 1) : null;
            String emitted = byName.containsKey(dsl.file()) && dsl.line() >= 1 ? byName.get(dsl.file()).line(dsl.line()).strip() : "";
            String msg = "no DSL translation for this construct: its import '" + emitted + "' does not compile (" + d.message()
                    + "); import a copy of the header with this declaration rewritten in the shapes docs/import-ifc.md lists,"
                    + " and report the header to prmkit";
            error(at != null ? at : new SourceLocation(dsl.file(), dsl.line(), dsl.column()), msg);
        }
        return null;
    }

    // ---- diagnostics --------------------------------------------------------------------------

    private void error(SourceLocation at, String msg) {
        diags.add(Diagnostic.error(at, msg));
    }

    private Abort abort(String file, int line, int col, String msg) {
        error(new SourceLocation(file, line, col), msg);
        return new Abort();
    }

    private void note(String file, int line, int col, Severity sev, String msg) {
        diags.add(new Diagnostic(sev, new SourceLocation(file, line, col), msg, List.of()));
    }

    // ---- names --------------------------------------------------------------------------------

    static String structName(String tag) {
        String n = tag.startsWith("mlx5_ifc_") ? tag.substring("mlx5_ifc_".length()) : tag;
        if (n.endsWith("_bits") && n.length() > "_bits".length()) n = n.substring(0, n.length() - "_bits".length());
        return n;
    }

    static String enumName(String tag) {
        if (tag.startsWith("mlx5_ifc_")) return tag.substring("mlx5_ifc_".length());
        if (tag.startsWith("mlx5_")) return tag.substring("mlx5_".length());
        return tag;
    }

    /** The common prefix of all names, cut at an underscore, without MLX5_, lower-cased; "" if none. */
    static String commonPrefixName(List<String> names) {
        String prefix = names.get(0);
        for (String n : names) {
            int i = 0;
            while (i < prefix.length() && i < n.length() && prefix.charAt(i) == n.charAt(i)) i++;
            prefix = prefix.substring(0, i);
        }
        int cut = prefix.lastIndexOf('_');
        // a name that is entirely the prefix keeps the prefix whole (MLX5_FOO, MLX5_FOO_BAR -> MLX5_FOO)
        String whole = prefix;
        if (names.contains(whole) && cut >= 0 && names.stream().allMatch(n -> n.equals(whole) || n.charAt(whole.length()) == '_')) {
            cut = prefix.length();
        }
        prefix = cut < 0 ? "" : prefix.substring(0, cut);
        if (prefix.startsWith("MLX5_")) prefix = prefix.substring(5);
        else if (prefix.equals("MLX5")) prefix = "";
        while (prefix.endsWith("_")) prefix = prefix.substring(0, prefix.length() - 1);
        return prefix.toLowerCase(java.util.Locale.ROOT);
    }

    private boolean claim(String name, String what, String file, int line, int col) {
        if (HARD_KEYWORDS.contains(name)) {
            error(new SourceLocation(file, line, col), what + " would be named '" + name + "', a DSL keyword");
            return false;
        }
        String prev = topNames.putIfAbsent(name, what);
        if (prev != null) {
            error(new SourceLocation(file, line, col), what + " would be named '" + name + "', already taken by " + prev);
            return false;
        }
        return true;
    }

    private void declareNames(List<Header> headers) {
        // structures first: their names are fixed by the header, enums adapt around them
        for (Header h : headers) {
            for (Decl d : h.decls()) {
                if (d instanceof Aggregate a) {
                    String file = h.src().name();
                    Agg prev = aggsByTag.get(a.tag());
                    if (prev != null) {
                        error(new SourceLocation(file, a.line(), a.column()), (a.union() ? "union " : "struct ") + a.tag()
                                + " is defined twice (first at " + prev.file() + ":" + prev.agg().line() + ")");
                        continue;
                    }
                    String name = structName(a.tag());
                    if (BUILTIN_TYPES.contains(name)) {
                        error(new SourceLocation(file, a.line(), a.column()), (a.union() ? "union " : "struct ") + a.tag() + " would be named '"
                                + name + "', which the DSL reads as its built-in type; rename it in a copy of the header");
                    } else {
                        claim(name, (a.union() ? "union " : "struct ") + a.tag() + " (" + file + ":" + a.line() + ")", file, a.line(), a.column());
                    }
                    aggsByTag.put(a.tag(), new Agg(a, file, name));
                } else if (d instanceof Define def) {
                    Define prev = defines.putIfAbsent(def.name(), def);
                    if (prev != null) {
                        note(h.src().name(), def.line(), def.column(), Severity.WARNING,
                                "#define " + def.name() + " redefined; the first definition (line " + prev.line() + ") is used");
                    }
                }
            }
        }
    }

    // ---- constants ----------------------------------------------------------------------------

    private Long lookup(String name) {
        Long v = constValues.get(name);
        if (v != null) return v;
        Define d = defines.get(name);
        if (d == null || !evaluating.add(name)) return null;
        try {
            long value = ConstEval.eval(d.body().tokens(), this::lookup);
            constValues.put(name, value);
            return value;
        } catch (ConstEval.EvalException e) {
            return null;
        } finally {
            evaluating.remove(name);
        }
    }

    private long eval(Expr e, String file, String what) {
        try {
            return ConstEval.eval(e.tokens(), this::lookup);
        } catch (ConstEval.EvalException ex) {
            int line = ex.at == null ? e.line() : ex.at.line();
            int col = ex.at == null ? e.column() : ex.at.column();
            throw abort(file, line, col, what + ": " + ex.getMessage());
        }
    }

    private void evaluateEnums(List<Header> headers) {
        for (Header h : headers) {
            String file = h.src().name();
            for (Decl d : h.decls()) {
                if (!(d instanceof EnumDecl e)) continue;
                List<Long> values = new ArrayList<>();
                long next = 0;
                boolean ok = true;
                for (EnumValue v : e.values()) {
                    try {
                        long value = v.expr() == null ? next : eval(v.expr(), file, "value of " + v.name());
                        if (constValues.putIfAbsent(v.name(), value) != null || defines.containsKey(v.name())) {
                            error(new SourceLocation(file, v.line(), v.column()), "enum constant " + v.name() + " is defined twice");
                            ok = false;
                        }
                        values.add(value);
                        next = value + 1;
                    } catch (Abort a) {
                        ok = false;
                    }
                }
                if (!ok || e.values().isEmpty()) {
                    if (e.values().isEmpty()) note(file, e.line(), e.column(), Severity.WARNING, "empty enum ignored");
                    continue;
                }
                enumValues.put(e, values);
                String name;
                String what = "enum at " + file + ":" + e.line();
                if (e.tag() != null) {
                    name = enumName(e.tag());
                    if (!claim(name, "enum " + e.tag() + " (" + file + ":" + e.line() + ")", file, e.line(), e.column())) continue;
                } else {
                    String base = e.values().size() < 2 ? "" : commonPrefixName(e.values().stream().map(EnumValue::name).toList());
                    if (base.isEmpty() || HARD_KEYWORDS.contains(base) || !Character.isLetter(base.charAt(0))) {
                        continue; // constants
                    }
                    name = base;
                    for (int i = 2; topNames.containsKey(name); i++) name = base + "_" + i;
                    topNames.put(name, what);
                }
                enumNames.put(e, name);
            }
        }
    }

    private static String hex(long v) {
        return "0x" + Long.toHexString(v);
    }

    // ---- emission -----------------------------------------------------------------------------

    private String emit(Header h) {
        String file = h.src().name();
        StringBuilder out = new StringBuilder();
        StringBuilder commands = new StringBuilder();
        out.append("// Imported from ").append(Path.of(file).getFileName()).append(" by prmkit import-ifc.\n");
        out.append("// Generated: regenerate from the header rather than editing.\n");
        out.append("package ").append(options.packageName()).append(";\n\n");
        for (Decl d : h.decls()) {
            try {
                if (d instanceof Define def) {
                    Long v = lookup(def.name());
                    if (v == null) {
                        note(file, def.line(), def.column(), Severity.WARNING,
                                "#define " + def.name() + " is not an integer constant (" + def.body().text() + "); not imported");
                    } else if (claim(def.name(), "#define " + def.name(), file, def.line(), def.column())) {
                        out.append(mark(file, def.line(), def.column())).append("const ").append(def.name()).append(" = ").append(hex(v)).append(";\n\n");
                    }
                } else if (d instanceof EnumDecl e) {
                    emitEnum(e, file, out);
                    emitCommands(e, file, commands);
                } else if (d instanceof Aggregate a) {
                    Agg agg = aggsByTag.get(a.tag());
                    if (agg == null || agg.agg() != a || a.broken()) continue; // reported already
                    StringBuilder sb = new StringBuilder();
                    emitAggregate(a, agg.dslName(), file, sb);
                    out.append(sb);
                }
            } catch (Abort ignored) {
                // reported; go on so one run shows every problem
            }
        }
        if (!commands.isEmpty()) {
            out.append("// Commands: each MLX5_CMD_OP_* whose <command>_in and <command>_out the headers define.\n").append(commands);
        }
        return out.toString();
    }

    private static final String OPCODE_PREFIX = "MLX5_CMD_OP_";

    /**
     * The kernel's structure names that do not follow {@code <opcode>_in}/{@code _out} (mlx5_ifc.h up
     * to 6.1): the pairs the kernel's own command code uses for these opcodes.
     */
    private static final Map<String, String> COMMAND_STRUCTS = Map.of(
            "ACCESS_REG", "access_register",
            "2ERR_QP", "qp_2err",
            "2RST_QP", "qp_2rst",
            "SQD_RTS_QP", "sqd2rts_qp",
            "SET_FLOW_TABLE_ENTRY", "set_fte",
            "QUERY_FLOW_TABLE_ENTRY", "query_fte",
            "DELETE_FLOW_TABLE_ENTRY", "delete_fte",
            "QUERY_SF_PARTITION", "query_sf_partitions",
            "ARM_DCT_FOR_KEY_VIOLATION", "arm_dct");

    /**
     * Command declarations for the {@code MLX5_CMD_OP_*} values of {@code e} whose input and output
     * structures exist and begin with the command headers (input: a 16-bit opcode; output: status and
     * syndrome at 0x04). A command is named after its opcode ({@code 2ERR_QP}, not a DSL name,
     * becomes {@code QP_2ERR}); a pair that lacks a header is a note, not a command.
     */
    private void emitCommands(EnumDecl e, String file, StringBuilder out) {
        List<Long> values = enumValues.get(e);
        if (values == null) return;
        Map<String, Agg> byName = new HashMap<>();
        for (Agg a : aggsByTag.values()) byName.put(a.dslName(), a);
        for (EnumValue v : e.values()) {
            if (!v.name().startsWith(OPCODE_PREFIX)) continue;
            String op = v.name().substring(OPCODE_PREFIX.length());
            String base = COMMAND_STRUCTS.getOrDefault(op, op.toLowerCase(java.util.Locale.ROOT));
            Agg in = byName.get(base + "_in");
            Agg outAgg = byName.get(base + "_out");
            if (in == null || outAgg == null || in.agg().broken() || outAgg.agg().broken()) continue;
            if (!startsWith(in, List.of("opcode"), List.of(16L)) || !startsWith(outAgg, List.of("status", "", "syndrome"), List.of(8L, 24L, 32L))) {
                note(file, v.line(), v.column(), Severity.NOTE, base + "_in/_out do not begin with the command headers; no command declared for " + v.name());
                continue;
            }
            String name = Character.isDigit(op.charAt(0)) && op.indexOf('_') > 0
                    ? op.substring(op.indexOf('_') + 1) + "_" + op.substring(0, op.indexOf('_')) : op;
            if (!claim(name, "command " + v.name(), file, v.line(), v.column())) continue;
            out.append("command ").append(name).append(" { opcode ").append(v.name()).append("; in ").append(base).append("_in; out ")
                    .append(base).append("_out; }\n");
        }
    }

    /** Whether the aggregate's first members have these names ("" for any) and widths in bits. */
    private boolean startsWith(Agg a, List<String> names, List<Long> widths) {
        List<Member> members = a.agg().members();
        if (a.agg().union() || members.size() < names.size()) return false;
        try {
            for (int i = 0; i < names.size(); i++) {
                if (!(members.get(i) instanceof BitField f) || f.count() != null) return false;
                if (!names.get(i).isEmpty() && !f.name().equals(names.get(i))) return false;
                if (memberBits(f, a.file()) != widths.get(i)) return false;
            }
        } catch (Abort reported) {
            return false;
        }
        return true;
    }

    private void emitEnum(EnumDecl e, String file, StringBuilder out) {
        List<Long> values = enumValues.get(e);
        if (values == null) return;
        String name = enumNames.get(e);
        if (name == null) {
            for (int i = 0; i < values.size(); i++) {
                EnumValue v = e.values().get(i);
                if (claim(v.name(), "enum constant " + v.name(), file, v.line(), v.column())) {
                    out.append(mark(file, v.line(), v.column())).append("const ").append(v.name()).append(" = ").append(hex(values.get(i))).append(";\n");
                }
            }
            out.append('\n');
            return;
        }
        out.append(mark(file, e.line(), e.column())).append("enum ").append(name).append(" {\n");
        for (int i = 0; i < values.size(); i++) {
            EnumValue v = e.values().get(i);
            out.append(mark(file, v.line(), v.column())).append("    ").append(e.values().get(i).name()).append(" = ").append(hex(values.get(i))).append(";\n");
        }
        out.append("}\n\n");
    }

    /** Size in bits of an aggregate (flexible arrays count 0, as in C). */
    private long bits(Aggregate a, String file) {
        Long known = sizes.get(a);
        if (known != null) return known;
        if (!sizing.add(a)) throw abort(file, a.line(), a.column(), (a.tag() == null ? "inline aggregate" : a.tag()) + " contains itself");
        try {
            long total = 0;
            for (Member m : a.members()) {
                long b = memberBits(m, file);
                total = a.union() ? Math.max(total, b) : total + b;
            }
            sizes.put(a, total);
            return total;
        } finally {
            sizing.remove(a);
        }
    }

    private long memberBits(Member m, String file) {
        if (m instanceof BitField f) {
            long w = width(f, file);
            if (f.count() == null) return w;
            if (f.count().isEmpty()) return 0;
            return count(f.count(), f.name(), file) * w;
        } else if (m instanceof TypeRef r) {
            Agg target = target(r, file);
            long b = bits(target.agg(), target.file());
            if (r.count() == null) return b;
            if (r.count().isEmpty()) return 0;
            return count(r.count(), r.name(), file) * b;
        } else {
            return bits(((Inline) m).body(), file);
        }
    }

    /** Largest field width in bits and largest element count: far above any PRM structure (2^24). */
    private static final long MAX_COUNT = 1L << 24;

    private long width(BitField f, String file) {
        long w = eval(f.width(), file, "width of " + f.name());
        if (w < 1 || w > MAX_COUNT)
            throw abort(file, f.width().line(), f.width().column(), "width of " + f.name() + " is " + w + " bits, outside 1.." + MAX_COUNT);
        return w;
    }

    /** An array count; 0 means a flexible array. */
    private long count(Expr e, String name, String file) {
        long n = eval(e, file, "element count of " + name);
        if (n < 0 || n > MAX_COUNT)
            throw abort(file, e.line(), e.column(), "element count of " + name + " is " + n + ", outside 0.." + MAX_COUNT + " (0: a flexible array)");
        return n;
    }

    private Agg target(TypeRef r, String file) {
        Agg t = aggsByTag.get(r.tag());
        if (t == null) {
            throw abort(file, r.line(), r.column(), (r.union() ? "union " : "struct ") + r.tag() + " (member " + r.name()
                    + ") is not defined in the imported headers");
        }
        if (t.agg().union() != r.union()) {
            throw abort(file, r.line(), r.column(), r.tag() + " is declared as a " + (t.agg().union() ? "union" : "struct")
                    + " but used as a " + (r.union() ? "union" : "struct"));
        }
        return t;
    }

    private void emitAggregate(Aggregate a, String dslName, String file, StringBuilder out) {
        long size = bits(a, file);
        if (a.members().isEmpty()) throw abort(file, a.line(), a.column(), dslName + " has no members");
        if (size % 8 != 0) throw abort(file, a.line(), a.column(), dslName + " is " + size + " bits, not a whole number of bytes");
        StringBuilder body = new StringBuilder();
        StringBuilder before = new StringBuilder();
        emitMembers(a.members(), a.union(), 0, "    ", dslName, file, body, before, true, true);
        out.append(before);
        out.append(mark(file, a.line(), a.column())).append(a.union() ? "union " : "struct ").append(dslName);
        // a structure of only a flexible array has size 0 (as in GNU C); the DSL then derives it
        if (size > 0) out.append(" size ").append(hex(size / 8));
        out.append(" {\n");
        out.append(body).append("}\n\n");
    }

    /**
     * Writes members starting at bit {@code base}; returns the bits they take. {@code last} says
     * whether this member list ends its top-level declaration (flexible arrays must).
     */
    private long emitMembers(List<Member> members, boolean union, long base, String indent, String owner, String file,
                             StringBuilder out, StringBuilder before, boolean last, boolean topLevel) {
        long off = base;
        long extent = 0;
        boolean failed = false;
        for (int i = 0; i < members.size(); i++) {
            Member m = members.get(i);
            boolean isLast = last && (union || i == members.size() - 1);
            long at = union ? base : off;
            long b;
            try {
                if (m instanceof Inline in && in.name() == null) {
                    Aggregate body = in.body();
                    if (body.union() == union) {
                        b = emitMembers(body.members(), union, at, indent, owner, file, out, before, isLast, topLevel);
                    } else if (body.union()) {
                        if (!union && !topLevel) {
                            throw abort(file, in.line(), in.column(), "anonymous union inside a struct alternative of a union in " + owner
                                    + " has no DSL form (a DSL union's alternatives are members or flat struct groups): in a copy of"
                                    + " the header, define it as a top-level union mlx5_ifc_NAME_bits and use it as a named member");
                        }
                        out.append(mark(file, in.line(), in.column())).append(indent).append("union {\n");
                        b = emitMembers(body.members(), true, at, indent + "    ", owner, file, out, before, isLast, false);
                        out.append(indent).append("}\n");
                    } else if (body.members().size() == 1) {
                        // a one-member struct alternative is that member
                        b = emitMembers(body.members(), false, at, indent, owner, file, out, before, isLast, false);
                    } else {
                        if (!(body.members().get(0) instanceof BitField || body.members().get(0) instanceof TypeRef)) {
                            throw abort(file, in.line(), in.column(),
                                    "anonymous struct inside a union in " + owner + " starting with an inline aggregate has no DSL form");
                        }
                        String group = memberName(body.members().get(0)) + "_group";
                        note(file, in.line(), in.column(), Severity.NOTE, "anonymous struct inside a union in " + owner
                                + " imported as the alternative group " + group);
                        out.append(mark(file, in.line(), in.column())).append(indent).append("struct ").append(group).append(" {\n");
                        b = emitMembers(body.members(), false, at, indent + "    ", owner, file, out, before, isLast, false);
                        out.append(indent).append("}\n");
                    }
                } else {
                    String name = memberName(m);
                    if (HARD_KEYWORDS.contains(name)) {
                        throw abort(file, m.line(), m.column(), "member " + owner + "." + name + " is named with a DSL keyword that cannot be a name");
                    }
                    String type = memberType(m, at, owner, file, before, isLast);
                    name = reservedName(m, name, at, owner, file);
                    // a blank line before each new dword, as the kernel groups its fields
                    if (!union && at != base && at % 32 == 0 && out.length() > 0 && !endsWithBlankLine(out)) out.append('\n');
                    out.append(mark(file, m.line(), m.column())).append(indent).append(name).append(" : ").append(type).append(";\n");
                    b = memberBits(m, file);
                }
            } catch (Abort e) {
                failed = true; // reported; go on to report the other members too
                continue;
            }
            if (union) extent = Math.max(extent, b);
            else off += b;
        }
        if (failed) throw new Abort();
        return union ? extent : off - base;
    }

    private static boolean endsWithBlankLine(StringBuilder sb) {
        int n = sb.length();
        return n >= 2 && sb.charAt(n - 1) == '\n' && sb.charAt(n - 2) == '\n';
    }

    private static String memberName(Member m) {
        if (m instanceof BitField f) return f.name();
        if (m instanceof TypeRef r) return r.name();
        return ((Inline) m).name();
    }

    /**
     * A {@code reserved_at_X} whose X is not its offset (a typo in the header, e.g. mkc's
     * reserved_at_1d9 at bit 0x1da) gets the name the DSL derives from the offset: reserved names
     * are not API, and the DSL checks them because a wrong one usually means a wrong layout.
     */
    private String reservedName(Member m, String name, long at, String owner, String file) {
        Matcher r = RESERVED_AT.matcher(name);
        if (!r.matches()) return name;
        String canonical = "reserved_at_" + Long.toHexString(at);
        if (!name.equals(canonical)) {
            note(file, m.line(), m.column(), Severity.WARNING, owner + "." + name + " starts at bit " + hex(at)
                    + "; imported as " + canonical);
        }
        return canonical;
    }

    private String memberType(Member m, long at, String owner, String file, StringBuilder before, boolean last) {
        if (m instanceof BitField f) {
            long w = width(f, file);
            if (f.count() == null) return scalar(f, at, w, owner, file);
            if (f.count().isEmpty() || count(f.count(), f.name(), file) == 0) {
                requireLast(f, owner, file, last);
                return (w == 8 ? "u8" : hex(w)) + "[]";
            }
            long n = count(f.count(), f.name(), file);
            if (w == 8 && at % 8 == 0) return "u8[" + n + "]";
            if (w > 64) {
                // the IR has no arrays of arrays: cover the same bits with one array of smaller elements
                String type = scalar(f, at, n * w, owner, file);
                return type;
            }
            for (long i = 0; i < n; i++) {
                if (!legalScalar(at + i * w, w)) {
                    throw abort(file, f.line(), f.column(), owner + "." + f.name() + ": element " + i + " of " + hex(w)
                            + " bits at bit " + hex(at + i * w) + " would cross a dword boundary; the DSL has no such array");
                }
            }
            return hex(w) + "[" + n + "]";
        }
        if (m instanceof TypeRef r) {
            Agg t = target(r, file);
            if (r.count() == null) return t.dslName();
            if (r.count().isEmpty() || count(r.count(), r.name(), file) == 0) {
                requireLast(r, owner, file, last);
                return t.dslName() + "[]";
            }
            return t.dslName() + "[" + count(r.count(), r.name(), file) + "]";
        }
        Inline in = (Inline) m;
        String synth = owner + "_" + in.name();
        if (!claim(synth, "the inline " + (in.body().union() ? "union " : "struct ") + owner + "." + in.name(), file, in.line(), in.column())) {
            throw new Abort();
        }
        emitAggregate(in.body(), synth, file, before);
        note(file, in.line(), in.column(), Severity.NOTE, "inline " + (in.body().union() ? "union " : "struct ") + owner + "." + in.name()
                + " imported as the top-level " + (in.body().union() ? "union " : "struct ") + synth);
        return synth;
    }

    private void requireLast(Member m, String owner, String file, boolean last) {
        if (!last) {
            throw abort(file, m.line(), m.column(), "flexible array " + owner + "." + memberName(m)
                    + " is not the last member; the DSL (like C) allows one only at the end");
        }
    }

    /** A DSL bit field: 1..64 bits; below 32 within one dword, from 32 on dword-aligned. */
    static boolean legalScalar(long at, long w) {
        if (w < 1 || w > 64) return false;
        return w < 32 ? (at % 32) + w <= 32 : at % 32 == 0;
    }

    private String scalar(BitField f, long at, long w, String owner, String file) {
        if (legalScalar(at, w)) return hex(w);
        long e = 1;
        for (long cand : new long[] {32, 16, 8}) {
            if (w % cand == 0 && at % cand == 0) {
                e = cand;
                break;
            }
        }
        String type = (e == 8 ? "u8" : hex(e)) + "[" + (w / e) + "]";
        if (!f.name().startsWith("reserved")) {
            note(file, f.line(), f.column(), Severity.NOTE, owner + "." + f.name() + " (" + hex(w) + " bits at bit " + hex(at)
                    + ") is not one DSL bit field; imported as " + type);
        }
        return type;
    }
}

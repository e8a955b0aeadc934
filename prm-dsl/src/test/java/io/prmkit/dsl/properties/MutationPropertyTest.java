package io.prmkit.dsl.properties;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.prmkit.dsl.CompileResult;
import io.prmkit.dsl.Diagnostic;
import io.prmkit.dsl.DiagnosticPrinter;
import io.prmkit.dsl.PrmCompiler;
import io.prmkit.dsl.SourceFile;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.statistics.Statistics;
import io.prmkit.dsl.parser.SpecParser;

/**
 * Random edits of valid specs never make the compiler throw or hang: the answer is always a model
 * or diagnostics, each of which renders.
 */
class MutationPropertyTest {
    private static final String[] TOKENS = {
        "package", "import", "struct", "union", "enum", "flags", "const", "rule", "size", "order", "little", "gaps",
        "reserved", "ref", "since", "width", "tag", "when", "ro", "in", "out", "range", "pow2", "log2", "mbz", "cap",
        "{", "}", "[", "]", "(", ")", ";", ":", "..", ".", "=", "||", "&&", "==", "<<", "!", "~", "-", "/", "%",
        "0", "1", "31", "32", "0x40", "64", "65", "0xffffffffffffffff", "0x10000000000000000", "99999999999999999999",
        "x", "reserved_at_0", "u8", "u16", "u32", "u64", "u8[4]", "[]", "\"doc\"", "\"", "\\", "///", "/*", "*/", "//",
        "\n", "\t", " ", "@", "\u00e9", "\u0000", "((((((((", "))))))))",
    };

    static final String BASE = """
            package mlx5;
            import mlx5.caps;
            const BB = 64 "basic block";
            enum opcode width 8 { NOP = 0; SEND = 0x0a "send"; }
            flags fl width 4 { A = 0; B = 3; }
            union u { a : u32; struct g when 2 { x : 16; y : 16; } }
            /// Control segment.
            struct ctrl size 0x10 ref "PRM 8.9.4.1" {
                0x00 [31:24] opc_mod;
                0x00 [23:8]  wqe_index;
                0x00 [7:0]   op enum opcode "what";
                0x04 [31:8]  qpn;
                0x04 [7:4]   f flags fl cap hca_cap.swp;
                0x04 [3:0]   ds range 1..15;
                0x08 v : u;
                0x0c union tag op {
                    0x0c [31:0] imm when SEND;
                    struct other when NOP { 0x0c [31:16] p; 0x0c [15:0] reserved; }
                }
                rule r: ds != 0 && (op == opcode.SEND || p < BB) "m";
            }
            struct seq_in { opcode : 0x10; reserved : 0x10; data : u8[8]; pas : u64[]; }
            """;
    static final String CAPS = "package mlx5.caps;\nstruct hca_cap { 0x00 [31] swp; 0x00 [30:0] reserved; }\n";

    private static final java.util.regex.Pattern NUMBER = java.util.regex.Pattern.compile("\\b(0x[0-9a-fA-F]+|[0-9]+)\\b");
    private static final java.util.regex.Pattern WORD = java.util.regex.Pattern.compile("\\b[A-Za-z_][A-Za-z0-9_]*\\b");
    private static final String[] NUMBERS = {"0", "1", "2", "3", "4", "7", "8", "15", "16", "24", "31", "32", "33", "63", "64",
        "0x04", "0x06", "0x08", "0x0c", "0x10", "0x100", "0xffffffff", "0xffffffffffffffff"};

    /**
     * Applies edits of two kinds: character-level ones that mostly break the syntax, and row- or
     * token-level ones (other numbers, other names, lines dropped, doubled or swapped) that mostly
     * keep it and so exercise the semantic passes.
     */
    static String mutate(String text, Random r, int edits) {
        StringBuilder sb = new StringBuilder(text);
        for (int i = 0; i < edits; i++) {
            int at = sb.length() == 0 ? 0 : r.nextInt(sb.length() + 1);
            switch (r.nextInt(11)) {
                case 0 -> sb.delete(at, Math.min(sb.length(), at + 1 + r.nextInt(12)));
                case 1 -> sb.insert(at, " " + TOKENS[r.nextInt(TOKENS.length)] + " ");
                case 2 -> sb.insert(at, (char) r.nextInt(0x250));
                case 3 -> {
                    int from = r.nextInt(sb.length() + 1);
                    int to = Math.min(sb.length(), from + r.nextInt(40));
                    sb.insert(at, sb.substring(from, to));
                }
                case 4 -> {
                    if (sb.length() > 0) sb.setCharAt(Math.min(at, sb.length() - 1), "0123456789:;[]{}x".charAt(r.nextInt(17)));
                }
                case 5, 6 -> replaceOne(sb, NUMBER, NUMBERS[r.nextInt(NUMBERS.length)], r);
                case 7 -> {
                    List<String> words = WORD.matcher(sb).results().map(m -> m.group()).toList();
                    if (!words.isEmpty()) replaceOne(sb, WORD, words.get(r.nextInt(words.size())), r);
                }
                default -> {
                    List<String> lines = new java.util.ArrayList<>(List.of(sb.toString().split("\n", -1)));
                    int a = r.nextInt(lines.size());
                    int b = r.nextInt(lines.size());
                    switch (r.nextInt(3)) {
                        case 0 -> lines.remove(a);
                        case 1 -> lines.add(b, lines.get(a));
                        default -> java.util.Collections.swap(lines, a, b);
                    }
                    sb.setLength(0);
                    sb.append(String.join("\n", lines));
                }
            }
        }
        return sb.toString();
    }

    private static void replaceOne(StringBuilder sb, java.util.regex.Pattern p, String replacement, Random r) {
        List<java.util.regex.MatchResult> hits = p.matcher(sb).results().toList();
        if (hits.isEmpty()) return;
        java.util.regex.MatchResult m = hits.get(r.nextInt(hits.size()));
        sb.replace(m.start(), m.end(), replacement);
    }

    @Property(tries = 1000)
    void mutatedSpecsGiveOnlyDiagnostics(@ForAll long seed, @ForAll @IntRange(min = 1, max = 6) int edits) {
        String text = mutate(BASE, new Random(seed), edits);
        List<SourceFile> files = List.of(new SourceFile("m.prm", text), new SourceFile("caps.prm", CAPS));
        CompileResult r = assertTimeoutPreemptively(Duration.ofSeconds(10), () -> PrmCompiler.compile(files), () -> "hung on\n" + text);
        assertEquals(r.hasErrors(), r.model().isEmpty());
        boolean parses = SpecParser.parse(files.get(0)).ast().isPresent();
        Statistics.collect(!parses ? "syntax error" : r.hasErrors() ? "semantic error" : "valid");
        Map<String, SourceFile> byName = Map.of("m.prm", files.get(0), "caps.prm", files.get(1));
        for (Diagnostic d : r.diagnostics()) {
            assertTrue(d.location().line() >= 1, d::toString);
            assertTrue(DiagnosticPrinter.render(d, byName).startsWith(d.location() + ": "));
        }
        // The edits must reach the semantic passes often enough to test them too, not just the parser.
        Statistics.coverage(c -> {
            c.check("semantic error").percentage(p -> p >= 5);
            c.check("valid").percentage(p -> p >= 1);
        });
    }

    @Property(tries = 300)
    void mutatedRandomLayoutsGiveOnlyDiagnostics(@ForAll long seed, @ForAll @IntRange(min = 1, max = 8) int dwords,
                                                 @ForAll @IntRange(min = 1, max = 4) int edits) {
        RandomLayout layout = RandomLayout.generate(seed, dwords);
        Random r = new Random(seed ^ 0x5deece66dL);
        String text = mutate(r.nextBoolean() ? layout.sequentialSpec() : layout.prmSpec(layout.rows()), r, edits);
        CompileResult res = assertTimeoutPreemptively(Duration.ofSeconds(10),
                () -> PrmCompiler.compile(List.of(new SourceFile("g.prm", text))), () -> "hung on\n" + text);
        assertEquals(res.hasErrors(), res.model().isEmpty());
    }

    @Property(tries = 1)
    void baseSpecIsValid() {
        CompileResult r = PrmCompiler.compile(List.of(new SourceFile("m.prm", BASE), new SourceFile("caps.prm", CAPS)));
        assertEquals(List.of(), r.diagnostics());
    }
}

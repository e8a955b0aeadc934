package io.prmkit.driver.arch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The architecture rule "no hand-computed offset" for frame headers: the code that builds, parses and
 * rewrites Ethernet/VLAN/IP/TCP/UDP headers (driver {@code dp}, the demo's traffic, soft-hca {@code wire} and
 * {@code datapath}) reads and writes them through the net spec's generated accessors
 * ({@code io.prmkit.net}). Two checks over the Java sources, neither tied to a constant's name:
 * <ol>
 *   <li>no memory access ({@code get}, {@code set}, {@code copy}, {@code mismatch}, {@code asSlice})
 *       and no call of a generated accessor class ({@code io.prmkit.net.*}, {@code io.prmkit.mlx5.*})
 *       takes an argument that adds a number to something ({@code off + 12}) or is a bare non-zero
 *       number where an offset goes ({@code get(L, 14)});</li>
 *   <li>multi-byte loads and stores with a hand-made {@code ValueLayout} (any short, int or long
 *       layout, whatever the constant is called) happen only in the methods listed in
 *       {@link #BYTE_STREAMS}, which treat bytes as a stream (checksums, hashes, copies, payload).</li>
 * </ol>
 * An allowance that matches nothing fails too, so the list cannot go stale.
 */
class FrameHeaderAccessTest {

    /** Source folders checked, relative to the driver module (tests run there). */
    static final List<Path> ROOTS = List.of(
            Path.of("src/main/java/io/prmkit/driver/dp"),
            Path.of("../demo/src/main/java/io/prmkit/demo"),
            Path.of("../soft-hca/src/main/java/io/prmkit/softhca/wire"),
            Path.of("../soft-hca/src/main/java/io/prmkit/softhca/datapath"));

    /**
     * Class#method (or Class#* for every method) -> why its multi-byte raw accesses are byte streams
     * or memory that is neither a frame header nor a PRM structure.
     */
    static final Map<String, String> BYTE_STREAMS = Map.of(
            "Frames#sum", "the Internet checksum sums 16-bit words over a byte range",
            "InternetChecksum#*", "the Internet checksum sums words over byte ranges",
            "Bytes#copy", "the soft HCA's short copies move any byte range in 8-, 4- and 2-byte pieces",
            "TrafficMix#writeFrame", "the frame id is the payload's first word",
            "TrafficMix#identify", "the frame id is the payload's first word",
            "SendWqe#hdr18", "the 18-byte L2 inline header copied as bytes 0-1, 2-9, 10-17 (a layout of three moves)",
            "SendRing#ringDoorbell", "BlueFlame: the WQE's first 8 bytes go to the UAR as they are",
            "SoftDatapath#drainDoorbells", "a UAR doorbell value (a register write, not a frame) put in a scratch word for the accessors",
            "SoftDatapath#*", "the device's own inbox ring of received frames: a length word, then the bytes (soft-hca's private format)",
            "Steering#*", "match parameters compared 8 bytes at a time under the group's mask (byte ranges; fill() builds them with accessors)");

    /** Literal offsets allowed anyway (Class#method or Class#* -> why). */
    static final Map<String, String> LITERAL_OFFSETS = Map.of(
            "SoftDatapath#*", "the device's own inbox ring: a frame's bytes follow its 16-byte record header");

    private static final Set<String> ACCESS = Set.of("get", "set", "copy", "mismatch", "asSlice");
    private static final Pattern CALL = Pattern.compile("([A-Za-z_$][\\w$]*)\\s*(?:\\.\\s*)?\\b([A-Za-z_$][\\w$]*)\\s*\\(");
    private static final Pattern PLUS_LITERAL = Pattern.compile("[+-]\\s*(0[xX][0-9a-fA-F_]+|[0-9][0-9_]*)[lL]?(?![\\w.])");
    private static final Pattern BARE_LITERAL = Pattern.compile("\\(?\\s*(?:\\(\\s*(?:long|int|short)\\s*\\)\\s*)?(0[xX][0-9a-fA-F_]+|[0-9][0-9_]*)[lL]?\\s*\\)?");
    /** A var handle made here from a layout: multi-byte access with a hand-made layout wherever it is used. */
    private static final Pattern VAR_HANDLE = Pattern.compile("\\.\\s*varHandle\\s*\\(");
    private static final Pattern WIDE_LAYOUT_DECL = Pattern.compile("ValueLayout\\.Of(?:Short|Int|Long|Char|Float|Double)\\s+([A-Za-z_$][\\w$]*)\\s*=");

    record Source(String cls, String text, List<int[]> methods, List<String> methodNames, Set<String> generatedImports) {
        String methodAt(int pos) {
            String best = "<class body>";
            int bestLen = Integer.MAX_VALUE;
            for (int i = 0; i < methods.size(); i++) {
                int[] r = methods.get(i);
                if (r[0] <= pos && pos < r[1] && r[1] - r[0] < bestLen) {
                    best = methodNames.get(i);
                    bestLen = r[1] - r[0];
                }
            }
            return best;
        }

        int line(int pos) {
            int n = 1;
            for (int i = 0; i < pos; i++) if (text.charAt(i) == '\n') n++;
            return n;
        }
    }

    @Test
    void frameHeadersAreReadAndWrittenThroughGeneratedAccessors() {
        List<Source> sources = load();
        Set<String> wideLayouts = new LinkedHashSet<>();
        for (Source s : sources) {
            Matcher m = WIDE_LAYOUT_DECL.matcher(s.text());
            while (m.find()) wideLayouts.add(m.group(1));
        }
        List<String> problems = new ArrayList<>();
        Set<String> usedStreams = new LinkedHashSet<>();
        Set<String> usedLiterals = new LinkedHashSet<>();
        for (Source s : sources) {
            Matcher m = CALL.matcher(s.text());
            while (m.find()) {
                String receiver = m.group(1);
                String name = m.group(2);
                boolean access = ACCESS.contains(name);
                boolean generated = s.generatedImports().contains(receiver);
                if (!access && !generated) continue;
                int open = m.end() - 1;
                List<String> args = arguments(s.text(), open);
                if (args == null) continue;
                if (access && args.size() < (name.equals("asSlice") ? 1 : 2)) continue; // not a memory access (a Map's get(k), an AtomicLong's set(v))
                String where = s.cls() + "#" + s.methodAt(m.start());
                String any = s.cls() + "#*";
                String at = s.cls() + ".java:" + s.line(m.start()) + " (" + where + ")";
                for (int i = 0; i < args.size(); i++) {
                    String a = args.get(i);
                    boolean literalOffset = PLUS_LITERAL.matcher(a).find() && !isValueArgument(name, generated, i, args.size())
                            || (access && i == 1 && (name.equals("get") || name.equals("set")) && nonZeroLiteral(a))
                            || (generated && i == 1 && nonZeroLiteral(a));
                    if (literalOffset) {
                        if (LITERAL_OFFSETS.containsKey(where)) usedLiterals.add(where);
                        else if (LITERAL_OFFSETS.containsKey(any)) usedLiterals.add(any);
                        else problems.add(at + ": offset with a number in it: " + name + "(" + String.join(", ", args) + ")");
                    }
                }
                if (access && (name.equals("get") || name.equals("set")) && !args.isEmpty() && wide(args.get(0), wideLayouts)) {
                    if (!allowedStream(where, any, usedStreams)) problems.add(at + ": multi-byte access with a hand-made layout: " + name + "(" + String.join(", ", args)
                            + ") -- use the generated accessor of the header field (io.prmkit.net)");
                }
            }
        }
        for (Source s : sources) {
            Matcher m = VAR_HANDLE.matcher(s.text());
            while (m.find()) {
                String where = s.cls() + "#" + s.methodAt(m.start());
                if (!allowedStream(where, s.cls() + "#*", usedStreams)) problems.add(s.cls() + ".java:" + s.line(m.start()) + " (" + where + "): a var handle of a hand-made layout"
                        + " -- use the generated accessor of the header field (io.prmkit.net)");
            }
        }
        for (String k : BYTE_STREAMS.keySet()) if (!usedStreams.contains(k)) problems.add("BYTE_STREAMS allows " + k + ", which makes no such access (remove it)");
        for (String k : LITERAL_OFFSETS.keySet()) if (!usedLiterals.contains(k)) problems.add("LITERAL_OFFSETS allows " + k + ", which has none (remove it)");
        if (!problems.isEmpty()) fail(problems.size() + " frame-header accesses outside the generated accessors:\n  " + String.join("\n  ", problems));
    }

    /** The checker itself: it must see the accesses it is meant to forbid, under any names. */
    @Test
    void checkerFindsLiteralOffsetsAndRawWideAccess() {
        String code = """
                import io.prmkit.net.Iphdr;
                final class Bad {
                    static final ValueLayout.OfShort WHATEVER = ValueLayout.JAVA_SHORT_UNALIGNED;
                    int a(MemorySegment s, long base) { return s.get(WHATEVER, base + 0x0c) & 0xffff; }
                    int b(MemorySegment s) { return s.get(WHATEVER, 14); }
                    int c(MemorySegment s, long base) { return Iphdr.ttl(s, base + 14); }
                    int d(MemorySegment s, long base) { return Iphdr.ttl(s, base) + 1; }
                }
                """;
        Source s = parse("Bad", code);
        Matcher m = CALL.matcher(s.text());
        List<String> hits = new ArrayList<>();
        while (m.find()) {
            boolean generated = s.generatedImports().contains(m.group(1));
            if (!ACCESS.contains(m.group(2)) && !generated) continue;
            List<String> args = arguments(s.text(), m.end() - 1);
            for (int i = 0; i < args.size(); i++) {
                if (PLUS_LITERAL.matcher(args.get(i)).find() || (i == 1 && nonZeroLiteral(args.get(i)))) hits.add(s.methodAt(m.start()));
            }
        }
        assertEquals(List.of("a", "b", "c"), hits, "method d adds to the accessor's result, not to its offset");
        assertTrue(wide("WHATEVER", Set.of("WHATEVER")));
        assertTrue(VAR_HANDLE.matcher("static final VarHandle H = L.varHandle(PathElement.groupElement(\"x\"));").find());
    }

    // ---------------------------------------------------------------------------------------------

    /** Whether {@link #BYTE_STREAMS} allows a raw multi-byte access in {@code where} (or its whole class); notes the allowance used. */
    private static boolean allowedStream(String where, String any, Set<String> used) {
        String key = BYTE_STREAMS.containsKey(where) ? where : BYTE_STREAMS.containsKey(any) ? any : null;
        if (key == null) return false;
        used.add(key);
        return true;
    }

    /** The value argument of a setter ({@code set(L, off, v)}, {@code x$set(s, off, v)}) may be any expression. */
    private static boolean isValueArgument(String name, boolean generated, int i, int n) {
        if (name.equals("set") && i == 2) return true;
        return generated && name.contains("$set") && i == n - 1;
    }

    private static boolean nonZeroLiteral(String a) {
        Matcher m = BARE_LITERAL.matcher(a.strip());
        if (!m.matches()) return false;
        String v = m.group(1).replace("_", "");
        long n = v.startsWith("0x") || v.startsWith("0X") ? Long.parseLong(v.substring(2), 16) : Long.parseLong(v);
        return n != 0;
    }

    private static boolean wide(String layoutArg, Set<String> wideLayouts) {
        String a = layoutArg.strip();
        String simple = a.substring(a.lastIndexOf('.') + 1);
        return wideLayouts.contains(simple) || a.matches(".*JAVA_(SHORT|INT|LONG|CHAR|FLOAT|DOUBLE).*");
    }

    /** Top-level arguments of the call whose '(' is at {@code open}, or null if unbalanced. */
    static List<String> arguments(String text, int open) {
        List<String> out = new ArrayList<>();
        int depth = 0;
        int start = open + 1;
        for (int i = open; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '(' || c == '[' || c == '{') depth++;
            else if (c == ')' || c == ']' || c == '}') {
                depth--;
                if (depth == 0) {
                    String last = text.substring(start, i).strip();
                    if (!last.isEmpty() || !out.isEmpty()) out.add(last);
                    return out;
                }
            } else if (c == ',' && depth == 1) {
                out.add(text.substring(start, i).strip());
                start = i + 1;
            }
        }
        return null;
    }

    static List<Source> load() {
        List<Source> out = new ArrayList<>();
        for (Path root : ROOTS) {
            assertTrue(Files.isDirectory(root), root.toAbsolutePath() + " is missing: the check would pass on nothing");
            try (Stream<Path> files = Files.list(root)) {
                for (Path f : files.filter(p -> p.toString().endsWith(".java")).sorted().toList()) {
                    String name = f.getFileName().toString();
                    out.add(parse(name.substring(0, name.length() - 5), Files.readString(f)));
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        assertTrue(out.stream().anyMatch(s -> s.cls().equals("ParsedFrame")) && out.stream().anyMatch(s -> s.cls().equals("Frames")),
                "the frame code moved: update ROOTS");
        return out;
    }

    /** Strips comments, strings and char literals (keeping offsets: replaced by spaces), finds methods and imports. */
    static Source parse(String cls, String raw) {
        StringBuilder b = new StringBuilder(raw);
        int i = 0;
        while (i < b.length()) {
            char c = b.charAt(i);
            if (c == '/' && i + 1 < b.length() && b.charAt(i + 1) == '/') {
                while (i < b.length() && b.charAt(i) != '\n') b.setCharAt(i++, ' ');
            } else if (c == '/' && i + 1 < b.length() && b.charAt(i + 1) == '*') {
                int end = b.indexOf("*/", i + 2);
                end = end < 0 ? b.length() : end + 2;
                for (; i < end; i++) if (b.charAt(i) != '\n') b.setCharAt(i, ' ');
            } else if (c == '"' && b.indexOf("\"\"\"", i) == i) {
                int end = b.indexOf("\"\"\"", i + 3);
                end = end < 0 ? b.length() : end + 3;
                for (; i < end; i++) if (b.charAt(i) != '\n') b.setCharAt(i, ' ');
            } else if (c == '"' || c == '\'') {
                b.setCharAt(i++, ' ');
                while (i < b.length() && b.charAt(i) != c) {
                    if (b.charAt(i) == '\\') b.setCharAt(i++, ' ');
                    if (i < b.length()) b.setCharAt(i++, ' ');
                }
                if (i < b.length()) b.setCharAt(i++, ' ');
            } else {
                i++;
            }
        }
        String text = b.toString();
        List<int[]> ranges = new ArrayList<>();
        List<String> names = new ArrayList<>();
        Set<String> notMethods = Set.of("if", "for", "while", "switch", "catch", "synchronized", "try", "else", "do", "return");
        for (int open = text.indexOf('{'); open >= 0; open = text.indexOf('{', open + 1)) {
            // a method body: `name(...) [throws ...] {`, not a control statement, lambda or anonymous class
            int k = open - 1;
            while (k >= 0 && Character.isWhitespace(text.charAt(k))) k--;
            int thr = text.lastIndexOf("throws", k);
            if (thr >= 0 && text.lastIndexOf(')', k) < thr) {
                k = thr - 1;
                while (k >= 0 && Character.isWhitespace(text.charAt(k))) k--;
            }
            if (k < 0 || text.charAt(k) != ')') continue;
            int depth = 0;
            int paren = -1;
            for (int q = k; q >= 0; q--) {
                char c = text.charAt(q);
                if (c == ')') depth++;
                else if (c == '(' && --depth == 0) {
                    paren = q;
                    break;
                }
            }
            if (paren < 0) continue;
            int e = paren - 1;
            while (e >= 0 && Character.isWhitespace(text.charAt(e))) e--;
            int st = e;
            while (st >= 0 && Character.isJavaIdentifierPart(text.charAt(st))) st--;
            String n = text.substring(st + 1, e + 1);
            if (n.isEmpty() || notMethods.contains(n) || !Character.isJavaIdentifierStart(n.charAt(0))) continue;
            int w = st;
            while (w >= 0 && Character.isWhitespace(text.charAt(w))) w--;
            if (w >= 2 && text.startsWith("new", w - 2) || w >= 0 && text.charAt(w) == '.') continue; // new X() {, a.b() {
            int end = text.length();
            int d = 0;
            for (int q = open; q < text.length(); q++) {
                if (text.charAt(q) == '{') d++;
                else if (text.charAt(q) == '}' && --d == 0) {
                    end = q + 1;
                    break;
                }
            }
            ranges.add(new int[] {st + 1, end});
            names.add(n);
        }
        Set<String> generated = new LinkedHashSet<>();
        Matcher imp = Pattern.compile("(?m)^import\\s+io\\.prmkit\\.(?:net|mlx5)\\.([A-Z][\\w$]*)\\s*;").matcher(text);
        while (imp.find()) generated.add(imp.group(1));
        return new Source(cls, text, ranges, names, generated);
    }
}

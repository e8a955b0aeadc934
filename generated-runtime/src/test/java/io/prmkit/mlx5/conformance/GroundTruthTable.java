package io.prmkit.mlx5.conformance;

import io.prmkit.dsl.ir.LayoutModel;
import io.prmkit.dsl.ir.Member;
import io.prmkit.dsl.ir.StructLayout;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The committed ground truth: what gcc says about every structure of the bundled spec, compiled from
 * the kernel's and rdma-core's headers (mlx5_ifc.h, device.h, qp.h, ..., mlx5dv.h, the uapi network
 * headers), keyed by spec names: sizes, each field's bit offset and width, the dword of the few
 * fields only an offset macro places. Facts, not code: every number in it was printed by a program
 * gcc compiled from the headers ({@link Conformance} writes it), none was computed here.
 *
 * <p>Every build compares the bundled spec with it ({@link #check}), so a wrong offset fails without
 * the headers; a build with the headers regenerates it and fails on any difference
 * ({@code GroundTruthTableTest}). A structure or field of the spec that no header has is listed as
 * {@code unchecked} with the reason, so the table says what it does not cover; one missing from the
 * table altogether fails, with {@link #REGENERATE}.
 *
 * <p>Rows (tab-separated; '#' lines are comments, of which {@code # kernel}, {@code # rdma-core} and
 * {@code # gcc} name the sources):
 * <pre>
 * size       STRUCT  BITS                      ORIGIN   the structure's size
 * field      STRUCT  FIELD[hi:lo]?  OFF  WIDTH ORIGIN   bits OFF..OFF+WIDTH-1 of STRUCT (from its MSB) are
 *                                                       the field (or bits hi..lo of it, counted from its LSB)
 * within     STRUCT  FIELD  OFF  WIDTH          ORIGIN   the field lies inside that C union
 * dword      STRUCT  FIELD  BYTE                ORIGIN   the field sits in the dword at byte BYTE
 * unchecked  STRUCT  FIELD|*                    WHY      no header has it (the spec's own knowledge)
 * </pre>
 */
final class GroundTruthTable {
    static final Path FILE = Path.of("src/test/resources/io/prmkit/mlx5/conformance/ground-truth.tsv");

    /** The one command that rewrites the table from this machine's headers (they must be installed). */
    static final String REGENERATE = "./mvnw -pl generated-runtime -am verify -Dprmkit.groundTruth=write"
            + " -Dtest=GroundTruthTableTest -Dsurefire.failIfNoSpecifiedTests=false -DskipITs -Dinvoker.skip=true";

    /** The system property that makes GroundTruthTableTest write the table instead of comparing. */
    static final String WRITE_PROPERTY = "prmkit.groundTruth";

    enum Kind { SIZE, FIELD, WITHIN, DWORD, UNCHECKED }

    /** One row. {@code hi}/{@code lo} are -1 for a whole field; {@code off}/{@code width} unused where the kind has none. */
    record Fact(Kind kind, String struct, String field, int hi, int lo, long off, long width, String origin) implements Comparable<Fact> {
        String fieldWithPiece() {
            return hi < 0 ? field : field + "[" + hi + ":" + lo + "]";
        }

        String line() {
            String k = kind.name().toLowerCase();
            return switch (kind) {
                case SIZE -> String.join("\t", k, struct, Long.toString(off), origin);
                case FIELD, WITHIN -> String.join("\t", k, struct, fieldWithPiece(), Long.toString(off), Long.toString(width), origin);
                case DWORD -> String.join("\t", k, struct, field, Long.toString(off), origin);
                case UNCHECKED -> String.join("\t", k, struct, field, origin);
            };
        }

        @Override
        public int compareTo(Fact o) {
            int c = struct.compareTo(o.struct);
            if (c != 0) return c;
            c = Integer.compare(order(), o.order());
            if (c != 0) return c;
            c = Long.compare(off, o.off);
            return c != 0 ? c : line().compareTo(o.line());
        }

        private int order() {
            return kind == Kind.SIZE ? 0 : kind == Kind.UNCHECKED && field.equals("*") ? 1 : 2;
        }
    }

    /** What the table was made from and what it says. */
    record Table(Map<String, String> sources, List<Fact> facts) {
        /** The facts as text, without the comments: what two tables must agree on. */
        String factLines() {
            StringBuilder sb = new StringBuilder();
            for (Fact f : facts) sb.append(f.line()).append('\n');
            return sb.toString();
        }
    }

    private GroundTruthTable() {}

    // ---------------------------------------------------------------------------------------------
    // the file

    static Table read(Path file) {
        String text;
        try {
            text = Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new AssertionError("cannot read the ground-truth table " + file.toAbsolutePath() + " (" + e.getMessage()
                    + "); to create it on a machine with the headers: " + REGENERATE, e);
        }
        return parse(text, file.toString());
    }

    static Table parse(String text, String where) {
        Map<String, String> sources = new LinkedHashMap<>();
        List<Fact> facts = new ArrayList<>();
        int n = 0;
        for (String line : text.split("\n", -1)) {
            n++;
            if (line.isBlank()) continue;
            if (line.startsWith("#")) {
                String[] kv = line.substring(1).strip().split("\t", 2);
                if (kv.length == 2) sources.put(kv[0], kv[1]);
                continue;
            }
            String[] c = line.split("\t", -1);
            try {
                Kind kind = Kind.valueOf(c[0].toUpperCase());
                facts.add(switch (kind) {
                    case SIZE -> new Fact(kind, c[1], "", -1, -1, Long.parseLong(c[2]), 0, c[3]);
                    case FIELD, WITHIN -> {
                        String f = c[2];
                        int hi = -1;
                        int lo = -1;
                        int b = f.indexOf('[');
                        if (b > 0) {
                            String[] hl = f.substring(b + 1, f.length() - 1).split(":");
                            hi = Integer.parseInt(hl[0]);
                            lo = Integer.parseInt(hl[1]);
                            f = f.substring(0, b);
                        }
                        yield new Fact(kind, c[1], f, hi, lo, Long.parseLong(c[3]), Long.parseLong(c[4]), c[5]);
                    }
                    case DWORD -> new Fact(kind, c[1], c[2], -1, -1, Long.parseLong(c[3]), 0, c[4]);
                    case UNCHECKED -> new Fact(kind, c[1], c[2], -1, -1, 0, 0, c[3]);
                });
            } catch (RuntimeException e) {
                throw new AssertionError(where + ":" + n + ": not a ground-truth row: " + line + " (" + e + ")", e);
            }
        }
        return new Table(sources, facts);
    }

    static String format(Table t) {
        StringBuilder sb = new StringBuilder();
        sb.append("# The bundled spec's structures as gcc lays out the C headers they come from (GroundTruthTable.java says\n");
        sb.append("# what each row means). Generated, not edited: every build checks the spec against it; a build with the\n");
        sb.append("# headers regenerates it and fails on any difference. To regenerate (the headers must be installed):\n");
        sb.append("#   ").append(REGENERATE).append('\n');
        for (Map.Entry<String, String> e : t.sources().entrySet()) sb.append("# ").append(e.getKey()).append('\t').append(e.getValue()).append('\n');
        sb.append(t.factLines());
        return sb.toString();
    }

    // ---------------------------------------------------------------------------------------------
    // the check every build runs

    /** What {@link #check} found: counts and the problems, each a sentence. */
    record Report(int structs, int fields, int facts, int unchecked, List<String> problems) {}

    /**
     * The spec against the table: every structure must be in it, every size and every fact about a
     * field must hold, every named field must have a fact or an {@code unchecked} row, and the table
     * may name nothing the spec lacks.
     */
    static Report check(LayoutModel model, Table table) {
        List<String> problems = new ArrayList<>();
        Map<String, List<Fact>> byStruct = new TreeMap<>();
        for (Fact f : table.facts()) byStruct.computeIfAbsent(f.struct(), k -> new ArrayList<>()).add(f);
        Map<String, StructLayout> specStructs = new TreeMap<>();
        for (StructLayout s : model.structs()) specStructs.put(name(s), s);

        int structs = 0;
        int fields = 0;
        int facts = 0;
        int unchecked = 0;
        for (Map.Entry<String, StructLayout> e : specStructs.entrySet()) {
            String sn = e.getKey();
            StructLayout s = e.getValue();
            List<Fact> rows = byStruct.getOrDefault(sn, List.of());
            if (rows.isEmpty()) {
                problems.add("structure " + sn + " is not in the ground-truth table " + FILE + "; regenerate it where the headers are: "
                        + REGENERATE);
                continue;
            }
            structs++;
            boolean wholeUnchecked = rows.stream().anyMatch(f -> f.kind() == Kind.UNCHECKED && f.field().equals("*"));
            TreeSet<String> covered = new TreeSet<>();
            for (Fact f : rows) {
                if (f.kind() == Kind.UNCHECKED) {
                    if (!f.field().equals("*")) {
                        if (s.member(f.field()).isEmpty()) problems.add(sn + "." + f.field() + ": listed as unchecked but not in the spec");
                        covered.add(f.field());
                    }
                    continue;
                }
                facts++;
                String at = sn + (f.field().isEmpty() ? "" : "." + f.fieldWithPiece()) + " (" + f.origin() + ")";
                if (f.kind() == Kind.SIZE) {
                    if (s.sizeBits() != f.off()) problems.add(at + ": size " + hex(s.sizeBits()) + " bits in the spec, " + hex(f.off()) + " in C");
                    continue;
                }
                Optional<Member> m = s.member(f.field());
                if (m.isEmpty()) {
                    problems.add(at + ": the table has this field, the spec does not");
                    continue;
                }
                covered.add(f.field());
                Member mm = m.get();
                switch (f.kind()) {
                    case FIELD -> {
                        long start = mm.bitOffset();
                        long width = mm.bitWidth();
                        if (f.hi() >= 0) {
                            if (f.hi() >= width || f.lo() > f.hi()) {
                                problems.add(at + ": bits [" + f.hi() + ":" + f.lo() + "] do not exist in the spec's " + width + "-bit field");
                                continue;
                            }
                            start = mm.bitOffset() + (width - 1 - f.hi());
                            width = f.hi() - f.lo() + 1;
                        }
                        if (start != f.off() || width != f.width()) {
                            problems.add(at + ": spec " + bits(start, width) + ", C " + bits(f.off(), f.width()));
                        }
                    }
                    case WITHIN -> {
                        if (mm.bitOffset() < f.off() || mm.bitEnd() > f.off() + f.width()) {
                            problems.add(at + ": spec " + bits(mm.bitOffset(), mm.bitWidth()) + " lies outside the C union's " + bits(f.off(), f.width()));
                        }
                    }
                    case DWORD -> {
                        if (mm.dwordByteOffset() != f.off()) {
                            problems.add(at + ": in the dword at byte " + hex(mm.dwordByteOffset()) + " in the spec, " + hex(f.off()) + " in C");
                        }
                    }
                    default -> { }
                }
            }
            for (Member m : s.members()) {
                if (m.reserved()) continue;
                fields++;
                if (covered.contains(m.name())) {
                    if (rows.stream().anyMatch(f -> f.kind() == Kind.UNCHECKED && f.field().equals(m.name()))) unchecked++;
                    continue;
                }
                if (wholeUnchecked) {
                    unchecked++;
                    continue;
                }
                problems.add(sn + "." + m.name() + " (" + m.prmPosition() + ") is not in the ground-truth table " + FILE
                        + "; regenerate it where the headers are: " + REGENERATE);
            }
        }
        for (String sn : byStruct.keySet()) {
            if (!specStructs.containsKey(sn)) problems.add("the ground-truth table has structure " + sn + ", the spec does not; regenerate it: " + REGENERATE);
        }
        return new Report(structs, fields, facts, unchecked, problems);
    }

    static String name(StructLayout s) {
        return s.name().pkg() + "." + s.name().name();
    }

    private static String hex(long v) {
        return "0x" + Long.toHexString(v);
    }

    private static String bits(long off, long width) {
        return "bits " + hex(off) + "+" + width + String.format(" (dword 0x%02x [%d:%d])", (off / 32) * 4,
                31 - off % 32, 31 - off % 32 - Math.min(width, 32 - off % 32) + 1);
    }
}

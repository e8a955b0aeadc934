package io.prmkit.mlx5.conformance;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The hand-written table tying spec fields to C declarations that are not mlx5_ifc.h bit structs
 * (c-struct-map.txt). Each row names where a spec field lives in a header; gcc supplies the byte
 * offsets and sizes and evaluates the header constants, so the table holds no offsets of its own.
 */
final class MappingTable {

    enum Kind { FIELD, DIFFERS, SIZE, OFFSET, VALUE, ENUM, UNMAPPED }

    /** Which C program evaluates a row. */
    enum Source { KERNEL, RDMA, IFC, NET }

    /** A reference to a spec field, optionally to bits [hi:lo] of it (bit 0 = its LSB). */
    record SpecRef(String struct, String field, int hi, int lo) {
        boolean hasPiece() {
            return hi >= 0;
        }

        @Override
        public String toString() {
            return struct + "." + field + (hasPiece() ? "[" + hi + ":" + lo + "]" : "");
        }
    }

    /**
     * One row. For FIELD: cType, member path, bits ("all", "[hi:lo]", "mask(EXPR)", "bitfield",
     * "flex"). For SIZE: cType. For OFFSET and VALUE: a C expression. For ENUM: the prefix of the C
     * constants named after the spec enum's values. For UNMAPPED: the reason.
     */
    record Row(int line, Kind kind, String spec, Source source, String cType, String member, String bits, String expr) {
        SpecRef specRef() {
            return parseSpecRef(spec, line);
        }

        String where() {
            return "c-struct-map.txt:" + line;
        }
    }

    static final String RESOURCE = "c-struct-map.txt";
    private static final Pattern SPEC_REF = Pattern.compile("(\\w+)\\.(\\w+)(?:\\[(\\d+):(\\d+)\\])?");

    private MappingTable() {}

    static List<Row> load() {
        try (InputStream in = MappingTable.class.getResourceAsStream(RESOURCE)) {
            if (in == null) throw new AssertionError("test resource " + RESOURCE + " is missing");
            return parse(new String(in.readAllBytes(), StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new AssertionError("cannot read " + RESOURCE + ": " + e.getMessage(), e);
        }
    }

    static List<Row> parse(String text) {
        List<Row> rows = new ArrayList<>();
        String[] lines = text.split("\n", -1);
        for (int i = 0; i < lines.length; i++) {
            String line = lines[i].strip();
            if (line.isEmpty() || line.startsWith("#")) continue;
            int no = i + 1;
            String head = line.split("\\|", 2)[0].strip();
            Kind kind = switch (head) {
                case "field" -> Kind.FIELD;
                case "differs" -> Kind.DIFFERS;
                case "size" -> Kind.SIZE;
                case "offset" -> Kind.OFFSET;
                case "value" -> Kind.VALUE;
                case "enum" -> Kind.ENUM;
                case "unmapped" -> Kind.UNMAPPED;
                default -> throw new IllegalArgumentException(RESOURCE + ":" + no + ": unknown row kind '" + head + "'");
            };
            int want = switch (kind) {
                case FIELD, DIFFERS -> 6;
                case SIZE, OFFSET, VALUE, ENUM -> 4;
                case UNMAPPED -> 3;
            };
            // the last column may itself contain '|' (C expressions such as mask(A | B))
            String[] c = Arrays.stream(line.split("\\|", want)).map(String::strip).toArray(String[]::new);
            if (c.length != want) {
                throw new IllegalArgumentException(RESOURCE + ":" + no + ": a " + c[0] + " row has " + want
                        + " columns separated by '|', found " + c.length);
            }
            Source src = kind == Kind.UNMAPPED ? null : source(c[2], no);
            rows.add(switch (kind) {
                case FIELD, DIFFERS -> new Row(no, kind, c[1], src, c[3], c[4], c[5], "");
                case SIZE -> new Row(no, kind, c[1], src, c[3], "", "", "");
                case OFFSET, VALUE, ENUM -> new Row(no, kind, c[1], src, "", "", "", c[3]);
                case UNMAPPED -> new Row(no, kind, c[1], null, "", "", "", c[2]);
            });
        }
        return rows;
    }

    private static Source source(String s, int line) {
        return switch (s) {
            case "kernel" -> Source.KERNEL;
            case "rdma" -> Source.RDMA;
            case "ifc" -> Source.IFC;
            case "net" -> Source.NET;
            default -> throw new IllegalArgumentException(RESOURCE + ":" + line + ": unknown source '" + s + "' (kernel, rdma, ifc, net)");
        };
    }

    static SpecRef parseSpecRef(String s, int line) {
        Matcher m = SPEC_REF.matcher(s);
        if (!m.matches()) throw new IllegalArgumentException(RESOURCE + ":" + line + ": not a spec field reference: " + s);
        return m.group(3) == null
                ? new SpecRef(m.group(1), m.group(2), -1, -1)
                : new SpecRef(m.group(1), m.group(2), Integer.parseInt(m.group(3)), Integer.parseInt(m.group(4)));
    }
}

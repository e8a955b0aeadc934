package io.prmkit.mlx5.conformance;

import io.prmkit.dsl.ir.EnumLayout;
import io.prmkit.dsl.ir.LayoutModel;
import io.prmkit.dsl.ir.Member;
import io.prmkit.dsl.ir.StructLayout;
import io.prmkit.mlx5.conformance.MappingTable.Kind;
import io.prmkit.mlx5.conformance.MappingTable.Row;
import io.prmkit.mlx5.conformance.MappingTable.Source;
import io.prmkit.mlx5.conformance.MappingTable.SpecRef;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Compares the bundled spec with the C headers. Two comparisons:
 * <ul>
 *   <li>every mlx5_ifc.h structure whose name the spec also declares ({@code mlx5_ifc_X_bits}
 *       against {@code X}): size, and each member's bit offset and width by name;</li>
 *   <li>every row of c-struct-map.txt: spec field against a member of a kernel or rdma-core C
 *       struct (or a differently named mlx5_ifc.h member), enum values and constants against
 *       header constants.</li>
 * </ul>
 * Offsets, sizes and constant values always come from gcc compiling the real headers.
 */
final class Conformance {

    /** Counts and problems of one comparison. */
    record Report(String title, int structs, String what, int fields, int matched, int knownDifferences,
                  List<String> mismatches, List<String> notes) {
        String summary() {
            return String.format("%s: compared %d %s, %d fields/values: %d matched (%d of them known header"
                    + " disagreements), %d mismatched", title, structs, what, fields, matched, knownDifferences, mismatches.size());
        }
    }

    private static Conformance instance;

    /** Every number gcc printed for a spec structure, keyed by spec names: what {@link GroundTruthTable} holds. */
    private final java.util.SortedSet<GroundTruthTable.Fact> facts = new TreeSet<>();

    final LayoutModel model;
    final List<Row> rows;
    final GroundTruth truth;
    private final Gcc gcc;
    private final Map<String, IfcHeader.Decl> ifc;
    private final Set<String> ifcOpcodes;
    private final Set<String> ifcConstants;
    private final Set<String> rdmaConstants;
    private final KernelSource kernelSource;

    private Conformance(LayoutModel model, List<Row> rows, GroundTruth truth) {
        this.model = model;
        this.rows = rows;
        this.truth = truth;
        this.gcc = new Gcc(truth.gcc(), Path.of("target", "mlx5-conformance"));
        Map<String, IfcHeader.Decl> decls = new LinkedHashMap<>();
        StringBuilder text = new StringBuilder();
        for (String h : List.of("mlx5_ifc.h", "mlx5_ifc_fpga.h")) { // mlx5_ifc.h includes the FPGA part
            try {
                String t = Files.readString(truth.header(h));
                text.append(t).append('\n');
                decls.putAll(IfcHeader.parse(t));
            } catch (IOException e) {
                throw new AssertionError("cannot read " + truth.header(h) + ": " + e.getMessage(), e);
            }
        }
        this.ifc = decls;
        Matcher op = Pattern.compile("\\bMLX5_CMD_OP_(\\w+)\\s*=").matcher(text);
        Set<String> ops = new TreeSet<>();
        while (op.find()) ops.add(op.group(1));
        this.ifcOpcodes = ops;
        this.ifcConstants = constantNames(text.toString());
        try {
            this.rdmaConstants = constantNames(Files.readString(truth.mlx5dvHeader()));
        } catch (IOException e) {
            throw new AssertionError("cannot read " + truth.mlx5dvHeader() + ": " + e.getMessage(), e);
        }
        this.kernelSource = new KernelSource(truth.mlx5Dir());
    }

    /** Enumerator and #define names a header declares (good enough to decide whether to ask gcc for them). */
    private static Set<String> constantNames(String text) {
        Set<String> names = new HashSet<>();
        Matcher m = Pattern.compile("(?m)(?:^\\s*([A-Z][A-Z0-9_]*)\\s*(?:=[^=]|,|$))|(?:^#define\\s+([A-Z][A-Z0-9_]*)\\s)").matcher(text);
        while (m.find()) names.add(m.group(1) != null ? m.group(1) : m.group(2));
        return names;
    }

    /** Whether the program for {@code source} can evaluate constant {@code name}. */
    private boolean defines(Source source, String name) {
        return switch (source) {
            case IFC -> ifcConstants.contains(name);
            case KERNEL -> ifcConstants.contains(name) || kernelSource.defines(name);
            case RDMA -> rdmaConstants.contains(name);
            case NET -> false;
        };
    }

    private Optional<EnumLayout> specEnum(String simpleName) {
        return model.enums().stream().filter(e -> e.name().name().equals(simpleName)).findFirst();
    }

    /** The C expression for a value of spec enum {@code e} under an ENUM row (bit number for flag sets). */
    private static String enumValueExpr(EnumLayout e, String constant) {
        return e.kind() == EnumLayout.Kind.FLAGS ? "__builtin_ctzll((unsigned long long)(" + constant + "))" : constant;
    }

    static synchronized Conformance get() {
        if (instance == null) {
            GroundTruth truth = GroundTruth.locate();
            instance = new Conformance(BundledSpec.model(), MappingTable.load(), truth);
        }
        return instance;
    }

    // ---------------------------------------------------------------------------------------------
    // running the C side

    private static final String IFC_PRELUDE = """
            #include <stddef.h>
            #include <stdio.h>
            #include <string.h>
            typedef unsigned char u8;
            typedef unsigned short u16;
            typedef unsigned int u32;
            typedef unsigned long long u64;
            #define BIT(n) (1UL << (n))
            #define BIT_ULL(n) (1ULL << (n))
            #include "mlx5_ifc.h"
            """;

    private static final Pattern IDENT = Pattern.compile("\\b[A-Za-z_]\\w*\\b");

    private Map<String, String[]> ifcOut;
    private Map<String, String[]> kernelOut;
    private Map<String, String[]> rdmaOut;
    private Map<String, String[]> netOut;
    private List<IfcHeader.Decl> comparedIfc;

    /** mlx5_ifc.h declarations the spec has a structure for, in header order. */
    List<IfcHeader.Decl> comparedIfc() {
        if (comparedIfc == null) {
            comparedIfc = ifc.values().stream().filter(d -> spec(d.specName()).isPresent()).toList();
        }
        return comparedIfc;
    }

    private Map<String, String[]> ifcOutput() {
        if (ifcOut == null) {
            StringBuilder main = new StringBuilder("int main(void) {\n");
            List<IfcHeader.Decl> decls = comparedIfc();
            for (int i = 0; i < decls.size(); i++) {
                IfcHeader.Decl d = decls.get(i);
                main.append(String.format("    printf(\"S%d\\t%%zu\\n\", sizeof(%s));%n", i, d.cType()));
                for (int j = 0; j < d.members().size(); j++) {
                    IfcHeader.Member m = d.members().get(j);
                    String size = m.flexible() ? "(size_t)0" : "sizeof(((" + d.cType() + " *)0)->" + m.path() + ")";
                    main.append(String.format("    printf(\"M%d.%d\\t%%zu\\t%%zu\\n\", offsetof(%s, %s), %s);%n",
                            i, j, d.cType(), m.path(), size));
                }
            }
            appendRowQueries(main, Source.IFC);
            for (EnumLayout.EnumValue v : opcodeEnum().map(EnumLayout::values).orElse(List.of())) {
                if (ifcOpcodes.contains(v.name())) {
                    main.append(String.format("    printf(\"OP_%s\\t%%lld\\n\", (long long)MLX5_CMD_OP_%s);%n", v.name(), v.name()));
                }
            }
            main.append("    return 0;\n}\n");
            ifcOut = gcc.run("ifc", IFC_PRELUDE + "\n" + main, List.of(truth.mlx5Dir().toString()));
        }
        return ifcOut;
    }

    private Map<String, String[]> kernelOutput() {
        if (kernelOut == null) {
            Set<String> roots = new LinkedHashSet<>();
            for (Row r : rows) {
                if (r.source() != Source.KERNEL) continue;
                if (!r.cType().isEmpty()) roots.add(r.cType().replaceAll("\\s+", " "));
                Matcher id = IDENT.matcher(r.expr() + " " + r.bits());
                while (id.find()) roots.add(id.group());
            }
            for (Row r : rows) {
                if (r.kind() == Kind.ENUM && r.source() == Source.KERNEL) {
                    specEnum(r.spec()).ifPresent(e -> e.values().forEach(v -> roots.add(r.expr() + v.name())));
                }
            }
            String decls = kernelSource.declarationsFor(roots);
            StringBuilder main = new StringBuilder("int main(void) {\n");
            appendRowQueries(main, Source.KERNEL);
            main.append("    return 0;\n}\n");
            kernelOut = gcc.run("kernel", decls + main, List.of(truth.mlx5Dir().toString()));
        }
        return kernelOut;
    }

    private Map<String, String[]> rdmaOutput() {
        if (rdmaOut == null) {
            StringBuilder src = new StringBuilder("""
                    #include <stddef.h>
                    #include <stdio.h>
                    #include <string.h>
                    #include <infiniband/mlx5dv.h>
                    int main(void) {
                    """);
            appendRowQueries(src, Source.RDMA);
            src.append("    return 0;\n}\n");
            Path include = truth.mlx5dvHeader().getParent().getParent();
            rdmaOut = gcc.run("rdma", src.toString(), List.of(include.toString()));
        }
        return rdmaOut;
    }

    private Map<String, String[]> netOutput() {
        if (netOut == null) {
            StringBuilder src = new StringBuilder(NetHeaders.source(truth));
            src.append("int main(void) {\n");
            appendRowQueries(src, Source.NET);
            src.append("    return 0;\n}\n");
            netOut = gcc.run("net", src.toString(), NetHeaders.includeDirs(truth));
        }
        return netOut;
    }

    private Map<String, String[]> output(Source s) {
        return switch (s) {
            case IFC -> ifcOutput();
            case KERNEL -> kernelOutput();
            case RDMA -> rdmaOutput();
            case NET -> netOutput();
        };
    }

    private void appendRowQueries(StringBuilder out, Source source) {
        for (int i = 0; i < rows.size(); i++) {
            Row r = rows.get(i);
            if (r.source() != source) continue;
            String key = "R" + i;
            switch (r.kind()) {
                case SIZE -> out.append(String.format("    printf(\"%s\\t%%zu\\n\", sizeof(%s));%n", key, r.cType()));
                case VALUE, OFFSET -> out.append(String.format("    printf(\"%s\\t%%lld\\n\", (long long)(%s));%n", key, r.expr()));
                case FIELD, DIFFERS -> out.append(fieldQuery(key, r));
                case ENUM -> specEnum(r.spec()).ifPresent(e -> e.values().stream()
                        .filter(v -> defines(source, r.expr() + v.name()))
                        .forEach(v -> out.append(String.format("    printf(\"%s_%s\\t%%lld\\n\", (long long)(%s));%n",
                                key, v.name(), enumValueExpr(e, r.expr() + v.name())))));
                case UNMAPPED -> { }
            }
        }
    }

    private static String fieldQuery(String key, Row r) {
        String t = r.cType();
        String p = r.member();
        String off = "offsetof(" + t + ", " + p + ")";
        String size = "sizeof(((" + t + " *)0)->" + p + ")";
        String bits = r.bits();
        if (bits.equals("bitfield")) {
            // set the bit field to all ones in a zeroed object and report which bits of the object changed
            return String.format("""
                        {
                            %s v; const unsigned char *b = (const unsigned char *)&v; long first = -1, last = -1, n = 0;
                            memset(&v, 0, sizeof v); v.%s = ~0ULL;
                            for (size_t i = 0; i < sizeof v; i++)
                                for (int k = 7; k >= 0; k--)
                                    if ((b[i] >> k) & 1) { long a = (long)i * 8 + (7 - k); if (first < 0) first = a; last = a; n++; }
                            printf("%s\\t%%ld\\t%%ld\\t%%ld\\n", first, last, n);
                        }
                    """, t, p, key);
        }
        if (bits.equals("flex")) {
            return String.format("    printf(\"%s\\t%%zu\\t0\\n\", %s);%n", key, off);
        }
        if (bits.startsWith("mask(") && bits.endsWith(")")) {
            return String.format("    printf(\"%s\\t%%zu\\t%%zu\\t%%llu\\n\", %s, %s, (unsigned long long)(%s));%n",
                    key, off, size, bits.substring(5, bits.length() - 1));
        }
        return String.format("    printf(\"%s\\t%%zu\\t%%zu\\n\", %s, %s);%n", key, off, size);
    }

    // ---------------------------------------------------------------------------------------------
    // spec lookups

    Optional<StructLayout> spec(String simpleName) {
        return model.structs().stream().filter(s -> s.name().name().equals(simpleName)).findFirst();
    }

    private Optional<Member> specMember(String struct, String field) {
        return spec(struct).flatMap(s -> s.member(field));
    }

    /** Spec fields some FIELD or OFFSET row verifies, as "struct.field". */
    private Set<String> verifiedSpecFields() {
        Set<String> out = new HashSet<>();
        for (Row r : rows) {
            if (r.kind() == Kind.FIELD || r.kind() == Kind.OFFSET) {
                SpecRef s = r.specRef();
                out.add(s.struct() + "." + s.field());
            }
        }
        return out;
    }

    // ---------------------------------------------------------------------------------------------
    // comparison 1: mlx5_ifc.h structures present in the spec

    Report compareIfcStructures() {
        Map<String, String[]> out = ifcOutput();
        Set<String> verified = verifiedSpecFields();
        Map<String, String> unmapped = new HashMap<>();
        for (Row r : rows) {
            if (r.kind() == Kind.UNMAPPED) unmapped.put(r.specRef().struct() + "." + r.specRef().field(), r.expr());
        }
        Set<String> rowMembers = new HashSet<>();
        for (Row r : rows) {
            if (r.kind() == Kind.FIELD && r.source() == Source.IFC) rowMembers.add(r.cType() + "#" + r.member());
        }
        List<String> bad = new ArrayList<>();
        List<String> notes = new ArrayList<>();
        int fields = 0;
        int matched = 0;
        List<IfcHeader.Decl> decls = comparedIfc();
        for (int i = 0; i < decls.size(); i++) {
            IfcHeader.Decl d = decls.get(i);
            StructLayout s = spec(d.specName()).orElseThrow();
            String where = d.cType() + " vs spec " + s.name();
            long cBits = Long.parseLong(out.get("S" + i)[1]);
            fact(GroundTruthTable.Kind.SIZE, s, "", -1, -1, cBits, 0, d.cType());
            if (cBits != s.sizeBits()) {
                bad.add(where + ": size " + hex(cBits) + " bits in C, " + hex(s.sizeBits()) + " in spec");
            }
            BitSet acceptable = new BitSet();
            for (Member m : s.members()) {
                if (m.reserved() || verified.contains(d.specName() + "." + m.name())) {
                    acceptable.set((int) m.bitOffset(), (int) m.bitEnd());
                } else if (unmapped.containsKey(d.specName() + "." + m.name())) {
                    // named by a header that is not installed (rdma-core's or DPDK's mlx5_ifc copy); the row says which
                    acceptable.set((int) m.bitOffset(), (int) m.bitEnd());
                    notes.add(where + ", field " + m.name() + ": in a range mlx5_ifc.h reserves (" + unmapped.get(d.specName() + "." + m.name()) + ")");
                }
            }
            Set<String> seen = new HashSet<>();
            for (int j = 0; j < d.members().size(); j++) {
                IfcHeader.Member cm = d.members().get(j);
                String[] q = out.get("M" + i + "." + j);
                long off = Long.parseLong(q[1]);
                long width = Long.parseLong(q[2]);
                fields++;
                Optional<Member> sm = s.member(cm.name());
                String at = where + ", field " + cm.path();
                List<Member> unionAlts = s.members().stream()
                        .filter(m -> m.variant().map(v -> v.union().equals(cm.name())).orElse(false)).toList();
                if (cm.inlineUnionWhole() || (sm.isEmpty() && !unionAlts.isEmpty())) {
                    if (sm.isPresent()) {
                        seen.add(cm.name());
                        fact(GroundTruthTable.Kind.FIELD, s, cm.name(), -1, -1, off, width, d.cType() + "." + cm.path());
                        matched += check(bad, at, sm.get().bitOffset(), sm.get().bitWidth(), off, width) ? 1 : 0;
                    } else {
                        for (Member alt : unionAlts) {
                            fact(GroundTruthTable.Kind.WITHIN, s, alt.name(), -1, -1, off, width, d.cType() + "." + cm.path());
                        }
                        if (unionAlts.isEmpty()) {
                            bad.add(at + ": union only in mlx5_ifc.h (bits " + hex(off) + "+" + hex(width) + ")");
                        } else if (unionAlts.stream().allMatch(m -> m.bitOffset() >= off && m.bitEnd() <= off + width)) {
                            matched++; // the spec's inline union lies within the C union; its members are checked by rows
                        } else {
                            bad.add(at + ": spec union " + cm.name() + " extends outside bits " + hex(off) + "+" + hex(width));
                        }
                    }
                    continue;
                }
                if (!cm.inlineUnion().isEmpty() && sm.isEmpty()) {
                    // an alternative of an inline union the spec does not name; the union was compared as a whole
                    notes.add(at + ": alternative not named in the spec (union compared as a whole)");
                    fields--;
                    continue;
                }
                // a reserved range the spec splits (a narrower reserved member, then fields another header names) is checked bit by bit below
                boolean splitReserved = cm.reserved() && sm.isPresent() && sm.get().bitWidth() != width;
                if (sm.isPresent() && (!cm.reserved() || sm.get().bitOffset() == off) && !splitReserved) {
                    seen.add(cm.name());
                    fact(GroundTruthTable.Kind.FIELD, s, cm.name(), -1, -1, off, width, d.cType() + "." + cm.path());
                    matched += check(bad, at, sm.get().bitOffset(), sm.get().bitWidth(), off, width) ? 1 : 0;
                } else if (!cm.reserved() && rowMembers.contains(d.cType() + "#" + cm.path())) {
                    matched++; // verified by a mapping row against a differently shaped spec field
                } else if (cm.reserved()) {
                    int next = acceptable.nextClearBit((int) off);
                    if (next >= off + width) {
                        matched++;
                        if (!cm.name().equals("reserved_at_" + Long.toHexString(off))) {
                            notes.add(at + ": header name does not match its offset " + hex(off) + " (typo in mlx5_ifc.h)");
                        }
                    } else {
                        bad.add(at + ": reserved in mlx5_ifc.h but spec bit " + hex(next) + " is a field no other header confirms");
                    }
                } else if (d.union()) {
                    // a union alternative the spec does not describe leaves no gap in the layout: report, don't fail
                    notes.add(at + ": union alternative not transcribed in the spec");
                    fields--;
                } else {
                    bad.add(at + ": field only in mlx5_ifc.h (bits " + hex(off) + "+" + hex(width) + ")");
                }
            }
            for (Member m : s.members()) {
                if (m.reserved() || seen.contains(m.name()) || verified.contains(d.specName() + "." + m.name())) continue;
                if (unmapped.containsKey(d.specName() + "." + m.name())) continue; // noted above; an unchecked row in the table
                fields++;
                bad.add(where + ", field " + m.name() + ": only in the spec (" + m.prmPosition() + ")");
            }
        }
        return new Report("mlx5_ifc.h structures", decls.size(), "structures", fields, matched, 0, bad, notes);
    }

    private static boolean check(List<String> bad, String at, long specOff, long specWidth, long cOff, long cWidth) {
        if (specOff == cOff && specWidth == cWidth) return true;
        bad.add(at + ": spec " + bits(specOff, specWidth) + ", C " + bits(cOff, cWidth));
        return false;
    }

    // ---------------------------------------------------------------------------------------------
    // comparison 3: command opcodes (spec enum cmd_opcode against mlx5_ifc.h's MLX5_CMD_OP_<NAME>)

    static final String OPCODE_ENUM = "cmd_opcode";

    Optional<EnumLayout> opcodeEnum() {
        return model.enums().stream().filter(e -> e.name().name().equals(OPCODE_ENUM)).findFirst();
    }

    Report compareCommandOpcodes() {
        List<String> bad = new ArrayList<>();
        List<String> notes = new ArrayList<>();
        Optional<EnumLayout> e = opcodeEnum();
        if (e.isEmpty()) {
            bad.add("the spec has no enum " + OPCODE_ENUM + " to compare with mlx5_ifc.h's MLX5_CMD_OP_* constants");
            return new Report("mlx5_ifc.h command opcodes", 0, "enums", 0, 0, 0, bad, notes);
        }
        Map<String, String[]> out = ifcOutput();
        int fields = 0;
        int matched = 0;
        Set<String> inSpec = new HashSet<>();
        for (EnumLayout.EnumValue v : e.get().values()) {
            inSpec.add(v.name());
            String[] q = out.get("OP_" + v.name());
            if (q == null) {
                notes.add(OPCODE_ENUM + "." + v.name() + ": no MLX5_CMD_OP_" + v.name() + " in mlx5_ifc.h");
                continue;
            }
            fields++;
            long c = Long.parseLong(q[1]);
            if (c == v.value()) matched++;
            else bad.add(OPCODE_ENUM + "." + v.name() + ": " + hex(v.value()) + " in spec, MLX5_CMD_OP_" + v.name() + " = " + hex(c));
        }
        long missing = ifcOpcodes.stream().filter(n -> !inSpec.contains(n) && !n.equals("MAX")).count();
        if (missing > 0) notes.add(missing + " MLX5_CMD_OP_* constants of mlx5_ifc.h have no " + OPCODE_ENUM + " value");
        return new Report("mlx5_ifc.h command opcodes", 1, "enum", fields, matched, 0, bad, notes);
    }

    // ---------------------------------------------------------------------------------------------
    // comparison 2: the mapping table (C structs, constants)

    Report compareMappingTable() {
        List<String> bad = new ArrayList<>();
        List<String> notes = new ArrayList<>();
        Set<String> cTypes = new TreeSet<>();
        int fields = 0;
        int matched = 0;
        int known = 0;
        for (int i = 0; i < rows.size(); i++) {
            Row r = rows.get(i);
            if (r.kind() == Kind.UNMAPPED) continue;
            if (r.kind() == Kind.ENUM) {
                int[] counts = compareEnumRow(r, "R" + i, bad, notes);
                fields += counts[0];
                matched += counts[1];
                continue;
            }
            String[] q = output(r.source()).get("R" + i);
            if (q == null) throw new AssertionError(r.where() + ": the C program printed nothing for this row");
            String at = r.where() + " " + r.spec();
            switch (r.kind()) {
                case SIZE -> {
                    cTypes.add(r.cType());
                    fields++;
                    Optional<StructLayout> s = spec(r.spec());
                    // sizeof an mlx5_ifc.h struct counts bits (one byte per bit)
                    long c = Long.parseLong(q[1]);
                    long spec = s.map(x -> r.source() == Source.IFC ? x.sizeBits() : x.sizeBytes()).orElse(-1L);
                    s.ifPresent(x -> fact(GroundTruthTable.Kind.SIZE, x, "", -1, -1, r.source() == Source.IFC ? c : c * 8, 0, r.cType()));
                    if (s.isEmpty()) bad.add(at + ": no such spec structure");
                    else if (spec != c) bad.add(at + ": size " + hex(spec) + " in spec, " + hex(c) + " = sizeof(" + r.cType() + ")");
                    else matched++;
                }
                case FIELD -> {
                    cTypes.add(r.cType());
                    fields++;
                    if (compareField(r, q, bad, true)) matched++;
                }
                case DIFFERS -> {
                    cTypes.add(r.cType());
                    fields++;
                    List<String> diff = new ArrayList<>();
                    if (compareField(r, q, diff, false)) {
                        bad.add(at + ": expected the headers to disagree here, but spec and " + r.cType()
                                + " now match; make this a 'field' row");
                    } else {
                        matched++;
                        known++;
                        notes.add("known difference between headers: " + String.join("; ", diff));
                    }
                }
                case OFFSET -> {
                    fields++;
                    SpecRef ref = r.specRef();
                    Optional<Member> m = specMember(ref.struct(), ref.field());
                    long c = Long.parseLong(q[1]);
                    if (m.isPresent()) fact(GroundTruthTable.Kind.DWORD, spec(ref.struct()).orElseThrow(), ref.field(), -1, -1, c, 0, r.expr());
                    if (m.isEmpty()) bad.add(at + ": no such spec field");
                    else if (m.get().dwordByteOffset() != c) bad.add(at + ": dword at byte " + hex(m.get().dwordByteOffset()) + " in spec, " + hex(c) + " = " + r.expr());
                    else matched++;
                }
                case VALUE -> {
                    fields++;
                    long c = Long.parseLong(q[1]);
                    Optional<Long> v = specValue(r.spec());
                    if (v.isEmpty()) bad.add(at + ": no such spec enum value or constant");
                    else if (v.get() != c) bad.add(at + ": " + hex(v.get()) + " in spec, " + hex(c) + " = " + r.expr());
                    else matched++;
                }
                case ENUM, UNMAPPED -> { }
            }
        }
        checkMappingCoverage(bad, notes);
        return new Report("C structs and constants (kernel device.h/qp.h/cq.h/driver.h/eq.h/doorbell.h, rdma-core mlx5dv.h,"
                + " mlx5_ifc.h constants, uapi network headers and if_vlan.h)", cTypes.size(), "C structs", fields, matched, known, bad, notes);
    }

    /** Compares each value of a spec enum with the C constant named prefix + value name; returns {compared, matched}. */
    private int[] compareEnumRow(Row r, String key, List<String> bad, List<String> notes) {
        String at = r.where() + " enum " + r.spec() + " <-> " + r.expr() + "*";
        Optional<EnumLayout> e = specEnum(r.spec());
        if (e.isEmpty()) {
            bad.add(at + ": no such spec enum");
            return new int[] {1, 0};
        }
        Map<String, String[]> out = output(r.source());
        int compared = 0;
        int matched = 0;
        List<String> missing = new ArrayList<>();
        for (EnumLayout.EnumValue v : e.get().values()) {
            String[] q = out.get(key + "_" + v.name());
            if (q == null) {
                missing.add(v.name());
                continue;
            }
            compared++;
            long c = Long.parseLong(q[1]);
            if (c == v.value()) matched++;
            else bad.add(at + ": " + r.spec() + "." + v.name() + " is " + hex(v.value()) + " in spec, " + r.expr() + v.name() + " = " + hex(c));
        }
        if (compared == 0) bad.add(at + ": no value of the enum has a constant with this prefix");
        else if (!missing.isEmpty()) notes.add(at + ": no constant for " + String.join(", ", missing));
        return new int[] {compared, matched};
    }

    /** Compares a field row; {@code record}: its C position is a fact for the ground-truth table (not for 'differs' rows). */
    private boolean compareField(Row r, String[] q, List<String> bad, boolean record) {
        String at = r.where() + " " + r.spec() + " <-> " + r.cType() + "." + r.member() + " " + r.bits();
        SpecRef ref = r.specRef();
        Optional<Member> sm = specMember(ref.struct(), ref.field());
        if (sm.isEmpty()) {
            bad.add(at + ": no such spec field");
            return false;
        }
        Member m = sm.get();
        long specStart = m.bitOffset();
        long specWidth = m.bitWidth();
        if (ref.hasPiece()) {
            if (ref.hi() >= specWidth || ref.lo() > ref.hi()) {
                bad.add(at + ": bits [" + ref.hi() + ":" + ref.lo() + "] do not exist in a " + specWidth + "-bit field");
                return false;
            }
            specStart = m.bitOffset() + (specWidth - 1 - ref.hi());
            specWidth = ref.hi() - ref.lo() + 1;
        }
        long cStart;
        long cWidth;
        String bits = r.bits();
        if (r.source() == Source.IFC) {
            cStart = Long.parseLong(q[1]);
            cWidth = Long.parseLong(q[2]);
        } else if (bits.equals("bitfield")) {
            long first = Long.parseLong(q[1]);
            long last = Long.parseLong(q[2]);
            long n = Long.parseLong(q[3]);
            if (first < 0 || n != last - first + 1) {
                bad.add(at + ": the bit field does not occupy contiguous bits (" + n + " bits in " + first + ".." + last + ")");
                return false;
            }
            cStart = first;
            cWidth = n;
        } else if (bits.equals("flex")) {
            cStart = Long.parseLong(q[1]) * 8;
            cWidth = 0;
        } else {
            long offBytes = Long.parseLong(q[1]);
            long sizeBits = Long.parseLong(q[2]) * 8;
            int hi;
            int lo;
            if (bits.equals("all")) {
                hi = (int) sizeBits - 1;
                lo = 0;
            } else if (bits.startsWith("mask(")) {
                long mask = Long.parseUnsignedLong(q[3]);
                if (mask == 0 || ((mask >>> Long.numberOfTrailingZeros(mask)) & ((mask >>> Long.numberOfTrailingZeros(mask)) + 1)) != 0) {
                    bad.add(at + ": mask 0x" + Long.toHexString(mask) + " is not one contiguous run of bits");
                    return false;
                }
                hi = 63 - Long.numberOfLeadingZeros(mask);
                lo = Long.numberOfTrailingZeros(mask);
            } else {
                Matcher br = Pattern.compile("\\[(\\d+):(\\d+)\\]").matcher(bits);
                if (!br.matches()) throw new IllegalArgumentException(r.where() + ": bad bits column '" + bits + "'");
                hi = Integer.parseInt(br.group(1));
                lo = Integer.parseInt(br.group(2));
            }
            if (hi >= sizeBits || lo > hi) {
                bad.add(at + ": bits [" + hi + ":" + lo + "] do not exist in a " + sizeBits + "-bit C member");
                return false;
            }
            cStart = offBytes * 8 + (sizeBits - 1 - hi);
            cWidth = hi - lo + 1;
        }
        if (record) {
            fact(GroundTruthTable.Kind.FIELD, spec(ref.struct()).orElseThrow(), ref.field(), ref.hasPiece() ? ref.hi() : -1,
                    ref.hasPiece() ? ref.lo() : -1, cStart, cWidth, r.cType() + "." + r.member() + (bits.equals("all") ? "" : " " + bits));
        }
        return check(bad, at, specStart, specWidth, cStart, cWidth);
    }

    private Optional<Long> specValue(String ref) {
        int dot = ref.indexOf('.');
        if (dot < 0) {
            return model.constants().stream().filter(c -> c.name().name().equals(ref)).findFirst().map(c -> c.value());
        }
        String e = ref.substring(0, dot);
        String v = ref.substring(dot + 1);
        return model.enums().stream().filter(x -> x.name().name().equals(e)).findFirst()
                .flatMap(x -> x.values().stream().filter(ev -> ev.name().equals(v)).findFirst())
                .map(EnumLayout.EnumValue::value);
    }

    /** Every named field of a spec structure the table maps must be mapped or explicitly listed as unmapped. */
    private void checkMappingCoverage(List<String> bad, List<String> notes) {
        Map<String, Set<String>> covered = new LinkedHashMap<>();
        Map<String, String> unmapped = new LinkedHashMap<>();
        for (Row r : rows) {
            SpecRef s;
            if (r.kind() == Kind.FIELD || r.kind() == Kind.OFFSET) {
                s = r.specRef();
                covered.computeIfAbsent(s.struct(), k -> new LinkedHashSet<>()).add(s.field());
            } else if (r.kind() == Kind.UNMAPPED) {
                s = r.specRef();
                if (specMember(s.struct(), s.field()).isEmpty()) bad.add(r.where() + " " + r.spec() + ": unmapped row names no spec field");
                unmapped.put(s.struct() + "." + s.field(), r.expr());
            }
        }
        for (Map.Entry<String, Set<String>> e : covered.entrySet()) {
            Optional<StructLayout> s = spec(e.getKey());
            if (s.isEmpty()) continue; // reported per row
            for (Member m : s.get().members()) {
                if (m.reserved() || e.getValue().contains(m.name())) continue;
                String key = e.getKey() + "." + m.name();
                if (unmapped.containsKey(key)) notes.add(key + ": not in the C headers (" + unmapped.get(key) + ")");
                else bad.add(key + ": no row in c-struct-map.txt maps it to a C member and no 'unmapped' row explains why");
            }
        }
    }

    // ---------------------------------------------------------------------------------------------
    // the ground-truth table

    private void fact(GroundTruthTable.Kind kind, StructLayout s, String field, int hi, int lo, long off, long width, String origin) {
        facts.add(new GroundTruthTable.Fact(kind, GroundTruthTable.name(s), field, hi, lo, off, width, origin.replaceAll("\\s+", " ")));
    }

    /**
     * The ground-truth table of the bundled spec from these headers: every fact gcc printed in the two
     * structure comparisons, and an {@code unchecked} row for each structure and named field no header
     * has (with the mapping table's reason where it gives one).
     */
    GroundTruthTable.Table groundTruth(Map<String, String> sources) {
        compareIfcStructures();
        compareMappingTable();
        java.util.SortedSet<GroundTruthTable.Fact> all = new TreeSet<>(facts);
        Map<String, String> why = new LinkedHashMap<>();
        for (Row r : rows) {
            if (r.kind() == Kind.UNMAPPED) why.putIfAbsent(r.specRef().struct() + "." + r.specRef().field(), "not in the headers: " + r.expr());
            if (r.kind() == Kind.DIFFERS) why.putIfAbsent(r.specRef().struct() + "." + r.specRef().field(),
                    "the headers disagree (a 'differs' row of c-struct-map.txt, " + r.where() + ")");
        }
        for (StructLayout s : model.structs()) {
            String sn = GroundTruthTable.name(s);
            Set<String> known = new HashSet<>();
            for (GroundTruthTable.Fact f : facts) if (f.struct().equals(sn)) known.add(f.field());
            if (known.isEmpty()) {
                all.add(new GroundTruthTable.Fact(GroundTruthTable.Kind.UNCHECKED, sn, "*", -1, -1, 0, 0, "no C counterpart in the headers"));
                continue;
            }
            for (Member m : s.members()) {
                if (m.reserved() || known.contains(m.name())) continue;
                all.add(new GroundTruthTable.Fact(GroundTruthTable.Kind.UNCHECKED, sn, m.name(), -1, -1, 0, 0,
                        why.getOrDefault(s.name().name() + "." + m.name(), "no header has this field")));
            }
        }
        return new GroundTruthTable.Table(sources, List.copyOf(all));
    }

    // ---------------------------------------------------------------------------------------------

    private static String hex(long v) {
        return "0x" + Long.toHexString(v);
    }

    private static String bits(long off, long width) {
        return "bits " + hex(off) + "+" + width + String.format(" (dword 0x%02x [%d:%d])", (off / 32) * 4,
                31 - off % 32, 31 - off % 32 - Math.min(width, 32 - off % 32) + 1);
    }
}

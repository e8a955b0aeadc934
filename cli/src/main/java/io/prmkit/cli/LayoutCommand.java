package io.prmkit.cli;

import io.prmkit.dsl.Json;
import io.prmkit.dsl.Words;
import io.prmkit.dsl.ir.PrmPosition;
import io.prmkit.dsl.SourceFile;
import io.prmkit.dsl.ir.Constant;
import io.prmkit.dsl.ir.EnumLayout;
import io.prmkit.dsl.ir.Join;
import io.prmkit.dsl.ir.LayoutModel;
import io.prmkit.dsl.ir.Member;
import io.prmkit.dsl.ir.MemberType;
import io.prmkit.dsl.ir.Rule;
import io.prmkit.dsl.ir.StructLayout;
import io.prmkit.pipeline.Pipeline;
import java.io.PrintWriter;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code prmkit layout}: prints resolved layouts.
 *
 * <ul>
 *   <li>{@code table}: per struct, PRM-style rows: dword byte offset, bit range (or the type of a
 *       member wider than a dword), field, doc.
 *   <li>{@code csv}: header {@code struct,field,bit_offset,bit_width}; one row per member as declared
 *       (a nested struct or array is one row with its whole width; a flexible array has width 0;
 *       members of inline unions are rows of the enclosing struct). {@code struct} is the simple name,
 *       or the qualified one when two packages declare that name. Offsets count bits from the MSB of
 *       byte 0, like the kernel's {@code __mlx5_bit_off}.
 *   <li>{@code json}: see docs/layout-json.md for the shape.
 * </ul>
 */
@Command(name = "layout", mixinStandardHelpOptions = true,
        description = "Prints resolved layouts of spec files (or of the bundled mlx5 spec when no SPEC is given).",
        exitCodeList = {"0:layouts printed", "1:the specs have errors or cannot be read, or --struct names no struct"})
public final class LayoutCommand implements Callable<Integer> {
    enum Format { table, csv, json }

    @Spec
    CommandSpec spec;

    @Option(names = "--format", defaultValue = "table", description = "table, csv or json (default: ${DEFAULT-VALUE}).")
    Format format;

    @Option(names = "--struct", paramLabel = "NAME", description = "Only this struct (simple or qualified name).")
    String struct;

    @Parameters(arity = "0..*", paramLabel = "SPEC", description = "Spec files or directories (default: the bundled spec).")
    List<Path> specs;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        List<SourceFile> files;
        try {
            files = SpecInput.load(specs, spec);
        } catch (SpecInput.Failed e) {
            return PrmkitCli.INPUT_ERROR;
        }
        Pipeline.Result r = Pipeline.compile(files, List.of());
        CheckCommand.report(r, files, err);
        if (r.hasErrors() || r.model().isEmpty()) return PrmkitCli.INPUT_ERROR;
        LayoutModel model = r.model().get();
        List<StructLayout> structs = model.structs();
        if (struct != null) {
            structs = structs.stream().filter(s -> s.name().toString().equals(struct) || s.name().name().equals(struct)).toList();
            if (structs.isEmpty()) {
                SpecInput.say(spec, err, "no struct named '" + struct + "'");
                return PrmkitCli.INPUT_ERROR;
            }
        }
        StringBuilder sb = new StringBuilder();
        switch (format) {
            case csv -> csv(model, structs, sb);
            case json -> json(model, structs, struct == null, sb);
            default -> table(structs, sb);
        }
        out.print(sb);
        out.flush();
        return 0;
    }

    static void csv(LayoutModel model, List<StructLayout> structs, StringBuilder sb) {
        Map<String, Integer> simple = new HashMap<>();
        model.structs().forEach(s -> simple.merge(s.name().name(), 1, Integer::sum));
        sb.append("struct,field,bit_offset,bit_width\n");
        for (StructLayout s : structs) {
            String name = simple.get(s.name().name()) == 1 ? s.name().name() : s.name().toString();
            for (Member m : s.members()) {
                sb.append(name).append(',').append(m.name()).append(',').append(m.bitOffset()).append(',').append(m.bitWidth()).append('\n');
            }
        }
    }

    static void table(List<StructLayout> structs, StringBuilder sb) {
        boolean first = true;
        for (StructLayout s : structs) {
            if (!first) sb.append('\n');
            first = false;
            sb.append(s.kind().name().toLowerCase(Locale.ROOT)).append(' ').append(s.name()).append(" (").append(hex(s.sizeBytes()))
                    .append(" bytes").append(s.byteOrder() == ByteOrder.LITTLE_ENDIAN ? ", little-endian" : "")
                    .append(s.doc().prmRef().isEmpty() ? "" : ", " + s.doc().prmRef()).append(")")
                    .append(s.doc().text().isEmpty() ? "" : "  " + s.doc().text()).append('\n');
            int width = "field".length();
            for (Member m : s.members()) width = Math.max(width, m.name().length());
            sb.append(String.format("  %-6s %-14s %-" + width + "s  %s%n", "offset", "bits", "field", "doc"));
            for (Member m : s.members()) {
                boolean inDword = m.isScalar() && m.bitWidth() <= 32;
                String offset = inDword ? hex(m.dwordByteOffset()) : m.bitOffset() % 8 == 0 ? hex(m.byteOffset()) : "bit " + m.bitOffset();
                String bits = inDword ? PrmPosition.bitRange(m.hiBit(), m.loBit()) : type(m.type());
                String doc = m.doc().text();
                if (m.variant().isPresent()) doc = "(" + m.variant().get().union() + "." + m.variant().get().alternative() + ") " + doc;
                sb.append(String.format("  %-6s %-14s %-" + width + "s  %s", offset, bits, m.name(), doc).stripTrailing()).append('\n');
            }
            for (Join j : s.joins()) {
                sb.append(("  join   " + j.name() + " = " + j.partsText() + " (" + Words.plural(j.bitWidth(), "bit")
                        + j.enumType().map(e -> ", enum " + e).orElse("") + ")  " + j.doc().text()).stripTrailing()).append('\n');
            }
        }
    }

    static String type(MemberType t) {
        if (t instanceof MemberType.Bits b) return b.width() % 8 == 0 && b.width() >= 8 && Integer.bitCount(b.width()) == 1 ? "u" + b.width() : Words.plural(b.width(), "bit");
        if (t instanceof MemberType.Bytes b) return "u8[" + b.length() + "]";
        if (t instanceof MemberType.StructRef r) return r.target().name();
        MemberType.Array a = (MemberType.Array) t;
        return type(a.element()) + (a.flexible() ? "[]" : "[" + a.count() + "]");
    }

    private static String hex(long v) {
        return PrmPosition.byteOffset(v);
    }

    // ---- JSON (through prm-dsl's one JSON writer, Json) ----

    static void json(LayoutModel model, List<StructLayout> structs, boolean all, StringBuilder sb) {
        sb.append("{\n  \"structs\": [");
        for (int i = 0; i < structs.size(); i++) {
            StructLayout s = structs.get(i);
            sb.append(i == 0 ? "\n" : ",\n").append("    {");
            field(sb, "name", s.name().toString(), true);
            field(sb, "kind", s.kind().name().toLowerCase(Locale.ROOT), false);
            sb.append(", \"sizeBytes\": ").append(s.sizeBytes());
            field(sb, "byteOrder", s.byteOrder() == ByteOrder.LITTLE_ENDIAN ? "little" : "big", false);
            doc(sb, s.doc());
            sb.append(", \"members\": [");
            for (int j = 0; j < s.members().size(); j++) {
                Member m = s.members().get(j);
                sb.append(j == 0 ? "\n" : ",\n").append("      {");
                field(sb, "name", m.name(), true);
                sb.append(", \"bitOffset\": ").append(m.bitOffset()).append(", \"bitWidth\": ").append(m.bitWidth());
                sb.append(", \"dword\": ").append(m.dword()).append(", \"hi\": ").append(m.hiBit()).append(", \"lo\": ").append(m.loBit());
                field(sb, "type", type(m.type()), false);
                sb.append(", \"reserved\": ").append(m.reserved());
                field(sb, "access", m.access().name().toLowerCase(Locale.ROOT), false);
                m.enumType().ifPresent(e -> field(sb, "enum", e.toString(), false));
                m.flagsType().ifPresent(e -> field(sb, "flags", e.toString(), false));
                m.constraints().min().ifPresent(v -> sb.append(", \"min\": ").append(Long.toUnsignedString(v)));
                m.constraints().max().ifPresent(v -> sb.append(", \"max\": ").append(Long.toUnsignedString(v)));
                if (m.constraints().powerOfTwo()) sb.append(", \"pow2\": true");
                if (m.constraints().log2()) sb.append(", \"log2\": true");
                if (m.constraints().mustBeZero()) sb.append(", \"mbz\": true");
                m.capability().ifPresent(c -> field(sb, "cap", c.toString(), false));
                if (!m.selector().isEmpty()) field(sb, "tag", m.selector(), false);
                m.variant().ifPresent(v -> {
                    sb.append(", \"variant\": {");
                    field(sb, "union", v.union(), true);
                    field(sb, "alternative", v.alternative(), false);
                    if (!v.selector().isEmpty()) field(sb, "selector", v.selector(), false);
                    v.tag().ifPresent(t -> sb.append(", \"when\": ").append(Long.toUnsignedString(t)));
                    sb.append('}');
                });
                doc(sb, m.doc());
                field(sb, "file", m.location().file(), false);
                sb.append(", \"line\": ").append(m.location().line()).append('}');
            }
            sb.append(s.members().isEmpty() ? "]" : "\n    ]");
            sb.append(", \"rules\": [");
            for (int j = 0; j < s.rules().size(); j++) {
                Rule r = s.rules().get(j);
                sb.append(j == 0 ? "" : ", ").append('{');
                field(sb, "name", r.name(), true);
                field(sb, "expr", r.condition().source(), false);
                field(sb, "message", r.message(), false);
                sb.append('}');
            }
            sb.append("], \"joins\": [");
            for (int j = 0; j < s.joins().size(); j++) {
                Join jn = s.joins().get(j);
                sb.append(j == 0 ? "" : ", ").append('{');
                field(sb, "name", jn.name(), true);
                sb.append(", \"bitWidth\": ").append(jn.bitWidth()).append(", \"parts\": [");
                for (int k = 0; k < jn.parts().size(); k++) {
                    Join.Part part = jn.parts().get(k);
                    sb.append(k == 0 ? "" : ", ").append('{');
                    field(sb, "field", part.field(), true);
                    sb.append(", \"shift\": ").append(part.shift()).append(", \"width\": ").append(part.width()).append('}');
                }
                sb.append(']');
                jn.enumType().ifPresent(e -> field(sb, "enum", e.toString(), false));
                doc(sb, jn.doc());
                sb.append('}');
            }
            sb.append("]}");
        }
        sb.append(structs.isEmpty() ? "]" : "\n  ]");
        if (all) {
            sb.append(",\n  \"enums\": [");
            List<EnumLayout> enums = model.enums();
            for (int i = 0; i < enums.size(); i++) {
                EnumLayout e = enums.get(i);
                sb.append(i == 0 ? "\n" : ",\n").append("    {");
                field(sb, "name", e.name().toString(), true);
                field(sb, "kind", e.kind().name().toLowerCase(Locale.ROOT), false);
                sb.append(", \"width\": ").append(e.width()).append(", \"values\": [");
                for (int j = 0; j < e.values().size(); j++) {
                    EnumLayout.EnumValue v = e.values().get(j);
                    sb.append(j == 0 ? "" : ", ").append('{');
                    field(sb, "name", v.name(), true);
                    sb.append(", \"value\": ").append(Long.toUnsignedString(v.value()));
                    if (!v.doc().text().isEmpty()) field(sb, "doc", v.doc().text(), false);
                    sb.append('}');
                }
                sb.append("]}");
            }
            sb.append(enums.isEmpty() ? "]" : "\n  ]");
            sb.append(",\n  \"constants\": [");
            List<Constant> constants = model.constants();
            for (int i = 0; i < constants.size(); i++) {
                Constant k = constants.get(i);
                sb.append(i == 0 ? "\n" : ",\n").append("    {");
                field(sb, "name", k.name().toString(), true);
                sb.append(", \"value\": ").append(Long.toUnsignedString(k.value())).append('}');
            }
            sb.append(constants.isEmpty() ? "]" : "\n  ]");
        }
        sb.append("\n}\n");
    }

    private static void doc(StringBuilder sb, io.prmkit.dsl.ir.Doc d) {
        if (!d.text().isEmpty()) field(sb, "doc", d.text(), false);
        if (!d.prmRef().isEmpty()) field(sb, "ref", d.prmRef(), false);
        if (!d.since().isEmpty()) field(sb, "since", d.since(), false);
    }

    private static void field(StringBuilder sb, String key, String value, boolean first) {
        Json.field(sb, key, value, first);
    }
}

package io.prmkit.mlx5.conformance;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The structure declarations of mlx5_ifc.h. That header is written in one rigid style (one byte
 * per bit: {@code u8 name[width]}, nested {@code struct mlx5_ifc_x_bits name}, and a few inline
 * unions), so a line-based reader suffices; gcc later computes every offset and size from the
 * real header, this class only lists which members to ask about.
 */
final class IfcHeader {

    /** One member to query; {@code path} is a C member designator valid in offsetof. */
    record Member(String name, String path, boolean reserved, boolean flexible, boolean inlineUnionWhole,
                  String inlineUnion) {}

    /** One {@code struct|union mlx5_ifc_*} definition. */
    record Decl(String cType, String specName, boolean union, List<Member> members) {}

    private static final Pattern DECL = Pattern.compile("^(struct|union)\\s+(mlx5_ifc_\\w+)\\s*\\{\\s*$");
    private static final Pattern FIELD = Pattern.compile(
            "^(u8|(?:struct|union)\\s+\\w+)\\s+(\\w+)((?:\\s*\\[[^\\]]*\\])*)\\s*;$");
    private static final Pattern INLINE_OPEN = Pattern.compile("^(union|struct)\\s*\\{$");
    private static final Pattern INLINE_CLOSE = Pattern.compile("^\\}\\s*(\\w+)\\s*;$");

    private IfcHeader() {}

    /** Spec name of a C tag: mlx5_ifc_cqc_bits -> cqc, mlx5_ifc_calc_op -> calc_op. */
    static String specName(String cTag) {
        String s = cTag.substring("mlx5_ifc_".length());
        return s.endsWith("_bits") ? s.substring(0, s.length() - "_bits".length()) : s;
    }

    static Map<String, Decl> parse(String text) {
        String src = text.replaceAll("(?s)/\\*.*?\\*/", " ").replaceAll("//[^\n]*", "");
        Map<String, Decl> decls = new LinkedHashMap<>();
        String[] lines = src.split("\n");
        for (int i = 0; i < lines.length; i++) {
            Matcher d = DECL.matcher(lines[i].trim());
            if (!d.matches()) continue;
            boolean union = d.group(1).equals("union");
            String tag = d.group(2);
            List<Member> members = new ArrayList<>();
            String inline = null;
            List<Member> inner = new ArrayList<>();
            for (i++; i < lines.length; i++) {
                String line = lines[i].trim().replaceAll("\\s+", " ");
                if (line.isEmpty()) continue;
                if (inline == null && line.startsWith("};")) break;
                if (inline == null && INLINE_OPEN.matcher(line).matches()) {
                    inline = "";
                    inner = new ArrayList<>();
                    continue;
                }
                Matcher close = INLINE_CLOSE.matcher(line);
                if (inline != null && close.matches()) {
                    String uname = close.group(1);
                    members.add(new Member(uname, uname, false, false, true, uname));
                    for (Member m : inner) {
                        members.add(new Member(m.name(), uname + "." + m.path(), m.reserved(), m.flexible(), false, uname));
                    }
                    inline = null;
                    continue;
                }
                Matcher f = FIELD.matcher(line);
                if (!f.matches()) {
                    throw new IllegalStateException("mlx5_ifc.h: unexpected member line in " + tag + ": " + line);
                }
                String name = f.group(2);
                String dims = f.group(3).replace(" ", "");
                boolean flexible = dims.startsWith("[]") || dims.startsWith("[0]");
                Member m = new Member(name, name, name.startsWith("reserved"), flexible, false, "");
                (inline != null ? inner : members).add(m);
            }
            decls.put(tag, new Decl((union ? "union " : "struct ") + tag, specName(tag), union, List.copyOf(members)));
        }
        return decls;
    }
}

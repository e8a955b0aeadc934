package io.prmkit.dsl.importer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.prmkit.dsl.Child;
import io.prmkit.dsl.HostTools;
import io.prmkit.dsl.importer.CModel.Aggregate;
import io.prmkit.dsl.importer.CModel.BitField;
import io.prmkit.dsl.importer.CModel.Decl;
import io.prmkit.dsl.importer.CModel.Inline;
import io.prmkit.dsl.importer.CModel.Member;
import io.prmkit.dsl.importer.CModel.TypeRef;
import io.prmkit.dsl.ir.Constant;
import io.prmkit.dsl.ir.EnumLayout;
import io.prmkit.dsl.ir.LayoutModel;
import io.prmkit.dsl.ir.MemberType;
import io.prmkit.dsl.ir.StructLayout;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;


/**
 * An imported model against gcc: a C program includes the headers and prints, in the model's
 * order, every structure's size, every member's offset and width (the headers' one-byte-per-bit
 * structures make byte offsets the PRM's bit offsets; a flexible array's offset only) and every
 * enum value and constant. The model's numbers must equal gcc's one by one.
 */
final class GccLayout {
    private GccLayout() {}

    /** What was compared, and every disagreement ("IR ... / gcc ..."). */
    record Result(int structures, int members, int values, List<String> mismatches) {}

    /** The kernel's DECLARE_FLEX_ARRAY (include/uapi/linux/stddef.h), u8 and BIT as the kernel defines them. */
    static final String PRELUDE = """
            #include <stddef.h>
            #include <stdio.h>
            typedef unsigned char u8;
            typedef unsigned short u16;
            typedef unsigned int u32;
            typedef unsigned long long u64;
            #define BIT(n) (1UL << (n))
            #define BIT_ULL(n) (1ULL << (n))
            #define __packed __attribute__((packed))
            #define DECLARE_FLEX_ARRAY(T, N) struct { struct { } __empty_ ## N; T N[]; }
            """;

    /**
     * @param dir      folder of the headers
     * @param parsed   the headers the model was imported from (their C declarations name the C side)
     * @param included the headers the C program includes
     * @param work     folder for the program
     */
    static Result compare(Path dir, List<String> parsed, List<String> included, LayoutModel model, Path work) throws Exception {
        Map<String, CSide> c = new HashMap<>();
        for (String h : parsed) {
            for (Decl d : IfcParser.parse(h, Files.readString(dir.resolve(h))).decls()) {
                if (d instanceof Aggregate a) {
                    String name = IfcImporter.structName(a.tag());
                    String cType = (a.union() ? "union " : "struct ") + a.tag();
                    c.put(name, new CSide(cType, "", flatten(a, "", name, cType, c)));
                }
            }
        }
        StringBuilder prog = new StringBuilder(PRELUDE);
        for (String h : included) prog.append("#include \"").append(dir.resolve(h).toAbsolutePath()).append("\"\n");
        prog.append("#define M(T, P, D) printf(\"%zu %zu\\n\", offsetof(T, D) - (P), sizeof(((T *) 0)->D))\n");
        prog.append("#define F(T, P, D) printf(\"%zu 0\\n\", offsetof(T, D) - (P))\n");
        prog.append("#define V(X) printf(\"%llu\\n\", (unsigned long long) (X))\n");
        prog.append("int main(void) {\n");
        List<String> expected = new ArrayList<>();
        int members = 0, values = 0;
        for (StructLayout s : model.structs()) {
            CSide side = c.get(s.name().name());
            if (side == null) fail("no C declaration for " + s.name());
            assertEquals(side.members().size(), s.members().size(), () -> "member count of " + s.name());
            String base = side.prefix().isEmpty() ? "0"
                    : "offsetof(" + side.cType() + ", " + side.prefix().substring(0, side.prefix().length() - 1) + ")";
            prog.append(side.prefix().isEmpty() ? "printf(\"%zu\\n\", sizeof(" + side.cType() + "));\n"
                    : "printf(\"%zu\\n\", sizeof(((" + side.cType() + " *) 0)->" + side.prefix().substring(0, side.prefix().length() - 1) + "));\n");
            expected.add(s.name() + " size " + s.sizeBits());
            for (int i = 0; i < s.members().size(); i++) {
                io.prmkit.dsl.ir.Member m = s.members().get(i);
                String d = side.members().get(i);
                String leaf = d.substring(d.lastIndexOf('.') + 1);
                assertTrue(leaf.equals(m.name()) || (m.reserved() && leaf.startsWith("reserved")),
                        () -> s.name() + " member " + m.name() + " pairs with C member " + d);
                boolean flexible = m.type() instanceof MemberType.Array a && a.flexible();
                prog.append(flexible ? "F(" : "M(").append(side.cType()).append(", ").append(base).append(", ").append(d).append(");\n");
                expected.add(s.name() + "." + m.name() + " " + m.bitOffset() + " " + m.bitWidth());
                members++;
            }
        }
        for (EnumLayout e : model.enums()) {
            for (EnumLayout.EnumValue v : e.values()) {
                prog.append("V(").append(v.name()).append(");\n");
                expected.add(e.name() + "." + v.name() + " = " + Long.toUnsignedString(v.value()));
                values++;
            }
        }
        for (Constant k : model.constants()) {
            prog.append("V(").append(k.name().name()).append(");\n");
            expected.add(k.name() + " = " + Long.toUnsignedString(k.value()));
            values++;
        }
        prog.append("return 0;\n}\n");

        Files.createDirectories(work);
        Path src = work.resolve("layout.c"), exe = work.resolve("layout");
        Files.writeString(src, prog.toString(), StandardCharsets.UTF_8);
        run(work, HostTools.gcc(), "-std=gnu11", "-w", "-O0", "-o", exe.toString(), src.toString());
        List<String> got = run(work, exe.toAbsolutePath().toString()).lines().toList();

        assertEquals(expected.size(), got.size(), "one gcc line per structure, member, enum value and constant");
        List<String> mismatches = new ArrayList<>();
        for (int i = 0; i < expected.size(); i++) {
            String e = expected.get(i);
            String[] parts = e.split(" ");
            String actual = parts[1].equals("size") ? parts[0] + " size " + got.get(i)
                    : parts[1].equals("=") ? parts[0] + " = " + got.get(i)
                    : parts[0] + " " + got.get(i);
            if (!actual.equals(e)) mismatches.add("IR " + e + " / gcc " + actual);
        }
        return new Result(model.structs().size(), members, values, mismatches);
    }

    /** C type and member path of every IR structure, from the header's own declarations. */
    private record CSide(String cType, String prefix, List<String> members) {}

    /** Member designators in IR order: anonymous aggregates flattened, named inline ones recorded as their own type. */
    private static List<String> flatten(Aggregate a, String prefix, String owner, String cType, Map<String, CSide> out) {
        List<String> names = new ArrayList<>();
        for (Member m : a.members()) {
            if (m instanceof BitField f) names.add(prefix + f.name());
            else if (m instanceof TypeRef r) names.add(prefix + r.name());
            else if (m instanceof Inline in && in.name() == null) names.addAll(flatten(in.body(), prefix, owner, cType, out));
            else if (m instanceof Inline in) {
                String synth = owner + "_" + in.name();
                String p = prefix + in.name() + ".";
                out.put(synth, new CSide(cType, p, flatten(in.body(), p, synth, cType, out)));
                names.add(prefix + in.name());
            }
        }
        return names;
    }

    private static String run(Path work, String... cmd) throws Exception {
        Child.Result r = Child.run(new ProcessBuilder(cmd).directory(work.toFile()).redirectErrorStream(true), Duration.ofMinutes(2));
        assertEquals(0, r.exit(), () -> String.join(" ", cmd) + " failed:\n" + r.stdout().lines().limit(30).reduce("", (a, b) -> a + b + "\n"));
        return r.stdout();
    }
}

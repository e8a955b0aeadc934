package io.prmkit.generator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.prmkit.dsl.CompileResult;
import io.prmkit.dsl.Diagnostic;
import io.prmkit.dsl.PrmCompiler;
import io.prmkit.dsl.Property;
import io.prmkit.dsl.SourceFile;
import io.prmkit.dsl.ir.LayoutModel;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Names that trip a code generator: Java keywords, the names of the java.lang (and other JDK)
 * types generated code uses, names of generated members, and near-collisions. Every spec the
 * compiler and {@link AccessorGenerator#check} accept must give Java that compiles (in-process javac,
 * java.base only, -Werror); every one they refuse must be refused with a located diagnostic.
 */
class JavaNamesIT {
    /** Type-like names: each becomes an UpperCamel class. */
    private static final String[] TYPE_NAMES = {
        "string", "long", "integer", "math", "iterable", "string_builder", "illegal_argument_exception", "object",
        "override", "character", "boolean", "byte", "short", "system", "class", "record", "number",
        "arithmetic_exception", "functional_interface", "memory_segment", "value_layout", "byte_order", "list",
        "optional", "optional_long", "objects", "arrays", "enum_set", "hex_format", "array_list", "predicate",
        "long_function", "prm_layout", "prm_constants", "prm_field", "writer", "device", "meta", "foo_bar", "foo__bar", "foobar",
        "foo_bar_", "_foo_bar", "x", "int", "void", "var", "yield"};

    /** Member names: keywords, generated method and parameter names, near-collisions. */
    private static final String[] MEMBER_NAMES = {
        "clear", "clear_", "dump", "validate", "writer", "layout", "layout_", "size", "SIZE", "s", "offset", "v", "x",
        "q", "o", "index", "dst", "src", "value", "class", "int", "long", "new", "record", "var", "yield", "_",
        "String", "Long", "Integer", "Math", "Writer", "Device", "Meta", "LAYOUT", "fields", "opcode", "opcode_",
        "rule_a", "a", "b", "c", "PrmField", "N", "PrmLayout", "field"};

    /** Enum constant names: the fields and the types generated enums use, keywords, near-collisions. */
    private static final String[] CONSTANT_NAMES = {
        "value", "doc", "detail", "bit", "mask", "BY_VALUE", "SORTED_VALUES", "BY_SORTED_VALUE", "Long", "Integer",
        "String", "Arrays", "EnumSet", "class", "null", "true", "OK", "OK_", "A", "B", "values", "valueOf", "of",
        "nameOf", "describe", "c", "t", "s"};

    @Test
    void acceptedNamesGenerateCodeThatCompilesAndRefusedOnesAreLocated() {
        int[] generated = {0};
        int[] refused = {0};
        List<String> seen = new ArrayList<>();
        Property.check(24, g -> {
            StringBuilder spec = new StringBuilder("package p;\n");
            List<String> enums = new ArrayList<>();
            for (int i = 0, n = g.between(1, 2); i < n; i++) {
                String name = g.bool("plainEnum" + i) ? "e" + i : g.oneOf(TYPE_NAMES);
                enums.add(name);
                spec.append(i == 0 ? "enum " : "flags ").append(name).append(" width 16 {");
                for (int k = 0, m = g.between(1, 3); k < m; k++) {
                    spec.append(' ').append(g.bool("plainConst") ? "K" + k : g.oneOf(CONSTANT_NAMES)).append(" = ").append(k).append(';');
                }
                spec.append(" }\n");
            }
            for (int i = 0, n = g.between(1, 3); i < n; i++) {
                spec.append("struct ").append(g.bool("plainStruct" + i) ? "st" + i : g.oneOf(TYPE_NAMES)).append(" size 0x8 {\n");
                List<String> fields = new ArrayList<>();
                for (int k = 0; k < 4; k++) {
                    String f = g.random().nextInt(3) == 0 ? "f" + k : g.oneOf(MEMBER_NAMES);
                    fields.add(f);
                    spec.append("    0x0").append(4 * (k / 2)).append(k % 2 == 0 ? " [31:16] " : " [15:0] ").append(f);
                    if (k == 1 && g.bool("ro" + i)) spec.append(" ro");
                    if (k == 2) spec.append(" enum ").append(enums.get(0));
                    spec.append(" \"").append(f).append("\";\n");
                }
                if (g.bool("rule" + i)) spec.append("    rule r").append(i).append(": ").append(fields.get(0)).append(" < 100 || ")
                        .append(fields.get(3)).append(" << 64 == 0 \"a rule\";\n");
                spec.append("}\n");
            }
            g.note("spec", spec);
            CompileResult compiled = PrmCompiler.compile(List.of(new SourceFile("names.prm", spec.toString())));
            List<Diagnostic> problems = new ArrayList<>(compiled.errors());
            if (compiled.model().isPresent()) {
                LayoutModel model = compiled.model().get();
                AccessorGenerator generator = new AccessorGenerator(GeneratorOptions.defaults());
                problems.addAll(generator.check(model));
                if (problems.isEmpty()) {
                    Loaded.compile(generator.generate(model), "p"); // throws with javac's messages if it does not compile
                    generated[0]++;
                    return;
                }
            }
            g.note("problems", problems);
            if (refused[0]++ < 3) seen.add(problems.toString());
            for (Diagnostic d : problems) {
                assertEquals("names.prm", d.location().file(), d.toString());
                assertTrue(d.location().line() > 1 && d.location().column() > 0, "not located: " + d);
            }
        });
        assertTrue(generated[0] > 3 && refused[0] > 3, "both outcomes must occur: " + generated[0] + " generated, " + refused[0] + " refused, e.g. " + seen);
    }

    /** Each name javac or java.lang reserves, on its own, as struct, member, enum and constant: compiles or is located. */
    @Test
    void everyNameAloneIsHandled() {
        StringBuilder spec = new StringBuilder("package p;\n");
        int i = 0;
        for (String t : TYPE_NAMES) {
            if (List.of("prm_layout", "prm_constants", "prm_field", "writer", "device", "meta").contains(t) || t.startsWith("foo") || t.equals("_foo_bar")) continue;
            spec.append("struct ").append(t).append(" size 0x4 { 0x00 [31:0] ").append(MEMBER_NAMES[i++ % MEMBER_NAMES.length]).append(" ro; }\n");
        }
        spec.append("enum e width 32 {");
        int v = 0;
        for (String c : CONSTANT_NAMES) spec.append(' ').append(c).append(" = ").append(v++).append(';');
        spec.append(" }\n");
        CompileResult compiled = PrmCompiler.compile(List.of(new SourceFile("all.prm", spec.toString())));
        assertFalse(compiled.hasErrors(), compiled.diagnostics().toString());
        AccessorGenerator generator = new AccessorGenerator(GeneratorOptions.defaults());
        assertEquals(List.of(), generator.check(compiled.model().get()));
        Loaded.compile(generator.generate(compiled.model().get()), "p");
    }

    /** A doc string longer than a class-file constant holds (64 KiB of modified UTF-8) still compiles, and reads back whole. */
    @Test
    void docStringsOver64KiBCompile() throws ReflectiveOperationException {
        String doc = "€ long doc ".repeat(7000); // 77,000 chars, about 105 KB in UTF-8
        String spec = "package p;\nenum e width 8 { A = 1 \"" + doc + "\" detail \"" + doc + "\"; }\n"
                + "/// " + doc + "\nstruct s size 0x4 { 0x00 [31:0] f \"" + doc + "\"; }\n";
        CompileResult compiled = PrmCompiler.compile(List.of(new SourceFile("long.prm", spec)));
        assertFalse(compiled.hasErrors(), compiled.diagnostics().toString());
        Loaded l = Loaded.compile(new AccessorGenerator(GeneratorOptions.defaults()).generate(compiled.model().get()), "p");
        Object layout = l.call("S", "layout");
        Object field = ((List<?>) layout.getClass().getMethod("fields").invoke(layout)).get(0);
        assertEquals(doc.strip(), ((String) field.getClass().getMethod("doc").invoke(field)).strip());
        assertEquals(doc.strip(), ((String) layout.getClass().getMethod("doc").invoke(layout)).strip());
        Object a = l.constant("E", "A");
        assertEquals(doc.strip(), ((String) a.getClass().getField("detail").get(a)).strip());
    }
}

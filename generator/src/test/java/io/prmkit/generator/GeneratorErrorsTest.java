package io.prmkit.generator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.prmkit.dsl.Diagnostic;
import io.prmkit.dsl.ir.LayoutModel;
import io.prmkit.dsl.ir.MemberType;
import io.prmkit.dsl.ir.StructLayout;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Models the generator cannot express are rejected as a whole, each problem a diagnostic located at
 * its declaration; {@code check} reports exactly what {@code generate} refuses.
 */
class GeneratorErrorsTest {
    private static final AccessorGenerator GENERATOR = new AccessorGenerator(GeneratorOptions.defaults());

    private static List<String> fails(LayoutModel model) {
        GeneratorException e = assertThrows(GeneratorException.class, () -> GENERATOR.generate(model));
        assertEquals(GENERATOR.check(model), e.diagnostics(), "check and generate must agree");
        return e.problems();
    }

    @Test
    void declarationsMappingToOneClassAreReported() {
        StructLayout a = Fixtures.struct("foo_bar", 4, List.of(Fixtures.M.field("x", 0, 31, 0)), List.of(), "", "a.prm", 1);
        StructLayout b = Fixtures.struct("foo__bar", 4, List.of(Fixtures.M.field("x", 0, 31, 0)), List.of(), "", "a.prm", 5);
        StructLayout c = Fixtures.struct("prm_layout", 4, List.of(Fixtures.M.field("x", 0, 31, 0)), List.of(), "", "a.prm", 9);
        StructLayout d = Fixtures.struct("prm_field", 4, List.of(Fixtures.M.field("x", 0, 31, 0)), List.of(), "", "a.prm", 13);
        LayoutModel model = new LayoutModel(List.of(a, b, c, d), List.of(), List.of());
        assertEquals(List.of(
                "a.prm:5:5: error: 'foo__bar' and 'foo_bar' both become class mlx5.FooBar; rename one",
                "a.prm:9:5: error: 'prm_layout' becomes class PrmLayout, the name of the support class every generated class imports (io.prmkit.layout.PrmLayout); rename it",
                "a.prm:13:5: error: 'prm_field' becomes class PrmField, the name of a generated support class; rename it"), fails(model));
        Diagnostic first = GENERATOR.check(model).get(0);
        assertEquals(List.of(new Diagnostic.Related(Fixtures.at("a.prm", 1), "'foo_bar' declared here")), first.related());
    }

    @Test
    void classNamesOfNestedGeneratedClassesAreRefused() {
        StructLayout w = Fixtures.struct("writer", 4, List.of(Fixtures.M.field("x", 0, 31, 0)), List.of(), "", "n.prm", 2);
        StructLayout d = Fixtures.struct("device", 4, List.of(Fixtures.M.field("x", 0, 31, 0)), List.of(), "", "n.prm", 3);
        assertEquals(List.of(
                "n.prm:2:5: error: 'writer' becomes class Writer, the name of a class generated inside structure classes; rename it",
                "n.prm:3:5: error: 'device' becomes class Device, the name of a class generated inside structure classes; rename it"),
                fails(new LayoutModel(List.of(w, d), List.of(), List.of())));
    }

    @Test
    void membersMappingToOneAccessorAreReported() {
        StructLayout s = Fixtures.struct("s", 8, List.of(
                Fixtures.M.field("clear", 0, 31, 16).line("c.prm", 2),
                Fixtures.M.field("clear_", 0, 15, 0).line("c.prm", 3),
                Fixtures.M.field("dump", 4, 31, 0).line("c.prm", 4)), List.of(), "", "c.prm", 1);
        assertEquals(List.of("c.prm:3:5: error: members 'clear' and 'clear_' of s both become Java accessors named clear_; rename one"),
                fails(new LayoutModel(List.of(s), List.of(), List.of())));
    }

    private static List<String> refused(String... specs) {
        List<io.prmkit.dsl.SourceFile> files = new java.util.ArrayList<>();
        for (int i = 0; i < specs.length; i++) files.add(new io.prmkit.dsl.SourceFile((char) ('k' + i) + ".prm", specs[i]));
        io.prmkit.dsl.CompileResult r = io.prmkit.dsl.PrmCompiler.compile(files);
        assertEquals(List.of(), r.errors(), "the spec compiles");
        return fails(r.model().orElseThrow());
    }

    /** Constants whose escaped Java names collide (class and class_), as members and enum values already are. */
    @Test
    void constantsMappingToOneJavaNameAreReported() {
        assertEquals(List.of("k.prm:3:1: error: constants 'class' and 'class_' both become Java constant p.PrmConstants.class_; rename one"),
                refused("package p;\nconst class = 1;\nconst class_ = 2;\n"));
        // two spec packages that become one Java package share its PrmConstants
        assertEquals(List.of("k.prm:2:1: error: constants 'P.n' and 'p.n' both become Java constant p.PrmConstants.n; rename one"),
                refused("package p;\nconst n = 1;\n", "package P;\nconst n = 2;\n"));
    }

    /** Packages the JVM refuses to define classes in (java, java.*), or that a JDK module owns (javax.crypto): refused where declared. */
    @Test
    void packagesTheJvmRefusesAreReported() {
        assertEquals(List.of("k.prm:2:1: error: package java.x: the JVM refuses classes in java and java.* packages; "
                + "rename the spec package (or give a --package prefix)"), refused("package java.x;\nstruct s { 0x00 [31:0] f; }\n"));
        assertEquals(List.of("k.prm:2:1: error: package java: the JVM refuses classes in java and java.* packages; "
                + "rename the spec package (or give a --package prefix)"), refused("package java;\nconst k = 1;\n"));
        assertEquals(List.of("k.prm:2:1: error: package javax.crypto belongs to the JDK's module java.base: classes generated into it "
                + "would not be found; rename the spec package (or give a --package prefix)"), refused("package javax.crypto;\nstruct s { 0x00 [31:0] f; }\n"));
    }

    /** A name longer than a file name may be (255 bytes) was accepted by check and failed at the write. */
    @Test
    void aNameTooLongForAFileIsReported() {
        String name = "n".repeat(GeneratorChecks.MAX_CLASS_NAME_BYTES + 1);
        List<String> problems = refused("package p;\nstruct " + name + " { 0x00 [31:0] f; }\n");
        assertEquals(List.of("k.prm:2:1: error: the class of 'nnnnnnnnnnnnnnnnnnnn...' would have a 201-character name, too long for "
                + "its files (Nnnnnnnn...$Writer.class; a file name holds 255 bytes): shorten it to 200 characters at most"), problems);
    }

    /** More fields than a class file's constant pool holds: refused at the structure, not by javac. */
    @Test
    void aStructureTooBigForOneClassIsReported() {
        StringBuilder spec = new StringBuilder("package p;\nstruct huge {\n");
        for (int i = 0; i <= GeneratorChecks.MAX_MEMBERS; i++) spec.append(String.format("    0x%x [31:0] f%d;%n", 4 * i, i));
        spec.append("}\n");
        assertEquals(List.of("k.prm:2:1: error: structure huge has 4001 named fields; a generated class holds at most 4000 "
                + "(a Java class file's 65,535 constants, 13 to 14 a field): split it into structures embedded in one another"),
                refused(spec.toString()));
    }

    @Test
    void whatTheIrGuaranteesIsNotCheckedAgain() {
        // placement, sizes, rule fields and enum references are refused by the IR's constructors
        // (prm-dsl's IrInvariantsTest), so no model that reaches the generator can break them
        assertThrows(IllegalArgumentException.class, () -> Fixtures.M.at("crosses", 24, new MemberType.Bits(16)).build());
        StructLayout s = Fixtures.struct("bad", 4, List.of(Fixtures.M.field("op", 0, 7, 0).enumType("no_such_enum")), List.of(), "", "b.prm", 1);
        assertThrows(IllegalArgumentException.class, () -> new LayoutModel(List.of(s), List.of(), List.of()));
    }

    @Test
    void aValidModelHasNoDiagnostics() {
        assertEquals(List.of(), GENERATOR.check(Fixtures.model()));
    }
}

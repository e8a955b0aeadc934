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
        LayoutModel model = new LayoutModel(List.of(a, b, c), List.of(), List.of());
        assertEquals(List.of(
                "a.prm:5:5: error: 'foo__bar' and 'foo_bar' both become class mlx5.FooBar; rename one",
                "a.prm:9:5: error: 'prm_layout' becomes class PrmLayout, the name of a generated support class; rename it"), fails(model));
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

    @Test
    void unplaceableMembersAreReportedTogether() {
        StructLayout s = Fixtures.struct("bad", 16, List.of(
                Fixtures.M.at("crosses", 24, new MemberType.Bits(16)).line("b.prm", 2),
                Fixtures.M.at("wide", 40, new MemberType.Bits(40)).line("b.prm", 3),
                Fixtures.M.at("arr", 96, new MemberType.Array(new MemberType.Bits(12), 3, false)).line("b.prm", 4),
                Fixtures.M.field("op", 0x08, 7, 0).enumType("no_such_enum").line("b.prm", 5)), List.of(), "", "b.prm", 1);
        assertEquals(List.of(
                "b.prm:2:5: error: 'crosses': a 16-bit field at bits 0x18..0x27 crosses a dword boundary",
                "b.prm:3:5: error: 'wide': a 40-bit field at bits 0x28..0x4f must start on a dword boundary",
                "b.prm:4:5: error: 'arr': elements of 12 bits at bits 0x60..0x83 would cross dword boundaries (element widths must divide 32, or be 64 bits dword-aligned)",
                "b.prm:5:5: error: 'op': unknown enum mlx5.no_such_enum"), fails(new LayoutModel(List.of(s), List.of(), List.of())));
    }

    @Test
    void rulesOverMissingFieldsAreReported() {
        StructLayout s = Fixtures.struct("r", 4, List.of(Fixtures.M.field("x", 0, 31, 0)),
                List.of(new io.prmkit.dsl.ir.Rule("r1", new io.prmkit.dsl.ir.Expr.FieldValue("y"), "m", Fixtures.at("r.prm", 3))), "", "r.prm", 1);
        assertEquals(List.of("r.prm:3:5: error: rule r1 refers to y, which is not a bit field of r"),
                fails(new LayoutModel(List.of(s), List.of(), List.of())));
    }

    @Test
    void aValidModelHasNoDiagnostics() {
        assertEquals(List.of(), GENERATOR.check(Fixtures.model()));
    }
}

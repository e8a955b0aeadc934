package io.prmkit.generator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.prmkit.dsl.ir.LayoutModel;
import io.prmkit.dsl.ir.MemberType;
import io.prmkit.dsl.ir.StructLayout;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Models the generator cannot express are rejected as a whole, each problem named. */
class GeneratorErrorsTest {
    private static GeneratorException fails(LayoutModel model) {
        return assertThrows(GeneratorException.class, () -> new AccessorGenerator(GeneratorOptions.defaults()).generate(model));
    }

    @Test
    void declarationsMappingToOneClassAreReported() {
        StructLayout a = Fixtures.struct("foo_bar", 4, List.of(Fixtures.M.field("x", 0, 31, 0)), List.of(), "", "a.prm", 1);
        StructLayout b = Fixtures.struct("foo__bar", 4, List.of(Fixtures.M.field("x", 0, 31, 0)), List.of(), "", "a.prm", 5);
        StructLayout c = Fixtures.struct("prm_layout", 4, List.of(Fixtures.M.field("x", 0, 31, 0)), List.of(), "", "a.prm", 9);
        GeneratorException e = fails(new LayoutModel(List.of(a, b, c), List.of(), List.of()));
        assertEquals(List.of(
                "mlx5.foo_bar and mlx5.foo__bar both map to class mlx5.FooBar; rename one",
                "mlx5.prm_layout: its class name PrmLayout is reserved for the generated support class; rename it"), e.problems());
    }

    @Test
    void unplaceableMembersAreReportedTogether() {
        StructLayout s = Fixtures.struct("bad", 16, List.of(
                Fixtures.M.at("crosses", 24, new MemberType.Bits(16)),
                Fixtures.M.at("wide", 40, new MemberType.Bits(40)),
                Fixtures.M.at("arr", 96, new MemberType.Array(new MemberType.Bits(12), 3, false)),
                Fixtures.M.field("op", 0x08, 7, 0).enumType("no_such_enum")), List.of(), "", "b.prm", 1);
        GeneratorException e = fails(new LayoutModel(List.of(s), List.of(), List.of()));
        assertEquals(List.of(
                "mlx5.bad.crosses: a 16-bit field at bits 0x18..0x27 crosses a dword boundary",
                "mlx5.bad.wide: a 40-bit field at bits 0x28..0x4f must start on a dword boundary",
                "mlx5.bad.arr: elements of 12 bits at bits 0x60..0x83 would cross dword boundaries (element widths must divide 32, or be 64 bits dword-aligned)",
                "mlx5.bad.op: unknown enum mlx5.no_such_enum"), e.problems());
    }

    @Test
    void rulesOverMissingFieldsAreReported() {
        StructLayout s = Fixtures.struct("r", 4, List.of(Fixtures.M.field("x", 0, 31, 0)),
                List.of(new io.prmkit.dsl.ir.Rule("r1", new io.prmkit.dsl.ir.Expr.FieldValue("y"), "m", Fixtures.at("r.prm", 3))), "", "r.prm", 1);
        GeneratorException e = fails(new LayoutModel(List.of(s), List.of(), List.of()));
        assertEquals(List.of("mlx5.r: rule refers to y, which is not a bit field of the structure"), e.problems());
    }
}

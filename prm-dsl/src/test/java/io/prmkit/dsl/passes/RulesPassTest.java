package io.prmkit.dsl.passes;

import static io.prmkit.dsl.Specs.assertError;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.prmkit.dsl.Specs;
import io.prmkit.dsl.ir.Expr;
import io.prmkit.dsl.ir.Rule;
import org.junit.jupiter.api.Test;

class RulesPassTest {
    @Test
    void unknownName() {
        assertError("2:40: error: unknown name 'z': not a field of struct 'a', a constant or an enum value",
                "package p;\nstruct a { 0x00 [31:0] x; rule r: x == z \"m\"; }\n");
    }

    @Test
    void aWqeFunctionInAStructuresRuleIsAnErrorNotACrash() {
        assertError("2:35: error: 'count(...)' is for wqe rules; a structure's rule reads its bit fields, constants and enum values",
                "package p;\nstruct a { 0x00 [31:0] x; rule r: count(x) == 1 \"m\"; }\n");
    }

    @Test
    void nonScalarField() {
        assertError("2:31: error: a rule can only use bit fields, and 'b' is not one",
                "package p;\nstruct a { b : u8[4]; rule r: b != 0 \"m\"; }\n");
    }

    @Test
    void duplicateRule() {
        assertError("2:40: error: duplicate rule 'r'", "package p;\nstruct a { x : 32; rule r: x \"m\"; rule r: x > 1 \"n\"; }\n");
    }

    @Test
    void resolvesFieldsConstantsAndEnumValuesWithCPrecedence() {
        String text = "package p;\nconst MAX = 7;\nenum e width 4 { A = 1; B = 2; }\n"
                + "struct a { x : 4 enum e; y : 28; rule r: x == B || y + 1 << 2 <= MAX && !(y & 1) \"m\"; }\n";
        Rule r = Specs.struct(text, "a").rules().get(0);
        assertEquals("((x == B) || ((((y + 1) << 2) <= MAX) && !(y & 1)))", r.condition().source());
        Expr.Binary or = (Expr.Binary) r.condition();
        assertEquals(new Expr.Literal(2, "B"), ((Expr.Binary) or.left()).right());
        assertEquals("m", r.message());
    }

    @Test
    void ruleWithoutFieldsWarns() {
        var r = Specs.compile("package p;\nstruct a { x : 32; rule r: 1 \"m\"; }\n");
        assertEquals("2:20: warning: rule 'r' does not depend on any field", Specs.diags(r));
        assertEquals(true, r.model().isPresent());
    }
}

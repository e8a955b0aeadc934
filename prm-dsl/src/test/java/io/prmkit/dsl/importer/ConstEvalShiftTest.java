package io.prmkit.dsl.importer;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** Header constants are evaluated with the spec's shift semantics (unsigned 64-bit; shifting out gives 0). */
class ConstEvalShiftTest {
    private static long eval(String expr) throws ConstEval.EvalException {
        CLexer.Result r = CLexer.lex(expr);
        return ConstEval.eval(r.tokens().stream().filter(t -> t.kind() != CLexer.Kind.EOF).toList(), name -> null);
    }

    @Test
    void shiftsBy64OrMoreGiveZero() throws ConstEval.EvalException {
        assertEquals(0x100L, eval("1 << 8"));
        assertEquals(0L, eval("1 << 64"), "Java's << would give 1");
        assertEquals(0L, eval("1 << 65"), "Java's << would give 2");
        assertEquals(0L, eval("0xffffffffffffffff >> 64"));
        assertEquals(1L, eval("0x8000000000000000 >> 63"));
    }
}

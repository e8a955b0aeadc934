package io.prmkit.dsl.passes;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.prmkit.dsl.CompileResult;
import io.prmkit.dsl.Diagnostic;
import io.prmkit.dsl.PrmCompiler;
import io.prmkit.dsl.SourceFile;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A structure ending in a flexible array may be nested where C (GNU) allows it, as mlx5_ifc.h does:
 * mid-structure, as a union alternative, as an array element. Only its fixed part counts there.
 * A flexible array written directly still has to be last; it may be an alternative of a union
 * declaration, or of an inline union that ends its structure, beside fixed ones.
 */
class NestedFlexibleArrayTest {

    private static CompileResult compile(String body) {
        return PrmCompiler.compile(List.of(new SourceFile("t.prm", "package t;\n"
                + "struct seg size 0x4 {\n    n : 0x20;\n    rec : 0x20[];\n}\n" + body)));
    }

    private static List<String> messages(CompileResult r) {
        return r.diagnostics().stream().map(Diagnostic::toString).toList();
    }

    @Test
    void nestedFlexibleTailsAreWarningsAndOnlyTheFixedPartCounts() {
        CompileResult r = compile("""
                struct resp size 0x8 {
                    menu : seg;
                    after : 0x20;
                    more : seg[];
                }
                union regs size 0x8 {
                    s : seg;
                    other : 0x40;
                }
                """);
        assertEquals(List.of(
                "t.prm:7:5: warning: 'menu' is not the last member; its type ends in a flexible array, which is ignored here (only its fixed part counts, as in C)",
                "t.prm:9:12: warning: 'seg' ends in a flexible array, which is ignored in its array elements (each element is its fixed part, as in C)",
                "t.prm:12:5: warning: 's' is a union alternative; its type ends in a flexible array, which is ignored here (only its fixed part counts, as in C)"),
                messages(r));
        assertTrue(r.model().isPresent());
        assertEquals(0x20, r.model().get().struct("resp").orElseThrow().member("after").orElseThrow().bitOffset());
    }

    @Test
    void aTrailingInlineUnionMayHoldFlexibleAlternatives() {
        CompileResult ok = compile("""
                struct rqt size 0x4 {
                    n : 0x20;
                    union {
                        rq_num : 0x20[];
                        rq_vhca : seg[];
                    }
                }
                """);
        assertEquals(List.of(
                "t.prm:10:19: warning: 'seg' ends in a flexible array, which is ignored in its array elements (each element is its fixed part, as in C)"),
                messages(ok));
        assertEquals(32, ok.model().orElseThrow().struct("rqt").orElseThrow().member("rq_vhca").orElseThrow().bitOffset());
        CompileResult notLast = compile("""
                struct rqt size 0x8 {
                    n : 0x20;
                    union {
                        rq_num : 0x20[];
                    }
                    m : 0x20;
                }
                """);
        assertEquals(List.of("t.prm:9:9: error: flexible array 'rq_num' must be the last member (its union is not last)"), messages(notLast));
    }

    /** 7.x's query_esw_functions_out: union { u8 reserved_at_80[0x380]; DECLARE_FLEX_ARRAY(union ..., net_function_params); }. */
    @Test
    void aFlexibleAlternativeBesideFixedOnesStartsAtTheUnionAndTheUnionKeepsTheFixedSize() {
        CompileResult r = compile("""
                struct out size 0x14 {
                    n : 0x20;
                    union {
                        reserved_at_20 : 0x80;
                        params : seg[];
                        words : 0x20[];
                    }
                }
                """);
        assertEquals(List.of(
                "t.prm:10:18: warning: 'seg' ends in a flexible array, which is ignored in its array elements (each element is its fixed part, as in C)"),
                messages(r));
        io.prmkit.dsl.ir.StructLayout out = r.model().orElseThrow().struct("out").orElseThrow();
        assertEquals(0x14, out.sizeBytes(), "the union counts its fixed alternative only: 4 + 0x10 bytes");
        assertEquals(0x20, out.member("params").orElseThrow().bitOffset());
        assertEquals(0x20, out.member("words").orElseThrow().bitOffset());
        assertEquals("params", out.flexibleArray().orElseThrow().name());
        assertEquals("union_at_20", out.member("params").orElseThrow().variant().orElseThrow().union());

        // in a struct group the flexible array ends the group, and the group's union ends the structure
        CompileResult group = compile("""
                struct out size 0xc {
                    n : 0x20;
                    union {
                        struct hdr {
                            len : 0x20;
                            data : u8[];
                        }
                        reserved_at_20 : 0x40;
                    }
                }
                """);
        assertEquals(List.of(), messages(group));
        assertEquals(0x40, group.model().orElseThrow().struct("out").orElseThrow().member("data").orElseThrow().bitOffset());
    }

    @Test
    void aFlexibleAlternativesUnionMustEndItsStructure() {
        CompileResult notLast = compile("""
                struct out size 0x10 {
                    n : 0x20;
                    union {
                        reserved_at_20 : 0x40;
                        params : 0x20[];
                    }
                    m : 0x20;
                }
                """);
        assertEquals(List.of("t.prm:10:9: error: flexible array 'params' must be the last member (its union is not last)"), messages(notLast));
        CompileResult shortUnion = compile("""
                struct out size 0x10 gaps reserved {
                    n : 0x20;
                    union {
                        reserved_at_20 : 0x40;
                        params : 0x20[];
                    }
                }
                """);
        assertEquals(List.of("t.prm:10:9: error: flexible array 'params' is an alternative of union 'union_at_20', which must end"
                + " struct 'out' (byte 0x10) but ends at byte 0x0c"), messages(shortUnion));
        CompileResult midGroup = compile("""
                struct out size 0xc {
                    n : 0x20;
                    union {
                        struct hdr {
                            data : u8[];
                            len : 0x20;
                        }
                        reserved_at_20 : 0x40;
                    }
                }
                """);
        assertEquals(List.of("t.prm:10:13: error: flexible array 'data' must be the last member of its group 'hdr'"), messages(midGroup));
    }

    @Test
    void directFlexibleArraysStillMustBeLastAndNotAlternatives() {
        CompileResult r = compile("""
                struct bad size 0x4 {
                    pas : 0x40[];
                    n : 0x20;
                }
                """);
        assertTrue(r.model().isEmpty());
        assertEquals(List.of("t.prm:7:5: error: flexible array 'pas' must be the last member"), messages(r));
    }

    /** union { u8 raw[0x40]; DECLARE_FLEX_ARRAY(...); } declared on its own: the flexible alternative starts at 0, as in C. */
    @Test
    void aUnionDeclarationMayHaveFlexibleAlternatives() {
        CompileResult r = compile("""
                union u {
                    pas : 0x40[];
                    n : 0x40;
                }
                struct holder size 0x10 {
                    h : 0x40;
                    u : u;
                }
                """);
        assertEquals(List.of(), messages(r));
        io.prmkit.dsl.ir.StructLayout u = r.model().orElseThrow().struct("u").orElseThrow();
        assertEquals(8, u.sizeBytes(), "the fixed alternative's size");
        assertEquals(0, u.member("pas").orElseThrow().bitOffset());
        assertEquals("pas", u.flexibleArray().orElseThrow().name());
        CompileResult notLast = compile("""
                union u {
                    pas : 0x40[];
                    n : 0x40;
                }
                struct holder size 0x10 {
                    u : u;
                    h : 0x40;
                }
                """);
        assertEquals(List.of("t.prm:11:5: warning: 'u' is not the last member; its type ends in a flexible array, which is ignored here"
                + " (only its fixed part counts, as in C)"), messages(notLast));
    }
}

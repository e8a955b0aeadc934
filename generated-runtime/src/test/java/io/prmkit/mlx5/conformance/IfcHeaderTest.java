package io.prmkit.mlx5.conformance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The mlx5_ifc.h member lister on the constructs the header uses. */
class IfcHeaderTest {

    @Test
    void listsMembersOfEveryShape() {
        Map<String, IfcHeader.Decl> decls = IfcHeader.parse("""
                enum { MLX5_X = 1, };
                struct mlx5_ifc_demo_bits {
                	u8         opcode[0x10];   /* comment */
                	u8         reserved_at_10[0x10];

                	struct mlx5_ifc_cqc_bits cq_context;
                	union {
                		struct mlx5_ifc_a_bits a;
                		u8         reserved_at_0[0x80];
                	} choice;
                	u8         data[16][0x8];
                	u8         pas[][0x40];
                };
                union mlx5_ifc_calc_op {
                	u8         x[0x20];
                };
                """);
        assertEquals(List.of("struct mlx5_ifc_demo_bits", "union mlx5_ifc_calc_op"),
                decls.values().stream().map(IfcHeader.Decl::cType).toList());
        IfcHeader.Decl d = decls.get("mlx5_ifc_demo_bits");
        assertEquals("demo", d.specName());
        assertEquals(List.of("opcode", "reserved_at_10", "cq_context", "choice", "choice.a", "choice.reserved_at_0", "data", "pas"),
                d.members().stream().map(IfcHeader.Member::path).toList());
        assertTrue(d.members().get(1).reserved());
        assertTrue(d.members().get(3).inlineUnionWhole());
        assertEquals("choice", d.members().get(4).inlineUnion());
        assertTrue(d.members().get(7).flexible());
        assertEquals("calc_op", decls.get("mlx5_ifc_calc_op").specName());
    }

    @Test
    void refusesMembersItDoesNotUnderstand() {
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> IfcHeader.parse("struct mlx5_ifc_x_bits {\n\tint y;\n};\n"));
        assertTrue(e.getMessage().contains("mlx5_ifc_x_bits") && e.getMessage().contains("int y;"), e.getMessage());
    }
}

package io.prmkit.dsl.diff;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.prmkit.dsl.SourceLocation;
import io.prmkit.dsl.diff.DiffRenderer.Format;
import io.prmkit.dsl.ir.Access;
import io.prmkit.dsl.ir.Constant;
import io.prmkit.dsl.ir.Constraints;
import io.prmkit.dsl.ir.Doc;
import io.prmkit.dsl.ir.EnumLayout;
import io.prmkit.dsl.ir.LayoutModel;
import io.prmkit.dsl.ir.Member;
import io.prmkit.dsl.ir.MemberType;
import io.prmkit.dsl.ir.QualifiedName;
import io.prmkit.dsl.ir.StructLayout;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The diff on hand-built models; the real-header revision test is in IfcRoundTripTest. */
class LayoutDiffTest {

    private static final SourceLocation AT = new SourceLocation("t.prm", 1, 1);

    /** A struct from "name:width" pairs laid out back to back; names starting with reserved are reserved. */
    private static StructLayout struct(String name, String... fields) {
        List<Member> ms = new ArrayList<>();
        long off = 0;
        for (String f : fields) {
            String[] p = f.split(":");
            int w = Integer.decode(p[1]);
            ms.add(new Member(p[0], off, new MemberType.Bits(w), p[0].startsWith("reserved"), Access.RW, Optional.empty(),
                    Optional.empty(), Constraints.NONE, Optional.empty(), Optional.empty(), "", Doc.NONE, AT));
            off += w;
        }
        return new StructLayout(new QualifiedName("mlx5", name), StructLayout.Kind.STRUCT, (off + 7) / 8, ByteOrder.BIG_ENDIAN, ms,
                List.of(), Doc.NONE, AT);
    }

    private static EnumLayout enumOf(String name, Object... nameValue) {
        List<EnumLayout.EnumValue> vs = new ArrayList<>();
        for (int i = 0; i < nameValue.length; i += 2) {
            vs.add(new EnumLayout.EnumValue((String) nameValue[i], ((Number) nameValue[i + 1]).longValue(), Doc.NONE, "", AT));
        }
        return new EnumLayout(new QualifiedName("mlx5", name), EnumLayout.Kind.ENUM, 0, vs, Doc.NONE, AT);
    }

    private static LayoutModel model(List<StructLayout> s, List<EnumLayout> e, List<Constant> c) {
        return new LayoutModel(s, e, c);
    }

    private static Constant constant(String name, long v) {
        return new Constant(new QualifiedName("mlx5", name), v, Doc.NONE, AT);
    }

    private static String text(LayoutModel a, LayoutModel b) {
        return DiffRenderer.text(LayoutDiff.diff(a, b));
    }

    @Test
    void identicalModelsHaveNoChanges() {
        LayoutModel m = model(List.of(struct("qpc", "state:0x4", "reserved_at_4:0x1c")), List.of(enumOf("e", "A", 1)), List.of());
        DiffReport r = LayoutDiff.diff(m, m);
        assertTrue(r.isEmpty());
        assertFalse(r.isBreaking());
        assertEquals("no layout changes\n", DiffRenderer.text(r));
    }

    @Test
    void reservedRangeThatBecomesAFieldIsAnAdditiveRename() {
        LayoutModel a = model(List.of(struct("qpc", "state:0x4", "reserved_at_4:0x4", "pd:0x18")), List.of(), List.of());
        LayoutModel b = model(List.of(struct("qpc", "state:0x4", "ts_format:0x4", "pd:0x18")), List.of(), List.of());
        DiffReport r = LayoutDiff.diff(a, b);
        assertFalse(r.isBreaking());
        assertEquals("Added fields (1):\n  mlx5.qpc.ts_format: added at 0x00 [27:24], 4 bits (was reserved_at_4)\n\n"
                + "1 change: 0 breaking, 1 additive\n", DiffRenderer.text(r));
    }

    @Test
    void fieldInPartOfAReservedRangeIsAdded() {
        LayoutModel a = model(List.of(struct("qpc", "state:0x4", "reserved_at_4:0x1c")), List.of(), List.of());
        LayoutModel b = model(List.of(struct("qpc", "state:0x4", "flag:0x1", "reserved_at_5:0x1b")), List.of(), List.of());
        assertEquals("Added fields (1):\n  mlx5.qpc.flag: added at 0x00 [27], 1 bit\n\n1 change: 0 breaking, 1 additive\n", text(a, b));
    }

    @Test
    void movedResizedRemovedAndRenamedFieldsAreBreaking() {
        LayoutModel a = model(List.of(struct("cqc", "a:0x8", "b:0x8", "c:0x10", "d:0x20", "e:0x20")), List.of(), List.of());
        LayoutModel b = model(List.of(struct("cqc", "b:0x8", "a:0x8", "c:0x8", "reserved_at_18:0x28", "f:0x20")), List.of(), List.of());
        DiffReport r = LayoutDiff.diff(a, b);
        assertTrue(r.isBreaking());
        assertEquals("""
                Breaking changes (5):
                  mlx5.cqc.a: moved from 0x00 [31:24] to 0x00 [23:16]
                  mlx5.cqc.b: moved from 0x00 [23:16] to 0x00 [31:24]
                  mlx5.cqc.c: resized from 16 to 8 bits
                  mlx5.cqc.d: removed from 0x04 [31:0], 32 bits
                  mlx5.cqc.e: renamed to f at 0x08 [31:0], 32 bits

                5 changes: 5 breaking, 0 additive
                """, DiffRenderer.text(r));
    }

    @Test
    void sizeGrowthIsAdditiveShrinkingIsBreakingAndStructuresComeAndGo() {
        LayoutModel a = model(List.of(struct("grow", "a:0x20"), struct("shrink", "a:0x20", "reserved_at_20:0x20"), struct("gone", "x:0x20")),
                List.of(), List.of());
        LayoutModel b = model(List.of(struct("grow", "a:0x20", "b:0x20"), struct("shrink", "a:0x20"), struct("fresh", "x:0x20")),
                List.of(), List.of());
        assertEquals("""
                Added structures (1):
                  mlx5.fresh: added (0x4 bytes)

                Added fields (1):
                  mlx5.grow.b: added at 0x04 [31:0], 32 bits

                Other additive changes (1):
                  mlx5.grow: size 0x4 -> 0x8 bytes

                Breaking changes (2):
                  mlx5.gone: removed
                  mlx5.shrink: size 0x8 -> 0x4 bytes

                5 changes: 2 breaking, 3 additive
                """, text(a, b));
    }

    @Test
    void enumAndConstantChanges() {
        LayoutModel a = model(List.of(), List.of(enumOf("cmd_op", "Q", 0x100, "R", 0x101, "S", 0x102), enumOf("old", "X", 1)),
                List.of(constant("K", 1), constant("L", 2)));
        LayoutModel b = model(List.of(), List.of(enumOf("cmd_op", "Q", 0x100, "R", 0x111, "T", 0x103), enumOf("neu", "Y", 1)),
                List.of(constant("K", 3), constant("M", 2)));
        assertEquals("""
                Added enums, values and constants (3):
                  mlx5.cmd_op.T: value added: 0x103
                  mlx5.neu: enum added
                  mlx5.M: constant added: 0x2

                Breaking changes (5):
                  mlx5.cmd_op.R: value 0x101 -> 0x111
                  mlx5.cmd_op.S: value removed (was 0x102)
                  mlx5.old: enum removed
                  mlx5.K: value 0x1 -> 0x3
                  mlx5.L: constant removed (was 0x2)

                8 changes: 5 breaking, 3 additive
                """, text(a, b));
    }

    @Test
    void enumThatOnlyChangedItsNameIsARenameAndItsValuesAreCompared() {
        // an imported anonymous enum is named after its values' prefix, which a new value can change
        LayoutModel a = model(List.of(), List.of(enumOf("cmd_op", "MLX5_CMD_OP_A", 1, "MLX5_CMD_OP_B", 2, "MLX5_CMD_OP_C", 3)),
                List.of(constant("MLX5_ONE", 7)));
        LayoutModel b = model(List.of(), List.of(
                enumOf("cmd", "MLX5_CMD_OP_A", 1, "MLX5_CMD_OP_B", 2, "MLX5_CMD_OPCODE_D", 4),
                enumOf("one", "MLX5_ONE", 7, "MLX5_ONE_MORE", 8)),
                List.of(constant("MLX5_C_BECAME_CONSTANT", 3)));
        assertEquals("""
                Added enums, values and constants (3):
                  mlx5.cmd.MLX5_CMD_OPCODE_D: value added: 0x4
                  mlx5.one: enum added
                  mlx5.MLX5_C_BECAME_CONSTANT: constant added: 0x3

                Other additive changes (1):
                  mlx5.cmd_op: enum renamed to mlx5.cmd

                Breaking changes (1):
                  mlx5.cmd.MLX5_CMD_OP_C: value removed (was 0x3)

                5 changes: 1 breaking, 4 additive
                """, text(a, b));
        LayoutModel c = model(List.of(), List.of(enumOf("q", "MLX5_Q_A", 1, "MLX5_Q_B", 2)), List.of());
        LayoutModel d = model(List.of(), List.of(enumOf("q", "MLX5_Q_A", 1)), List.of(constant("MLX5_Q_B", 2)));
        assertEquals("Added enums, values and constants (1):\n  mlx5.MLX5_Q_B: constant added: 0x2\n\n1 change: 0 breaking, 1 additive\n", text(c, d),
                "a value that became a constant with the same value is not removed");
    }

    private static LayoutModel imported(String header) {
        return io.prmkit.dsl.importer.IfcImporter.importSources(List.of(new io.prmkit.dsl.SourceFile("mlx5_ifc.h", header)),
                io.prmkit.dsl.importer.ImportOptions.DEFAULTS).model().orElseThrow();
    }

    /** An older and a newer header of the same shapes as 6.1's and 7.x's query_esw_functions_out (written for this test). */
    @Test
    void theTextReportReadsAsFirmwareChangesWithAdditionsFirst() {
        LayoutModel older = imported("""
                struct mlx5_ifc_host_params_bits {
                	u8         host_number[0x8];
                	u8         reserved_at_8[0x18];
                };
                struct mlx5_ifc_query_funcs_out_bits {
                	u8         status[0x8];
                	u8         reserved_at_8[0x18];

                	u8         reserved_at_20[0x20];

                	struct mlx5_ifc_host_params_bits host_params;

                	u8         sf_enable[][0x40];
                };
                """);
        LayoutModel newer = imported("""
                enum {
                	MLX5_QUERY_FUNCS_OP_MOD_V1 = BIT(14),
                };
                struct mlx5_ifc_host_params_bits {
                	u8         host_number[0x8];
                	u8         reserved_at_8[0x18];
                };
                union mlx5_ifc_func_params_bits {
                	struct mlx5_ifc_host_params_bits host;
                	u8         raw[0x40];
                };
                struct mlx5_ifc_query_funcs_out_bits {
                	u8         status[0x8];
                	u8         reserved_at_8[0x18];

                	u8         func_num[0x8];
                	u8         reserved_at_28[0x18];

                	union {
                		u8 reserved_at_40[0x40];
                		DECLARE_FLEX_ARRAY(union mlx5_ifc_func_params_bits, func_params);
                	};
                };
                """);
        assertEquals("""
                Added structures (1):
                  mlx5.func_params: added (0x8 bytes)

                Added fields (2):
                  mlx5.query_funcs_out.func_num: added at 0x04 [31:24], 8 bits
                  mlx5.query_funcs_out.func_params: added at bytes 0x08.. (flexible array)

                Added enums, values and constants (1):
                  mlx5.MLX5_QUERY_FUNCS_OP_MOD_V1: constant added: 0x4000

                Other additive changes (1):
                  mlx5.query_funcs_out: size 0xc -> 0x10 bytes

                Breaking changes (2):
                  mlx5.query_funcs_out.host_params: removed from 0x08 [31:0], 32 bits
                  mlx5.query_funcs_out.sf_enable: removed from bytes 0x0c.. (flexible array)

                7 changes: 2 breaking, 5 additive
                """, DiffRenderer.text(LayoutDiff.diff(older, newer)));
    }

    @Test
    void retypedFieldOfSameWidthIsBreaking() {
        StructLayout a = struct("s", "x:0x20");
        Member m = a.members().get(0);
        Member bytes = new Member("x", 0, new MemberType.Bytes(4), false, Access.RW, Optional.empty(), Optional.empty(),
                Constraints.NONE, Optional.empty(), Optional.empty(), "", Doc.NONE, AT);
        StructLayout b = new StructLayout(a.name(), a.kind(), a.sizeBytes(), a.byteOrder(), List.of(bytes), List.of(), Doc.NONE, AT);
        assertEquals(List.of(Change.Kind.FIELD_RETYPED), LayoutDiff.diff(model(List.of(a), List.of(), List.of()),
                model(List.of(b), List.of(), List.of())).changes().stream().map(Change::kind).toList());
        assertEquals(0, m.bitOffset());
    }

    @Test
    void markdownAndJsonRenderTheSameChanges() {
        LayoutModel a = model(List.of(struct("qpc", "state:0x4", "reserved_at_4:0x1c")), List.of(enumOf("e", "A", 1)), List.of());
        LayoutModel b = model(List.of(struct("qpc", "state:0x8", "reserved_at_8:0x18")), List.of(enumOf("e", "A", 1, "B", -1L)), List.of());
        DiffReport r = LayoutDiff.diff(a, b);
        assertEquals("""
                ## Layout changes

                2 changes: 1 breaking, 1 additive.

                ### Added enums, values and constants (1)

                | Where | Change |
                |---|---|
                | `mlx5.e.B` | value added: 0xffffffffffffffff |

                ### Breaking changes (1)

                | Where | Change |
                |---|---|
                | `mlx5.qpc.state` | resized from 4 to 8 bits |
                """, DiffRenderer.render(r, Format.MARKDOWN));
        assertEquals("""
                {
                  "breaking": true,
                  "breakingCount": 1,
                  "additiveCount": 1,
                  "changes": [
                    {"kind": "field_resized", "breaking": true, "owner": "mlx5.qpc", "name": "state", "before": {"bitOffset": 0, "bitWidth": 4}, "after": {"bitOffset": 0, "bitWidth": 8}, "description": "resized from 4 to 8 bits"},
                    {"kind": "enum_value_added", "breaking": false, "owner": "mlx5.e", "name": "B", "newValue": 18446744073709551615, "description": "value added: 0xffffffffffffffff"}
                  ]
                }
                """, DiffRenderer.render(r, Format.JSON));
        assertEquals("{\n  \"breaking\": false,\n  \"breakingCount\": 0,\n  \"additiveCount\": 0,\n  \"changes\": []\n}\n",
                DiffRenderer.json(LayoutDiff.diff(a, a)));
    }

    @Test
    void jsonStringsAreEscaped() {
        assertEquals("\"a\\\"b\\\\c\\n\\u0001\"", DiffRenderer.str("a\"b\\c\n\u0001"));
    }

    @Test
    void unknownFormatIsAClearError() {
        IllegalArgumentException e = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> Format.parse("yaml"));
        assertEquals("unknown format 'yaml' (expected text, json or markdown)", e.getMessage());
        assertEquals(Format.MARKDOWN, Format.parse("Markdown"));
        IllegalArgumentException html = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> Format.parse("yaml", java.util.List.of("html")));
        assertEquals("unknown format 'yaml' (expected text, json, markdown or html)", html.getMessage(),
                "a front end's own formats are listed too");
        assertEquals(Format.JSON, Format.parse("json", java.util.List.of("html")));
    }
}

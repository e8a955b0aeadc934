package io.prmkit.dsl.importer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.prmkit.dsl.Diagnostic;
import io.prmkit.dsl.Severity;
import io.prmkit.dsl.SourceFile;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class IfcImporterTest {

    private static final String PROLOGUE = "// Imported from t.h by prmkit import-ifc.\n"
            + "// Generated: regenerate from the header rather than editing.\npackage mlx5;\n\n";

    private static ImportResult run(String header) {
        return IfcImporter.importSources(List.of(new SourceFile("t.h", header)), ImportOptions.DEFAULTS);
    }

    /** The body of t.prm after the prologue; fails on any error. */
    private static String dsl(String header) {
        ImportResult r = run(header);
        assertFalse(r.hasErrors(), () -> "unexpected errors: " + r.notes());
        assertEquals(1, r.dslFiles().size());
        assertEquals("t.prm", r.dslFiles().get(0).name());
        String text = r.dslFiles().get(0).text();
        assertTrue(text.startsWith(PROLOGUE), text);
        return text.substring(PROLOGUE.length());
    }

    private static List<String> notes(ImportResult r) {
        return r.notes().stream().map(Diagnostic::toString).collect(Collectors.toList());
    }

    @Test
    void plainFieldsKeepNamesAndWidthsWithExplicitSize() {
        String h = """
                struct mlx5_ifc_cqc_bits {
                	u8         status[0x4];
                	u8         reserved_at_4[0x1c];

                	u8         size[0x20];
                	u8         dbr_addr[0x40];
                };
                """;
        assertEquals("""
                struct cqc size 0x10 {
                    status : 0x4;
                    reserved_at_4 : 0x1c;

                    size : 0x20;

                    dbr_addr : 0x40;
                }

                """, dsl(h));
    }

    @Test
    void arraysFlexibleArraysAndNestedTypes() {
        String h = """
                struct mlx5_ifc_cmd_pas_bits {
                	u8         pa_h[0x20];
                	u8         pa_l[0x20];
                };
                union mlx5_ifc_addr_bits {
                	u8         ipv6[16][0x8];
                	u8         ipv4[0x20];
                };
                struct mlx5_ifc_calc_op {
                	u8         a[0x20];
                };
                struct mlx5_ifc_outer_bits {
                	u8         words[4][0x20];
                	struct mlx5_ifc_cmd_pas_bits one;
                	union mlx5_ifc_addr_bits addr;
                	struct mlx5_ifc_calc_op calc;
                	struct mlx5_ifc_cmd_pas_bits four[4];
                	u8         pas[][0x40];
                };
                struct mlx5_ifc_flex_bits {
                	u8         n[0x20];
                	struct mlx5_ifc_cmd_pas_bits pas[0];
                };
                struct mlx5_ifc_old_bits {
                	u8         n[0x20];
                	u8         pas[0][0x40];
                };
                """;
        assertEquals("""
                struct cmd_pas size 0x8 {
                    pa_h : 0x20;

                    pa_l : 0x20;
                }

                union addr size 0x10 {
                    ipv6 : u8[16];
                    ipv4 : 0x20;
                }

                struct calc_op size 0x4 {
                    a : 0x20;
                }

                struct outer size 0x4c {
                    words : 0x20[4];

                    one : cmd_pas;

                    addr : addr;

                    calc : calc_op;

                    four : cmd_pas[4];

                    pas : 0x40[];
                }

                struct flex size 0x4 {
                    n : 0x20;

                    pas : cmd_pas[];
                }

                struct old size 0x4 {
                    n : 0x20;

                    pas : 0x40[];
                }

                """, dsl(h));
    }

    @Test
    void namedInlineUnionBecomesTopLevelUnionWithNote() {
        String h = """
                struct mlx5_ifc_regs_bits {
                	u8         r[0x80];
                };
                struct mlx5_ifc_pcam_reg_bits {
                	u8         group[0x20];
                	union {
                		struct mlx5_ifc_regs_bits regs;
                		u8         reserved_at_0[0x80];
                	} cap_mask;
                };
                """;
        ImportResult r = run(h);
        assertEquals("""
                struct regs size 0x10 {
                    r : 0x20[4];
                }

                union pcam_reg_cap_mask size 0x10 {
                    regs : regs;
                    reserved_at_0 : 0x20[4];
                }

                struct pcam_reg size 0x14 {
                    group : 0x20;

                    cap_mask : pcam_reg_cap_mask;
                }

                """, dsl(h));
        assertEquals(List.of(
                "t.h:2:2: note: regs.r (0x80 bits at bit 0x0) is not one DSL bit field; imported as 0x20[4]",
                "t.h:6:2: note: inline union pcam_reg.cap_mask imported as the top-level union pcam_reg_cap_mask"), notes(r));
    }

    @Test
    void anonymousUnionBecomesInlineUnionAndAnonymousStructIsFlattened() {
        String h = """
                struct mlx5_ifc_x_bits {
                	u8         a[0x20];
                	union {
                		u8         b[0x20];
                		u8         c[0x10];
                	};
                	struct {
                		u8         d[0x10];
                		u8         e[0x10];
                	};
                };
                """;
        assertEquals("""
                struct x size 0xc {
                    a : 0x20;
                    union {
                        b : 0x20;
                        c : 0x10;
                    }
                    d : 0x10;
                    e : 0x10;
                }

                """, dsl(h));
    }

    @Test
    void wideAndUnalignedFieldsBecomeArraysCoveringTheSameBits() {
        String h = """
                struct mlx5_ifc_w_bits {
                	u8         mask_127_to_20[0x6c];
                	u8         bit_19[0x1];
                	u8         reserved_at_6d[0x13];
                	u8         key[0x100];
                	u8         reserved_at_180[0x18];
                	u8         reserved_at_198[0x28];
                	u8         reserved_at_1c0[0x30];
                	u8         pad[0x10];
                };
                """;
        ImportResult r = run(h);
        assertEquals("""
                struct w size 0x40 {
                    mask_127_to_20 : 0x1[108];
                    bit_19 : 0x1;
                    reserved_at_6d : 0x13;

                    key : 0x20[8];

                    reserved_at_180 : 0x18;
                    reserved_at_198 : u8[5];

                    reserved_at_1c0 : 0x30;
                    pad : 0x10;
                }

                """, dsl(h));
        assertEquals(List.of(
                "t.h:2:2: note: w.mask_127_to_20 (0x6c bits at bit 0x0) is not one DSL bit field; imported as 0x1[108]",
                "t.h:5:2: note: w.key (0x100 bits at bit 0x80) is not one DSL bit field; imported as 0x20[8]"), notes(r));
    }

    @Test
    void enumsNamedByTagOrCommonPrefixElseConstants() {
        String h = """
                enum {
                	MLX5_CMD_OP_QUERY_HCA_CAP = 0x100,
                	MLX5_CMD_OP_QUERY_ADAPTER = 0x101,
                	MLX5_CMD_OP_MAX
                };
                enum mlx5_ifc_fpga_qp_state {
                	MLX5_FPGA_QPC_STATE_INIT    = 0x0,
                	MLX5_FPGA_QPC_STATE_ACTIVE  = 0x1,
                };
                enum {
                	MLX5_SHARED_RESOURCE_UID = 0xffff,
                };
                enum {
                	MLX5_A_X = BIT(3),
                	MLX5_B_Y = 1ULL << 39,
                	MLX5_C_Z = (MLX5_A_X | 0x1),
                };
                enum {
                	MLX5_CMD_OP_OTHER = 0x1,
                	MLX5_CMD_OP_MORE = 0x2,
                };
                """;
        assertEquals("""
                enum cmd_op {
                    MLX5_CMD_OP_QUERY_HCA_CAP = 0x100;
                    MLX5_CMD_OP_QUERY_ADAPTER = 0x101;
                    MLX5_CMD_OP_MAX = 0x102;
                }

                enum fpga_qp_state {
                    MLX5_FPGA_QPC_STATE_INIT = 0x0;
                    MLX5_FPGA_QPC_STATE_ACTIVE = 0x1;
                }

                const MLX5_SHARED_RESOURCE_UID = 0xffff;

                const MLX5_A_X = 0x8;
                const MLX5_B_Y = 0x8000000000;
                const MLX5_C_Z = 0x9;

                enum cmd_op_2 {
                    MLX5_CMD_OP_OTHER = 0x1;
                    MLX5_CMD_OP_MORE = 0x2;
                }

                """, dsl(h));
    }

    @Test
    void commonPrefixStopsAtAnUnderscore() {
        assertEquals("fc_bulk", IfcImporter.commonPrefixName(List.of("MLX5_FC_BULK_128", "MLX5_FC_BULK_256")));
        assertEquals("", IfcImporter.commonPrefixName(List.of("MLX5_ABC", "MLX5_ABD")));
        assertEquals("tsar_type_cap_mask", IfcImporter.commonPrefixName(List.of("TSAR_TYPE_CAP_MASK_DWRR", "TSAR_TYPE_CAP_MASK_ETS")));
        assertEquals("qpc_state", IfcImporter.commonPrefixName(List.of("MLX5_QPC_STATE", "MLX5_QPC_STATE_ERR")));
    }

    @Test
    void definesBecomeConstantsAndMacroArrayCountsAreEvaluated() {
        String h = """
                #ifndef T_H
                #define T_H
                #include "other.h"
                #define N_A (6)
                #define N_B    0x1
                #define N_ALL (N_A +\\
                		N_B)
                #define TIMES(x) (N_A * (x))
                struct mlx5_ifc_e_bits {
                	u8         v[0x20];
                };
                struct mlx5_ifc_m_bits {
                	struct mlx5_ifc_e_bits e[N_ALL];
                };
                #endif
                """;
        ImportResult r = run(h);
        assertEquals("""
                const N_A = 0x6;

                const N_B = 0x1;

                const N_ALL = 0x7;

                struct e size 0x4 {
                    v : 0x20;
                }

                struct m size 0x1c {
                    e : e[7];
                }

                """, dsl(h));
        assertEquals(List.of("t.h:8:1: warning: function-like macro TIMES not imported (no DSL equivalent)"), notes(r));
    }

    @Test
    void otherPreprocessorLinesAreReportedWithTheirLine() {
        ImportResult r = run("#define A 1\n#ifdef CONFIG_X\nstruct mlx5_ifc_a_bits {\n\tu8 a[0x20];\n};\n#endif\n#pragma once\n");
        assertEquals(List.of(
                "t.h:2:1: warning: preprocessor line ignored: #ifdef CONFIG_X",
                "t.h:6:1: warning: preprocessor line ignored: #endif",
                "t.h:7:1: warning: preprocessor line ignored: #pragma once"), notes(r));
        assertFalse(r.hasErrors());
    }

    @Test
    void reservedNameThatDisagreesWithItsOffsetIsRenamedAndReported() {
        String h = "struct mlx5_ifc_mkc_bits {\n\tu8 a[0x1a];\n\tu8 reserved_at_19[0x6];\n};\n";
        ImportResult r = run(h);
        assertEquals("struct mkc size 0x4 {\n    a : 0x1a;\n    reserved_at_1a : 0x6;\n}\n\n", dsl(h));
        assertEquals(List.of("t.h:3:2: warning: mkc.reserved_at_19 starts at bit 0x1a; imported as reserved_at_1a"),
                notes(r));
    }

    @Test
    void byteBufferWithoutWidthIsAFlexibleByteArray() {
        String h = "struct mlx5_ifc_s_bits {\n\tu8 n[0x20];\n\tu8 data[];\n};\n";
        assertEquals("struct s size 0x4 {\n    n : 0x20;\n\n    data : u8[];\n}\n\n", dsl(h));
        assertEquals(List.of("t.h:3:2: note: u8 data[] has no element width; imported as a flexible byte array u8[]"), notes(run(h)));
    }

    // ---- what cannot be translated: an error at the header line, and no output at all ----------

    private static void assertErrors(String header, String... expected) {
        ImportResult r = run(header);
        assertTrue(r.hasErrors());
        assertTrue(r.dslFiles().isEmpty(), "no partial output");
        List<String> errors = r.notes().stream().filter(d -> d.severity() == Severity.ERROR).map(Diagnostic::toString).toList();
        assertEquals(List.of(expected), errors);
    }

    @Test
    void unsupportedMemberType() {
        assertErrors("struct mlx5_ifc_a_bits {\n\tu8 a[0x20];\n\tu32 b;\n};\n",
                "t.h:3:2: error: unsupported member starting with 'u32' (expected u8 name[bits], struct or union)");
    }

    @Test
    void undefinedStructure() {
        assertErrors("struct mlx5_ifc_a_bits {\n\tstruct mlx5_ifc_nope_bits n;\n};\n",
                "t.h:2:2: error: struct mlx5_ifc_nope_bits (member n) is not defined in the imported headers");
    }

    @Test
    void unionUsedAsStruct() {
        assertErrors("union mlx5_ifc_u_bits {\n\tu8 a[0x20];\n};\nstruct mlx5_ifc_a_bits {\n\tstruct mlx5_ifc_u_bits n;\n};\n",
                "t.h:5:2: error: mlx5_ifc_u_bits is declared as a union but used as a struct");
    }

    @Test
    void threeDimensions() {
        assertErrors("struct mlx5_ifc_a_bits {\n\tu8 a[2][2][0x8];\n};\n",
                "t.h:2:2: error: field a has 3 array dimensions; the mlx5_ifc convention uses u8 name[bits] or u8 name[count][bits]");
    }

    @Test
    void unknownNameInWidth() {
        assertErrors("struct mlx5_ifc_a_bits {\n\tu8 a[WIDTH];\n};\n",
                "t.h:2:7: error: width of a: unknown name 'WIDTH' in constant expression");
    }

    @Test
    void widthsAndCountsOutsideTheirRangeSayTheRange() {
        assertErrors("struct mlx5_ifc_a_bits {\n\tu8 a[0x0];\n};\n", "t.h:2:7: error: width of a is 0 bits, outside 1..16777216");
        assertErrors("struct mlx5_ifc_a_bits {\n\tu8 a[0x40000000000];\n};\n",
                "t.h:2:7: error: width of a is 4398046511104 bits, outside 1..16777216");
        assertErrors("struct mlx5_ifc_a_bits {\n\tu8 a[0x2000000][0x8];\n};\n",
                "t.h:2:7: error: element count of a is 33554432, outside 0..16777216 (0: a flexible array)");
    }

    @Test
    void flexibleArrayNotLast() {
        assertErrors("struct mlx5_ifc_a_bits {\n\tu8 a[][0x20];\n\tu8 b[0x20];\n};\n",
                "t.h:2:2: error: flexible array a.a is not the last member; the DSL (like C) allows one only at the end");
    }

    @Test
    void anonymousStructInUnionIsItsMemberOrANamedGroup() {
        String h = """
                struct mlx5_ifc_mm_bits {
                	u8         m[0x40];
                };
                struct mlx5_ifc_definer_bits {
                	u8         a[0x20];
                	union {
                		struct {
                			u8         match_mask[2][0x20];
                		};
                		struct mlx5_ifc_mm_bits match_mask_format;
                		struct {
                			u8         lo[0x20];
                			u8         hi[0x20];
                		};
                	};
                };
                """;
        ImportResult r = run(h);
        assertEquals("""
                struct mm size 0x8 {
                    m : 0x40;
                }

                struct definer size 0xc {
                    a : 0x20;
                    union {
                        match_mask : 0x20[2];
                        match_mask_format : mm;
                        struct lo_group {
                            lo : 0x20;

                            hi : 0x20;
                        }
                    }
                }

                """, dsl(h));
        assertEquals(List.of("t.h:11:3: note: anonymous struct inside a union in definer imported as the alternative group lo_group"), notes(r));
    }

    @Test
    void declareFlexArrayMakesFlexibleArraysAlsoAsAlternativesOfATrailingUnion() {
        String h = """
                struct mlx5_ifc_rq_num_bits {
                	u8         rq_num[0x20];
                };
                struct mlx5_ifc_rqt_bits {
                	u8         size[0x20];
                	DECLARE_FLEX_ARRAY(struct mlx5_ifc_rq_num_bits, rq_num);
                };
                struct mlx5_ifc_only_bits {
                	struct mlx5_ifc_rq_num_bits pas[0];
                };
                """;
        assertEquals("""
                struct rq_num size 0x4 {
                    rq_num : 0x20;
                }

                struct rqt size 0x4 {
                    size : 0x20;

                    rq_num : rq_num[];
                }

                struct only {
                    pas : rq_num[];
                }

                """, dsl(h));
        String inUnion = """
                struct mlx5_ifc_rq_num_bits {
                	u8         rq_num[0x20];
                };
                struct mlx5_ifc_rqt_bits {
                	u8         size[0x20];
                	union {
                		DECLARE_FLEX_ARRAY(struct mlx5_ifc_rq_num_bits, rq_num);
                		DECLARE_FLEX_ARRAY(struct mlx5_ifc_rq_num_bits, rq_vhca);
                	};
                };
                """;
        assertTrue(dsl(inUnion).endsWith("""
                struct rqt size 0x4 {
                    size : 0x20;
                    union {
                        rq_num : rq_num[];
                        rq_vhca : rq_num[];
                    }
                }

                """), dsl(inUnion));
        assertEquals("union u size 0x4 {\n    a : 0x20;\n    pas : 0x40[];\n}\n\n", dsl("union mlx5_ifc_u_bits {\n\tu8 a[0x20];\n\tu8 pas[0][0x40];\n};\n"));
        assertErrors("struct mlx5_ifc_s_bits {\n\tunion {\n\t\tu8 pas[][0x40];\n\t};\n\tu8 after[0x20];\n};\n",
                "t.h:3:3: error: flexible array s.pas is not the last member; the DSL (like C) allows one only at the end");
    }

    /** 7.x's query_esw_functions_out: union { u8 reserved_at_80[0x380]; DECLARE_FLEX_ARRAY(union ..., net_function_params); }. */
    @Test
    void declareFlexArrayBesideFixedAlternativesOfATrailingUnion() {
        String h = """
                union mlx5_ifc_params_bits {
                	u8         host[0x40];
                	u8         net[0x80];
                };
                struct mlx5_ifc_out_bits {
                	u8         status[0x8];
                	u8         reserved_at_8[0x18];

                	union {
                		u8 reserved_at_20[0x60];
                		DECLARE_FLEX_ARRAY(union mlx5_ifc_params_bits,
                				   params);
                	};
                };
                """;
        assertEquals("""
                union params size 0x10 {
                    host : 0x40;
                    net : 0x20[4];
                }

                struct out size 0x10 {
                    status : 0x8;
                    reserved_at_8 : 0x18;
                    union {
                        reserved_at_20 : 0x20[3];
                        params : params[];
                    }
                }

                """, dsl(h));
        assertEquals(0x20, run(h).model().orElseThrow().struct("out").orElseThrow().member("params").orElseThrow().bitOffset());
    }

    @Test
    void packedAttributesChangeNothingAndAreSkippedWithANote() {
        String h = "struct mlx5_ifc_a_bits {\n\tu8 n[0x20] __packed;\n\tu8 m[0x20] __attribute__((__packed__));\n} __attribute__((packed));\n";
        assertEquals("struct a size 0x8 {\n    n : 0x20;\n\n    m : 0x20;\n}\n\n", dsl(h));
        assertEquals(List.of(
                "t.h:2:13: note: attribute __packed after n ignored: members of u8 arrays are never padded, so it does not change the layout",
                "t.h:3:13: note: attribute __attribute__((__packed__)) after m ignored: members of u8 arrays are never padded, so it does not change the layout",
                "t.h:4:3: note: attribute __attribute__((packed)) after mlx5_ifc_a_bits ignored: members of u8 arrays are never padded, so it does not change the layout"),
                notes(run(h)));
    }

    @Test
    void attributesThatMayMoveOrPadAreRefusedAtTheirColumn() {
        String advice = " may change the layout (alignment or padding), which the mlx5_ifc convention and the DSL do not express;"
                + " import a copy of the header without it, and pad with reserved_at_X fields where the PRM has reserved space";
        assertErrors("struct mlx5_ifc_a_bits {\n\tu8 n[0x20];\n} __aligned(8);\n", "t.h:3:3: error: attribute __aligned(8) after mlx5_ifc_a_bits" + advice);
        assertErrors("struct mlx5_ifc_a_bits {\n\tu8 n[0x20] __attribute__((aligned(8)));\n};\n",
                "t.h:2:13: error: attribute __attribute__((aligned(8))) after n" + advice);
    }

    @Test
    void anonymousUnionInsideAStructAlternativeIsRefusedWithWhatToDo() {
        assertErrors("struct mlx5_ifc_a_bits {\n\tu8 n[0x20];\n\tunion {\n\t\tstruct {\n\t\t\tu8 a[0x20];\n"
                        + "\t\t\tunion {\n\t\t\t\tu8 c[0x20];\n\t\t\t\tu8 d[0x20];\n\t\t\t};\n\t\t};\n\t\tu8 x[0x40];\n\t};\n};\n",
                "t.h:6:4: error: anonymous union inside a struct alternative of a union in a has no DSL form (a DSL union's alternatives"
                        + " are members or flat struct groups): in a copy of the header, define it as a top-level union mlx5_ifc_NAME_bits"
                        + " and use it as a named member");
    }

    @Test
    void aStructureNamedLikeABuiltInTypeIsRefused() {
        assertErrors("struct mlx5_ifc_u64_bits {\n\tu8 n[0x40];\n};\nstruct mlx5_ifc_b_bits {\n\tstruct mlx5_ifc_u64_bits n;\n};\n",
                "t.h:1:1: error: struct mlx5_ifc_u64_bits would be named 'u64', which the DSL reads as its built-in type; rename it in a copy of the header");
    }

    /**
     * The importer compiles what it would write: a shape that passes its translation rules but not
     * the compiler (here an array longer than the DSL's 2^20 elements) is reported at the header
     * line it came from, with the DSL line and the compiler's reason, and nothing is written.
     */
    @Test
    void whatTheCompilerRefusesIsReportedAtTheHeaderLineAndNothingIsWritten() {
        ImportResult r = run("struct mlx5_ifc_a_bits {\n\tu8 n[0x20];\n\tu8 big[0x200000][0x20];\n};\n");
        assertTrue(r.dslFiles().isEmpty() && r.model().isEmpty());
        List<String> errors = r.notes().stream().filter(Diagnostic::isError).map(Diagnostic::toString).toList();
        assertEquals(1, errors.size(), errors::toString);
        assertTrue(errors.get(0).startsWith("t.h:3:2: error: no DSL translation for this construct: its import 'big : 0x20[2097152];'"
                + " does not compile (array count must be 1..0x100000, not 2097152); import a copy of the header"), errors.get(0));
    }

    @Test
    void arraysOfWideElementsAreFlattenedWithANote() {
        String h = "struct mlx5_ifc_key_bits {\n\tu8 key[2][0x80];\n};\n";
        assertEquals("struct key size 0x20 {\n    key : 0x20[8];\n}\n\n", dsl(h));
        assertEquals(List.of("t.h:2:2: note: key.key (0x100 bits at bit 0x0) is not one DSL bit field; imported as 0x20[8]"), notes(run(h)));
    }

    @Test
    void castsInConstantsAreIgnored() {
        assertEquals("const MLX5_M = 0x8000000000;\n\n", dsl("enum {\n\tMLX5_M = (u64)1 << 39,\n};\n"));
    }

    @Test
    void includedHeadersNextToTheHeaderComeAlong(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) throws Exception {
        java.nio.file.Files.writeString(dir.resolve("inner.h"), "struct mlx5_ifc_x_bits {\n\tu8 a[0x20];\n};\n");
        java.nio.file.Files.writeString(dir.resolve("outer.h"),
                "#include \"inner.h\"\n#include \"missing.h\"\nstruct mlx5_ifc_y_bits {\n\tstruct mlx5_ifc_x_bits x;\n};\n");
        ImportResult r = IfcImporter.importHeaders(List.of(dir.resolve("outer.h")), ImportOptions.DEFAULTS);
        assertFalse(r.hasErrors(), r.notes()::toString);
        assertEquals(List.of("inner.prm", "outer.prm"), r.dslFiles().stream().map(SourceFile::name).toList());
    }

    @Test
    void anonymousStructStartingWithAnInlineAggregateInAUnion() {
        assertErrors("union mlx5_ifc_a_bits {\n\tstruct {\n\t\tunion {\n\t\t\tu8 x[0x20];\n\t\t} u;\n\t\tu8 z[0x20];\n\t};\n\tu8 y[0x20];\n};\n",
                "t.h:2:2: error: anonymous struct inside a union in a starting with an inline aggregate has no DSL form");
    }

    @Test
    void arrayElementsCrossingDwords() {
        assertErrors("struct mlx5_ifc_a_bits {\n\tu8 a[0x8];\n\tu8 b[4][0x18];\n\tu8 c[0x8];\n};\n",
                "t.h:3:2: error: a.b: element 2 of 0x18 bits at bit 0x38 would cross a dword boundary; the DSL has no such array");
    }

    @Test
    void memberNamedWithAHardKeyword() {
        assertErrors("struct mlx5_ifc_a_bits {\n\tu8 flags[0x20];\n};\n",
                "t.h:2:2: error: member a.flags is named with a DSL keyword that cannot be a name");
    }

    @Test
    void unsupportedTopLevelDeclarationAndRecovery() {
        ImportResult r = run("typedef int foo;\nstruct mlx5_ifc_a_bits {\n\tu8 a[0x20];\n};\nstatic int x = 3;\n");
        assertEquals(List.of(
                "t.h:1:1: error: unsupported declaration starting with 'typedef' (the importer reads struct/union mlx5_ifc_*_bits, enums and #defines)",
                "t.h:5:1: error: unsupported declaration starting with 'static' (the importer reads struct/union mlx5_ifc_*_bits, enums and #defines)"),
                notes(r));
    }

    @Test
    void duplicateStructure() {
        assertErrors("struct mlx5_ifc_a_bits {\n\tu8 a[0x20];\n};\nstruct mlx5_ifc_a_bits {\n\tu8 a[0x20];\n};\n",
                "t.h:4:1: error: struct mlx5_ifc_a_bits is defined twice (first at t.h:1)");
    }

    @Test
    void structuresMayComeFromAnotherHeader() {
        ImportResult r = IfcImporter.importSources(List.of(
                new SourceFile("dir/a.h", "struct mlx5_ifc_x_bits {\n\tu8 a[0x20];\n};\n"),
                new SourceFile("b.h", "struct mlx5_ifc_y_bits {\n\tstruct mlx5_ifc_x_bits x;\n};\n")),
                new ImportOptions("vendor.caps"));
        assertFalse(r.hasErrors(), r.notes()::toString);
        assertEquals(List.of("a.prm", "b.prm"), r.dslFiles().stream().map(SourceFile::name).toList());
        assertTrue(r.dslFiles().get(1).text().contains("package vendor.caps;\n\nstruct y size 0x4 {\n    x : x;\n}\n"));
    }

    /**
     * The output depends on the header alone: imported again in another JVM (other identity hashes,
     * another thread, other objects allocated before), a header of many structures, enums and
     * unions gives the same files and notes, byte for byte.
     */
    @Test
    void outputIsTheSameInAnotherJvm() throws Exception {
        String h = DeterminismMain.header();
        String here = DeterminismMain.render(run(h));
        String javaExe = java.nio.file.Path.of(System.getProperty("java.home"), "bin", "java").toString();
        io.prmkit.dsl.Child.Result other = io.prmkit.dsl.Child.run(java.time.Duration.ofMinutes(2), javaExe, "-cp",
                System.getProperty("java.class.path"), DeterminismMain.class.getName()).assertSuccess();
        assertTrue(here.contains("struct s17 ") && here.contains("enum"), here);
        assertEquals(here, other.stdout());
    }
}

package io.prmkit.dsl.passes;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.prmkit.dsl.Specs;
import io.prmkit.dsl.ir.Expr;
import io.prmkit.dsl.ir.LayoutModel;
import io.prmkit.dsl.ir.QualifiedName;
import io.prmkit.dsl.ir.WqeLayout;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** What the wqes pass puts in the model for a well-formed WQE declaration (the malformed corpus 80-97 covers its errors). */
class WqesPassTest {
    private static final String SPEC = """
            package p;
            enum op width 8 { SEND = 0x0a; LSO = 0x0e; }
            enum mode width 3 { NONE = 0; L2 = 1; }
            struct ctrl_seg size 0x10 {
                0x00 [31:8] wqe_index;
                0x00 [7:0] opcode enum op;
                0x04 [31:6] qpn;
                0x04 [5:0] ds;
                0x08 reserved : u32;
                0x0c imm : u32;
            }
            struct eth_seg size 0x10 {
                0x00 mss : u32;
                0x04 vlan : u32;
                0x08 reserved : u32;
                0x0c [31:16] inline_hdr_sz;
                0x0e inline_hdr_start : u8[2];
            }
            struct inline_seg size 0x04 {
                0x00 [31] inline_flag;
                0x00 [30:0] byte_count;
            }
            struct data_seg size 0x10 {
                0x00 byte_count : u32;
                0x04 lkey : u32;
                0x08 addr : u64;
            }
            struct key size 0x10 {
                0x00 start : u64;
                0x08 len : u64;
            }
            /// A send WQE.
            wqe tx ref "PRM: send WQE" {
                size ctrl.ds * 16 "ds counts the units";
                match ctrl.opcode == op.SEND || ctrl.opcode == op.LSO;
                given min_mode enum mode "min inline";
                given mkey : key "memory keys";
                ctrl    : ctrl_seg;
                eth     : eth_seg;
                headers : inline eth.inline_hdr_sz at eth.inline_hdr_start when eth.vlan == 0 "inline headers";
                data    : repeated {
                    inline_data : inline_seg size 4 + byte_count when inline_flag == 1;
                    pointer     : data_seg;
                };
                rule lso: ctrl.opcode != op.LSO || eth.mss != 0 "LSO needs mss";
                rule min_inline: header_end(headers, min_mode) <= bytes(headers) "inline enough";
                rule in_key: pointer.addr >= mkey(pointer.lkey).start "in the key";
                rule some: count(data) >= 1 "some data";
            }
            """;

    private static WqeLayout tx() {
        LayoutModel m = Specs.model(SPEC);
        assertEquals(1, m.wqes().size());
        return m.wqe("tx").orElseThrow();
    }

    @Test
    void segmentsInOrderWithTheirKinds() {
        WqeLayout w = tx();
        assertEquals(new QualifiedName("p", "tx"), w.name());
        assertEquals(List.of("ctrl", "eth", "headers", "data"), w.segments().stream().map(WqeLayout.Segment::name).toList());
        assertEquals(List.of(WqeLayout.Kind.STRUCT, WqeLayout.Kind.STRUCT, WqeLayout.Kind.INLINE, WqeLayout.Kind.REPEATED),
                w.segments().stream().map(WqeLayout.Segment::kind).toList());
        assertEquals(Optional.of(new WqeLayout.Anchor("eth", "inline_hdr_start", 0x0e)), w.segments().get(2).at());
        WqeLayout.Segment data = w.segments().get(3);
        assertEquals(List.of("inline_data", "pointer"), data.alternatives().stream().map(WqeLayout.Segment::name).toList());
        assertEquals("(4 + inline_data.byte_count)", data.alternatives().get(0).size().orElseThrow().source());
        assertEquals("(inline_data.inline_flag == 1)", data.alternatives().get(0).when().orElseThrow().source());
        assertEquals("A send WQE.", w.doc().text());
        assertEquals("PRM: send WQE", w.doc().prmRef());
    }

    @Test
    void expressionsResolveToSegmentFieldsGivensLookupsAndBuiltins() {
        WqeLayout w = tx();
        assertEquals("(ctrl.ds * 16)", w.size().source());
        assertEquals("ds counts the units", w.sizeMessage());
        assertEquals(List.of("min_mode", "mkey"), w.givens().stream().map(WqeLayout.Given::name).toList());
        assertEquals(Optional.of(new QualifiedName("p", "mode")), w.givens().get(0).enumType());
        assertEquals(Optional.of(new QualifiedName("p", "key")), w.givens().get(1).lookup());
        assertEquals(new Expr.Binary(Expr.BinaryOp.OR,
                new Expr.Binary(Expr.BinaryOp.NE, new Expr.SegmentField("ctrl", "opcode"), new Expr.Literal(0x0e, "op.LSO")),
                new Expr.Binary(Expr.BinaryOp.NE, new Expr.SegmentField("eth", "mss"), new Expr.Literal(0, "0"))), w.rules().get(0).condition());
        assertEquals(new Expr.Binary(Expr.BinaryOp.LE,
                new Expr.Builtin(Expr.Function.HEADER_END, "headers", Optional.of(new Expr.GivenValue("min_mode"))),
                new Expr.Builtin(Expr.Function.BYTES, "headers", Optional.empty())), w.rules().get(1).condition());
        assertEquals("(pointer.addr >= mkey(pointer.lkey).start)", w.rules().get(2).condition().source());
        assertEquals("(count(data) >= 1)", w.rules().get(3).condition().source());
    }

    @Test
    void theBundledWqesAreTheKernelsNames() throws Exception {
        // the bundled spec lives in generated-runtime; its WQEs are checked there (BundledWqesTest) and here by name only
        assertEquals("wqes", new WqesPass().name());
        assertTrue(Passes.names().indexOf("wqes") > Passes.names().indexOf("commands"));
    }
}

package io.prmkit.dsl.diff;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.prmkit.dsl.Specs;
import io.prmkit.dsl.diff.DiffRenderer.Format;
import io.prmkit.dsl.ir.LayoutModel;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Joined fields and WQE declarations through the diff, from spec text compiled by the real compiler. */
class JoinAndWqeDiffTest {

    private static final String STRUCTS = """
            package p;
            enum op width 8 { SEND = 0x0a; LSO = 0x0e; }
            enum am width 5 { PA = 0; MTT = 1; KLMS = 2; }
            struct mkc size 0x10 {
                0x00 [31:29] access_mode_4_2;
                0x00 [28:2]  reserved;
                0x00 [1:0]   access_mode_1_0;
                0x04 start_addr_high : u32;
                0x08 start_addr_low : u32;
                0x0c [31:16] len_hi;
                0x0c [15:0]  len_lo;
                %s
            }
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
                0x04 csum : u32;
                0x08 reserved : u32;
                0x0c [31:16] inline_hdr_sz;
                0x0e inline_hdr_start : u8[2];
            }
            struct data_seg size 0x10 {
                0x00 byte_count : u32;
                0x04 lkey : u32;
                0x08 addr : u64;
            }
            %s
            """;

    private static LayoutModel model(String joins, String wqes) {
        return Specs.model(STRUCTS.formatted(joins, wqes));
    }

    @Test
    void aJoinRemovedOrWithOtherPartsBreaksOneAddedDoesNot() {
        LayoutModel older = model("""
                join access_mode = access_mode_4_2, access_mode_1_0;
                join start_addr;
                """, "");
        LayoutModel newer = model("""
                join access_mode = access_mode_4_2, access_mode_1_0 enum am;
                join len = len_hi, len_lo;
                """, "");
        DiffReport r = LayoutDiff.diff(older, newer);
        assertEquals("""
                Added fields (1):
                  p.mkc.len: join added: len_hi [31:16], len_lo [15:0]

                Other additive changes (1):
                  p.mkc.access_mode: join access_mode_4_2 [4:2], access_mode_1_0 [1:0] -> access_mode_4_2 [4:2], access_mode_1_0 [1:0] enum p.am

                Breaking changes (1):
                  p.mkc.start_addr: join removed (was start_addr_high [63:32], start_addr_low [31:0])

                3 changes: 1 breaking, 2 additive
                """, DiffRenderer.render(r, Format.TEXT));

        LayoutModel swapped = model("join access_mode = access_mode_1_0 [4:3], access_mode_4_2 [2:0];\njoin start_addr;", "");
        DiffReport s = LayoutDiff.diff(older, swapped);
        assertEquals(1, s.changes().size(), s.changes().toString());
        Change c = s.changes().get(0);
        assertEquals(Change.Kind.JOIN_CHANGED, c.kind());
        assertTrue(c.breaking(), "other parts: the whole value's bits move");
        assertEquals("join access_mode_4_2 [4:2], access_mode_1_0 [1:0] -> access_mode_1_0 [4:3], access_mode_4_2 [2:0]", c.description());
        assertTrue(DiffRenderer.render(s, Format.JSON).contains("\"kind\": \"join_changed\", \"breaking\": true, \"owner\": \"p.mkc\", \"name\": \"access_mode\", "
                + "\"old\": \"access_mode_4_2 [4:2], access_mode_1_0 [1:0]\", \"new\": \"access_mode_1_0 [4:3], access_mode_4_2 [2:0]\""),
                DiffRenderer.render(s, Format.JSON));

        assertTrue(LayoutDiff.diff(older, model("join access_mode = access_mode_4_2, access_mode_1_0;\njoin start_addr;", "")).isEmpty(), "same joins: no change");
    }

    private static final String TX = """
            wqe tx { size ctrl.ds * 16 "ds";
                given sqn "the send queue";
                ctrl : ctrl_seg;
                eth : eth_seg;
                %s
                rule qpn: ctrl.qpn == sqn "qpn is the SQ";
                %s
            }
            """;

    @Test
    void wqeDeclarationsCompareBySegmentsAndRules() {
        LayoutModel older = model("", TX.formatted("", "rule lso: ctrl.opcode != op.LSO || eth.mss != 0 \"LSO needs mss\";\nrule small: eth.mss < 9000 \"small\";"));
        LayoutModel newer = model("", TX.formatted("data : repeated { ptr : data_seg; };",
                "rule lso: ctrl.opcode != op.LSO || eth.mss > 0 \"LSO needs mss\";\nrule ds: ctrl.ds >= 2 \"ctrl and eth\";"));
        DiffReport r = LayoutDiff.diff(older, newer);
        assertEquals("""
                Other additive changes (1):
                  p.tx.small: rule removed (was (eth.mss < 9000))

                Breaking changes (3):
                  p.tx: segments ctrl: ctrl_seg, eth: eth_seg -> segments ctrl: ctrl_seg, eth: eth_seg, data: repeated {ptr: data_seg}
                  p.tx.lso: rule ((ctrl.opcode != op.LSO) || (eth.mss != 0)) -> ((ctrl.opcode != op.LSO) || (eth.mss > 0))
                  p.tx.ds: rule added: (ctrl.ds >= 2) (check() reports WQEs it passed)

                4 changes: 3 breaking, 1 additive
                """, DiffRenderer.render(r, Format.TEXT));

        DiffReport gone = LayoutDiff.diff(older, model("", ""));
        assertEquals(List.of("p.tx: WQE removed (was ctrl: ctrl_seg, eth: eth_seg)"),
                gone.changes().stream().map(c -> c.subject() + ": " + c.description()).toList());
        assertTrue(gone.isBreaking());
        DiffReport added = LayoutDiff.diff(model("", ""), older);
        assertEquals(List.of("p.tx: WQE added: ctrl: ctrl_seg, eth: eth_seg"), added.changes().stream().map(c -> c.subject() + ": " + c.description()).toList());
        assertTrue(!added.isBreaking());
    }
}

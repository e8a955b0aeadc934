package io.prmkit.dsl;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.prmkit.dsl.ir.Member;
import io.prmkit.dsl.ir.StructLayout;
import org.junit.jupiter.api.Test;

class SmokeTest {
    static final String CTRL = """
            package mlx5;

            enum send_wqe_opcode width 8 { NOP = 0x00; SEND = 0x0a "Send"; }
            enum fence_mode width 3 { NONE = 0; }
            enum completion_mode width 2 { ON_ERROR = 0; ALWAYS = 2; }

            /// Control segment: the first 16 bytes of every send WQE.
            struct wqe_ctrl_seg size 0x10 ref "PRM 8.9.4.1" {
                0x00 [31:24] opc_mod                          "Opcode modifier";
                0x00 [23:8]  wqe_index                        "WQE counter of this WQE, in 64-byte units";
                0x00 [7:0]   opcode    enum send_wqe_opcode   "What the WQE does";
                0x04 [31:8]  qpn                              "Send queue (or QP) number";
                0x04 [7:6]   reserved;
                0x04 [5:0]   ds        range 1..63            "WQE size in 16-byte units";
                0x08 [31:24] signature;
                0x08 [23:8]  reserved;
                0x08 [7:5]   fm        enum fence_mode        "Fence mode";
                0x08 [4]     reserved;
                0x08 [3:2]   ce        enum completion_mode   "When to write a CQE";
                0x08 [1]     se                               "Solicited event";
                0x08 [0]     reserved;
                0x0c         imm : u32                        "Immediate data / invalidation key";

                rule ds_not_zero: ds != 0 "a WQE holds at least its control segment (ds >= 1)";
            }
            """;

    @Test
    void docExample() {
        StructLayout s = Specs.struct(CTRL, "wqe_ctrl_seg");
        StringBuilder sb = new StringBuilder();
        for (Member m : s.members()) sb.append(m.name()).append('@').append(m.bitOffset()).append(':').append(m.bitWidth()).append(' ');
        assertEquals("opc_mod@0:8 wqe_index@8:16 opcode@24:8 qpn@32:24 reserved_at_38@56:2 ds@58:6 signature@64:8 "
                + "reserved_at_48@72:16 fm@88:3 reserved_at_5b@91:1 ce@92:2 se@94:1 reserved_at_5f@95:1 imm@96:32 ", sb.toString());
        assertEquals(16, s.sizeBytes());
    }
}

package io.prmkit.generator;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.prmkit.dsl.Specs;
import java.lang.reflect.Method;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A WQE declaration's generated {@code PrmWqes} compiles with -Xlint:all -Werror against the
 * shared {@code PrmLayout} alone (java.base only) and its check names the rules a WQE breaks:
 * a segment's fields, an optional segment, a repeated one, a given and a lookup.
 */
class WqeValidatorIT {
    private static final String SPEC = """
            package mlx5;
            enum op width 8 { SEND = 0x0a; LSO = 0x0e; }
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
            struct data_seg size 0x10 {
                0x00 byte_count : u32;
                0x04 lkey : u32;
                0x08 addr : u64;
            }
            struct key size 0x10 {
                0x00 start : u64;
                0x08 len : u64;
            }
            wqe tx {
                size ctrl.ds * 16 "ds counts the units";
                match ctrl.opcode == op.SEND || ctrl.opcode == op.LSO;
                given min_mode "min inline";
                given mkey : key "memory keys";
                ctrl    : ctrl_seg;
                eth     : eth_seg;
                headers : inline eth.inline_hdr_sz at eth.inline_hdr_start when eth.vlan == 0;
                data    : repeated { pointer : data_seg; };
                rule lso: ctrl.opcode != op.LSO || eth.mss != 0 "LSO needs mss";
                rule min_inline: header_end(headers, min_mode) <= bytes(headers) "inline enough";
                rule in_key: pointer.addr >= mkey(pointer.lkey).start && pointer.addr + pointer.byte_count <= mkey(pointer.lkey).start + mkey(pointer.lkey).len "in the key";
            }
            """;

    static Loaded gen;

    @BeforeAll
    static void compile() {
        gen = Loaded.compile(new AccessorGenerator(new GeneratorOptions("io.prmkit.wq")).generate(Specs.model(SPEC)), "io.prmkit.wq.mlx5");
    }

    private static Object check(byte[] wqe, Object ctx) throws Exception {
        Object tx = gen.constant("PrmWqes", "TX");
        Method check = tx.getClass().getMethod("check", Loaded.SEGMENT, long.class, long.class, ctx.getClass());
        return check.invoke(tx, Loaded.segment(wqe), 0L, (long) wqe.length, ctx);
    }

    @SuppressWarnings("unchecked")
    private static List<String> broken(Object report) throws Exception {
        List<Object> b = (List<Object>) report.getClass().getMethod("broken").invoke(report);
        return b.stream().map(Object::toString).toList();
    }

    private static Object none() throws Exception {
        return Class.forName("io.prmkit.layout.PrmLayout$Wqe$Context").getMethod("none").invoke(null);
    }

    @Test
    void theGeneratedCheckNamesTheBrokenRuleWithItsValues() throws Exception {
        byte[] w = new byte[64];
        w[3] = 0x0e; // LSO
        w[7] = 4; // ds
        w[16 + 12] = 0; w[16 + 13] = 18; // inline_hdr_sz 18
        Object ctx = none().getClass().getMethod("with", String.class, long.class).invoke(none(), "min_mode", 1L);
        Object r = check(w, ctx);
        assertEquals(List.of("lso: LSO needs mss (ctrl.opcode = 0xe (LSO), eth.mss = 0)"), broken(r));
        @SuppressWarnings("unchecked")
        List<String> unchecked = (List<String>) r.getClass().getMethod("unchecked").invoke(r);
        assertEquals(List.of("in_key: needs mkey(0x0)"), unchecked);
        w[16 + 3] = 1; // mss 1
        w[7] = 2; // ds too small for the headers
        assertEquals(List.of("size: ds counts the units (ctrl.ds * 16 = 32 bytes, the segments need 48, ctrl 0x0..0xf, eth 0x10..0x1f, headers 0x1e..0x2f)"),
                broken(check(w, ctx)));
    }
}

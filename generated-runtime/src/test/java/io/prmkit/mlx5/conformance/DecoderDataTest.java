package io.prmkit.mlx5.conformance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.prmkit.dsl.ir.EnumLayout;
import io.prmkit.dsl.ir.LayoutModel;
import io.prmkit.dsl.ir.Member;
import io.prmkit.dsl.ir.QualifiedName;
import io.prmkit.dsl.ir.StructLayout;
import java.util.List;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

/** The data status/syndrome decoders are built from, as the compiled bundled spec carries it. */
class DecoderDataTest {

    private static final LayoutModel MODEL = BundledSpec.model();

    private static EnumLayout enumType(String name) {
        return MODEL.enumType(new QualifiedName("mlx5", name))
                .orElseThrow(() -> new AssertionError("spec has no enum mlx5." + name));
    }

    private static EnumLayout.EnumValue decode(String enumName, long value) {
        return enumType(enumName).byValue(value)
                .orElseThrow(() -> new AssertionError(enumName + " has no value " + value));
    }

    @Test
    void commandStatus3IsBadParameter() {
        EnumLayout.EnumValue v = decode("cmd_status", 0x3);
        assertEquals("BAD_PARAM_ERR", v.name());
        assertEquals("Bad parameter", v.doc().text());
        assertFalse(v.detail().isEmpty(), "bad parameter should say what to look at");
    }

    @Test
    void cqeSyndrome4IsLocalProtectionErrorWithItsCause() {
        EnumLayout.EnumValue v = decode("cqe_error_syndrome", 0x04);
        assertEquals("LOCAL_PROT_ERR", v.name());
        assertTrue(v.detail().contains("lkey"), "cause should name the lkey: " + v.detail());
        // the often-repeated mix-up: 0x05 is a flush, not a protection error
        assertEquals("WR_FLUSH_ERR", decode("cqe_error_syndrome", 0x05).name());
        assertEquals("LOCAL_LENGTH_ERR", decode("cqe_error_syndrome", 0x01).name());
    }

    @Test
    void deliveryStatus9IsReservedFieldsNotClearedAndTheGapIsEmpty() {
        EnumLayout.EnumValue v = decode("delivery_status", 0x9);
        assertTrue(v.doc().text().toLowerCase().contains("reserved fields not cleared"), v.doc().text());
        LongStream.rangeClosed(0xa, 0xf).forEach(x ->
                assertTrue(enumType("delivery_status").byValue(x).isEmpty(), "no delivery status 0x" + Long.toHexString(x)));
        assertEquals("BAD_CMD_TYPE", decode("delivery_status", 0x10).name());
    }

    @Test
    void everyErrorSyndromeAndStatusExplainsItself() {
        for (String e : List.of("cqe_error_syndrome", "delivery_status", "health_syndrome")) {
            for (EnumLayout.EnumValue v : enumType(e).values()) {
                assertFalse(v.doc().text().isBlank(), e + "." + v.name() + " has no meaning");
                if (!v.name().equals("OK")) assertFalse(v.detail().isBlank(), e + "." + v.name() + " has no likely cause");
            }
        }
        for (EnumLayout.EnumValue v : enumType("cmd_status").values()) {
            assertFalse(v.doc().text().isBlank(), "cmd_status." + v.name() + " has no meaning");
        }
    }

    @Test
    void initHcaOpcodeIs0x102() {
        // the command opcodes come from the mlx5_ifc.h-based part of the spec (not 0x1, a popular mistake)
        EnumLayout.EnumValue v = enumType("cmd_opcode").values().stream()
                .filter(x -> x.name().equals("INIT_HCA")).findFirst()
                .orElseThrow(() -> new AssertionError("cmd_opcode has no INIT_HCA"));
        assertEquals(0x102, v.value());
        assertEquals("INIT_HCA", decode("cmd_opcode", 0x102).name());
        assertEquals("QUERY_HCA_CAP", decode("cmd_opcode", 0x100).name());
    }

    @Test
    void fieldsCarryTheirDecoders() {
        assertEquals(enumType("cqe_error_syndrome").name(), member("err_cqe", "syndrome").enumType().orElseThrow());
        assertEquals(enumType("cmd_status").name().name(), "cmd_status");
        assertEquals(enumType("delivery_status").name(), member("cmd_queue_entry", "status").enumType().orElseThrow());
        assertEquals(enumType("eqe_type").name(), member("eqe", "event_type").enumType().orElseThrow());
        assertEquals(enumType("cqe_opcode").name(), member("cqe64", "opcode").enumType().orElseThrow());
        assertEquals(enumType("send_wqe_opcode").name(), member("wqe_ctrl_seg", "opcode").enumType().orElseThrow());
        assertEquals(enumType("eth_cs_flags").name(), member("wqe_eth_seg", "cs_flags").flagsType().orElseThrow());
        assertEquals(63, member("wqe_ctrl_seg", "ds").constraints().max().orElseThrow());
    }

    @Test
    void taggedUnionsSelectTheRightLayout() {
        // Ethernet segment dword 3: bit 31 chooses VLAN insertion over inline headers
        assertTag("wqe_eth_seg", "vlan_tci", "insert_vlan", 1);
        assertTag("wqe_eth_seg", "inline_hdr_sz", "insert_vlan", 0);
        // EQE data: chosen by event_type
        assertTag("eqe", "cmd_vector", "event_type", decode("eqe_type", 0x0a).value());
        assertTag("eqe", "cqn", "event_type", 0x00);
        assertTag("eqe", "num_pages", "event_type", 0x0b);
        assertEquals("PAGE_REQUEST", decode("eqe_type", 0x0b).name());
    }

    private static void assertTag(String struct, String field, String selector, long tag) {
        var v = member(struct, field).variant().orElseThrow(() -> new AssertionError(struct + "." + field + " is not in a union"));
        assertEquals(selector, v.selector(), struct + "." + field);
        assertEquals(tag, v.tag().orElseThrow(), struct + "." + field);
    }

    private static Member member(String struct, String name) {
        StructLayout s = MODEL.struct(new QualifiedName("mlx5", struct)).orElseThrow(() -> new AssertionError("no struct " + struct));
        return s.member(name).orElseThrow(() -> new AssertionError("no member " + struct + "." + name));
    }
}

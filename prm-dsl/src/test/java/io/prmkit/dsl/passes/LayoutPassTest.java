package io.prmkit.dsl.passes;

import static io.prmkit.dsl.Specs.assertError;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.prmkit.dsl.Specs;
import io.prmkit.dsl.ir.Member;
import io.prmkit.dsl.ir.MemberType;
import io.prmkit.dsl.ir.StructLayout;
import org.junit.jupiter.api.Test;

class LayoutPassTest {
    static String layout(StructLayout s) {
        StringBuilder sb = new StringBuilder();
        for (Member m : s.members()) sb.append(m.name()).append('@').append(Long.toHexString(m.bitOffset())).append('/').append(m.bitWidth()).append(' ');
        return sb.toString().trim();
    }

    @Test
    void reversedBitRange() {
        assertError("3:10: error: bit range [8:23] is reversed: the high bit comes first, [23:8]",
                "package p;\nstruct a {\n    0x00 [8:23] x;\n    0x00 [31:24] y;\n}\n");
    }

    @Test
    void byteOffsetWithoutWidth() {
        assertError("3:10: error: 'x' has a byte offset but no width: write a bit range (0x00 [31:0] x) or a type (0x00 x : u32)",
                "package p;\nstruct a {\n    0x00 x;\n}\n");
    }

    @Test
    void typeDisagreesWithBitRange() {
        assertError("3:20: error: type ': 16' does not match the bit range [7:0] (8 bits)",
                "package p;\nstruct a {\n    0x00 [7:0] y : 16;\n    0x00 [31:8] x;\n}\n");
    }

    @Test
    void fieldCrossingADword() {
        assertError("4:5: error: 'y' crosses a dword boundary (0x00 [7:0] .. 0x04 [31:24]); a field narrower than 32 bits must lie within one dword",
                "package p;\nstruct a {\n    x : 24;\n    y : 16;\n}\n");
    }

    @Test
    void wideFieldMustBeDwordAligned() {
        assertError("2:20: error: 'y' is 32 bits wide, so it must start on a dword boundary; it starts at 0x00 [15]",
                "package p;\nstruct a { x : 16; y : 32; z : 16; }\n");
    }

    @Test
    void unknownType() {
        assertError("2:24: error: unknown type 'foo': a type is a width in bits, u8, u16, u32, u64 or a struct or union name",
                "package p;\nstruct a { x : 32; y : foo; }\n");
    }

    @Test
    void sizeMismatch() {
        assertError("2:29: error: 'y' does not fit in struct 'a' of size 0x4: it ends at byte 0x08 (bit 0x40)",
                "package p;\nstruct a size 0x4 { x : 32; y : 32; }\n");
    }

    @Test
    void dwordOffsetNotMultipleOfFour() {
        assertError("2:12: error: a bit range [hi:lo] is counted within a dword, so its byte offset must be a multiple of 4; 0x02 is not (its dword starts at 0x00)",
                "package p;\nstruct a { 0x02 [15:0] x; }\n");
    }

    @Test
    void bitOutOfDword() {
        assertError("2:17: error: bit range [40:0] is out of range: bits of a dword are numbered 31..0; a 64-bit field is written '0x00 x : u64'",
                "package p;\nstruct a { 0x00 [40:0] x; }\n");
    }

    @Test
    void containmentCycle() {
        assertError("3:16: error: struct 'a' contains itself: a -> b -> a", "package p;\nstruct a { x : b; }\nstruct b { y : a; }\n");
    }

    @Test
    void flexibleArrayMustBeLast() {
        assertError("4:8: error: flexible array 'pas' must be the last member",
                "package p;\nstruct a {\n  0x00 [31:0] x;\n  0x04 pas : u64[];\n  0x08 [31:0] y;\n}\n");
    }

    @Test
    void flexibleArrayAtTheEndIsNotCounted() {
        StructLayout s = Specs.struct("package p;\nstruct a size 0x10 { 0x00 x : u64; 0x08 y : u64; 0x10 pas : u64[]; }\n", "a");
        assertEquals(16, s.sizeBytes());
        assertEquals(0x80, s.flexibleArray().get().bitOffset());
    }

    @Test
    void wideFieldsAreByteArrays() {
        StructLayout s = Specs.struct("package p;\nstruct a { src_ip : 0x80; n : 32; }\n", "a");
        assertEquals(new MemberType.Bytes(16), s.member("src_ip").get().type());
        assertEquals(0x80, s.member("n").get().bitOffset());
    }

    @Test
    void wideFieldsMustBeByteAligned() {
        assertError("2:23: error: a bit field is 1..64 bits wide, not 0x80 (wider fields are byte arrays, which start on a byte boundary; this one starts at 0x00 [27])",
                "package p;\nstruct a { x : 4; y : 0x80; }\n");
    }

    @Test
    void sequentialStructsAreWholeBytesPlacedOnesWholeDwords() {
        assertEquals(2, Specs.struct("package p;\nstruct dscp { e : 1; reserved : 11; prio : 4; }\n", "dscp").sizeBytes());
        assertEquals(128, Specs.struct("package p;\nstruct d { e : 1; reserved : 11; prio : 4; }\nstruct r { x : d[64]; }\n", "r").sizeBytes());
        assertError("2:8: error: bits 0x00 [15:0] are not covered (after 'x', up to the size of struct 'a'); if they are reserved, write '0x00 [15:0] reserved;'",
                "package p;\nstruct a { 0x00 [31:16] x; }\n");
    }

    @Test
    void kernelStyleSequentialLayout() {
        StructLayout s = Specs.struct("package p;\nstruct a {\n  opcode : 0x10;\n  uid : 0x10;\n  reserved : 0x10;\n  op_mod : 0x10;\n"
                + "  reserved : 0x40;\n  mac : u8[6];\n  reserved : 0x10;\n  addr : u64;\n  pas : u64[];\n}\n", "a");
        assertEquals("opcode@0/16 uid@10/16 reserved_at_20@20/16 op_mod@30/16 reserved_at_40@40/64 mac@80/48 reserved_at_b0@b0/16 addr@c0/64 pas@100/0",
                layout(s));
        assertEquals(0x20, s.sizeBytes());
        assertEquals(new MemberType.Bytes(6), s.member("mac").get().type());
    }

    @Test
    void wideReservedSpanIsBytes() {
        StructLayout s = Specs.struct("package p;\nstruct a { x : 32; reserved : 0x1c0; }\n", "a");
        assertEquals(new MemberType.Bytes(0x38), s.member("reserved_at_20").get().type());
    }

    @Test
    void unionsAndNestedStructs() {
        String text = """
                package p;
                struct inner size 8 { 0x00 x : u64; }
                union u { a : u32; b : inner; }
                struct outer {
                    0x00 i : inner[2];
                    0x10 v : u;
                    0x18 [31:24] sel;
                    0x18 [23:0] reserved;
                    0x1c union tag sel {
                        struct one when 1 { 0x1c [31:16] p; 0x1c [15:0] q; }
                        0x1c [31:0] r when 2;
                    }
                }
                """;
        StructLayout o = Specs.struct(text, "outer");
        assertEquals("i@0/128 v@80/64 sel@c0/8 reserved_at_c8@c8/24 p@e0/16 q@f0/16 r@e0/32", layout(o));
        assertEquals(0x20, o.sizeBytes());
        assertEquals("union_at_e0", o.member("p").get().variant().get().union());
        assertEquals("sel", o.member("r").get().variant().get().selector());
        assertEquals(2, o.member("r").get().variant().get().tag().getAsLong());
        assertEquals(8, Specs.struct(text, "u").sizeBytes());
    }

    @Test
    void bothNotationsGiveTheSameOffsets() {
        String prm = "package p;\nstruct a { 0x00 [31:24] x; 0x00 [23:0] y; 0x04 [31] z; 0x04 [30:0] reserved; 0x08 w : u64; }\n";
        String seq = "package p;\nstruct a { x : 8; y : 24; z : 1; reserved : 31; w : u64; }\n";
        assertEquals(layout(Specs.struct(prm, "a")), layout(Specs.struct(seq, "a")));
    }

    @Test
    void arrayCountsMayBeNamedConstants() {
        StructLayout s = Specs.struct("package p;\nconst NUM_COUNTERS = 7;\nstruct a { x : 32[NUM_COUNTERS]; y : u8[NUM_COUNTERS]; reserved : 8; }\n", "a");
        assertEquals(new MemberType.Array(new MemberType.Bits(32), 7, false), s.member("x").get().type());
        assertEquals(new MemberType.Bytes(7), s.member("y").get().type());
        assertError("2:19: error: unknown array count 'NUM': write an integer or a named constant", "package p;\nstruct a { x : 32[NUM]; }\n");
    }
}

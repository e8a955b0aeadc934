package io.prmkit.dsl.passes;

import static io.prmkit.dsl.Specs.assertError;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.prmkit.dsl.Specs;
import io.prmkit.dsl.ir.Access;
import io.prmkit.dsl.ir.StructLayout;
import org.junit.jupiter.api.Test;

class MembersPassTest {
    @Test
    void duplicateMember() {
        assertError("2:20: error: duplicate member 'x' in struct 'a'", "package p;\nstruct a { x : 16; x : 16; }\n");
    }

    @Test
    void unknownEnum() {
        assertError("2:31: error: unknown enum 'e'", "package p;\nstruct a { 0x00 [31:0] x enum e; }\n");
    }

    @Test
    void enumWidthMismatch() {
        assertError("3:31: error: enum 'e' is 2 bits wide but 'x' has 32 bits",
                "package p;\nenum e width 2 { A = 0; B = 3; }\nstruct a { 0x00 [31:0] x enum e; }\n");
    }

    @Test
    void enumValueTooWideForField() {
        assertError("3:32: error: value e.B = 0x10 does not fit in the 4-bit field 'x'",
                "package p;\nenum e { A = 0; B = 16; }\nstruct a { 0x00 [31:28] x enum e; 0x00 [27:0] reserved; }\n");
    }

    @Test
    void rangeMustFitWidth() {
        assertError("2:27: error: range maximum 300 does not fit in the 8-bit field 'x' (at most 0xff)",
                "package p;\nstruct a { x : 8 range 1..300; y : 24; }\n");
    }

    @Test
    void attributesOnReservedSpace() {
        assertError("2:26: error: reserved space takes no 'enum' attribute",
                "package p;\nstruct a { reserved : 32 enum e; }\n");
    }

    @Test
    void accessDefaultsFromTheStructName() {
        String text = "package p;\nstruct x_in { a : 32; b : 32 ro; }\nstruct x_out { a : 32; }\nstruct x { a : 32; }\n";
        assertEquals(Access.IN, Specs.struct(text, "x_in").member("a").get().access());
        assertEquals(Access.RO, Specs.struct(text, "x_in").member("b").get().access());
        assertEquals(Access.OUT, Specs.struct(text, "x_out").member("a").get().access());
        assertEquals(Access.RW, Specs.struct(text, "x").member("a").get().access());
    }

    @Test
    void twoAccessAttributes() {
        assertError("2:22: error: 'a' has two access attributes", "package p;\nstruct x { a : 32 ro rw; }\n");
    }

    @Test
    void misnamedKernelReservedIsAWarning() {
        var r = Specs.compile("package p;\nstruct x { a : 32; reserved_at_40 : 32; }\n");
        assertEquals("2:20: warning: 'reserved_at_40' is at bit 0x20, so its name should be 'reserved_at_20' (or write plain 'reserved')",
                Specs.diags(r));
        assertEquals(true, r.model().get().struct("x").get().member("reserved_at_40").isPresent());
    }

    @Test
    void kernelUnionsNameReservedBitsFromTheUnionStart() {
        StructLayout s = Specs.struct("package p;\nstruct r {\n  reserved_at_0 : 32;\n  union cap { f : 0x80; reserved_at_0 : 0x80; }\n"
                + "  union feat { g : 0x80; reserved_at_0 : 0x80; }\n}\n", "r");
        assertEquals(java.util.List.of("reserved_at_0", "f", "reserved_at_0_cap", "g", "reserved_at_0_feat"),
                s.members().stream().map(m -> m.name()).toList());
    }

    @Test
    void capabilityMustExist() {
        assertError("3:30: error: struct 'cap' has no field 'nope'",
                "package p;\nstruct cap { 0x00 [31:0] swp; }\nstruct a { 0x00 [31:0] x cap cap.nope; }\n");
    }

    @Test
    void tagOnANonUnion() {
        assertError("2:27: error: 'tag' applies to a member whose type is a union; 'b' is a 32-bit field",
                "package p;\nstruct a { s : 32; b : 32 tag s; }\n");
    }

    @Test
    void duplicateSelectorValues() {
        assertError("6:26: error: alternatives 'one' and 'two' have the same selector value 0x1",
                "package p;\nstruct a {\n  0x00 [31:0] sel;\n  0x04 union tag sel {\n    0x04 [31:0] one when 1;\n    0x04 [31:0] two when 1;\n  }\n}\n");
    }

    @Test
    void whenWithoutTag() {
        assertError("4:23: error: 'when' needs the union to name its selector: union union_at_20 tag FIELD { ... }",
                "package p;\nstruct a {\n  0x00 [31:0] sel;\n  union { x : 32 when 1; }\n}\n");
    }

    @Test
    void selectorEnumValues() {
        String text = "package p;\nenum kind width 8 { ETH = 1; IB = 2; }\nstruct a {\n  0x00 [31:24] k enum kind;\n  0x00 [23:0] reserved;\n"
                + "  0x04 union hdr tag k {\n    0x04 [31:0] eth when ETH;\n    0x04 [31:0] ib when kind.IB;\n  }\n}\n";
        StructLayout s = Specs.struct(text, "a");
        assertEquals(1, s.member("eth").get().variant().get().tag().getAsLong());
        assertEquals(2, s.member("ib").get().variant().get().tag().getAsLong());
        assertEquals("hdr", s.member("ib").get().variant().get().union());
    }
}

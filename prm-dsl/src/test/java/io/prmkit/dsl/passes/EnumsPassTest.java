package io.prmkit.dsl.passes;

import static io.prmkit.dsl.Specs.assertError;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.prmkit.dsl.Specs;
import io.prmkit.dsl.ir.EnumLayout;
import org.junit.jupiter.api.Test;

class EnumsPassTest {
    @Test
    void valueMustFitWidth() {
        assertError("2:29: error: value 4 of 'B' does not fit in the enum's 2 bits", "package p;\nenum e width 2 { A = 0; B = 4; }\n");
    }

    @Test
    void duplicateValueName() {
        assertError("2:17: error: duplicate value name 'A' in enum 'e'", "package p;\nenum e { A = 0; A = 4; }\n");
    }

    @Test
    void flagBitOutOfRange() {
        assertError("2:30: error: flag bit 8 is out of range: a 8-bit field has bits 0..7", "package p;\nflags f width 8 { A = 0; B = 8; }\n");
    }

    @Test
    void flagsNameDistinctBits() {
        assertError("2:22: error: flags 'B' and 'A' name the same bit 1", "package p;\nflags f { A = 1; B = 1; }\n");
    }

    @Test
    void enumsCarryDocsAndDetails() {
        EnumLayout e = Specs.model("package p;\nenum syndrome width 8 { BAD_OP = 0x2 \"bad opcode\" detail \"firmware does not know it\"; }\n")
                .enums().get(0);
        assertEquals("p.syndrome", e.name().toString());
        assertEquals("bad opcode", e.values().get(0).doc().text());
        assertEquals("firmware does not know it", e.values().get(0).detail());
    }
}

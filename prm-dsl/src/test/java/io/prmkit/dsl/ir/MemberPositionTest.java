package io.prmkit.dsl.ir;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.prmkit.dsl.Specs;
import org.junit.jupiter.api.Test;

/** How a member's place is printed in tables, dumps and Javadoc: the PRM's own notation. */
class MemberPositionTest {
    private static final String SPEC = """
            package t;
            struct s size 0x10 {
                0x00 [31:24] a;
                0x00 [23]    b;
                0x00 [22:0]  reserved;
                0x04 c : u64;
                0x0c d : u8[2];
                0x0e reserved : u8[2];
                0x10 pas : u64[];
            }
            """;

    private static String position(String member) {
        return Specs.struct(SPEC, "s").member(member).orElseThrow().prmPosition();
    }

    @Test
    void bitFieldsPrintDwordAndRange() {
        assertEquals("dword 0x00 [31:24]", position("a"));
        assertEquals("dword 0x00 [23]", position("b"));
        assertEquals("dword 0x00 [22:0]", position("reserved_at_9"));
    }

    @Test
    void wideMembersPrintTheirBytes() {
        assertEquals("bytes 0x04..0x0b", position("c"));
        assertEquals("bytes 0x0c..0x0d", position("d"));
    }

    @Test
    void flexibleArrayHasNoEnd() {
        assertEquals("bytes 0x10.. (flexible array)", position("pas"));
    }
}

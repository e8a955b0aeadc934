package io.prmkit.dsl.ir;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** Rule shifts are logical shifts of unsigned 64-bit values; shifting by 64 or more gives 0. */
class ShiftSemanticsTest {
    @Test
    void shiftsWithinTheWordAreJavasLogicalShifts() {
        assertEquals(8L, Expr.shiftLeft(1, 3));
        assertEquals(Long.MIN_VALUE, Expr.shiftLeft(1, 63));
        assertEquals(1L, Expr.shiftRight(Long.MIN_VALUE, 63));
        assertEquals(0x7fffffffffffffffL, Expr.shiftRight(-1L, 1), "logical, not arithmetic");
    }

    @Test
    void shiftingByTheWordSizeOrMoreShiftsEverythingOut() {
        for (long n : new long[] {64, 65, 127, 128, 1L << 32, Long.MAX_VALUE, -1L}) {
            assertEquals(0L, Expr.shiftLeft(1, n), "1 << " + Long.toUnsignedString(n));
            assertEquals(0L, Expr.shiftLeft(-1L, n), "~0 << " + Long.toUnsignedString(n));
            assertEquals(0L, Expr.shiftRight(-1L, n), "~0 >> " + Long.toUnsignedString(n));
        }
    }
}

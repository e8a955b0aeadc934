package io.prmkit.dsl.passes;

import io.prmkit.dsl.ir.PrmPosition;

/** Bit positions in the words of the PRM tables, for messages. */
final class Bits {
    private Bits() {
    }

    static String hex(long v) {
        return "0x" + Long.toHexString(v);
    }

    static String byteOffset(long v) {
        return PrmPosition.byteOffset(v);
    }

    /** The PRM position of one bit: {@code 0x04 [23]} (dword byte offset, bit 31 = MSB). */
    static String at(long bit) {
        return PrmPosition.at(bit);
    }

    /** The PRM position of bits {@code [start, end)}: {@code 0x04 [23:16]} or {@code 0x04 [15:0] .. 0x08 [31:24]}. */
    static String span(long start, long end) {
        return PrmPosition.span(start, end);
    }

    static long roundUpToDword(long bits) {
        return (bits + 31) & ~31L;
    }

    /** Reserved space wider than a bit field: bytes when byte-aligned at both ends, else single bits. */
    static io.prmkit.dsl.ir.MemberType reservedSpan(long width, long bitOff) {
        if (bitOff % 8 == 0 && width % 8 == 0) return new io.prmkit.dsl.ir.MemberType.Bytes((int) (width / 8));
        return new io.prmkit.dsl.ir.MemberType.Array(new io.prmkit.dsl.ir.MemberType.Bits(1), (int) width, false);
    }
}

package io.prmkit.dsl.passes;

/** Bit positions in the words of the PRM tables, for messages. */
final class Bits {
    private Bits() {
    }

    static String hex(long v) {
        return "0x" + Long.toHexString(v);
    }

    static String byteOffset(long v) {
        return String.format("0x%02x", v);
    }

    /** The PRM position of one bit: {@code 0x04 [23]} (dword byte offset, bit 31 = MSB). */
    static String at(long bit) {
        return byteOffset((bit >>> 5) * 4) + " [" + (31 - (bit & 31)) + "]";
    }

    /** The PRM position of bits {@code [start, end)}: {@code 0x04 [23:16]} or {@code 0x04 [15:0] .. 0x08 [31:24]}. */
    static String span(long start, long end) {
        long last = end - 1;
        long d0 = start >>> 5;
        long d1 = last >>> 5;
        int hi = 31 - (int) (start & 31);
        int lo = 31 - (int) (last & 31);
        if (d0 == d1) {
            return byteOffset(d0 * 4) + (hi == lo ? " [" + hi + "]" : " [" + hi + ":" + lo + "]");
        }
        String first = hi == 0 ? " [0]" : " [" + hi + ":0]";
        String second = lo == 31 ? " [31]" : " [31:" + lo + "]";
        if (hi == 31 && lo == 0) return "bytes " + byteOffset(d0 * 4) + ".." + byteOffset(d1 * 4 + 3);
        return byteOffset(d0 * 4) + first + " .. " + byteOffset(d1 * 4) + second;
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

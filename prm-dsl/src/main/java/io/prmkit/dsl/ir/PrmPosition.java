package io.prmkit.dsl.ir;

/**
 * The one formatter of PRM positions, the way the manual's tables locate bits: a dword's byte
 * offset and a bit range in it, bit 31 being the most significant bit of the big-endian dword.
 * Messages, layout tables, Javadoc and documentation all use these forms.
 */
public final class PrmPosition {
    private PrmPosition() {}

    /** {@code 0x04}: a byte offset, at least two hex digits. */
    public static String byteOffset(long v) {
        return String.format("0x%02x", v);
    }

    /** {@code [23:16]}, or {@code [5]} for one bit. */
    public static String bitRange(int hi, int lo) {
        return hi == lo ? "[" + hi + "]" : "[" + hi + ":" + lo + "]";
    }

    /** One bit, counted from the MSB of byte 0: {@code 0x04 [23]}. */
    public static String at(long bit) {
        return byteOffset((bit >>> 5) * 4) + " " + bitRange(31 - (int) (bit & 31), 31 - (int) (bit & 31));
    }

    /** Bits {@code [start, end)}: {@code 0x04 [23:16]}, {@code 0x04 [15:0] .. 0x08 [31:24]} or {@code bytes 0x00..0x0f}. */
    public static String span(long start, long end) {
        long last = end - 1;
        long d0 = start >>> 5;
        long d1 = last >>> 5;
        int hi = 31 - (int) (start & 31);
        int lo = 31 - (int) (last & 31);
        if (d0 == d1) return byteOffset(d0 * 4) + " " + bitRange(hi, lo);
        if (hi == 31 && lo == 0) return "bytes " + byteOffset(d0 * 4) + ".." + byteOffset(d1 * 4 + 3);
        return byteOffset(d0 * 4) + " " + bitRange(hi, 0) + " .. " + byteOffset(d1 * 4) + " " + bitRange(31, lo);
    }

    /** Where a member is: {@code dword 0x04 [23:16]}, {@code bytes 0x10..0x1f}, or {@code bytes 0x18.. (flexible array)}. */
    public static String of(Member m) {
        long w = m.bitWidth();
        if (m.isScalar() && w <= 32) return "dword " + byteOffset(m.dwordByteOffset()) + " " + bitRange(m.hiBit(), m.loBit());
        if (w == 0) return "bytes " + byteOffset(m.byteOffset()) + ".. (flexible array)";
        long end = m.bitEnd();
        return "bytes " + byteOffset(m.byteOffset()) + ".." + byteOffset((end + 7) / 8 - 1)
                + (m.bitOffset() % 8 != 0 || end % 8 != 0 ? String.format(" (bits 0x%x..0x%x)", m.bitOffset(), end - 1) : "");
    }
}

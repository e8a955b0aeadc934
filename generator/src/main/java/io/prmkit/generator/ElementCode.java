package io.prmkit.generator;

import com.palantir.javapoet.ClassName;
import com.palantir.javapoet.CodeBlock;

/**
 * Load/store code for element {@code index} of an array of bit fields. Byte-aligned elements of
 * 8/16/32/64 bits in a big-endian structure are plain loads at {@code base + index * size};
 * other elements compute their dword and shift from the index at run time.
 */
final class ElementCode {
    private final ClassName layout;
    private final long bit;
    private final int width;
    private final boolean littleEndian;

    ElementCode(ClassName layout, long bit, int width, boolean littleEndian) {
        this.layout = layout;
        this.bit = bit;
        this.width = width;
        this.littleEndian = littleEndian;
    }

    private boolean plain() {
        return !littleEndian && bit % 8 == 0 && (width == 8 || width == 16 || width == 32 || width == 64);
    }

    private String plainLayout() {
        return switch (width) {
            case 8 -> "BYTE";
            case 16 -> "BE_SHORT";
            case 32 -> "BE_INT";
            default -> "BE_LONG";
        };
    }

    private String plainOffset() {
        return "offset + " + (bit >>> 3) + "L + index * " + (width / 8) + "L";
    }

    /** Statements ending in {@code return <element>}. */
    CodeBlock read() {
        CodeBlock.Builder b = CodeBlock.builder();
        if (plain()) {
            String mask = width == 8 ? " & 0xff" : width == 16 ? " & 0xffff" : "";
            return b.addStatement("return s.get($T.$L, $L)$L", layout, plainLayout(), plainOffset(), mask).build();
        }
        if (width == 64) {
            b.addStatement("long o = offset + $LL + index * 8L", bit >>> 3);
            return b.addStatement("return ((long) s.get($T.LE_INT, o) << 32) | $T.toUnsignedLong(s.get($T.LE_INT, o + 4L))", layout, Integer.class, layout)
                    .build();
        }
        locate(b);
        String intLayout = littleEndian ? "LE_INT" : "BE_INT";
        if (width == 32) return b.addStatement("return s.get($T.$L, o)", layout, intLayout).build();
        if (width == 1) return b.addStatement("return ((s.get($T.$L, o) >>> sh) & 1) != 0", layout, intLayout).build();
        return b.addStatement("return (s.get($T.$L, o) >>> sh) & $L", layout, intLayout, ScalarCode.hex32((1L << width) - 1)).build();
    }

    /** Statements storing {@code v} into the element, keeping every other bit. */
    CodeBlock write() {
        CodeBlock.Builder b = CodeBlock.builder();
        if (plain()) {
            String cast = width == 8 ? "(byte) " : width == 16 ? "(short) " : "";
            return b.addStatement("s.set($T.$L, $L, $Lv)", layout, plainLayout(), plainOffset(), cast).build();
        }
        if (width == 64) {
            b.addStatement("long o = offset + $LL + index * 8L", bit >>> 3);
            b.addStatement("s.set($T.LE_INT, o, (int) (v >>> 32))", layout);
            return b.addStatement("s.set($T.LE_INT, o + 4L, (int) v)", layout).build();
        }
        locate(b);
        String intLayout = littleEndian ? "LE_INT" : "BE_INT";
        if (width == 32) return b.addStatement("s.set($T.$L, o, v)", layout, intLayout).build();
        String m = ScalarCode.hex32((1L << width) - 1);
        String value = width == 1 ? "((v ? 1 : 0) << sh)" : "((v & " + m + ") << sh)";
        return b.addStatement("s.set($T.$L, o, (s.get($T.$L, o) & ~($L << sh)) | $L)", layout, intLayout, layout, intLayout, m, value).build();
    }

    private void locate(CodeBlock.Builder b) {
        b.addStatement("long bit = $LL + index * $LL", bit, width);
        b.addStatement("long o = offset + ((bit >>> 5) << 2)");
        b.addStatement("int sh = $L - (int) (bit & 31)", 32 - width);
    }
}

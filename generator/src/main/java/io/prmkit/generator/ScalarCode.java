package io.prmkit.generator;

import com.palantir.javapoet.ClassName;
import com.palantir.javapoet.CodeBlock;
import com.palantir.javapoet.TypeName;

/**
 * The load/shift/mask/store code for one bit field, the way MLX5_GET/MLX5_SET do it, with all
 * offsets, shifts and masks folded into literals. Byte-sized fields and fields inside one byte use
 * byte accesses, aligned 16-bit fields short accesses (no read-modify-write, no byte swap); the
 * rest read-modify-write the dword (or the 64-bit word) holding them.
 *
 * <p>Bit numbering: {@code bit} counts from the MSB of byte 0 of the structure. Within a dword
 * value the field occupies value bits {@code [sh, sh + w)} with {@code sh = 32 - w - (bit & 31)};
 * for little-endian structures the dword value is stored little-endian, numbering unchanged.
 */
final class ScalarCode {
    private final ClassName layout;
    private final long bit;
    private final int width;
    private final boolean littleEndian;

    ScalarCode(ClassName layout, long bit, int width, boolean littleEndian) {
        this.layout = layout;
        this.bit = bit;
        this.width = width;
        this.littleEndian = littleEndian;
    }

    /** boolean for one bit, int up to 32 bits, long above. */
    static TypeName javaType(long width) {
        return width == 1 ? TypeName.BOOLEAN : width <= 32 ? TypeName.INT : TypeName.LONG;
    }

    private long dwordByte() {
        return (bit >>> 5) << 2;
    }

    private int shift() {
        return 32 - width - (int) (bit & 31);
    }

    /** Whether the field lies in one byte; then {@link #byteIndex} and {@link #byteShift} locate it. */
    private boolean inOneByte() {
        return width <= 8 && shift() / 8 == (shift() + width - 1) / 8;
    }

    private long byteIndex() {
        int j = shift() / 8;
        return dwordByte() + (littleEndian ? j : 3 - j);
    }

    private int byteShift() {
        return shift() - 8 * (shift() / 8);
    }

    private boolean alignedShort() {
        return width == 16 && shift() % 8 == 0;
    }

    private long shortIndex() {
        int j = shift() / 8;
        return dwordByte() + (littleEndian ? j : 2 - j);
    }

    private String intLayout() {
        return littleEndian ? "LE_INT" : "BE_INT";
    }

    private static String off(long k) {
        return k == 0 ? "offset" : "offset + " + k + "L";
    }

    static String hex32(long v) {
        return String.format("0x%x", v & 0xffffffffL);
    }

    static String hex64(long v) {
        return String.format("0x%xL", v);
    }

    /** An expression of {@link #javaType} reading the field of the structure at {@code offset} in {@code s}. */
    CodeBlock read() {
        if (width > 32) return readWide();
        if (inOneByte()) {
            String o = off(byteIndex());
            int bs = byteShift();
            if (width == 1) return CodeBlock.of("(s.get($T.BYTE, $L) & $L) != 0", layout, o, hex32(1L << bs));
            if (width == 8) return CodeBlock.of("s.get($T.BYTE, $L) & 0xff", layout, o);
            String m = hex32((1L << width) - 1);
            // Shifted fields read the byte unsigned first: every read of the byte is then the same unsigned
            // load, which C2 shares between getters (a CQE's owner and opcode: one load, not a signed and
            // an unsigned one).
            if (bs == 0) return CodeBlock.of("s.get($T.BYTE, $L) & $L", layout, o, m);
            return bs + width == 8
                    ? CodeBlock.of("(s.get($T.BYTE, $L) & 0xff) >>> $L", layout, o, bs)
                    : CodeBlock.of("((s.get($T.BYTE, $L) & 0xff) >>> $L) & $L", layout, o, bs, m);
        }
        if (alignedShort()) {
            return CodeBlock.of("s.get($T.$L, $L) & 0xffff", layout, littleEndian ? "LE_SHORT" : "BE_SHORT", off(shortIndex()));
        }
        String o = off(dwordByte());
        if (width == 32) return CodeBlock.of("s.get($T.$L, $L)", layout, intLayout(), o);
        int sh = shift();
        String m = hex32((1L << width) - 1);
        if (sh == 0) return CodeBlock.of("s.get($T.$L, $L) & $L", layout, intLayout(), o, m);
        if (sh + width == 32) return CodeBlock.of("s.get($T.$L, $L) >>> $L", layout, intLayout(), o, sh);
        return CodeBlock.of("(s.get($T.$L, $L) >>> $L) & $L", layout, intLayout(), o, sh, m);
    }

    /**
     * Like {@link #read}, but a field narrower than 32 bits is taken from one 32-bit load of its whole
     * dword, so getters of fields that share a dword load the same word and C2 keeps one load for all
     * of them. A field inside one byte of a big-endian structure is read from the dword loaded
     * little-endian, where memory byte {@code k} is value bits {@code [8k, 8k + 8)}: no byte swap; wider
     * fields use the big-endian value (one swap, shared too). Only for structures whose size is a
     * multiple of 4 (the dword must lie inside the structure).
     *
     * <p>Why (cqe-parse, JDK 25, C2): with byte and short loads, a CQE's {@code owner} and {@code opcode}
     * loaded {@code op_own} twice (C2 made one a signed and the other an unsigned byte load and could not
     * merge them), and a big-endian short took four instructions (load, swap, shift, zero-extend). With
     * dword reads the loop reads each dword once: 4 loads per CQE for the 8 fields the bench reads
     * (owner, opcode and wqe_counter share dword 0x3c; hds_ip_ext and vlan_present dword 0x1c), against
     * 6 in gcc -O2's code and 7 before.
     */
    CodeBlock readWholeDword() {
        if (width >= 32 || (bit & 31) + width > 32) return read();
        String o = off(dwordByte());
        String m = hex32((1L << width) - 1);
        String word;
        int p;
        if (inOneByte() && !littleEndian) {
            word = "LE_INT";
            p = 8 * (int) (byteIndex() - dwordByte()) + byteShift();
        } else {
            word = intLayout();
            p = shift();
        }
        if (width == 1) return CodeBlock.of("(s.get($T.$L, $L) & $L) != 0", layout, word, o, hex32(1L << p));
        if (p == 0) return CodeBlock.of("s.get($T.$L, $L) & $L", layout, word, o, m);
        if (p + width == 32) return CodeBlock.of("s.get($T.$L, $L) >>> $L", layout, word, o, p);
        return CodeBlock.of("(s.get($T.$L, $L) >>> $L) & $L", layout, word, o, p, m);
    }

    private CodeBlock readWide() {
        String o = off(dwordByte());
        int sh = 64 - width;
        CodeBlock word = littleEndian
                ? CodeBlock.of("(((long) s.get($T.LE_INT, $L) << 32) | $T.toUnsignedLong(s.get($T.LE_INT, $L)))",
                        layout, o, Integer.class, layout, off(dwordByte() + 4))
                : CodeBlock.of("s.get($T.BE_LONG, $L)", layout, o);
        return sh == 0 ? word : CodeBlock.of("$L >>> $L", word, sh);
    }

    /** Statements writing {@code v} (of {@link #javaType}) into the field, keeping every other bit. */
    CodeBlock write() {
        if (width > 32) return writeWide();
        CodeBlock.Builder b = CodeBlock.builder();
        if (inOneByte()) {
            String o = off(byteIndex());
            int bs = byteShift();
            long m = ((1L << width) - 1) << bs;
            String inv = hex32(~m & 0xff);
            if (width == 8) return b.addStatement("s.set($T.BYTE, $L, (byte) v)", layout, o).build();
            b.addStatement("long o = $L", o);
            b.addStatement("int old = s.get($T.BYTE, o)", layout);
            if (width == 1) {
                return b.addStatement("s.set($T.BYTE, o, (byte) (v ? old | $L : old & $L))", layout, hex32(m), inv).build();
            }
            CodeBlock value = bs == 0 ? CodeBlock.of("(v & $L)", hex32(m)) : CodeBlock.of("((v << $L) & $L)", bs, hex32(m));
            return b.addStatement("s.set($T.BYTE, o, (byte) ((old & $L) | $L))", layout, inv, value).build();
        }
        if (alignedShort()) {
            return b.addStatement("s.set($T.$L, $L, (short) v)", layout, littleEndian ? "LE_SHORT" : "BE_SHORT", off(shortIndex())).build();
        }
        String o = off(dwordByte());
        if (width == 32) return b.addStatement("s.set($T.$L, $L, v)", layout, intLayout(), o).build();
        int sh = shift();
        long m = ((1L << width) - 1) << sh;
        b.addStatement("long o = $L", o);
        CodeBlock value = sh + width == 32 ? CodeBlock.of("(v << $L)", sh) : CodeBlock.of("((v << $L) & $L)", sh, hex32(m));
        return b.addStatement("s.set($T.$L, o, (s.get($T.$L, o) & $L) | $L)", layout, intLayout(), layout, intLayout(), hex32(~m), value)
                .build();
    }

    private CodeBlock writeWide() {
        CodeBlock.Builder b = CodeBlock.builder();
        String o = off(dwordByte());
        int sh = 64 - width;
        if (!littleEndian) {
            if (width == 64) return b.addStatement("s.set($T.BE_LONG, $L, v)", layout, o).build();
            b.addStatement("long o = $L", o);
            return b.addStatement("s.set($T.BE_LONG, o, (s.get($T.BE_LONG, o) & $L) | (v << $L))", layout, layout, hex64((1L << sh) - 1), sh)
                    .build();
        }
        b.addStatement("long o = $L", o);
        if (width == 64) {
            b.addStatement("long x = v");
        } else {
            b.addStatement("long x = ((long) s.get($T.LE_INT, o) << 32) | $T.toUnsignedLong(s.get($T.LE_INT, o + 4L))", layout, Integer.class, layout);
            b.addStatement("x = (x & $L) | (v << $L)", hex64((1L << sh) - 1), sh);
        }
        b.addStatement("s.set($T.LE_INT, o, (int) (x >>> 32))", layout);
        return b.addStatement("s.set($T.LE_INT, o + 4L, (int) x)", layout).build();
    }

    /** The guard of a checked setter: the condition under which {@code v} does not fit, or null if any value fits. */
    CodeBlock outOfRange() {
        if (width == 1 || width == 32 || width == 64) return null;
        return width < 32 ? CodeBlock.of("(v >>> $L) != 0", width) : CodeBlock.of("(v >>> $L) != 0L", width);
    }
}

package io.prmkit.generator;

import static io.prmkit.generator.GeneratorContext.MEMORY_SEGMENT;

import com.palantir.javapoet.ClassName;
import com.palantir.javapoet.CodeBlock;
import com.palantir.javapoet.FieldSpec;
import com.palantir.javapoet.MethodSpec;
import com.palantir.javapoet.TypeName;
import com.palantir.javapoet.TypeSpec;
import io.prmkit.dsl.ir.EnumLayout;
import io.prmkit.dsl.ir.Member;
import io.prmkit.dsl.ir.MemberType;
import io.prmkit.dsl.ir.StructLayout;
import java.nio.ByteOrder;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import javax.lang.model.element.Modifier;

/**
 * Emits the nested {@code Writer} of a small structure: the structure's dwords live in long fields (a
 * pair each, see {@link Words}) while the fields are set, and {@code write()} stores all of them at once,
 * one 64-bit store per pair, straight into the segment. Two uses, both allocation-free: local ({@code Struct.writer(s, o).a(1).b(2).write()},
 * scalar-replaced by C2) and long-lived ({@code writer()} kept in a field, {@code at(s, o)} per entry),
 * which allocates nothing even where escape analysis gives up. Either way a WQE costs what hand-written
 * word stores cost, instead of one read-modify-write per field. Only for structures of at most
 * {@value #MAX_BYTES} bytes (WQE segments, CQEs, EQEs); bit fields only (byte arrays, nested structures
 * and arrays are written after {@code write()}).
 *
 * <p>What C2 (JDK 25) makes of it, read from its code for the wqe-build loop: on a fixed-size slice (the
 * bench) the loop is the stores alone: 91 instructions per two WQEs, the hand-written loop 49 per WQE
 * (each 64-bit word of the ctrl segment is {@code movzwl, shl, add, bswap, mov} or a constant store);
 * on a ring with {@code at(ring, base)}, one bounds check per {@code write()} (the stores share it, see
 * {@code WORDS}), no allocation, call or GC barrier: 93 instructions and 6 checks per WQE with the int
 * fields of the time, 3 checks of them the bench's header copy (109 and 12 with one check per store plus
 * an all-or-nothing test). A slice in
 * {@code write()} (the earlier design) saves the checks only while escape analysis removes the slice;
 * where it did not (the driver's and soft HCA's loops) it cost an allocation per segment.
 */
final class WriterEmitter {
    /** Largest structure that gets a writer: 16 dword fields. */
    static final long MAX_BYTES = 64;

    private final GeneratorContext ctx;

    WriterEmitter(GeneratorContext ctx) {
        this.ctx = ctx;
    }

    /**
     * Whether {@code s} gets a writer: the driver's ({@code device == false}) sets the fields software
     * writes; the device's ({@code Struct.Device.Writer}) sets every non-reserved bit field.
     */
    static boolean applies(StructLayout s, boolean device) {
        return s.sizeBytes() > 0 && s.sizeBytes() <= MAX_BYTES && s.sizeBytes() % 4 == 0
                && s.members().stream().anyMatch(m -> settable(m, device));
    }

    private static boolean settable(Member m, boolean device) {
        return m.type() instanceof MemberType.Bits && !m.reserved() && (device || m.access().writable());
    }

    /**
     * Adds {@code writer(s)}, {@code writer(s, offset)} and the {@code Writer} class to {@code type}
     * (the structure's class, or its {@code Device} class when {@code device}).
     */
    void emit(StructLayout struct, ClassName self, ClassName layout, TypeSpec.Builder type, List<MethodSpec> methods,
            Function<Member, CodeBlock> memberDoc, boolean device) {
        ClassName writer = self.nestedClass("Writer");
        boolean le = struct.byteOrder() == ByteOrder.LITTLE_ENDIAN;
        int dwords = (int) (struct.sizeBytes() / 4);
        String sname = struct.name().name();

        methods.add(MethodSpec.methodBuilder("writer").addModifiers(Modifier.PUBLIC, Modifier.STATIC)
                .addJavadoc("An unbound {@link Writer}, to keep in a field and reuse for every entry of a ring:\n"
                        + "{@code w.at(ring, offset)}, set fields, {@link Writer#write()}. Allocates only here.\n")
                .returns(writer)
                .addStatement("return new $T()", writer).build());
        methods.add(MethodSpec.methodBuilder("writer").addModifiers(Modifier.PUBLIC, Modifier.STATIC)
                .addJavadoc("A {@link Writer} for the structure at offset 0 of {@code s}.\n")
                .returns(writer).addParameter(MEMORY_SEGMENT, "s")
                .addStatement("return new $T().at(s, 0L)", writer).build());
        methods.add(MethodSpec.methodBuilder("writer").addModifiers(Modifier.PUBLIC, Modifier.STATIC)
                .addJavadoc("A {@link Writer} for the structure at byte {@code offset} of {@code s}: set fields, then\n"
                        + "{@link Writer#write()} stores all $L bytes at once (fields not set are written as 0). Same as\n"
                        + "{@code writer().at(s, offset)}.\n", struct.sizeBytes())
                .returns(writer).addParameter(MEMORY_SEGMENT, "s").addParameter(TypeName.LONG, "offset")
                .addStatement("return new $T().at(s, offset)", writer).build());

        TypeSpec.Builder w = TypeSpec.classBuilder(writer).addModifiers(Modifier.PUBLIC, Modifier.STATIC, Modifier.FINAL)
                .addJavadoc("Builds the whole structure ($L dwords) in fields laid out as it is stored (a long per dword pair) and stores it with\n"
                        + "{@link #write()}: the fast way to fill a WQE segment, the same dword stores as hand-written code.\n"
                        + "Either local ({@code writer(s, offset)}, set, {@code write()}: C2 scalar-replaces it) or long-lived\n"
                        + "({@code writer()} once, then {@code at(s, offset)}, set, {@code write()} per entry: nothing is\n"
                        + "allocated). Setters check their values like the static {@code $$set} methods. Reserved bits, byte\n"
                        + "arrays, nested structures and arrays are written as zero; copy byte arrays in after {@code write()}.\n", dwords)
                .addJavadoc(device ? "\n<p>The device's writer: it sets every non-reserved bit field, {@code ro} and {@code out} ones included.\n" : "")
                .addField(MEMORY_SEGMENT, "s", Modifier.PRIVATE)
                .addField(TypeName.LONG, "offset", Modifier.PRIVATE);
        Words held = new Words(dwords, le);
        for (int k = 0; k < dwords; k++) {
            if (held.first(k)) w.addField(FieldSpec.builder(held.isLong(k) ? TypeName.LONG : TypeName.INT, held.name(k), Modifier.PRIVATE).build());
        }
        w.addMethod(MethodSpec.constructorBuilder().addModifiers(Modifier.PRIVATE).build());
        MethodSpec.Builder at = MethodSpec.methodBuilder("at").addModifiers(Modifier.PUBLIC).returns(writer)
                .addJavadoc("Points this writer at the structure at byte {@code offset} of {@code s} and clears every field\n"
                        + "set before, so a reused writer starts like a fresh one. Checks nothing: {@link #write()} does.\n")
                .addParameter(MEMORY_SEGMENT, "s").addParameter(TypeName.LONG, "offset")
                // A long-lived writer is re-pointed at the same ring entry after entry: storing the reference only
                // when it changes skips G1's write barrier (about ten instructions per at() in the wqe-build loop).
                .addStatement("if (this.s != s) this.s = s").addStatement("this.offset = offset");
        for (int k = 0; k < dwords; k++) if (held.first(k)) at.addStatement("$L = 0", held.name(k));
        w.addMethod(at.addStatement("return this").build());

        List<Member> given = new java.util.ArrayList<>();
        for (Member m : struct.members()) {
            if (!settable(m, device)) continue;
            int width = ((MemberType.Bits) m.type()).width();
            long bit = m.bitOffset();
            if (width <= 32 ? (bit & 31) + width > 32 : (bit & 31) != 0) continue; // reported by StructEmitter
            given.add(m);
            String id = Names.member(m.name());
            TypeName jt = ScalarCode.javaType(width);
            MethodSpec.Builder set = MethodSpec.methodBuilder(id).addModifiers(Modifier.PUBLIC).returns(writer)
                    .addJavadoc("Sets {@code $L}.$L ", m.name(), width == 1 || width == 32 || width == 64 ? ""
                            : " Accepts 0.." + Long.toUnsignedString((1L << width) - 1) + "; throws {@code IllegalArgumentException} for any other value.")
                    .addJavadoc(memberDoc.apply(m))
                    .addParameter(jt, "v");
            CodeBlock guard = new ScalarCode(layout, bit, width, le).outOfRange();
            if (guard != null) set.addStatement("if ($L) throw $T.outOfRange($S, $S, $L, v)", guard, layout, sname, m.name(), width);
            int k = (int) (bit >>> 5);
            if (width == 1) {
                held.flag(set, k, 31 - (int) (bit & 31));
            } else if (width <= 32) {
                held.set(set, k, width, 32 - width - (int) (bit & 31), "v");
            } else if (held.wholePair(k)) { // the field lies in one long word: one update of it
                held.setWide(set, k, width);
            } else { // two dwords of different words (little-endian order, or a pair split by the word boundary)
                int sh = 64 - width;
                set.addStatement("long x = $L", sh == 0 ? "v" : "v << " + sh);
                held.set(set, k, 32, 0, "(int) (x >>> 32)");
                held.set(set, k + 1, width - 32, 64 - width, "(int) x");
            }
            w.addMethod(set.addStatement("return this").build());

            Optional<EnumLayout> en = m.enumType().map(ctx::enumType);
            if (en.isPresent()) {
                ClassName enumClass = ctx.className(en.get().name());
                String arg = EnumEmitter.valueArg(en.get(), width);
                w.addMethod(MethodSpec.methodBuilder(id).addModifiers(Modifier.PUBLIC).returns(writer)
                        .addJavadoc("Sets {@code $L} to constant {@code v}. ", m.name())
                        .addJavadoc(memberDoc.apply(m))
                        .addParameter(enumClass, "v")
                        .addStatement("return $L(" + arg + ")", id).build());
            }
        }

        new JoinEmitter(ctx).writerSetters(struct, writer, layout, w, device, given);

        // The stores go through var handles of one layout covering the whole structure (64-bit words, an
        // odd last dword as 32 bits): such a handle checks the bounds of the enclosing layout, so every store
        // of write() makes the same check and C2 keeps one of them. That check covers the whole structure:
        // one that does not fit throws before anything is written. Plain s.set(BE_LONG, o + 8, ...) checks
        // each store on its own (on a ring: lea, cmp, jae per 8 bytes, plus a test for all-or-nothing).
        ClassName memoryLayout = ClassName.get("java.lang.foreign", "MemoryLayout");
        ClassName varHandle = ClassName.get("java.lang.invoke", "VarHandle");
        String longLayout = le ? "LE_LONG" : "BE_LONG";
        String intLayout = le ? "LE_INT" : "BE_INT";
        CodeBlock.Builder words = CodeBlock.builder().add("$T.structLayout(", memoryLayout);
        for (int i = 0; i + 1 < dwords; i += 2) {
            words.add("$L$T.$L.withName($S)", i == 0 ? "" : ", ", layout, longLayout, word(i, dwords));
        }
        if (dwords % 2 == 1) words.add("$L$T.$L.withName($S)", dwords == 1 ? "" : ", ", layout, intLayout, word(dwords - 1, dwords));
        w.addField(FieldSpec.builder(ClassName.get("java.lang.foreign", "StructLayout"), "WORDS", Modifier.PRIVATE, Modifier.STATIC, Modifier.FINAL)
                .addJavadoc("The structure as the stores of {@link #write()} see it.\n")
                .initializer(words.add(")").build()).build());
        for (int i = 0; i < dwords; i += 2) {
            String name = word(i, dwords);
            w.addField(FieldSpec.builder(varHandle, name.toUpperCase(java.util.Locale.ROOT), Modifier.PRIVATE, Modifier.STATIC, Modifier.FINAL)
                    .initializer("WORDS.varHandle($T.groupElement($S))", memoryLayout.nestedClass("PathElement"), name).build());
        }

        MethodSpec.Builder write = MethodSpec.methodBuilder("write").addModifiers(Modifier.PUBLIC)
                .addJavadoc("Stores all $L bytes of the structure (fields not set as 0), as $L. Throws\n"
                        + "{@code IndexOutOfBoundsException}, writing nothing, when the structure does not fit in the segment.\n",
                        struct.sizeBytes(),
                        dwords / 2 > 0 ? (dwords / 2) + " 64-bit" + (dwords % 2 == 1 ? " and one 32-bit" : "") + " stores" : "one 32-bit store")
                // Stores straight into s, no slice: a slice is allocated whenever C2's escape analysis gives up
                // (it did in the driver's and the soft HCA's loops), and a long-lived writer must never allocate.
                .addStatement("$T s = this.s", MEMORY_SEGMENT)
                .addStatement("if (s == null) throw new $T($S)", IllegalStateException.class,
                        sname + " writer: not bound to a segment (call at(s, offset) first)")
                .addStatement("long o = this.offset");
        for (int i = 0; i < dwords; i += 2) {
            write.addStatement("$L.set(s, o, $L)", word(i, dwords).toUpperCase(java.util.Locale.ROOT), held.name(i));
        }
        w.addMethod(write.build());
        type.addType(w.build());
    }

    /**
     * Where the writer keeps dword {@code k} while fields are set: each pair of dwords is one {@code long}
     * ({@code q0} holds dwords 0 and 1, as the 64-bit store of {@code write()} takes it: for a big-endian
     * structure dword 0 is the high half, for a little-endian one the low half), an odd last dword an
     * {@code int} ({@code d<k>}, stored as 32 bits). Keeping the words as they are stored saves composing
     * each store from two ints in {@code write()} (sign extension, shift and or, per 8 bytes).
     *
     * <p>A setter clears its bits as {@code q - (q & mask) + value}, not {@code (q & ~mask) | value} (the
     * value is range-checked, so it carries nothing out of its bits and the two are equal). What C2
     * (JDK 25) can prove about the first form it cannot about the second: after {@code wqe_index(pi)}
     * the word is {@code pi << 40}, and {@code (pi << 40) & mask}, with {@code mask} below bit 40, folds to
     * 0, so {@code opcode(SEND)} costs one add of a constant; {@code (pi << 40) & ~mask} is kept as an
     * {@code and}, since C2 tracks value ranges, not known bits. Setters called in PRM order (each field
     * below the previous one in its dword) then cost what hand-written shifts and ors cost. wqe-build, one
     * JMH run (3 forks, load 4 to 5): ints composed in {@code write()} 2.32 ns per WQE, ints with this
     * clearing 2.24, long words with it 2.03, the hand-written 32-bit stores 2.12.
     */
    record Words(int dwords, boolean le) {
        boolean isLong(int k) {
            return !(dwords % 2 == 1 && k == dwords - 1);
        }

        /** Whether dword {@code k} starts its word (so declares and stores it). */
        boolean first(int k) {
            return k % 2 == 0;
        }

        String name(int k) {
            return (isLong(k) ? "q" : "d") + (k & ~1);
        }

        /** Where dword {@code k}'s bit 0 sits in its word. */
        int half(int k) {
            return !isLong(k) ? 0 : (k % 2 == 0) != le ? 32 : 0;
        }

        /** Whether a field over 32 bits starting at dword {@code k} lies in the one long word of dwords k and k + 1. */
        boolean wholePair(int k) {
            return !le && k % 2 == 0 && isLong(k + 1);
        }

        /**
         * Sets {@code width} bits at bit {@code sh} of dword {@code k}: to {@code v} (the setter's range-checked
         * argument), or to {@code value}, an int expression that has them in place already and no other bit set.
         */
        void set(MethodSpec.Builder b, int k, int width, int sh, String value) {
            String q = name(k);
            boolean arg = value.equals("v");
            long mask = (width == 32 ? 0xffffffffL : (1L << width) - 1) << sh;
            if (!isLong(k)) {
                String x = !arg || sh == 0 ? value : "(v << " + sh + ")";
                if (width == 32) b.addStatement("$L = $L", q, x);
                else b.addStatement("$L = $L - ($L & $L) + $L", q, q, q, ScalarCode.hex32(mask), x);
                return;
            }
            int h = half(k);
            int total = (arg ? sh : 0) + h;
            String x = width == 32 || !arg ? (h == 32 ? "((long) " + value + " << 32)" : "(" + value + " & 0xffffffffL)")
                    : total == 0 ? "v" : "((long) v << " + total + ")";
            b.addStatement("$L = $L - ($L & $L) + $L", q, q, q, ScalarCode.hex64(mask << h), x);
        }

        /** Sets the one-bit field at bit {@code sh} of dword {@code k} from {@code boolean v}. */
        void flag(MethodSpec.Builder b, int k, int sh) {
            String q = name(k);
            if (!isLong(k)) {
                b.addStatement("$L = v ? $L | $L : $L & $L", q, q, ScalarCode.hex32(1L << sh), q, ScalarCode.hex32(~(1L << sh)));
            } else {
                long bit = 1L << (sh + half(k));
                b.addStatement("$L = v ? $L | $L : $L & $L", q, q, ScalarCode.hex64(bit), q, ScalarCode.hex64(~bit));
            }
        }

        /** Sets a field of {@code width > 32} bits starting at dword {@code k} of a pair ({@link #wholePair}) from {@code long v}. */
        void setWide(MethodSpec.Builder b, int k, int width) {
            String q = name(k);
            if (width == 64) {
                b.addStatement("$L = v", q);
                return;
            }
            int sh = 64 - width;
            b.addStatement("$L = $L - ($L & $L) + $L", q, q, q, ScalarCode.hex64(((1L << width) - 1) << sh), sh == 0 ? "v" : "(v << " + sh + ")");
        }
    }

    /** The name of the store starting at dword {@code i} in {@code WORDS}: {@code q0}, {@code q2}, ... or {@code d<i>} for an odd last dword. */
    private static String word(int i, int dwords) {
        return (i + 1 < dwords ? "q" : "d") + i;
    }
}

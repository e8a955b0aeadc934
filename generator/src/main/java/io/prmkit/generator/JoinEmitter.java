package io.prmkit.generator;

import static io.prmkit.generator.GeneratorContext.MEMORY_SEGMENT;

import com.palantir.javapoet.ClassName;
import com.palantir.javapoet.CodeBlock;
import com.palantir.javapoet.MethodSpec;
import com.palantir.javapoet.TypeName;
import com.palantir.javapoet.TypeSpec;
import io.prmkit.dsl.ir.Join;
import io.prmkit.dsl.ir.Member;
import io.prmkit.dsl.ir.MemberType;
import io.prmkit.dsl.ir.StructLayout;
import java.util.ArrayList;
import java.util.List;
import javax.lang.model.element.Modifier;

/**
 * The accessors of a joined field ({@code join} in the spec): a getter that puts the parts together,
 * checked and unchecked setters that take them apart, the enum forms when the join names an enum, and a
 * setter in the structure's writers. Each is written over the parts' own accessors, so a joined read or
 * write costs what the hand-written join of the parts cost (C2 inlines the part accessors and shares
 * their dword loads). The parts keep all their accessors.
 */
final class JoinEmitter {
    private final GeneratorContext ctx;

    JoinEmitter(GeneratorContext ctx) {
        this.ctx = ctx;
    }

    /** The static accessors of every join of {@code struct}: setters into {@code device} when the parts are device-written. */
    void emit(StructLayout struct, ClassName self, ClassName layout, List<MethodSpec> methods, List<MethodSpec> device) {
        for (Join j : struct.joins()) {
            String id = Names.member(j.name());
            TypeName jt = ScalarCode.javaType(Math.max(2, j.bitWidth()));
            boolean wide = j.bitWidth() > 32;
            CodeBlock see = CodeBlock.of("See {@link #$L($T, long)}.\n", id, MEMORY_SEGMENT);

            CodeBlock.Builder get = CodeBlock.builder().add("return ");
            for (int i = 0; i < j.parts().size(); i++) {
                Join.Part p = j.parts().get(i);
                get.add(i == 0 ? "" : " | ").add(partValue(p, wide)).add(p.shift() == 0 ? "" : " << " + p.shift());
            }
            methods.add(method(id, CodeBlock.of(""), "Reads {@code $L} of the structure at offset 0 of {@code s}.", j.name())
                    .returns(jt).addParameter(MEMORY_SEGMENT, "s").addStatement("return $L(s, 0L)", id).build());
            methods.add(method(id, doc(struct, j), "Reads {@code $L} of the structure at byte {@code offset} of {@code s}: its parts put together.", j.name())
                    .returns(jt).addParameter(MEMORY_SEGMENT, "s").addParameter(TypeName.LONG, "offset")
                    .addStatement(get.build()).build());

            ClassName enumClass = j.enumType().map(ctx::className).orElse(null);
            if (enumClass != null) {
                methods.add(method(id + "$enum", see, "Reads {@code $L} as a {@link $T}; null when no constant has the value.", j.name(), enumClass)
                        .returns(enumClass).addParameter(MEMORY_SEGMENT, "s").addStatement("return $L$$enum(s, 0L)", id).build());
                methods.add(method(id + "$enum", see, "Reads {@code $L} as a {@link $T}; null when no constant has the value.", j.name(), enumClass)
                        .returns(enumClass).addParameter(MEMORY_SEGMENT, "s").addParameter(TypeName.LONG, "offset")
                        .addStatement("return $T.of($L)", enumClass, wide ? CodeBlock.of("$L(s, offset)", id) : CodeBlock.of("$T.toUnsignedLong($L(s, offset))", Integer.class, id))
                        .build());
            }

            boolean writable = partsWritable(struct, j);
            List<MethodSpec> sink = writable ? methods : device;
            CodeBlock sdoc = writable ? see : CodeBlock.of("Device side of {@link $T#$L($T, long)}.\n", self, id, MEMORY_SEGMENT);
            long mask = j.mask();
            String accepts = mask == -1L ? " Every value fits."
                    : " Throws {@code IllegalArgumentException} for a value with bits outside {@code 0x" + Long.toHexString(mask) + "}, the bits the parts hold.";
            sink.add(method(id + "$set", sdoc, "Writes {@code $L} of the structure at offset 0 of {@code s}." + accepts, j.name())
                    .addParameter(MEMORY_SEGMENT, "s").addParameter(jt, "v").addStatement("$L$$set(s, 0L, v)", id).build());
            MethodSpec.Builder checked = method(id + "$set", sdoc, "Writes {@code $L} of the structure at byte {@code offset} of {@code s} into its parts." + accepts, j.name())
                    .addParameter(MEMORY_SEGMENT, "s").addParameter(TypeName.LONG, "offset").addParameter(jt, "v");
            CodeBlock guard = guard(struct, j, layout, wide);
            if (guard != null) checked.addStatement(guard);
            sink.add(checked.addStatement("$L$$setUnchecked(s, offset, v)", id).build());
            sink.add(method(id + "$setUnchecked", sdoc, "Writes {@code $L} of the structure at offset 0 of {@code s}; bits no part holds are dropped.", j.name())
                    .addParameter(MEMORY_SEGMENT, "s").addParameter(jt, "v").addStatement("$L$$setUnchecked(s, 0L, v)", id).build());
            MethodSpec.Builder unchecked = method(id + "$setUnchecked", sdoc, "Writes {@code $L} of the structure at byte {@code offset} of {@code s} into its parts; bits no part holds are dropped.", j.name())
                    .addParameter(MEMORY_SEGMENT, "s").addParameter(TypeName.LONG, "offset").addParameter(jt, "v");
            for (Join.Part p : j.parts()) {
                unchecked.addStatement("$L$$setUnchecked(s, offset, $L)", Names.member(p.field()), partArg(p, wide));
            }
            sink.add(unchecked.build());
            if (enumClass != null) {
                sink.add(method(id + "$set", sdoc, "Writes constant {@code v} into {@code $L} of the structure at offset 0 of {@code s}.", j.name())
                        .addParameter(MEMORY_SEGMENT, "s").addParameter(enumClass, "v").addStatement("$L$$set(s, 0L, v)", id).build());
                sink.add(method(id + "$set", sdoc, "Writes constant {@code v} into {@code $L} of the structure at byte {@code offset} of {@code s}.", j.name())
                        .addParameter(MEMORY_SEGMENT, "s").addParameter(TypeName.LONG, "offset").addParameter(enumClass, "v")
                        .addStatement("$L$$set(s, offset, $L)", id, EnumEmitter.valueArg(ctx.enumType(j.enumType().get()), wide ? 64 : 32)).build());
            }
        }
    }

    /** The setters of every join whose parts all have setters in this writer ({@code device}: the device's writer). */
    void writerSetters(StructLayout struct, ClassName writer, ClassName layout, TypeSpec.Builder w, boolean device, List<Member> settable) {
        for (Join j : struct.joins()) {
            if (!j.parts().stream().allMatch(p -> settable.stream().anyMatch(m -> m.name().equals(p.field())))) continue;
            String id = Names.member(j.name());
            boolean wide = j.bitWidth() > 32;
            TypeName jt = ScalarCode.javaType(Math.max(2, j.bitWidth()));
            long mask = j.mask();
            MethodSpec.Builder set = MethodSpec.methodBuilder(id).addModifiers(Modifier.PUBLIC).returns(writer)
                    .addJavadoc("Sets {@code $L}: each part gets its bits. See {@link $T#$L($T, long)}.\n", j.name(),
                            device ? writer.enclosingClassName().enclosingClassName() : writer.enclosingClassName(), id, MEMORY_SEGMENT)
                    .addParameter(jt, "v");
            CodeBlock guard = guard(struct, j, layout, wide);
            if (guard != null) set.addStatement(guard);
            CodeBlock.Builder chain = CodeBlock.builder().add("return this");
            for (Join.Part p : j.parts()) {
                chain.add(".$L($L)", Names.member(p.field()), partMasked(p, wide));
            }
            w.addMethod(set.addStatement(chain.build()).build());
            j.enumType().map(ctx::className).ifPresent(enumClass -> w.addMethod(MethodSpec.methodBuilder(id).addModifiers(Modifier.PUBLIC).returns(writer)
                    .addJavadoc("Sets {@code $L} to constant {@code v}.\n", j.name())
                    .addParameter(enumClass, "v").addStatement("return $L($L)", id, EnumEmitter.valueArg(ctx.enumType(j.enumType().get()), wide ? 64 : 32)).build()));
        }
    }

    /** Whether every part has a setter in the structure class (else all are device-written: the joins pass checks they agree). */
    private static boolean partsWritable(StructLayout struct, Join j) {
        return j.parts().stream().allMatch(p -> struct.member(p.field()).map(m -> m.access().writable()).orElse(false));
    }

    /** A part's value as the join's type, ready to shift. */
    private static CodeBlock partValue(Join.Part p, boolean wide) {
        String id = Names.member(p.field());
        if (p.width() == 1) return CodeBlock.of(wide ? "($L(s, offset) ? 1L : 0L)" : "($L(s, offset) ? 1 : 0)", id);
        if (!wide || p.width() > 32) return CodeBlock.of("$L(s, offset)", id);
        if (p.width() == 32) return CodeBlock.of("$T.toUnsignedLong($L(s, offset))", Integer.class, id);
        return CodeBlock.of("(long) $L(s, offset)", id);
    }

    /** The argument of a part's unchecked setter: the value shifted down (the setter keeps the part's low bits). */
    private static CodeBlock partArg(Join.Part p, boolean wide) {
        String shifted = p.shift() == 0 ? "v" : "(v >>> " + p.shift() + ")";
        if (p.width() == 1) return CodeBlock.of("($L & 1) != 0", shifted);
        if (wide && p.width() <= 32) return CodeBlock.of("(int) $L", shifted);
        return CodeBlock.of("$L", shifted);
    }

    /** The argument of a part's writer setter, masked to the part's width (the setter checks it). */
    private static CodeBlock partMasked(Join.Part p, boolean wide) {
        String shifted = p.shift() == 0 ? "v" : "(v >>> " + p.shift() + ")";
        if (p.width() == 1) return CodeBlock.of("($L & 1) != 0", shifted);
        if (p.width() == 32 || p.width() == 64) return wide && p.width() == 32 ? CodeBlock.of("(int) $L", shifted) : CodeBlock.of("$L", shifted);
        String m = "0x" + Long.toHexString((1L << p.width()) - 1) + (wide ? "L" : "");
        return wide && p.width() < 32 ? CodeBlock.of("(int) ($L & $L)", shifted, m) : CodeBlock.of("$L & $L", shifted, m);
    }

    /**
     * The checked setters' test, or null when every value of the Java type fits: a value wider than the join
     * is out of range as for a field; one with bits below an aligned lowest part has bits no part holds.
     */
    private static CodeBlock guard(StructLayout struct, Join j, ClassName layout, boolean wide) {
        long mask = j.mask();
        if (mask == -1L || (mask == 0xffff_ffffL && !wide)) return null;
        long full = j.bitWidth() == 64 ? -1L : (1L << j.bitWidth()) - 1;
        if (mask == full) {
            return CodeBlock.of("if ((v >>> $L) != 0) throw $T.outOfRange($S, $S, $L, v)", j.bitWidth(), layout, struct.name().name(), j.name(), j.bitWidth());
        }
        return CodeBlock.of("if ((v & $L) != 0) throw $T.outsideParts($S, $S, 0x$LL, v)", literal(~mask, wide), layout, struct.name().name(), j.name(),
                Long.toHexString(mask));
    }

    private static String literal(long v, boolean wide) {
        return wide ? "0x" + Long.toHexString(v) + "L" : "0x" + Integer.toHexString((int) v);
    }

    private static MethodSpec.Builder method(String name, CodeBlock doc, String firstSentence, Object... args) {
        boolean paragraph = doc.toString().startsWith("<p>");
        return MethodSpec.methodBuilder(name).addModifiers(Modifier.PUBLIC, Modifier.STATIC)
                .addJavadoc(firstSentence + (doc.isEmpty() ? "\n" : paragraph ? "\n\n" : " "), args).addJavadoc(doc);
    }

    /** The description on the getter: the parts and the bits each holds, the doc, the spec line. */
    private CodeBlock doc(StructLayout struct, Join j) {
        CodeBlock.Builder b = CodeBlock.builder();
        String text = Javadocs.sentence(j.doc());
        if (!text.isEmpty()) b.add("<p>$L\n", text);
        List<String> parts = new ArrayList<>();
        for (Join.Part p : j.parts()) {
            parts.add("{@link #" + Names.member(p.field()) + "(" + MEMORY_SEGMENT.simpleName() + ", long) " + p.field() + "} bits "
                    + (p.shift() + p.width() - 1) + (p.width() == 1 ? "" : ".." + p.shift()));
        }
        b.add("<p>Joined field of $L bits: $L", j.bitWidth(), String.join(", ", parts));
        int low = j.parts().get(j.parts().size() - 1).shift();
        if (low > 0) b.add("; bits $L..0 are zero", low - 1);
        b.add("; $L.\n", Javadocs.origin(j.doc(), j.location()));
        j.enumType().ifPresent(e -> b.add("<p>Values named by {@link $T}.\n", ctx.className(e)));
        return b.build();
    }
}

package io.prmkit.generator;

import static io.prmkit.generator.GeneratorContext.MEMORY_SEGMENT;

import com.palantir.javapoet.ClassName;
import com.palantir.javapoet.CodeBlock;
import com.palantir.javapoet.FieldSpec;
import com.palantir.javapoet.JavaFile;
import com.palantir.javapoet.MethodSpec;
import com.palantir.javapoet.ParameterizedTypeName;
import com.palantir.javapoet.TypeName;
import com.palantir.javapoet.TypeSpec;
import io.prmkit.dsl.Words;
import io.prmkit.dsl.ir.Constraints;
import io.prmkit.dsl.ir.EnumLayout;
import io.prmkit.dsl.ir.Member;
import io.prmkit.dsl.ir.MemberType;
import io.prmkit.dsl.ir.QualifiedName;
import io.prmkit.dsl.ir.Rule;
import io.prmkit.dsl.ir.StructLayout;
import io.prmkit.dsl.ir.Variant;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import javax.lang.model.element.Modifier;

/**
 * Emits one final class of static accessors per structure or union: constants for size and every
 * member's position, getters, checked and unchecked setters, slices for byte arrays and nested
 * structures, element accessors for arrays, and {@code clear}/{@code validate}/{@code dump} backed by
 * the layout metadata ({@code layout()}, built lazily in a nested holder).
 */
final class StructEmitter {
    private static final Modifier[] CONST = {Modifier.PUBLIC, Modifier.STATIC, Modifier.FINAL};
    private static final Modifier[] API = {Modifier.PUBLIC, Modifier.STATIC};
    private static final ClassName LIST = ClassName.get(List.class);
    private static final ClassName STRING = ClassName.get(String.class);
    /** The nested holder of the {@code LAYOUT} metadata. */
    static final String META = "Meta";

    private final GeneratorContext ctx;
    /** Per {@link #emit}: the structure's class and the setters of its device-written fields (for {@code Device}). */
    private ClassName self;
    private List<MethodSpec> device;

    /** For a model that passed {@link GeneratorChecks} (the IR guarantees the rest). */
    StructEmitter(GeneratorContext ctx) {
        this.ctx = ctx;
    }

    JavaFile emit(StructLayout struct) {
        ClassName self = ctx.className(struct.name());
        this.self = self;
        this.device = new ArrayList<>();
        ClassName layout = ctx.layoutClass(struct.name());
        boolean le = struct.byteOrder() == ByteOrder.LITTLE_ENDIAN;
        String sname = struct.name().name();

        TypeSpec.Builder type = TypeSpec.classBuilder(self)
                .addModifiers(Modifier.PUBLIC, Modifier.FINAL)
                .addJavadoc(classDoc(struct));
        type.addField(FieldSpec.builder(TypeName.LONG, "SIZE", CONST)
                .addJavadoc("Size in bytes ($L), not counting a flexible trailing array.\n", struct.sizeBytes())
                .initializer("$LL", struct.sizeBytes())
                .build());
        type.addField(GeneratorContext.apiCheck());
        type.addMethod(MethodSpec.constructorBuilder().addModifiers(Modifier.PRIVATE).build());

        List<MethodSpec> methods = new ArrayList<>();
        for (Member m : struct.members()) {
            // Reserved space gets no accessors (software neither reads nor writes it); LAYOUT, validate
            // and dump still cover it.
            if (m.reserved()) continue;
            String id = Names.member(m.name());
            CodeBlock about = memberDoc(m);
            type.addField(constant(id + "$BIT_OFFSET", TypeName.LONG, m.bitOffset() + "L", "Bit offset of {@code $L} from the MSB of byte 0.", m));
            type.addField(constant(id + "$BIT_WIDTH", TypeName.LONG, m.bitWidth() + "L", "Width of {@code $L} in bits.", m));
            MemberType t = m.type();
            if (t instanceof MemberType.Bits b) {
                scalar(struct, m, id, b.width(), about, self, layout, le, methods);
            } else if (t instanceof MemberType.Bytes bytes) {
                bytes(struct, m, id, bytes.length(), about, layout, type, methods);
            } else if (t instanceof MemberType.StructRef ref) {
                nested(m, id, ref, about, type, methods);
            } else if (t instanceof MemberType.Array a) {
                array(struct, m, id, a, about, layout, le, type, methods);
            }
        }

        new JoinEmitter(ctx).emit(struct, self, layout, methods, device);

        for (Rule r : struct.rules()) {
            CodeBlock expr = new RuleCode(struct, layout).compile(r.condition());
            methods.add(MethodSpec.methodBuilder(ruleMethod(r))
                    .addModifiers(Modifier.PRIVATE, Modifier.STATIC)
                    .addJavadoc("Rule {@code $L}: $L\n", Javadocs.escape(r.name()), Javadocs.escape(r.condition().source()))
                    .returns(TypeName.BOOLEAN)
                    .addParameter(MEMORY_SEGMENT, "s")
                    .addParameter(TypeName.LONG, "offset")
                    .addStatement("return $L != 0L", expr)
                    .build());
        }
        wholeStruct(struct, self, layout, methods);
        if (WriterEmitter.applies(struct, false)) {
            new WriterEmitter(ctx).emit(struct, self, layout, type, methods, this::linkDoc, false);
            StoreEmitter.emit(struct, self, layout, self.nestedClass("Writer"), methods, false);
        }
        deviceClass(struct, self, layout, type);

        // The metadata lives in a holder class that only layout(), validate and dump touch: the getters and
        // setters of the datapath never run its initializer, which builds the field table and loads the enums.
        List<MethodSpec> meta = new ArrayList<>();
        chunkedFields(struct, layout, meta);
        type.addType(TypeSpec.classBuilder(META).addModifiers(Modifier.PRIVATE, Modifier.STATIC, Modifier.FINAL)
                .addField(FieldSpec.builder(layout.nestedClass("Struct"), "LAYOUT", Modifier.STATIC, Modifier.FINAL)
                        .initializer(layoutInit(struct, self, layout))
                        .build())
                .addMethods(meta)
                .build());
        methods.add(0, MethodSpec.methodBuilder("layout").addModifiers(API).returns(layout.nestedClass("Struct"))
                .addJavadoc("This structure's layout as data: members with offsets, widths, access, enums, docs; rules. Built on\n"
                        + "first use (the accessors never need it).\n")
                .addStatement("return $L.LAYOUT", META).build());
        type.addMethods(atOffsetZero(methods));
        return JavaFile.builder(self.packageName(), type.build()).indent("    ").skipJavaLangImports(false).build();
    }

    /**
     * The nested {@code Device} class: setters for the fields software must not write ({@code ro},
     * {@code out}), for the device model that produces CQEs, EQEs and command outputs, plus a
     * {@code Writer} over every bit field for structures of at most 64 bytes. Kept apart so the
     * driver-facing API offers no setter for them.
     */
    private void deviceClass(StructLayout struct, ClassName self, ClassName layout, TypeSpec.Builder type) {
        if (device.isEmpty()) return;
        ClassName cls = self.nestedClass("Device");
        TypeSpec.Builder d = TypeSpec.classBuilder(cls).addModifiers(Modifier.PUBLIC, Modifier.STATIC, Modifier.FINAL)
                .addJavadoc("Setters for the fields the device writes ({@code ro} and {@code out}): for a device model\n"
                        + "(soft-hca) and tests, never for driver code. They work like the setters of {@link $T}.\n", self)
                .addMethod(MethodSpec.constructorBuilder().addModifiers(Modifier.PRIVATE).build());
        List<MethodSpec> methods = new ArrayList<>(device);
        if (WriterEmitter.applies(struct, true)) {
            new WriterEmitter(ctx).emit(struct, cls, layout, d, methods, this::linkDoc, true);
            StoreEmitter.emit(struct, cls, layout, cls.nestedClass("Writer"), methods, true);
        }
        type.addType(d.addMethods(atOffsetZero(methods)).build());
    }

    /**
     * The Javadoc tail of every accessor but one per member: the full description (PRM position, doc,
     * constraints, spec line) is on the getter {@code id(MemorySegment, long[, long])} only.
     */
    private static CodeBlock seeDoc(String getter, String extraParams) {
        return CodeBlock.of("See {@link #$L($T, long$L)}.\n", getter, MEMORY_SEGMENT, extraParams);
    }

    /**
     * The {@code (s, ...)} form of an accessor that also has an {@code (s, long offset, ...)} form says
     * only that it is the latter at offset 0 (most of the generated text otherwise).
     */
    private static List<MethodSpec> atOffsetZero(List<MethodSpec> methods) {
        List<MethodSpec> out = new ArrayList<>(methods.size());
        for (MethodSpec m : methods) {
            List<com.palantir.javapoet.ParameterSpec> p = m.parameters();
            boolean zeroForm = !p.isEmpty() && p.get(0).type().equals(MEMORY_SEGMENT) && (p.size() == 1 || !p.get(1).name().equals("offset"));
            MethodSpec full = zeroForm ? methods.stream().filter(o -> o.name().equals(m.name()) && withOffset(o, p)).findFirst().orElse(null) : null;
            if (full == null) {
                out.add(m);
                continue;
            }
            CodeBlock.Builder link = CodeBlock.builder().add("Same as {@link #$L($T, long", m.name(), MEMORY_SEGMENT);
            for (int i = 1; i < p.size(); i++) {
                TypeName t = p.get(i).type();
                link.add(", $T", t instanceof ParameterizedTypeName pt ? pt.rawType() : t); // a link names erased types
            }
            MethodSpec.Builder b = MethodSpec.methodBuilder(m.name()).addModifiers(m.modifiers()).returns(m.returnType())
                    .addJavadoc(link.add(")} with {@code offset} 0.\n").build()).addParameters(p).addCode(m.code());
            out.add(b.build());
        }
        return out;
    }

    /** Whether {@code o} takes {@code (MemorySegment s, long offset)} followed by the parameter types of {@code zero} after its first. */
    private static boolean withOffset(MethodSpec o, List<com.palantir.javapoet.ParameterSpec> zero) {
        List<com.palantir.javapoet.ParameterSpec> q = o.parameters();
        if (q.size() != zero.size() + 1 || !q.get(0).type().equals(MEMORY_SEGMENT) || !q.get(1).name().equals("offset")
                || !q.get(1).type().equals(TypeName.LONG)) return false;
        for (int i = 1; i < zero.size(); i++) {
            if (!q.get(i + 1).type().equals(zero.get(i).type())) return false;
        }
        return true;
    }

    /** The Javadoc tail of a writer's setter: a link to the member's getter. */
    private CodeBlock linkDoc(Member m) {
        return CodeBlock.of("See {@link $T#$L($T, long)}.\n", self, Names.member(m.name()), MEMORY_SEGMENT);
    }

    /** The Javadoc tail of a device-side setter: the member is described at its getter. */
    private CodeBlock deviceDoc(String getter, String extraParams) {
        return CodeBlock.of("Device side of {@link $T#$L($T, long$L)}.\n", self, getter, MEMORY_SEGMENT, extraParams);
    }

    private static String ruleMethod(Rule r) {
        return "rule_" + r.name() + "$holds";
    }

    private CodeBlock classDoc(StructLayout s) {
        CodeBlock.Builder b = CodeBlock.builder();
        b.add("{@code $L}", s.name());
        String text = Javadocs.sentence(s.doc());
        if (text.isEmpty()) b.add(".\n");
        else b.add(": $L\n", text);
        b.add("\n<p>$L of $L bytes, $L dwords. $L.\n", s.isUnion() ? "Union" : "Structure", s.sizeBytes(),
                s.byteOrder() == ByteOrder.LITTLE_ENDIAN ? "little-endian" : "big-endian", capitalize(Javadocs.origin(s.doc(), s.location())));
        b.add("\n<p>Static accessors over a {@code MemorySegment}: the one-argument forms address the structure at\n"
                + "offset 0 of the segment, the {@code (s, offset)} forms at byte {@code offset}. Checked setters reject\n"
                + "a value that does not fit; {@code $$setUnchecked} masks it like {@code MLX5_SET}.\n");
        b.add("\n<p>Generated by prmkit from the layout IR; do not edit.\n");
        return b.build();
    }

    private static String capitalize(String s) {
        return s.isEmpty() ? s : Character.toUpperCase(s.charAt(0)) + s.substring(1);
    }

    /** The paragraph every accessor of a member repeats: PRM position, doc text, references. */
    private CodeBlock memberDoc(Member m) {
        CodeBlock.Builder b = CodeBlock.builder();
        String text = Javadocs.sentence(m.doc());
        if (!text.isEmpty()) b.add("<p>$L\n", text);
        b.add("<p>PRM: {@code $L}, $L", m.prmPosition(), Words.plural(m.bitWidth(), "bit"));
        if (m.reserved()) b.add(", reserved (must be zero)");
        else if (m.access() != io.prmkit.dsl.ir.Access.RW) b.add(", access $L", m.access().name().toLowerCase(java.util.Locale.ROOT));
        b.add("; $L.\n", Javadocs.origin(m.doc(), m.location()));
        List<String> notes = new ArrayList<>();
        m.enumType().ifPresent(e -> notes.add("values named by {@link " + ctx.className(e).canonicalName() + "}"));
        m.flagsType().ifPresent(e -> notes.add("bits named by {@link " + ctx.className(e).canonicalName() + "}"));
        Constraints c = m.constraints();
        if (c.min().isPresent() || c.max().isPresent()) {
            notes.add("range " + (c.min().isPresent() ? Long.toUnsignedString(c.min().getAsLong()) : "0") + ".."
                    + (c.max().isPresent() ? Long.toUnsignedString(c.max().getAsLong()) : "max"));
        }
        if (c.powerOfTwo()) notes.add("power of two");
        if (c.log2()) notes.add("log2 of a size");
        if (c.mustBeZero() && !m.reserved()) notes.add("must be zero");
        m.capability().ifPresent(cap -> notes.add("needs capability {@code " + Javadocs.escape(capability(cap)) + "}"));
        m.variant().ifPresent(v -> notes.add("alternative {@code " + Javadocs.escape(v.alternative()) + "} of union {@code "
                + Javadocs.escape(v.union()) + "}" + (v.tag().isPresent() ? " (selected when {@code " + Javadocs.escape(v.selector()) + " == "
                + v.tag().getAsLong() + "})" : "")));
        if (!m.selector().isEmpty()) notes.add("alternative selected by {@code " + Javadocs.escape(m.selector()) + "}");
        if (!notes.isEmpty()) b.add("<p>$L.\n", capitalize(String.join("; ", notes)));
        return b.build();
    }

    static String capability(io.prmkit.dsl.ir.FieldRef ref) {
        return ref.struct().name() + "." + ref.field();
    }

    private static FieldSpec constant(String name, TypeName type, String init, String docFormat, Member m) {
        return FieldSpec.builder(type, name, CONST)
                .addJavadoc(docFormat + "\n", m.name())
                .initializer(init)
                .build();
    }

    /** A public static accessor; a one-line {@code doc} (a link to the member's description) joins the first sentence. */
    private static MethodSpec.Builder method(String name, CodeBlock doc, String firstSentence, Object... args) {
        boolean paragraph = doc.toString().startsWith("<p>");
        return MethodSpec.methodBuilder(name)
                .addModifiers(API)
                .addJavadoc(firstSentence + (paragraph ? "\n\n" : " "), args)
                .addJavadoc(doc);
    }

    private static boolean writable(Member m) {
        return !m.reserved() && m.access().writable();
    }

    // ---- bit fields ------------------------------------------------------------------------

    private void scalar(StructLayout struct, Member m, String id, int w, CodeBlock about, ClassName self, ClassName layout,
            boolean le, List<MethodSpec> out) {
        CodeBlock full = about;
        about = seeDoc(id, "");
        ScalarCode code = new ScalarCode(layout, m.bitOffset(), w, le);
        TypeName jt = ScalarCode.javaType(w);
        out.add(method(id, about, "Reads {@code $L} of the structure at offset 0 of {@code s}.", m.name())
                .returns(jt).addParameter(MEMORY_SEGMENT, "s")
                .addStatement("return $L(s, 0L)", id).build());
        out.add(method(id, full, "Reads {@code $L} of the structure at byte {@code offset} of {@code s}.", m.name())
                .returns(jt).addParameter(MEMORY_SEGMENT, "s").addParameter(TypeName.LONG, "offset")
                .addStatement("return $L", struct.sizeBytes() % 4 == 0 ? code.readWholeDword() : code.read()).build());

        Optional<EnumLayout> en = m.enumType().map(ctx::enumType);
        ClassName enumClass = en.map(e -> ctx.className(e.name())).orElse(null); // an ENUM: LayoutModel guarantees the kind
        if (enumClass != null) {
            CodeBlock toLong = w == 1 ? CodeBlock.of("($L(s, offset) ? 1L : 0L)", id) : w <= 32 ? CodeBlock.of("$T.toUnsignedLong($L(s, offset))", Integer.class, id)
                    : CodeBlock.of("$L(s, offset)", id);
            out.add(method(id + "$enum", about, "Reads {@code $L} as a {@link $T}; null when no constant has the value.", m.name(), enumClass)
                    .returns(enumClass).addParameter(MEMORY_SEGMENT, "s")
                    .addStatement("return $L$$enum(s, 0L)", id).build());
            out.add(method(id + "$enum", about, "Reads {@code $L} as a {@link $T}; null when no constant has the value.", m.name(), enumClass)
                    .returns(enumClass).addParameter(MEMORY_SEGMENT, "s").addParameter(TypeName.LONG, "offset")
                    .addStatement("return $T.of($L)", enumClass, toLong).build());
        }
        if (writable(m)) setters(struct, m, id, w, code, layout, enumClass, en, about, out);
        else setters(struct, m, id, w, code, layout, enumClass, en, deviceDoc(id, ""), device);
    }

    /** The checked, unchecked and enum setters of a bit field, into {@code out}. */
    private void setters(StructLayout struct, Member m, String id, int w, ScalarCode code, ClassName layout, ClassName enumClass,
            Optional<EnumLayout> en, CodeBlock about, List<MethodSpec> out) {
        TypeName jt = ScalarCode.javaType(w);
        CodeBlock guard = code.outOfRange();
        String range = w == 1 ? "" : w == 32 || w == 64 ? " Every value fits (a " + w + "-bit field takes the raw bits)."
                : " Accepts 0.." + Long.toUnsignedString((1L << w) - 1) + "; throws {@code IllegalArgumentException} for any other value.";
        out.add(method(id + "$set", about, "Writes {@code $L} of the structure at offset 0 of {@code s}." + range, m.name())
                .addParameter(MEMORY_SEGMENT, "s").addParameter(jt, "v")
                .addStatement("$L$$set(s, 0L, v)", id).build());
        MethodSpec.Builder checked = method(id + "$set", about, "Writes {@code $L} of the structure at byte {@code offset} of {@code s}." + range, m.name())
                .addParameter(MEMORY_SEGMENT, "s").addParameter(TypeName.LONG, "offset").addParameter(jt, "v");
        if (guard != null) {
            checked.addStatement("if ($L) throw $T.outOfRange($S, $S, $L, v)", guard, layout, struct.name().name(), m.name(), w);
        }
        out.add(checked.addStatement("$L$$setUnchecked(s, offset, v)", id).build());
        String unchecked = w == 1 || w == 32 || w == 64 ? " Same as {@code $$set}: every value fits."
                : " Keeps only the low " + w + " bits of {@code v}, like {@code MLX5_SET}; never throws for the value.";
        out.add(method(id + "$setUnchecked", about, "Writes {@code $L} of the structure at offset 0 of {@code s}." + unchecked, m.name())
                .addParameter(MEMORY_SEGMENT, "s").addParameter(jt, "v")
                .addStatement("$L$$setUnchecked(s, 0L, v)", id).build());
        out.add(method(id + "$setUnchecked", about, "Writes {@code $L} of the structure at byte {@code offset} of {@code s}." + unchecked, m.name())
                .addParameter(MEMORY_SEGMENT, "s").addParameter(TypeName.LONG, "offset").addParameter(jt, "v")
                .addCode(code.write()).build());

        if (enumClass != null) {
            EnumLayout e = en.get();
            boolean allFit = w == 64 || e.values().stream().allMatch(v -> (v.value() >>> w) == 0);
            String cast = EnumEmitter.valueArg(e, w);
            String target = allFit ? "$L$$setUnchecked(s, offset, " + cast + ")" : "$L$$set(s, offset, " + cast + ")";
            out.add(method(id + "$set", about, "Writes constant {@code v} into {@code $L} of the structure at offset 0 of {@code s}.", m.name())
                    .addParameter(MEMORY_SEGMENT, "s").addParameter(enumClass, "v")
                    .addStatement("$L$$set(s, 0L, v)", id).build());
            out.add(method(id + "$set", about, "Writes constant {@code v} into {@code $L} of the structure at byte {@code offset} of {@code s}.", m.name())
                    .addParameter(MEMORY_SEGMENT, "s").addParameter(TypeName.LONG, "offset").addParameter(enumClass, "v")
                    .addStatement(target, id).build());
        }
    }

    // ---- byte arrays -----------------------------------------------------------------------

    private void bytes(StructLayout struct, Member m, String id, int length, CodeBlock about, ClassName layout, TypeSpec.Builder type,
            List<MethodSpec> out) {
        CodeBlock full = about;
        about = seeDoc(id, "");
        type.addField(constant(id + "$BYTE_OFFSET", TypeName.LONG, m.byteOffset() + "L", "Byte offset of {@code $L}.", m));
        type.addField(constant(id + "$LENGTH", TypeName.INT, Integer.toString(length), "Length of {@code $L} in bytes.", m));
        String sname = struct.name().name();
        out.add(method(id, about, "The bytes of {@code $L} of the structure at offset 0 of {@code s}, as a slice (no copy).", m.name())
                .returns(MEMORY_SEGMENT).addParameter(MEMORY_SEGMENT, "s")
                .addStatement("return $L(s, 0L)", id).build());
        out.add(method(id, full, "The bytes of {@code $L} of the structure at byte {@code offset} of {@code s}, as a slice (no copy).", m.name())
                .returns(MEMORY_SEGMENT).addParameter(MEMORY_SEGMENT, "s").addParameter(TypeName.LONG, "offset")
                .addStatement("return s.asSlice(offset + $LL, $LL)", m.byteOffset(), length).build());
        out.add(method(id + "$copyTo", about, "Copies the $L bytes of {@code $L} (structure at offset 0) into the start of {@code dst}.", length, m.name())
                .addParameter(MEMORY_SEGMENT, "s").addParameter(byte[].class, "dst")
                .addStatement("$L$$copyTo(s, 0L, dst)", id).build());
        out.add(method(id + "$copyTo", about, "Copies the $L bytes of {@code $L} (structure at byte {@code offset}) into the start of {@code dst}; throws {@code IllegalArgumentException} if {@code dst} is shorter.", length, m.name())
                .addParameter(MEMORY_SEGMENT, "s").addParameter(TypeName.LONG, "offset").addParameter(byte[].class, "dst")
                .addStatement("if (dst.length < $L) throw $T.tooShort($S, $S, $L, dst.length)", length, layout, sname, m.name(), length)
                .addStatement("$T.copy(s, $T.BYTE, offset + $LL, dst, 0, $L)", MEMORY_SEGMENT, layout, m.byteOffset(), length).build());
        List<MethodSpec> sink = writable(m) ? out : device; // ro/out: only the Device class may write it
        CodeBlock doc = writable(m) ? about : deviceDoc(id, "");
        sink.add(method(id + "$copyFrom", doc, "Copies {@code src} into the start of {@code $L} (structure at offset 0); bytes past {@code src.length} are left as they are.", m.name())
                .addParameter(MEMORY_SEGMENT, "s").addParameter(byte[].class, "src")
                .addStatement("$L$$copyFrom(s, 0L, src)", id).build());
        sink.add(method(id + "$copyFrom", doc, "Copies {@code src} into the start of {@code $L} (structure at byte {@code offset}); throws {@code IllegalArgumentException} if {@code src} is longer than $L bytes.", m.name(), length)
                .addParameter(MEMORY_SEGMENT, "s").addParameter(TypeName.LONG, "offset").addParameter(byte[].class, "src")
                .addStatement("if (src.length > $L) throw $T.tooLong($S, $S, $L, src.length)", length, layout, sname, m.name(), length)
                .addStatement("$T.copy(src, 0, s, $T.BYTE, offset + $LL, src.length)", MEMORY_SEGMENT, layout, m.byteOffset()).build());
    }

    // ---- nested structures -----------------------------------------------------------------

    private void nested(Member m, String id, MemberType.StructRef ref, CodeBlock about, TypeSpec.Builder type, List<MethodSpec> out) {
        CodeBlock full = about;
        about = seeDoc(id, "");
        long size = ref.targetBits() / 8;
        ClassName target = ctx.className(ref.target());
        type.addField(constant(id + "$BYTE_OFFSET", TypeName.LONG, m.byteOffset() + "L", "Byte offset of {@code $L}; pass it as the offset to {@link "
                + target.simpleName() + "}'s accessors.", m));
        out.add(method(id, about, "The nested {@link $T} {@code $L} of the structure at offset 0 of {@code s}, as a slice.", target, m.name())
                .returns(MEMORY_SEGMENT).addParameter(MEMORY_SEGMENT, "s")
                .addStatement("return $L(s, 0L)", id).build());
        out.add(method(id, full, "The nested {@link $T} {@code $L} of the structure at byte {@code offset} of {@code s}, as a slice.", target, m.name())
                .returns(MEMORY_SEGMENT).addParameter(MEMORY_SEGMENT, "s").addParameter(TypeName.LONG, "offset")
                .addStatement("return s.asSlice(offset + $LL, $LL)", m.byteOffset(), size).build());
    }

    // ---- arrays ----------------------------------------------------------------------------

    private void array(StructLayout struct, Member m, String id, MemberType.Array a, CodeBlock about, ClassName layout, boolean le,
            TypeSpec.Builder type, List<MethodSpec> out) {
        CodeBlock full = about;
        about = seeDoc(id + "$elem", ", long");
        type.addField(constant(id + "$COUNT", TypeName.INT, Integer.toString(a.count()),
                a.flexible() ? "Element count of {@code $L}: 0, a flexible array sized at run time." : "Element count of {@code $L}.", m));
        CodeBlock index = a.flexible() ? CodeBlock.of("") : CodeBlock.of("$T.checkIndex(index, $L);\n", java.util.Objects.class, a.count());
        String indexDoc = a.flexible() ? " The index is bounded only by the segment (flexible array)." : "";
        if (a.element() instanceof MemberType.StructRef ref) {
            long esize = ref.targetBits() / 8;
            ClassName target = ctx.className(ref.target());
            type.addField(constant(id + "$BYTE_OFFSET", TypeName.LONG, m.byteOffset() + "L", "Byte offset of element 0 of {@code $L}.", m));
            type.addField(constant(id + "$ELEMENT_SIZE", TypeName.LONG, esize + "L", "Size of one element of {@code $L} in bytes.", m));
            MethodSpec.Builder off = method(id + "$offset", about, "Byte offset of element {@code index} of {@code $L} within the structure." + indexDoc, m.name())
                    .returns(TypeName.LONG).addParameter(TypeName.LONG, "index");
            if (!a.flexible()) off.addStatement("$T.checkIndex(index, $L)", java.util.Objects.class, a.count());
            out.add(off.addStatement("return $LL + index * $LL", m.byteOffset(), esize).build());
            out.add(method(id + "$elem", about, "Element {@code index} ({@link $T}) of {@code $L} of the structure at offset 0 of {@code s}, as a slice.", target, m.name())
                    .returns(MEMORY_SEGMENT).addParameter(MEMORY_SEGMENT, "s").addParameter(TypeName.LONG, "index")
                    .addStatement("return $L$$elem(s, 0L, index)", id).build());
            out.add(method(id + "$elem", full, "Element {@code index} ({@link $T}) of {@code $L} of the structure at byte {@code offset} of {@code s}, as a slice." + indexDoc, target, m.name())
                    .returns(MEMORY_SEGMENT).addParameter(MEMORY_SEGMENT, "s").addParameter(TypeName.LONG, "offset").addParameter(TypeName.LONG, "index")
                    .addStatement("return s.asSlice(offset + $L$$offset(index), $LL)", id, esize).build());
            return;
        }
        int e = ((MemberType.Bits) a.element()).width();
        type.addField(constant(id + "$ELEMENT_BITS", TypeName.LONG, e + "L", "Width of one element of {@code $L} in bits.", m));
        if (m.bitOffset() % 8 == 0) type.addField(constant(id + "$BYTE_OFFSET", TypeName.LONG, m.byteOffset() + "L", "Byte offset of element 0 of {@code $L}.", m));
        ElementCode code = new ElementCode(layout, m.bitOffset(), e, le);
        TypeName jt = ScalarCode.javaType(e);
        out.add(method(id + "$elem", about, "Reads element {@code index} of {@code $L} of the structure at offset 0 of {@code s}." + indexDoc, m.name())
                .returns(jt).addParameter(MEMORY_SEGMENT, "s").addParameter(TypeName.LONG, "index")
                .addStatement("return $L$$elem(s, 0L, index)", id).build());
        out.add(method(id + "$elem", full, "Reads element {@code index} of {@code $L} of the structure at byte {@code offset} of {@code s}." + indexDoc, m.name())
                .returns(jt).addParameter(MEMORY_SEGMENT, "s").addParameter(TypeName.LONG, "offset").addParameter(TypeName.LONG, "index")
                .addCode(index).addCode(code.read()).build());
        List<MethodSpec> sink = writable(m) ? out : device; // ro/out: only the Device class may write it
        CodeBlock doc = writable(m) ? about : deviceDoc(id + "$elem", ", long");
        CodeBlock guard = new ScalarCode(layout, 0, e, le).outOfRange();
        String range = guard == null ? "" : " Accepts 0.." + Long.toUnsignedString((1L << e) - 1) + "; throws {@code IllegalArgumentException} for any other value.";
        sink.add(method(id + "$set", doc, "Writes element {@code index} of {@code $L} of the structure at offset 0 of {@code s}." + range, m.name())
                .addParameter(MEMORY_SEGMENT, "s").addParameter(TypeName.LONG, "index").addParameter(jt, "v")
                .addStatement("$L$$set(s, 0L, index, v)", id).build());
        MethodSpec.Builder checked = method(id + "$set", doc, "Writes element {@code index} of {@code $L} of the structure at byte {@code offset} of {@code s}." + range + indexDoc, m.name())
                .addParameter(MEMORY_SEGMENT, "s").addParameter(TypeName.LONG, "offset").addParameter(TypeName.LONG, "index").addParameter(jt, "v");
        if (guard != null) checked.addStatement("if ($L) throw $T.outOfRange($S, $S, $L, v)", guard, layout, struct.name().name(), m.name() + "[]", e);
        sink.add(checked.addStatement("$L$$setUnchecked(s, offset, index, v)", id).build());
        String keeps = e == 1 ? "" : ", keeping only the low " + e + " bits of {@code v}"; // a 1-bit element is a boolean
        sink.add(method(id + "$setUnchecked", doc, "Writes element {@code index} of {@code $L} (structure at offset 0)" + keeps + ".", m.name())
                .addParameter(MEMORY_SEGMENT, "s").addParameter(TypeName.LONG, "index").addParameter(jt, "v")
                .addStatement("$L$$setUnchecked(s, 0L, index, v)", id).build());
        sink.add(method(id + "$setUnchecked", doc, "Writes element {@code index} of {@code $L} (structure at byte {@code offset})" + keeps + "." + indexDoc, m.name())
                .addParameter(MEMORY_SEGMENT, "s").addParameter(TypeName.LONG, "offset").addParameter(TypeName.LONG, "index").addParameter(jt, "v")
                .addCode(index).addCode(code.write()).build());
    }

    // ---- whole structure -------------------------------------------------------------------

    private void wholeStruct(StructLayout struct, ClassName self, ClassName layout, List<MethodSpec> out) {
        TypeName strings = ParameterizedTypeName.get(LIST, STRING);
        ClassName predicate = ClassName.get(java.util.function.Predicate.class);
        TypeName caps = ParameterizedTypeName.get(predicate, STRING);
        out.add(MethodSpec.methodBuilder("clear").addModifiers(API)
                .addJavadoc("Zeroes the $L bytes of the structure at offset 0 of {@code s}.\n", struct.sizeBytes())
                .addParameter(MEMORY_SEGMENT, "s")
                .addStatement("clear(s, 0L)").build());
        out.add(MethodSpec.methodBuilder("clear").addModifiers(API)
                .addJavadoc("Zeroes the $L bytes of the structure at byte {@code offset} of {@code s}.\n", struct.sizeBytes())
                .addParameter(MEMORY_SEGMENT, "s").addParameter(TypeName.LONG, "offset")
                .addStatement("s.asSlice(offset, SIZE).fill((byte) 0)").build());
        out.add(MethodSpec.methodBuilder("validate").addModifiers(API)
                .addJavadoc("The rules, ranges, must-be-zero bits and capability gates the structure at offset 0 of {@code s}\n"
                        + "violates, one readable message each; empty when valid. Assumes every capability is present.\n")
                .returns(strings).addParameter(MEMORY_SEGMENT, "s")
                .addStatement("return $L.LAYOUT.validate(s, 0L, c -> true)", META).build());
        out.add(MethodSpec.methodBuilder("validate").addModifiers(API)
                .addJavadoc("Like {@link #validate($T)}, with {@code capabilities} telling which capability bits\n"
                        + "(named like {@code cmd_hca_cap.swp}) are set; a non-zero field whose capability is missing is reported.\n", MEMORY_SEGMENT)
                .returns(strings).addParameter(MEMORY_SEGMENT, "s").addParameter(caps, "capabilities")
                .addStatement("return $L.LAYOUT.validate(s, 0L, capabilities)", META).build());
        out.add(MethodSpec.methodBuilder("dump").addModifiers(API)
                .addJavadoc("A readable multi-line decoding of the structure at offset 0 of {@code s}: non-zero members with PRM\n"
                        + "position, name, hex value and enum name; non-zero reserved bits flagged with {@code !!}.\n")
                .returns(STRING).addParameter(MEMORY_SEGMENT, "s")
                .addStatement("return $L.LAYOUT.dump(s, 0L)", META).build());
    }

    // ---- metadata --------------------------------------------------------------------------

    /**
     * Most field descriptors built in one method: each costs about 70 bytes of bytecode, and a
     * method (the static initializer included) may hold 64 KiB.
     */
    static final int FIELDS_PER_METHOD = 250;

    /** For structures with many members: {@code fields()} and its chunks {@code fields$N(List)}. */
    private void chunkedFields(StructLayout struct, ClassName layout, List<MethodSpec> out) {
        List<Member> members = struct.members();
        if (members.size() <= FIELDS_PER_METHOD) return;
        TypeName list = ParameterizedTypeName.get(LIST, layout.nestedClass("Field"));
        MethodSpec.Builder all = MethodSpec.methodBuilder("fields").addModifiers(Modifier.PRIVATE, Modifier.STATIC).returns(list)
                .addStatement("$T out = new $T<>($L)", list, java.util.ArrayList.class, members.size());
        for (int c = 0; c * FIELDS_PER_METHOD < members.size(); c++) {
            all.addStatement("fields$$$L(out)", c);
            MethodSpec.Builder chunk = MethodSpec.methodBuilder("fields$" + c).addModifiers(Modifier.PRIVATE, Modifier.STATIC)
                    .addParameter(list, "out");
            for (int i = c * FIELDS_PER_METHOD; i < Math.min(members.size(), (c + 1) * FIELDS_PER_METHOD); i++) {
                chunk.addStatement("out.add($L)", fieldInit(struct, members.get(i), layout));
            }
            out.add(chunk.build());
        }
        out.add(all.addStatement("return out").build());
    }

    private CodeBlock layoutInit(StructLayout struct, ClassName self, ClassName layout) {
        CodeBlock.Builder b = CodeBlock.builder();
        b.add("new $T(\n", layout.nestedClass("Struct")).indent().indent();
        b.add("$S, $L, $LL, $T.$L,\n", struct.name().toString(), struct.isUnion(), struct.sizeBytes(), ByteOrder.class,
                struct.byteOrder() == ByteOrder.LITTLE_ENDIAN ? "LITTLE_ENDIAN" : "BIG_ENDIAN");
        List<Member> members = struct.members();
        if (members.size() > FIELDS_PER_METHOD) {
            b.add("fields(),\n"); // built in chunks: one initializer for every field would overflow a method
        } else {
            b.add("$T.of(\n", List.class).indent();
            for (int i = 0; i < members.size(); i++) {
                b.add(fieldInit(struct, members.get(i), layout));
                b.add(i + 1 < members.size() ? ",\n" : "),\n");
            }
            if (members.isEmpty()) b.add("),\n");
            b.unindent();
        }
        b.add("$T.of(", List.class);
        List<Rule> rules = struct.rules();
        if (!rules.isEmpty()) b.add("\n").indent();
        for (int i = 0; i < rules.size(); i++) {
            Rule r = rules.get(i);
            b.add("new $T($S, $L, $L, $S, $T::$L)", layout.nestedClass("Rule"), r.name(), Javadocs.literal(r.condition().source()), Javadocs.literal(r.message()),
                    Javadocs.source(r.location()), self, ruleMethod(r));
            b.add(i + 1 < rules.size() ? ",\n" : "");
        }
        if (!rules.isEmpty()) b.unindent();
        b.add("),\n");
        b.add("$L, $L, $S", Javadocs.literal(struct.doc().text()), Javadocs.literal(struct.doc().prmRef()), Javadocs.source(struct.location()));
        if (!struct.joins().isEmpty()) {
            b.add(",\n$T.of(", List.class).indent();
            for (int i = 0; i < struct.joins().size(); i++) {
                io.prmkit.dsl.ir.Join j = struct.joins().get(i);
                b.add("\nnew $T($S, $L, $T.of(", layout.nestedClass("Join"), j.name(), j.bitWidth(), List.class);
                for (int k = 0; k < j.parts().size(); k++) {
                    b.add("$Lnew $T($S, $L)", k == 0 ? "" : ", ", layout.nestedClass("JoinPart"), j.parts().get(k).field(), j.parts().get(k).shift());
                }
                b.add("), $S, 0x$LL, $L, $L, $S)$L", j.enumType().map(Object::toString).orElse(""), Long.toHexString(j.mask()),
                        j.enumType().map(this::valueName).orElse(CodeBlock.of("null")),
                        Javadocs.literal(j.doc().text()), Javadocs.source(j.location()), i + 1 < struct.joins().size() ? "," : "");
            }
            b.unindent().add(")");
        }
        b.add(")");
        return b.unindent().unindent().build();
    }

    /** {@code Enum::nameOf}, or {@code Flags::describe}: what names a value of a member or join bound to {@code named}. */
    private CodeBlock valueName(QualifiedName named) {
        EnumLayout e = ctx.enumType(named);
        return CodeBlock.of("$T::$L", ctx.className(e.name()), e.kind() == EnumLayout.Kind.FLAGS ? "describe" : "nameOf");
    }

    private CodeBlock fieldInit(StructLayout struct, Member m, ClassName layout) {
        String kind;
        long elementBits;
        int count = 1;
        boolean flexible = false;
        QualifiedName target = null;
        MemberType t = m.type();
        if (t instanceof MemberType.Array a) {
            count = a.count();
            flexible = a.flexible();
            elementBits = a.element().bitWidth();
            if (a.element() instanceof MemberType.StructRef r) {
                kind = "STRUCT_ARRAY";
                target = r.target();
            } else {
                kind = "BITS_ARRAY";
            }
        } else {
            elementBits = t.bitWidth();
            if (t instanceof MemberType.Bits) kind = "BITS";
            else if (t instanceof MemberType.Bytes) kind = "BYTES";
            else {
                kind = "STRUCT";
                target = ((MemberType.StructRef) t).target();
            }
        }
        CodeBlock valueName = m.enumType().or(m::flagsType).map(this::valueName).orElse(CodeBlock.of("null"));
        CodeBlock targetInit = CodeBlock.of("$T.empty()", Optional.class);
        if (target != null) { // the model holds it (LayoutModel); one PrmLayout type, so any package's will do
            targetInit = CodeBlock.of("$T.of($T.layout())", Optional.class, ctx.className(target));
        }
        return CodeBlock.builder()
                .add("new $T($S, $T.Kind.$L, $LL, $LL, $LL, $L, $L, $L, $T.Access.$L,\n", layout.nestedClass("Field"), m.name(), layout, kind,
                        m.bitOffset(), m.bitWidth(), elementBits, count, flexible, m.reserved(), layout, m.access().name())
                .indent().indent()
                .add("$S, $S, $L, $L, $S, $S,\n", m.enumType().map(Object::toString).orElse(""), m.flagsType().map(Object::toString).orElse(""),
                        valueName, constraintsInit(m, layout), m.capability().map(StructEmitter::capability).orElse(""), m.selector())
                .add("$L, $L, $S,\n", variantInit(m.variant(), layout), targetInit, target == null ? "" : target.toString())
                .add("$L, $L, $S, $S)", Javadocs.literal(m.doc().text()), Javadocs.literal(m.doc().prmRef()), m.prmPosition(), Javadocs.source(m.location()))
                .unindent().unindent()
                .build();
    }

    private static CodeBlock constraintsInit(Member m, ClassName layout) {
        Constraints c = m.constraints();
        boolean mbz = c.mustBeZero() || m.reserved();
        if (c.min().isEmpty() && c.max().isEmpty() && !c.powerOfTwo() && !c.log2()) {
            return CodeBlock.of("$T.Constraints.$L", layout, mbz ? "MBZ" : "NONE");
        }
        return CodeBlock.of("new $T($L, $L, $L, $L, $L)", layout.nestedClass("Constraints"),
                optionalLong(c.min()), optionalLong(c.max()), c.powerOfTwo(), c.log2(), mbz);
    }

    private static CodeBlock optionalLong(java.util.OptionalLong v) {
        return v.isPresent() ? CodeBlock.of("$T.of($L)", java.util.OptionalLong.class, ScalarCode.hex64(v.getAsLong()))
                : CodeBlock.of("$T.empty()", java.util.OptionalLong.class);
    }

    private static CodeBlock variantInit(Optional<Variant> variant, ClassName layout) {
        if (variant.isEmpty()) return CodeBlock.of("$T.empty()", Optional.class);
        Variant v = variant.get();
        return CodeBlock.of("$T.of(new $T($S, $S, $S, $L))", Optional.class, layout.nestedClass("Variant"), v.union(), v.alternative(),
                v.selector(), optionalLong(v.tag()));
    }
}

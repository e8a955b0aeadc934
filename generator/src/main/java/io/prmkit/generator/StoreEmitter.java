package io.prmkit.generator;

import static io.prmkit.generator.GeneratorContext.MEMORY_SEGMENT;

import com.palantir.javapoet.ClassName;
import com.palantir.javapoet.CodeBlock;
import com.palantir.javapoet.MethodSpec;
import com.palantir.javapoet.ParameterizedTypeName;
import com.palantir.javapoet.TypeName;
import io.prmkit.dsl.ir.Member;
import io.prmkit.dsl.ir.MemberType;
import io.prmkit.dsl.ir.StructLayout;
import io.prmkit.dsl.ir.Variant;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import javax.lang.model.element.Modifier;

/**
 * Emits the static whole-structure stores of a small structure, next to its {@code Writer}:
 * {@code store(s, offset, PrmField.a, a, PrmField.b, b, ...)} takes one named argument per settable bit
 * field, in layout order, and stores every dword of the structure once (64-bit stores where the writer makes them, through the
 * writer's own var handles, so one bounds check covers the structure). The state lives in the caller's
 * registers, as with rdma-core's {@code mlx5dv_set_ctrl_seg}: a long-lived {@code Writer}'s setters are
 * stores to its heap fields, which a hot loop pays for on every packet.
 *
 * <p>Each value follows its field's name, a {@code PrmField<PrmField.name>} (one type per field name,
 * {@link FieldNamesEmitter}), so a call no longer compiles once the spec reorders, renames, inserts or
 * removes a field of the structure: positional arguments of one type would be silently re-assigned.
 * The names are never read, so C2 drops them with the call inlined.
 *
 * <p>A structure with a tagged inline union gets one store per alternative ({@code store$inline_hdr},
 * one per combination when there are several unions), which sets the selector to the alternative's tag
 * and does not take it as an argument. A union declaration or a structure with an untagged union gets
 * no store (which alternative to write would be a guess); nor does one whose arguments would not fit a
 * Java method (255 slots).
 */
final class StoreEmitter {
    /** Most alternatives (or combinations of them) that get a store each. */
    static final int MAX_VARIANTS = 64;
    /** Java's limit on parameter slots, {@code long} counting two; the segment and offset take three. */
    private static final int MAX_SLOTS = 255 - 3;
    /** The per-package class of field names ({@link FieldNamesEmitter}). */
    static final String FIELD_CLASS = "PrmField";

    /** One store: the alternatives it writes ("" without unions), its arguments, the selector values it sets. */
    record Form(String suffix, String about, List<Member> params, Map<Member, Long> tags) {}

    private StoreEmitter() {}

    /**
     * The stores {@code struct} gets: the driver's ({@code device == false}, arguments for the fields
     * software writes) or the device's (every non-reserved bit field). Empty when it gets none.
     */
    static List<Form> forms(StructLayout struct, boolean device) {
        if (!WriterEmitter.applies(struct, device) || struct.isUnion()) return List.of();
        Map<String, Map<String, Long>> unions = new LinkedHashMap<>(); // union -> alternative -> tag
        Map<String, Member> selectors = new LinkedHashMap<>();
        for (Member m : struct.members()) {
            if (m.variant().isEmpty()) continue;
            Variant v = m.variant().get();
            if (v.tag().isEmpty()) return List.of(); // untagged: no way to know which alternative is meant
            Member sel = struct.members().stream().filter(x -> x.name().equals(v.selector())).findFirst().orElse(null);
            if (sel == null || !settable(sel, device) || sel.variant().isPresent()) return List.of();
            selectors.put(v.union(), sel);
            unions.computeIfAbsent(v.union(), u -> new LinkedHashMap<>()).putIfAbsent(v.alternative(), v.tag().getAsLong());
        }
        for (Member m : struct.members()) {
            if (!settable(m, device)) continue;
            int w = ((MemberType.Bits) m.type()).width();
            long bit = m.bitOffset();
            if (w <= 32 ? (bit & 31) + w > 32 : (bit & 31) != 0) return List.of(); // not dword-placed (GeneratorChecks reports it)
        }
        // every combination of one alternative per union
        List<Map<String, String>> combos = new ArrayList<>();
        combos.add(new LinkedHashMap<>());
        for (Map.Entry<String, Map<String, Long>> u : unions.entrySet()) {
            List<Map<String, String>> next = new ArrayList<>();
            for (Map<String, String> c : combos) {
                for (String alt : u.getValue().keySet()) {
                    Map<String, String> n = new LinkedHashMap<>(c);
                    n.put(u.getKey(), alt);
                    next.add(n);
                }
            }
            combos = next;
            if (combos.size() > MAX_VARIANTS) return List.of();
        }
        Set<Member> selectorSet = Set.copyOf(selectors.values());
        List<Form> out = new ArrayList<>();
        for (Map<String, String> c : combos) {
            List<Member> params = new ArrayList<>();
            int slots = 0;
            for (Member m : struct.members()) {
                if (!settable(m, device) || selectorSet.contains(m)) continue;
                if (m.variant().isPresent() && !m.variant().get().alternative().equals(c.get(m.variant().get().union()))) continue;
                params.add(m);
                slots += 1 + (((MemberType.Bits) m.type()).width() > 32 ? 2 : 1); // its name, then its value
            }
            if (slots > MAX_SLOTS) return List.of();
            Map<Member, Long> tags = new LinkedHashMap<>();
            StringBuilder suffix = new StringBuilder();
            List<String> about = new ArrayList<>();
            for (Map.Entry<String, String> e : c.entrySet()) {
                Member sel = selectors.get(e.getKey());
                long tag = unions.get(e.getKey()).get(e.getValue());
                tags.put(sel, tag);
                suffix.append('$').append(e.getValue());
                about.add("alternative {@code " + Javadocs.escape(e.getValue()) + "} of union {@code " + Javadocs.escape(e.getKey())
                        + "}, with {@code " + Javadocs.escape(sel.name()) + "} set to " + tag);
            }
            out.add(new Form(suffix.toString(), String.join("; ", about), params, tags));
        }
        return out;
    }

    /**
     * The Java names ({@link #marker}) of the fields the stores of {@code struct} take (driver's and device's), for
     * {@link FieldNamesEmitter}. Two spec names of one Java name ({@code clear}, {@code clear_}: both accessors are
     * {@code clear_}) share it.
     */
    static Set<String> fieldNames(StructLayout struct) {
        Set<String> names = new java.util.TreeSet<>();
        for (boolean device : new boolean[] {false, true}) {
            for (Form f : forms(struct, device)) f.params().forEach(m -> names.add(marker(m.name())));
        }
        return names;
    }

    /** The Java name of field {@code name}'s marker in {@code PrmField} (its accessor's name; a nested type cannot take its class's). */
    static String marker(String name) {
        String id = Names.member(name);
        return id.equals(FIELD_CLASS) ? id + "_" : id;
    }

    private static boolean settable(Member m, boolean device) {
        return m.type() instanceof MemberType.Bits && !m.reserved() && (device || m.access().writable());
    }

    /**
     * Adds {@code store[$alt](s[, offset], ...)} and {@code storeUnchecked[$alt](...)} to {@code methods}
     * (of the structure's class, or of its {@code Device} class when {@code device}); {@code writer} is the
     * class whose var handles the stores use.
     */
    static void emit(StructLayout struct, ClassName self, ClassName layout, ClassName writer, List<MethodSpec> methods, boolean device) {
        for (Form f : forms(struct, device)) {
            for (boolean checked : new boolean[] {true, false}) method(struct, self, layout, writer, f, checked, methods, device);
        }
    }

    private static void method(StructLayout struct, ClassName self, ClassName layout, ClassName writer, Form f, boolean checked,
            List<MethodSpec> methods, boolean device) {
        String name = (checked ? "store" : "storeUnchecked") + f.suffix();
        String sname = struct.name().name();
        int dwords = (int) (struct.sizeBytes() / 4);
        boolean le = struct.byteOrder() == ByteOrder.LITTLE_ENDIAN;
        // Arguments are named like their fields, but for a name the body also uses (the segment, the offset, the
        // classes it calls through): such a field's argument gets a '$' (no member name has one).
        Set<String> taken = new java.util.HashSet<>(List.of("s", "offset", layout.simpleName(), writer.simpleName(), "Device", self.topLevelClassName().simpleName()));
        List<String> ids = f.params().stream().map(m -> Names.member(m.name())).map(id -> taken.contains(id) ? id + "$" : id).toList();
        String seg = "s";
        String off = "offset";

        MethodSpec.Builder full = MethodSpec.methodBuilder(name).addModifiers(Modifier.PUBLIC, Modifier.STATIC);
        if (!checked) { // described once, on the checked store
            full.addJavadoc("Same as {@code store$L}, but keeps only the low bits of each value that fit its field, like\n"
                    + "{@code MLX5_SET}, and checks only the bounds.\n", f.suffix());
        } else full
                .addJavadoc("Stores the whole {@code $L} ($L bytes) at byte {@code offset} of {@code s}, each dword once, from one\n"
                        + "argument per $L bit field in layout order (each described at its getter$L), each after its\n"
                        + "field's name ({@code $T.name}, never read: a call whose names are not the fields in order does not compile).\n"
                        + "Reserved bits$L, byte arrays, arrays and nested structures are written as 0: set them after.\n",
                        sname, struct.sizeBytes(), device ? "non-reserved" : "writable",
                        f.params().isEmpty() ? "" : CodeBlock.of(", e.g. {@link $T#$L($T, long)}", self.topLevelClassName(), Names.member(f.params().get(0).name()), MEMORY_SEGMENT),
                        ClassName.get(self.packageName(), FIELD_CLASS),
                        !device && struct.members().stream().anyMatch(m -> !m.reserved() && !m.access().writable()) ? ", fields the device writes" : "")
                .addJavadoc(f.about().isEmpty() ? "" : "Writes " + f.about() + ".\n")
                .addJavadoc("Checks each value like its {@code $$set} (an {@code IllegalArgumentException} names the field) and the\n"
                        + "bounds first: on either error nothing is written.\n");
        full.addParameter(MEMORY_SEGMENT, seg).addParameter(TypeName.LONG, off);
        MethodSpec.Builder zero = MethodSpec.methodBuilder(name).addModifiers(Modifier.PUBLIC, Modifier.STATIC)
                .addJavadoc("Same as {@code $L(s, 0L, ...)}: the structure at offset 0 of {@code s}.\n", name)
                .addParameter(MEMORY_SEGMENT, seg);
        ClassName fields = ClassName.get(self.packageName(), FIELD_CLASS);
        StringBuilder forward = new StringBuilder();
        for (int i = 0; i < ids.size(); i++) {
            Member m = f.params().get(i);
            TypeName jt = ScalarCode.javaType(((MemberType.Bits) m.type()).width());
            // the field's name first, never read: only the compiler looks at its type
            TypeName nt = ParameterizedTypeName.get(fields, fields.nestedClass(marker(m.name())));
            String nid = Names.member(m.name()) + "$field"; // no member name has a '$': distinct from every value's name
            full.addParameter(nt, nid).addParameter(jt, ids.get(i));
            zero.addParameter(nt, nid).addParameter(jt, ids.get(i));
            forward.append(", ").append(nid).append(", ").append(ids.get(i));
        }
        zero.addStatement("$L($L, 0L$L)", name, seg, forward);

        if (checked) {
            for (int i = 0; i < ids.size(); i++) {
                int w = ((MemberType.Bits) f.params().get(i).type()).width();
                if (w == 1 || w == 32 || w == 64) continue;
                full.addStatement("if (($L >>> $L) != $L) throw $T.outOfRange($S, $S, $L, $L)", ids.get(i), w, w < 32 ? "0" : "0L", layout,
                        sname, f.params().get(i).name(), w, ids.get(i));
            }
        }
        // per dword: the terms of its fields, and the constant bits of the selectors
        List<List<String>> terms = new ArrayList<>();
        long[] constant = new long[dwords];
        for (int k = 0; k < dwords; k++) terms.add(new ArrayList<>());
        WriterEmitter.Words words = new WriterEmitter.Words(dwords, le);
        for (int i = 0; i < ids.size(); i++) terms(words, f.params().get(i), ids.get(i), checked, terms);
        for (Map.Entry<Member, Long> t : f.tags().entrySet()) place(t.getKey(), t.getValue(), constant);
        for (int k = 0; k < dwords; k += 2) {
            boolean isLong = words.isLong(k);
            List<String> all = new ArrayList<>(terms.get(k));
            long c = constant[k] << words.half(k);
            if (isLong) {
                all.addAll(terms.get(k + 1));
                c |= constant[k + 1] << words.half(k + 1);
            }
            if (c != 0 || all.isEmpty()) all.add(isLong ? ScalarCode.hex64(c) : ScalarCode.hex32(c));
            String handle = (isLong ? "q" : "d") + k;
            full.addStatement("$T.$L.set($L, $L, $L)", writer, handle.toUpperCase(java.util.Locale.ROOT), seg, off, String.join(" | ", all));
        }
        methods.add(zero.build());
        methods.add(full.build());
    }

    /** Adds the terms that place argument {@code id} (field {@code m}) in its dwords, as long (int for an odd last dword) expressions in place. */
    private static void terms(WriterEmitter.Words words, Member m, String id, boolean checked, List<List<String>> terms) {
        int w = ((MemberType.Bits) m.type()).width();
        long bit = m.bitOffset();
        int k = (int) (bit >>> 5);
        boolean isLong = words.isLong(k);
        int h = words.half(k);
        if (w == 1) {
            long b = 1L << (31 - (bit & 31) + h);
            terms.get(k).add(isLong ? "(" + id + " ? " + ScalarCode.hex64(b) + " : 0L)" : "(" + id + " ? " + ScalarCode.hex32(b) + " : 0)");
        } else if (w <= 32) {
            int sh = 32 - w - (int) (bit & 31);
            String mask = w == 32 || checked ? null : ScalarCode.hex64((1L << w) - 1);
            if (!isLong) {
                String v = mask == null ? id : "(" + id + " & " + ScalarCode.hex32((1L << w) - 1) + ")";
                terms.get(k).add(sh == 0 ? v : "(" + v + " << " + sh + ")");
            } else if (w == 32) {
                terms.get(k).add(h == 32 ? "((long) " + id + " << 32)" : "(" + id + " & 0xffffffffL)");
            } else {
                String v = mask == null ? "(long) " + id : "(" + id + " & " + mask + ")";
                terms.get(k).add(sh + h == 0 ? "(" + v + ")" : "(" + v + " << " + (sh + h) + ")");
            }
        } else {
            int sh = 64 - w; // x = v << sh holds the field in its top w bits: dword k is x's high half, dword k + 1 its low half
            String x = sh == 0 ? id : "(" + id + " << " + sh + ")";
            if (words.wholePair(k)) {
                terms.get(k).add(x);
                return;
            }
            terms.get(k).add(h == 32 ? "(" + x + " & 0xffffffff00000000L)" : "(" + x + " >>> 32)");
            int h1 = words.half(k + 1);
            if (!words.isLong(k + 1)) terms.get(k + 1).add("(int) " + x);
            else terms.get(k + 1).add(h1 == 32 ? "(" + x + " << 32)" : "(" + x + " & 0xffffffffL)");
        }
    }

    /** Puts constant {@code value} of bit field {@code m} into the dword values {@code dw} (each in its low 32 bits). */
    private static void place(Member m, long value, long[] dw) {
        int w = ((MemberType.Bits) m.type()).width();
        long bit = m.bitOffset();
        int k = (int) (bit >>> 5);
        if (w <= 32) {
            dw[k] |= (value & ((1L << w) - 1)) << (32 - w - (bit & 31));
        } else {
            long x = value << (64 - w);
            dw[k] |= x >>> 32;
            dw[k + 1] |= x & 0xffffffffL;
        }
    }
}

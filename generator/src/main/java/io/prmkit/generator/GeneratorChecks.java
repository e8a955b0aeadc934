package io.prmkit.generator;

import com.palantir.javapoet.ClassName;
import io.prmkit.dsl.Diagnostic;
import io.prmkit.dsl.ir.EnumLayout;
import io.prmkit.dsl.ir.Expr;
import io.prmkit.dsl.ir.LayoutModel;
import io.prmkit.dsl.ir.Member;
import io.prmkit.dsl.ir.MemberType;
import io.prmkit.dsl.ir.QualifiedName;
import io.prmkit.dsl.ir.Rule;
import io.prmkit.dsl.ir.StructLayout;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Everything that can stop a valid layout model from becoming Java, found before any code is
 * emitted, each as a located {@link Diagnostic}: declarations or members whose Java names collide,
 * and members whose placement the accessors cannot express. The emitters assume a model that
 * passed these checks.
 */
final class GeneratorChecks {
    private final GeneratorContext ctx;
    private final List<Diagnostic> out = new ArrayList<>();

    private GeneratorChecks(GeneratorContext ctx) {
        this.ctx = ctx;
    }

    static List<Diagnostic> run(GeneratorContext ctx, LayoutModel model) {
        GeneratorChecks c = new GeneratorChecks(ctx);
        c.classNames(model);
        for (StructLayout s : model.structs()) c.struct(s);
        for (EnumLayout e : model.enums()) c.enumType(e);
        return List.copyOf(c.out);
    }

    /** Two declarations must not map to one class, nor to a support class name. */
    private void classNames(LayoutModel model) {
        Map<ClassName, Declared> owners = new TreeMap<>(Comparator.comparing(ClassName::canonicalName));
        List<Declared> declared = new ArrayList<>();
        model.structs().forEach(s -> declared.add(new Declared(s.name(), s.location())));
        model.enums().forEach(e -> declared.add(new Declared(e.name(), e.location())));
        for (Declared d : declared) {
            ClassName cn = ctx.className(d.name());
            String simple = cn.simpleName();
            if (simple.equals(GeneratorContext.LAYOUT_CLASS) || simple.equals(GeneratorContext.CONSTANTS_CLASS)) {
                out.add(Diagnostic.error(d.at(), "'" + d.name().name() + "' becomes class " + simple
                        + ", the name of a generated support class; rename it"));
                continue;
            }
            if (NESTED_CLASSES.contains(simple)) {
                out.add(Diagnostic.error(d.at(), "'" + d.name().name() + "' becomes class " + simple
                        + ", the name of a class generated inside structure classes; rename it"));
                continue;
            }
            Declared prev = owners.putIfAbsent(cn, d);
            if (prev != null) {
                out.add(Diagnostic.error(d.at(), "'" + d.name().name() + "' and '" + prev.name().name() + "' both become class "
                        + cn.canonicalName() + "; rename one", new Diagnostic.Related(prev.at(), "'" + prev.name().name() + "' declared here")));
            }
        }
    }

    /** Classes nested in every structure class that may have them; a Java class cannot enclose its namesake. */
    private static final java.util.Set<String> NESTED_CLASSES = java.util.Set.of("Writer", "Device", StructEmitter.META);

    private record Declared(QualifiedName name, io.prmkit.dsl.SourceLocation at) {}

    private void struct(StructLayout s) {
        Map<String, Member> ids = new HashMap<>();
        for (Member m : s.members()) {
            if (m.reserved()) continue;
            String id = Names.member(m.name());
            Member prev = ids.putIfAbsent(id, m);
            if (prev != null) {
                out.add(Diagnostic.error(m.location(), "members '" + prev.name() + "' and '" + m.name() + "' of " + s.name().name()
                        + " both become Java accessors named " + id + "; rename one", new Diagnostic.Related(prev.location(), "'" + prev.name() + "' declared here")));
            }
            placement(s, m);
        }
        for (Rule r : s.rules()) ruleFields(s, r, r.condition());
    }

    private void placement(StructLayout s, Member m) {
        String what = "'" + m.name() + "'";
        MemberType t = m.type();
        if (t instanceof MemberType.Bits b) {
            int w = b.width();
            long p = m.bitOffset() & 31;
            if (w <= 32 ? p + w > 32 : p != 0) {
                error(m, what + ": a " + w + "-bit field at " + bitRange(m)
                        + (w <= 32 ? " crosses a dword boundary" : " must start on a dword boundary"));
            }
            if (m.enumType().isPresent() && ctx.enumType(m.enumType().get()).isEmpty()) error(m, what + ": unknown enum " + m.enumType().get());
            if (m.flagsType().isPresent() && ctx.enumType(m.flagsType().get()).isEmpty()) error(m, what + ": unknown flag set " + m.flagsType().get());
        } else if (t instanceof MemberType.Bytes) {
            if (m.bitOffset() % 8 != 0) error(m, what + ": byte array at " + m.prmPosition() + " is not byte-aligned");
        } else if (t instanceof MemberType.Array a) {
            if (a.element() instanceof MemberType.StructRef) {
                if (m.bitOffset() % 8 != 0) error(m, what + ": array of structures at " + m.prmPosition() + " is not byte-aligned");
            } else if (a.element() instanceof MemberType.Bits b) {
                if (!elementsPlaceable(m.bitOffset(), b.width(), a)) {
                    error(m, what + ": elements of " + b.width() + " bits at " + bitRange(m)
                            + " would cross dword boundaries (element widths must divide 32, or be 64 bits dword-aligned)");
                }
            } else {
                error(m, what + ": arrays of " + a.element().getClass().getSimpleName() + " are not supported");
            }
        }
    }

    private void ruleFields(StructLayout s, Rule r, Expr e) {
        if (e instanceof Expr.FieldValue f) {
            if (s.member(f.field()).filter(Member::isScalar).isEmpty()) {
                out.add(Diagnostic.error(r.location(), "rule " + r.name() + " refers to " + f.field() + ", which is not a bit field of " + s.name().name()));
            }
        } else if (e instanceof Expr.Unary u) {
            ruleFields(s, r, u.operand());
        } else if (e instanceof Expr.Binary b) {
            ruleFields(s, r, b.left());
            ruleFields(s, r, b.right());
        }
    }

    private void enumType(EnumLayout e) {
        Map<String, EnumLayout.EnumValue> ids = new HashMap<>();
        int width = e.width() == 0 ? 64 : e.width();
        for (EnumLayout.EnumValue v : e.values()) {
            String id = Names.enumConstant(v.name());
            EnumLayout.EnumValue prev = ids.putIfAbsent(id, v);
            if (prev != null) {
                out.add(Diagnostic.error(v.location(), "values '" + prev.name() + "' and '" + v.name() + "' of " + e.name().name()
                        + " both become Java constant " + id + "; rename one", new Diagnostic.Related(prev.location(), "'" + prev.name() + "' declared here")));
            }
            if (e.kind() == EnumLayout.Kind.FLAGS && (v.value() < 0 || v.value() >= width)) {
                out.add(Diagnostic.error(v.location(), "flag '" + v.name() + "' of " + e.name().name() + ": bit " + v.value() + " is outside 0.." + (width - 1)));
            }
        }
    }

    private void error(Member m, String message) {
        out.add(Diagnostic.error(m.location(), message));
    }

    static String bitRange(Member m) {
        return String.format("bits 0x%x..0x%x", m.bitOffset(), m.bitEnd() - 1);
    }

    /** Whether every element stays inside one dword (up to 32 bits) or starts on one (64 bits). */
    static boolean elementsPlaceable(long bit, int e, MemberType.Array a) {
        if (e > 32) return e == 64 && bit % 32 == 0;
        if (a.flexible()) return 32 % e == 0 && (bit & 31) % e == 0;
        for (long i = 0; i < a.count(); i++) {
            long p = (bit + i * e) & 31;
            if (p + e > 32) return false;
        }
        return true;
    }
}

package io.prmkit.generator;

import com.palantir.javapoet.ClassName;
import io.prmkit.dsl.Diagnostic;
import io.prmkit.dsl.ir.EnumLayout;
import io.prmkit.dsl.ir.LayoutModel;
import io.prmkit.dsl.ir.Member;
import io.prmkit.dsl.ir.QualifiedName;
import io.prmkit.dsl.ir.StructLayout;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What can stop a layout model from becoming Java although the IR accepts it, found before any code
 * is emitted, each as a {@link Diagnostic} at the declaration concerned: declarations, members or
 * enum values whose Java names collide, and names taken by the generated support and nested
 * classes. Placement, sizes, rule fields and enum references are the IR's own invariants (its
 * records refuse anything else), so they are not checked again here.
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
        }
    }

    private void enumType(EnumLayout e) {
        Map<String, EnumLayout.EnumValue> ids = new HashMap<>();
        for (EnumLayout.EnumValue v : e.values()) {
            String id = Names.enumConstant(v.name());
            EnumLayout.EnumValue prev = ids.putIfAbsent(id, v);
            if (prev != null) {
                out.add(Diagnostic.error(v.location(), "values '" + prev.name() + "' and '" + v.name() + "' of " + e.name().name()
                        + " both become Java constant " + id + "; rename one", new Diagnostic.Related(prev.location(), "'" + prev.name() + "' declared here")));
            }
        }
    }
}

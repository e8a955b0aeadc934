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
 * enum values or constants whose Java names collide, names taken by the generated support and nested
 * classes, and Java packages no class can be generated into. Placement, sizes, rule fields and enum references are the IR's own invariants (its
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
        c.packages(model);
        c.classNames(model);
        c.constants(model);
        for (StructLayout s : model.structs()) c.struct(s);
        for (EnumLayout e : model.enums()) c.enumType(e);
        c.commandNames(model);
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
            if (simple.equals(GeneratorContext.LAYOUT_CLASS) || simple.equals(GeneratorContext.CONSTANTS_CLASS)
                    || simple.equals(StoreEmitter.FIELD_CLASS)) {
                out.add(Diagnostic.error(d.at(), "'" + d.name().name() + "' becomes class " + simple
                        + (simple.equals(GeneratorContext.LAYOUT_CLASS) ? ", the name of the support class every generated class imports ("
                                + GeneratorContext.PRM_LAYOUT.canonicalName() + ")" : ", the name of a generated support class") + "; rename it"));
                continue;
            }
            if (NESTED_CLASSES.contains(simple)) {
                out.add(Diagnostic.error(d.at(), "'" + d.name().name() + "' becomes class " + simple
                        + ", the name of a class generated inside structure classes; rename it"));
                continue;
            }
            // javac writes Name$Writer.class beside Name.java; most file systems take 255 bytes a file name
            if (simple.getBytes(java.nio.charset.StandardCharsets.UTF_8).length > MAX_CLASS_NAME_BYTES) {
                out.add(Diagnostic.error(d.at(), "the class of '" + d.name().name().substring(0, 20) + "...' would have a "
                        + simple.length() + "-character name, too long for its files (" + simple.substring(0, 8) + "...$Writer.class; "
                        + "a file name holds 255 bytes): shorten it to " + MAX_CLASS_NAME_BYTES + " characters at most"));
                continue;
            }
            Declared prev = owners.putIfAbsent(cn, d);
            if (prev != null) {
                out.add(Diagnostic.error(d.at(), "'" + d.name().name() + "' and '" + prev.name().name() + "' both become class "
                        + cn.canonicalName() + "; rename one", new Diagnostic.Related(prev.at(), "'" + prev.name().name() + "' declared here")));
            }
        }
    }

    /**
     * A Java package classes can be generated into: the JVM refuses to define classes in {@code java}
     * and {@code java.*} (SecurityException: Prohibited package name), and a package a JDK module
     * owns ({@code javax.crypto}, {@code sun.misc}) is looked up in that module, never on the class
     * path, so the generated classes would not be found. Reported once per package, at its first declaration.
     */
    private void packages(LayoutModel model) {
        Map<String, io.prmkit.dsl.SourceLocation> first = new java.util.LinkedHashMap<>();
        model.structs().forEach(s -> first.putIfAbsent(ctx.javaPackage(s.name()), s.location()));
        model.enums().forEach(e -> first.putIfAbsent(ctx.javaPackage(e.name()), e.location()));
        model.constants().forEach(c -> first.putIfAbsent(ctx.javaPackage(c.name()), c.location()));
        first.forEach((pkg, at) -> {
            String fix = "; rename the spec package (or give a --package prefix)";
            if (pkg.equals("java") || pkg.startsWith("java.")) {
                out.add(Diagnostic.error(at, "package " + pkg + ": the JVM refuses classes in java and java.* packages" + fix));
            } else if (JdkPackages.OWNERS.containsKey(pkg)) {
                out.add(Diagnostic.error(at, "package " + pkg + " belongs to the JDK's module " + JdkPackages.OWNERS.get(pkg)
                        + ": classes generated into it would not be found" + fix));
            }
        });
    }

    /** The packages of the JDK's modules (this JDK's: a later one adds some, rarely under a spec's names). */
    private static final class JdkPackages {
        static final Map<String, String> OWNERS = new HashMap<>();

        static {
            for (java.lang.module.ModuleReference m : java.lang.module.ModuleFinder.ofSystem().findAll()) {
                for (String p : m.descriptor().packages()) OWNERS.putIfAbsent(p, m.descriptor().name());
            }
        }
    }

    /** Constants of the spec packages that share a Java package share its PrmConstants: their Java names must differ. */
    private void constants(LayoutModel model) {
        Map<String, io.prmkit.dsl.ir.Constant> ids = new HashMap<>();
        for (io.prmkit.dsl.ir.Constant c : model.constants()) {
            String pkg = ctx.javaPackage(c.name());
            String id = Names.identifier(c.name().name());
            io.prmkit.dsl.ir.Constant prev = ids.putIfAbsent(pkg + "." + id, c);
            if (prev != null) {
                boolean samePackage = prev.name().pkg().equals(c.name().pkg());
                String a = samePackage ? prev.name().name() : prev.name().toString();
                String b = samePackage ? c.name().name() : c.name().toString();
                out.add(Diagnostic.error(c.location(), "constants '" + a + "' and '" + b + "' both become Java constant "
                        + (pkg.isEmpty() ? "" : pkg + ".") + GeneratorContext.CONSTANTS_CLASS + "." + id + "; rename one",
                        new Diagnostic.Related(prev.location(), "'" + a + "' declared here")));
            }
        }
    }

    /** The longest class name whose files ({@code Name$Writer.class}, the doc's {@code structs/pkg.name.html}) fit 255 bytes. */
    static final int MAX_CLASS_NAME_BYTES = 200;

    /** Commands (registers) of spec packages mapped to one Java package must not become one constant. */
    private void commandNames(LayoutModel model) {
        Map<String, Declared> seen = new HashMap<>();
        List<Declared> declared = new ArrayList<>();
        model.commands().forEach(c -> declared.add(new Declared(c.name(), c.location())));
        List<Declared> regs = new ArrayList<>();
        model.registers().forEach(r -> regs.add(new Declared(r.name(), r.location())));
        for (List<Declared> group : List.of(declared, regs)) {
            String cls = group == declared ? GeneratorContext.COMMANDS_CLASS : GeneratorContext.REGISTERS_CLASS;
            for (Declared d : group) {
                String key = cls + ":" + ctx.javaPackage(d.name()) + "." + Names.identifier(d.name().name());
                Declared prev = seen.putIfAbsent(key, d);
                if (prev != null) {
                    out.add(Diagnostic.error(d.at(), "'" + d.name() + "' and '" + prev.name() + "' both become " + cls + "."
                            + Names.identifier(d.name().name()) + "; rename one", new Diagnostic.Related(prev.at(), "'" + prev.name() + "' declared here")));
                }
            }
        }
    }

    /** Classes nested in every structure class that may have them; a Java class cannot enclose its namesake. */
    private static final java.util.Set<String> NESTED_CLASSES = java.util.Set.of("Writer", "Device", StructEmitter.META);

    private record Declared(QualifiedName name, io.prmkit.dsl.SourceLocation at) {}

    /**
     * Named members one structure class can hold: a class file has at most 65,535 constant-pool
     * entries, and the generated class takes 13 to 14 a member (4,000 plain 32-bit fields: 51,606;
     * enum, range, mbz, array and 64-bit members mixed: 13.5 a member; measured with javac on
     * generated classes, 5 December). 4,000 plain fields compiled and loaded, 8,000 did not compile.
     */
    static final int MAX_MEMBERS = 4000;

    private void struct(StructLayout s) {
        long named = s.members().stream().filter(m -> !m.reserved()).count();
        if (named > MAX_MEMBERS) {
            out.add(Diagnostic.error(s.location(), "structure " + s.name().name() + " has " + named + " named fields; a generated class "
                    + "holds at most " + MAX_MEMBERS + " (a Java class file's 65,535 constants, 13 to 14 a field): split it into "
                    + "structures embedded in one another"));
        }
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

package io.prmkit.dsl.passes;

import io.prmkit.dsl.Diagnostic;
import io.prmkit.dsl.ast.ConstDecl;
import io.prmkit.dsl.ast.Decl;
import io.prmkit.dsl.ast.EnumDecl;
import io.prmkit.dsl.ast.QName;
import io.prmkit.dsl.ast.SpecFile;
import io.prmkit.dsl.ast.StructDecl;
import io.prmkit.dsl.ir.EnumLayout;
import io.prmkit.dsl.ir.LayoutModel;
import io.prmkit.dsl.ir.QualifiedName;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The state shared by the passes of one run: the ASTs, the symbol tables and the partial results
 * each pass records for the next. AST nodes are keyed by identity (two equal rows are still two
 * rows).
 */
public final class Compilation {
    final List<SpecFile> files;

    /** Package name to its declarations (first declaration of a name wins; duplicates are reported). */
    final Map<String, Map<String, Decl>> packages = new TreeMap<>();
    /** Package to the packages its files import. */
    final Map<String, Set<String>> importsOf = new TreeMap<>();
    final Map<Decl, SpecFile> fileOf = new IdentityHashMap<>();

    /** Resolved enums and flag sets. */
    final Map<EnumDecl, EnumLayout> enums = new IdentityHashMap<>();
    /** Struct-typed member types: the TypeRef's name resolved to its declaration. */
    final Map<Object, StructDecl> typeTargets = new IdentityHashMap<>();
    /** Structs and unions in an order where every contained struct comes first. */
    final List<StructDecl> layoutOrder = new ArrayList<>();
    /** Laid-out structs. */
    final Map<StructDecl, Layout> layouts = new IdentityHashMap<>();
    /** Structs with an error that makes further checks on them meaningless (their own errors are reported). */
    final Set<StructDecl> broken = Collections.newSetFromMap(new IdentityHashMap<>());

    /** Resolved commands and registers (those without errors). */
    final Map<io.prmkit.dsl.ast.CommandDecl, io.prmkit.dsl.ir.CommandLayout> commands = new IdentityHashMap<>();
    final Map<io.prmkit.dsl.ast.RegisterDecl, io.prmkit.dsl.ir.RegisterLayout> registers = new IdentityHashMap<>();
    /** Resolved WQEs (those without errors). */
    final Map<io.prmkit.dsl.ast.WqeDecl, io.prmkit.dsl.ir.WqeLayout> wqes = new IdentityHashMap<>();

    LayoutModel model;

    Compilation(List<SpecFile> files) {
        this.files = List.copyOf(files);
    }

    /** All struct and union declarations that won their name, in file order. */
    List<StructDecl> structs() {
        List<StructDecl> out = new ArrayList<>();
        for (Map<String, Decl> p : packages.values()) {
            for (Decl d : p.values()) {
                if (d instanceof StructDecl s) out.add(s);
            }
        }
        return out;
    }

    List<Decl> decls() {
        List<Decl> out = new ArrayList<>();
        packages.values().forEach(p -> out.addAll(p.values()));
        return out;
    }

    /** "a struct", "an enum". */
    static String article(String word) {
        return ("aeiou".indexOf(word.charAt(0)) >= 0 ? "an " : "a ") + word;
    }

    String packageOf(Decl d) {
        return fileOf.get(d).pkg().dotted();
    }

    QualifiedName qualifiedName(Decl d) {
        return new QualifiedName(packageOf(d), d.name().text());
    }

    /** The answer to a name lookup: a declaration, or why there is none. */
    /**
     * Why a name did not resolve. Callers word {@link #UNKNOWN} in their own terms ("unknown enum 'x'");
     * {@link #OTHER} comes with a message to use as it is; {@link #REPORTED} was reported already.
     */
    enum Miss { UNKNOWN, OTHER, REPORTED }

    /** A declaration found, or why not ({@code miss} and a message; {@code related} places for the message). */
    record Lookup(Decl decl, Miss miss, String error, List<Diagnostic.Related> related) {
        boolean found() {
            return decl != null;
        }

        static Lookup of(Decl d) {
            return new Lookup(d, null, null, List.of());
        }

        static Lookup unknown(String error) {
            return new Lookup(null, Miss.UNKNOWN, error, List.of());
        }

        static Lookup fail(String error, Diagnostic.Related... related) {
            return new Lookup(null, Miss.OTHER, error, List.of(related));
        }
    }

    /**
     * Resolves a declaration name as seen from a file: a simple name is looked up in the file's own
     * package, then in the packages it imports (ambiguity is an error); a qualified name names its
     * package.
     */
    Lookup lookup(QName q, SpecFile from) {
        if (q.isSimple()) {
            String name = q.last();
            Decl own = packages.getOrDefault(from.pkg().dotted(), Map.of()).get(name);
            if (own != null) return Lookup.of(own);
            Set<Decl> hits = new LinkedHashSet<>();
            for (SpecFile.Import imp : from.imports()) {
                Decl d = packages.getOrDefault(imp.pkg().dotted(), Map.of()).get(name);
                if (d != null) hits.add(d);
            }
            if (hits.size() == 1) return Lookup.of(hits.iterator().next());
            if (hits.size() > 1) {
                List<Decl> list = new ArrayList<>(hits);
                List<String> pkgs = list.stream().map(this::packageOf).toList();
                return new Lookup(null, Miss.OTHER, "'" + name + "' is ambiguous: it is declared in " + String.join(" and ", pkgs)
                        + "; qualify it", list.stream().map(d -> new Diagnostic.Related(d.name().location(),
                                "'" + name + "' declared in " + packageOf(d) + " here")).toList());
            }
            return Lookup.unknown("unknown name '" + name + "'");
        }
        String pkg = q.prefix();
        Map<String, Decl> decls = packages.get(pkg);
        if (decls == null) return Lookup.fail("unknown package '" + pkg + "' in '" + q.dotted() + "'");
        Decl d = decls.get(q.last());
        return d != null ? Lookup.of(d) : Lookup.fail("package '" + pkg + "' has no declaration '" + q.last() + "'");
    }

    /** Named constants by qualified name, for rules and union tags. */
    Map<QualifiedName, ConstDecl> constants() {
        Map<QualifiedName, ConstDecl> out = new LinkedHashMap<>();
        for (Decl d : decls()) {
            if (d instanceof ConstDecl k) out.put(qualifiedName(d), k);
        }
        return out;
    }

    /** A constant or enum value resolved to its number, or why it could not be ({@code miss} and a message). */
    record Value(long value, Miss miss, String error) {
        boolean found() {
            return miss == null;
        }

        static Value of(long v) {
            return new Value(v, null, null);
        }

        static Value fail(Miss miss, String error) {
            return new Value(0, miss, error);
        }
    }

    /**
     * Resolves a value name: an enum value of {@code preferred} (the enum of the field it is compared
     * with), a named constant, {@code E.VALUE}, or a value name that exactly one visible enum declares.
     */
    Value value(io.prmkit.dsl.ast.QName q, SpecFile from, EnumLayout preferred) {
        if (q.isSimple() && preferred != null) {
            var v = preferred.values().stream().filter(x -> x.name().equals(q.last())).findFirst();
            if (v.isPresent()) return Value.of(v.get().value());
        }
        Lookup l = lookup(q, from);
        if (l.found()) {
            if (l.decl() instanceof ConstDecl k) return Value.of(k.value().value());
            return Value.fail(Miss.OTHER, "'" + q.dotted() + "' is " + Compilation.article(l.decl().kindWord()) + ", not a value");
        }
        if (!q.isSimple()) {
            Lookup e = lookup(q.withoutLast(), from);
            if (e.found() && e.decl() instanceof EnumDecl ed) {
                EnumLayout el = enums.get(ed);
                if (el == null) return Value.fail(Miss.REPORTED, "");  // the enum itself has errors
                var v = el.values().stream().filter(x -> x.name().equals(q.last())).findFirst();
                return v.map(x -> Value.of(x.value()))
                        .orElseGet(() -> Value.fail(Miss.OTHER, ed.kindWord() + " '" + q.prefix() + "' has no value '" + q.last() + "'"));
            }
            return Value.fail(l.miss(), l.error());
        }
        List<String> pkgs = new ArrayList<>();
        pkgs.add(from.pkg().dotted());
        from.imports().forEach(i -> pkgs.add(i.pkg().dotted()));
        List<String> owners = new ArrayList<>();
        long found = 0;
        for (String p : pkgs) {
            for (Decl d : packages.getOrDefault(p, Map.of()).values()) {
                if (d instanceof EnumDecl ed && enums.get(ed) != null) {
                    for (EnumLayout.EnumValue v : enums.get(ed).values()) {
                        if (v.name().equals(q.last())) {
                            owners.add(ed.name().text());
                            found = v.value();
                        }
                    }
                }
            }
        }
        if (owners.size() == 1) return Value.of(found);
        if (owners.size() > 1) {
            return Value.fail(Miss.OTHER, "'" + q.last() + "' is ambiguous: it is a value of " + String.join(" and ", owners)
                    + "; write " + owners.get(0) + "." + q.last());
        }
        return Value.fail(Miss.UNKNOWN, "unknown name '" + q.last() + "'");
    }
}

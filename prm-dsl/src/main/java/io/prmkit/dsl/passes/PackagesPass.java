package io.prmkit.dsl.passes;

import io.prmkit.dsl.Diagnostic;
import io.prmkit.dsl.ast.Decl;
import io.prmkit.dsl.ast.SpecFile;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Symbol tables: declarations per package (duplicates are errors), imports of existing packages,
 * no import cycles between packages.
 */
final class PackagesPass implements Pass {
    @Override
    public String name() {
        return "packages";
    }

    @Override
    public List<Diagnostic> run(Compilation c) {
        List<Diagnostic> diags = new ArrayList<>();
        for (SpecFile f : c.files) {
            Map<String, Decl> decls = c.packages.computeIfAbsent(f.pkg().dotted(), k -> new LinkedHashMap<>());
            c.importsOf.computeIfAbsent(f.pkg().dotted(), k -> new TreeSet<>());
            for (Decl d : f.decls()) {
                Decl first = decls.get(d.name().text());
                if (first != null) {
                    diags.add(Diagnostic.error(d.name().location(), "duplicate declaration '" + d.name().text()
                                    + "' in package " + f.pkg().dotted(),
                            new Diagnostic.Related(first.name().location(), "first declared here as " + first.kindWord())));
                    continue;
                }
                decls.put(d.name().text(), d);
                c.fileOf.put(d, f);
            }
        }
        // Imports: existing packages only; remember where each edge was written for cycle messages.
        Map<String, Map<String, SpecFile.Import>> edgeAt = new HashMap<>();
        for (SpecFile f : c.files) {
            String pkg = f.pkg().dotted();
            Set<String> seen = new HashSet<>();
            for (SpecFile.Import imp : f.imports()) {
                String target = imp.pkg().dotted();
                if (!seen.add(target)) {
                    diags.add(Diagnostic.error(imp.pkg().location(), "duplicate import of '" + target + "'"));
                } else if (!c.packages.containsKey(target)) {
                    diags.add(Diagnostic.error(imp.pkg().location(), "unknown package '" + target + "'"));
                } else if (target.equals(pkg)) {
                    diags.add(Diagnostic.error(imp.pkg().location(), "package " + pkg + " imports itself"));
                } else {
                    c.importsOf.get(pkg).add(target);
                    edgeAt.computeIfAbsent(pkg, k -> new HashMap<>()).putIfAbsent(target, imp);
                }
            }
        }
        diags.addAll(cycles(c.importsOf, edgeAt));
        return diags;
    }

    /** One diagnostic per import cycle, at the import that closes it (iterative DFS: no deep recursion). */
    private static List<Diagnostic> cycles(Map<String, Set<String>> graph, Map<String, Map<String, SpecFile.Import>> edgeAt) {
        List<Diagnostic> diags = new ArrayList<>();
        Map<String, Integer> state = new HashMap<>(); // 1 = on stack, 2 = done
        for (String root : graph.keySet()) {
            if (state.containsKey(root)) continue;
            List<String> path = new ArrayList<>();
            List<java.util.Iterator<String>> its = new ArrayList<>();
            path.add(root);
            its.add(graph.getOrDefault(root, Set.of()).iterator());
            state.put(root, 1);
            while (!path.isEmpty()) {
                java.util.Iterator<String> it = its.get(its.size() - 1);
                if (!it.hasNext()) {
                    state.put(path.remove(path.size() - 1), 2);
                    its.remove(its.size() - 1);
                    continue;
                }
                String from = path.get(path.size() - 1);
                String next = it.next();
                Integer s = state.get(next);
                if (s == null) {
                    state.put(next, 1);
                    path.add(next);
                    its.add(graph.getOrDefault(next, Set.of()).iterator());
                } else if (s == 1) {
                    List<String> cycle = new ArrayList<>(path.subList(path.indexOf(next), path.size()));
                    cycle.add(next);
                    SpecFile.Import closing = edgeAt.get(from).get(next);
                    List<Diagnostic.Related> related = new ArrayList<>();
                    for (int i = 0; i + 1 < cycle.size() - 1; i++) {
                        SpecFile.Import e = edgeAt.get(cycle.get(i)).get(cycle.get(i + 1));
                        related.add(new Diagnostic.Related(e.pkg().location(), cycle.get(i) + " imports " + cycle.get(i + 1) + " here"));
                    }
                    diags.add(new Diagnostic(io.prmkit.dsl.Severity.ERROR, closing.pkg().location(),
                            "import cycle: " + String.join(" -> ", cycle), related));
                }
            }
        }
        return diags;
    }
}

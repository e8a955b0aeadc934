package io.prmkit.dsl.passes;

import io.prmkit.dsl.Diagnostic;
import io.prmkit.dsl.Severity;
import io.prmkit.dsl.ast.EnumDecl;
import io.prmkit.dsl.ast.MemberDecl;
import io.prmkit.dsl.ast.QName;
import io.prmkit.dsl.ast.StructDecl;
import io.prmkit.dsl.ast.TypeRef;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Member types that name a struct or union: resolves them, rejects containment cycles (a struct
 * that contains itself has no size) and orders structs so that contained ones are laid out first.
 */
final class TypesPass implements Pass {
    @Override
    public String name() {
        return "types";
    }

    @Override
    public List<Diagnostic> run(Compilation c) {
        List<Diagnostic> diags = new ArrayList<>();
        Map<StructDecl, List<MemberDecl>> edges = new IdentityHashMap<>();
        for (StructDecl s : c.structs()) {
            List<MemberDecl> deps = new ArrayList<>();
            for (MemberDecl m : Walk.members(s)) {
                if (m.type().isEmpty() || m.type().get().name().isEmpty()) continue;
                TypeRef t = m.type().get();
                QName q = t.name().get();
                if (t.builtin().isPresent()) continue;
                Compilation.Lookup l = c.lookup(q, c.fileOf.get(s));
                if (!l.found()) {
                    String msg = l.miss() == Compilation.Miss.UNKNOWN
                            ? "unknown type '" + q.dotted() + "': a type is a width in bits, u8, u16, u32, u64 or a struct or union name"
                            : l.error();
                    diags.add(new Diagnostic(Severity.ERROR, q.location(), msg, l.related()));
                    c.broken.add(s);
                } else if (!(l.decl() instanceof StructDecl target)) {
                    String hint = l.decl() instanceof EnumDecl e
                            ? "; to name its values, write the width and '" + (e.flags() ? "flags " : "enum ") + q.dotted() + "'"
                            : "";
                    diags.add(Diagnostic.error(q.location(), "'" + q.dotted() + "' is " + Compilation.article(l.decl().kindWord())
                            + ", not a struct or union" + hint, new Diagnostic.Related(l.decl().name().location(), "declared here")));
                    c.broken.add(s);
                } else {
                    c.typeTargets.put(t, target);
                    deps.add(m);
                }
            }
            edges.put(s, deps);
        }
        order(c, edges, diags);
        return diags;
    }

    /** Post-order DFS, iterative so that long containment chains cannot overflow the stack. */
    private static void order(Compilation c, Map<StructDecl, List<MemberDecl>> edges, List<Diagnostic> diags) {
        Map<StructDecl, Integer> state = new IdentityHashMap<>();
        Set<StructDecl> reported = Collections.newSetFromMap(new IdentityHashMap<>());
        for (StructDecl root : c.structs()) {
            if (state.containsKey(root)) continue;
            List<StructDecl> path = new ArrayList<>();
            List<Iterator<MemberDecl>> its = new ArrayList<>();
            path.add(root);
            its.add(edges.get(root).iterator());
            state.put(root, 1);
            while (!path.isEmpty()) {
                Iterator<MemberDecl> it = its.get(its.size() - 1);
                if (!it.hasNext()) {
                    StructDecl done = path.remove(path.size() - 1);
                    its.remove(its.size() - 1);
                    state.put(done, 2);
                    c.layoutOrder.add(done);
                    continue;
                }
                MemberDecl m = it.next();
                StructDecl next = c.typeTargets.get(m.type().get());
                Integer st = state.get(next);
                if (st == null) {
                    state.put(next, 1);
                    path.add(next);
                    its.add(edges.get(next).iterator());
                } else if (st == 1) {
                    List<StructDecl> cycle = path.subList(path.indexOf(next), path.size());
                    if (reported.add(next)) {
                        List<String> names = new ArrayList<>();
                        for (StructDecl s : cycle) names.add(s.name().text());
                        names.add(next.name().text());
                        diags.add(Diagnostic.error(m.type().get().location(), next.kindWord() + " '" + next.name().text()
                                + "' contains itself: " + String.join(" -> ", names)));
                    }
                    c.broken.addAll(cycle);
                }
            }
        }
    }
}

package io.prmkit.dsl.passes;

import io.prmkit.dsl.Diagnostic;
import io.prmkit.dsl.ast.ExprNode;
import io.prmkit.dsl.ast.QName;
import io.prmkit.dsl.ast.RuleDecl;
import io.prmkit.dsl.ast.SpecFile;
import io.prmkit.dsl.ast.StructDecl;
import io.prmkit.dsl.ir.Expr;
import io.prmkit.dsl.ir.Rule;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Cross-field rules: names resolve to scalar fields of the same structure, named constants or enum
 * values (folded to literals that keep their spelling); rule names are unique per structure.
 */
final class RulesPass implements Pass {
    @Override
    public String name() {
        return "rules";
    }

    @Override
    public List<Diagnostic> run(Compilation c) {
        List<Diagnostic> diags = new ArrayList<>();
        for (StructDecl s : c.structs()) {
            Layout lay = c.layouts.get(s);
            if (lay == null || s.rules().isEmpty()) continue;
            Map<String, Layout.LaidMember> fields = new HashMap<>();
            for (Layout.LaidMember m : lay.members) fields.putIfAbsent(m.name, m);
            Map<String, RuleDecl> names = new HashMap<>();
            int before = diags.size();
            for (RuleDecl r : s.rules()) {
                RuleDecl first = names.putIfAbsent(r.name().text(), r);
                if (first != null) {
                    diags.add(Diagnostic.error(r.name().location(), "duplicate rule '" + r.name().text() + "'",
                            new Diagnostic.Related(first.name().location(), "first declared here")));
                    continue;
                }
                Resolver res = new Resolver(c, c.fileOf.get(s), s, fields, diags);
                Expr e = res.resolve(r.expr());
                if (e != null && !res.usesField) {
                    diags.add(Diagnostic.warning(r.location(), "rule '" + r.name().text() + "' does not depend on any field"));
                }
                if (e != null) lay.rules.add(new Rule(r.name().text(), e, r.message(), r.location()));
            }
            if (diags.stream().skip(before).anyMatch(Diagnostic::isError)) c.broken.add(s);
        }
        return diags;
    }

    private static final class Resolver extends ExprResolver {
        final Compilation c;
        final SpecFile file;
        final StructDecl s;
        final Map<String, Layout.LaidMember> fields;
        final List<Diagnostic> diags;
        boolean usesField;

        Resolver(Compilation c, SpecFile file, StructDecl s, Map<String, Layout.LaidMember> fields, List<Diagnostic> diags) {
            this.c = c;
            this.file = file;
            this.s = s;
            this.fields = fields;
            this.diags = diags;
        }

        @Override
        Expr call(ExprNode.Call k) {
            diags.add(Diagnostic.error(k.location(), "'" + k.function().text() + "(...)' is for wqe rules; a structure's rule reads "
                    + "its bit fields, constants and enum values"));
            return null;
        }

        @Override
        Expr name(QName q) {
            if (q.isSimple()) {
                Layout.LaidMember m = fields.get(q.last());
                if (m != null) {
                    if (!m.isScalar()) {
                        diags.add(Diagnostic.error(q.location(), "a rule can only use bit fields, and '" + m.name + "' is not one",
                                new Diagnostic.Related(m.location, "'" + m.name + "' is declared here")));
                        return null;
                    }
                    usesField = true;
                    return new Expr.FieldValue(m.name);
                }
            }
            Compilation.Value v = c.value(q, file, null);
            if (v.found()) return new Expr.Literal(v.value(), q.dotted());
            if (v.miss() != Compilation.Miss.REPORTED) {
                String msg = v.miss() == Compilation.Miss.UNKNOWN
                        ? "unknown name '" + q.dotted() + "': not a field of " + s.kindWord() + " '" + s.name().text()
                        + "', a constant or an enum value"
                        : v.error();
                diags.add(Diagnostic.error(q.location(), msg));
            }
            return null;
        }
    }
}

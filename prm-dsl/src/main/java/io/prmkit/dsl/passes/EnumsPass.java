package io.prmkit.dsl.passes;

import io.prmkit.dsl.Diagnostic;
import io.prmkit.dsl.ast.Decl;
import io.prmkit.dsl.ast.EnumDecl;
import io.prmkit.dsl.ir.Doc;
import io.prmkit.dsl.ir.EnumLayout;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Enums and flag sets: unique value names, widths 1..64, values that fit, flag bits in range and distinct. */
final class EnumsPass implements Pass {
    @Override
    public String name() {
        return "enums";
    }

    @Override
    public List<Diagnostic> run(Compilation c) {
        List<Diagnostic> diags = new ArrayList<>();
        for (Decl d : c.decls()) {
            if (!(d instanceof EnumDecl e)) continue;
            String what = e.flags() ? "flag set" : "enum";
            int width = 0;
            boolean ok = true;
            if (e.width().isPresent()) {
                long w = e.width().get().value();
                if (w < 1 || w > 64) {
                    diags.add(Diagnostic.error(e.width().get().location(), what + " width must be 1..64 bits, not " + e.width().get().text()));
                    ok = false;
                } else {
                    width = (int) w;
                }
            }
            Map<String, EnumDecl.Value> names = new HashMap<>();
            Map<Long, EnumDecl.Value> bits = new HashMap<>();
            List<EnumLayout.EnumValue> values = new ArrayList<>();
            for (EnumDecl.Value v : e.values()) {
                EnumDecl.Value first = names.putIfAbsent(v.name().text(), v);
                if (first != null) {
                    diags.add(Diagnostic.error(v.name().location(), "duplicate value name '" + v.name().text() + "' in " + what + " '" + e.name().text() + "'",
                            new Diagnostic.Related(first.name().location(), "first declared here")));
                    ok = false;
                    continue;
                }
                long value = v.value().value();
                if (e.flags()) {
                    int limit = width == 0 ? 64 : width;
                    if (Long.compareUnsigned(value, limit) >= 0) {
                        diags.add(Diagnostic.error(v.value().location(), "flag bit " + v.value().text() + " is out of range: a " + limit
                                + "-bit field has bits 0.." + (limit - 1)));
                        ok = false;
                    }
                    EnumDecl.Value same = bits.putIfAbsent(value, v);
                    if (same != null) {
                        diags.add(Diagnostic.error(v.value().location(), "flags '" + v.name().text() + "' and '" + same.name().text()
                                + "' name the same bit " + v.value().text(), new Diagnostic.Related(same.location(), "'" + same.name().text() + "' is here")));
                        ok = false;
                    }
                } else if (width > 0 && width < 64 && Long.compareUnsigned(value, 1L << width) >= 0) {
                    diags.add(Diagnostic.error(v.value().location(), "value " + v.value().text() + " of '" + v.name().text()
                            + "' does not fit in the enum's " + width + " bits"));
                    ok = false;
                }
                values.add(new EnumLayout.EnumValue(v.name().text(), value, new Doc(v.doc(), "", ""), v.detail(), v.location()));
            }
            if (ok) {
                c.enums.put(e, new EnumLayout(c.qualifiedName(e), e.flags() ? EnumLayout.Kind.FLAGS : EnumLayout.Kind.ENUM, width,
                        values, new Doc(e.doc(), "", ""), e.location()));
            }
        }
        return diags;
    }
}

package io.prmkit.dsl.passes;

import io.prmkit.dsl.ast.GroupAlt;
import io.prmkit.dsl.ast.InlineUnion;
import io.prmkit.dsl.ast.Item;
import io.prmkit.dsl.ast.MemberDecl;
import io.prmkit.dsl.ast.StructDecl;
import java.util.ArrayList;
import java.util.List;

/** Traversals of the AST shared by the passes. */
final class Walk {
    private Walk() {
    }

    /** Every member row of a struct or union, inline unions and groups included, in source order. */
    static List<MemberDecl> members(StructDecl s) {
        List<MemberDecl> out = new ArrayList<>();
        for (Item it : s.items()) add(it, out);
        return out;
    }

    private static void add(Item it, List<MemberDecl> out) {
        if (it instanceof MemberDecl m) {
            out.add(m);
        } else if (it instanceof InlineUnion u) {
            for (Item a : u.alternatives()) add(a, out);
        } else if (it instanceof GroupAlt g) {
            out.addAll(g.members());
        }
    }

}

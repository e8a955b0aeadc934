package io.prmkit.dsl.importer;

import io.prmkit.dsl.importer.CLexer.Token;
import java.util.List;

/** What {@link IfcParser} reads from a header: the declarations, still with unevaluated expressions. */
final class CModel {
    private CModel() {}

    /** An unevaluated constant expression and where it starts. */
    record Expr(List<Token> tokens, int line, int column) {
        Expr {
            tokens = List.copyOf(tokens);
        }

        boolean isEmpty() {
            return tokens.isEmpty();
        }

        String text() {
            StringBuilder sb = new StringBuilder();
            for (Token t : tokens) {
                if (sb.length() > 0 && t.kind() != CLexer.Kind.PUNCT && sb.charAt(sb.length() - 1) != '(') sb.append(' ');
                sb.append(t.text());
            }
            return sb.toString();
        }
    }

    sealed interface Decl permits Aggregate, EnumDecl, Define {
        int line();
    }

    /**
     * {@code struct mlx5_ifc_x_bits { ... };} or a union; tag is null for an inline anonymous one.
     * broken: a member could not be parsed (already reported), so the aggregate is not emitted.
     */
    record Aggregate(String tag, boolean union, List<Member> members, boolean broken, int line, int column) implements Decl {
        Aggregate {
            members = List.copyOf(members);
        }
    }

    record EnumDecl(String tag, List<EnumValue> values, int line, int column) implements Decl {
        EnumDecl {
            values = List.copyOf(values);
        }
    }

    /** An enum constant; expr is null when the value is implicit (previous + 1). */
    record EnumValue(String name, Expr expr, int line, int column) {}

    /** An object-like {@code #define NAME body}. */
    record Define(String name, Expr body, int line, int column) implements Decl {}

    sealed interface Member permits BitField, TypeRef, Inline {
        int line();

        int column();
    }

    /**
     * {@code u8 name[W];}, {@code u8 name[N][W];} or flexible {@code u8 name[][W]} / {@code [0][W]}.
     * count is null for a single field, an empty Expr for a flexible array.
     */
    record BitField(String name, Expr count, Expr width, int line, int column) implements Member {}

    /** {@code struct|union tag name;} or {@code name[N]} (count) or {@code name[]} (empty count). */
    record TypeRef(boolean union, String tag, String name, Expr count, int line, int column) implements Member {}

    /** {@code union { ... } name;} or {@code struct {...};} inside an aggregate; name null when anonymous. */
    record Inline(Aggregate body, String name, int line, int column) implements Member {}
}

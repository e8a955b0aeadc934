package io.prmkit.dsl.passes;

import io.prmkit.dsl.ast.ExprNode;
import io.prmkit.dsl.ast.QName;
import io.prmkit.dsl.ir.Expr;

/**
 * Turns a parsed expression into an IR expression: literals and operators here, names and calls by
 * the pass that knows what they may mean there (a structure's fields in a rule, a WQE's segments and
 * givens). Every node kind the parser builds reaches one of the two, so no pass can meet a kind it
 * does not handle.
 */
abstract class ExprResolver {

    /** The resolved expression, or null after reporting why (every unresolved name in it). */
    final Expr resolve(ExprNode n) {
        if (n instanceof ExprNode.IntLit i) return new Expr.Literal(i.value().value(), i.value().text());
        if (n instanceof ExprNode.Unary u) {
            Expr o = resolve(u.operand());
            return o == null ? null : new Expr.Unary(u.op(), o);
        }
        if (n instanceof ExprNode.Binary b) {
            Expr l = resolve(b.left());
            Expr r = resolve(b.right());
            return l == null || r == null ? null : new Expr.Binary(b.op(), l, r);
        }
        if (n instanceof ExprNode.Call k) return call(k);
        return name(((ExprNode.NameRef) n).name());
    }

    /** A name, or null after reporting it. */
    abstract Expr name(QName q);

    /** A call such as {@code count(x)}, or null after reporting it. */
    abstract Expr call(ExprNode.Call k);
}

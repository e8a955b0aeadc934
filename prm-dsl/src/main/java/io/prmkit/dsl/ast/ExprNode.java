package io.prmkit.dsl.ast;

import io.prmkit.dsl.SourceLocation;
import io.prmkit.dsl.ir.Expr;
import java.util.Objects;

/** A rule expression as written; names are resolved by the rules pass. */
public sealed interface ExprNode {
    SourceLocation location();

    record IntLit(Num value) implements ExprNode {
        public IntLit {
            Objects.requireNonNull(value, "value == null");
        }

        public SourceLocation location() {
            return value.location();
        }
    }

    record NameRef(QName name) implements ExprNode {
        public NameRef {
            Objects.requireNonNull(name, "name == null");
        }

        public SourceLocation location() {
            return name.location();
        }
    }

    record Unary(Expr.UnaryOp op, ExprNode operand, SourceLocation location) implements ExprNode {
        public Unary {
            Objects.requireNonNull(op, "op == null");
            Objects.requireNonNull(operand, "operand == null");
            Objects.requireNonNull(location, "location == null");
        }
    }

    /** location is the operator's. */
    record Binary(Expr.BinaryOp op, ExprNode left, ExprNode right, SourceLocation location) implements ExprNode {
        public Binary {
            Objects.requireNonNull(op, "op == null");
            Objects.requireNonNull(left, "left == null");
            Objects.requireNonNull(right, "right == null");
            Objects.requireNonNull(location, "location == null");
        }
    }

    /** {@code f(a, b)} or {@code f(a).field}: a lookup of a given or a built-in; location is the name's. */
    record Call(Name function, java.util.List<ExprNode> args, java.util.Optional<Name> field, SourceLocation location) implements ExprNode {
        public Call {
            Objects.requireNonNull(function, "function == null");
            args = java.util.List.copyOf(args);
            Objects.requireNonNull(field, "field == null");
            Objects.requireNonNull(location, "location == null");
        }
    }
}

package io.prmkit.dsl.ir;

import java.util.Objects;

/**
 * A resolved rule expression. Names are resolved: a field reference names a scalar member of the
 * same structure, and enum constants and named constants are folded into {@link Literal}s (keeping
 * their spelling for messages). Values are unsigned 64-bit integers; a comparison or logical
 * operator yields 0 or 1, and any non-zero value is true. Shifts are logical and a shift by 64 or
 * more shifts every bit out ({@link #shiftLeft}, {@link #shiftRight}), unlike Java, which masks
 * the count to its low six bits.
 */
public sealed interface Expr {

    /** {@code value << count} on unsigned 64-bit values: 0 when {@code count} (unsigned) is 64 or more. */
    static long shiftLeft(long value, long count) {
        return Long.compareUnsigned(count, 64) >= 0 ? 0 : value << count;
    }

    /** {@code value >> count} on unsigned 64-bit values (logical): 0 when {@code count} (unsigned) is 64 or more. */
    static long shiftRight(long value, long count) {
        return Long.compareUnsigned(count, 64) >= 0 ? 0 : value >>> count;
    }

    /** The expression in spec syntax, for messages and generated comments. */
    String source();

    record Literal(long value, String source) implements Expr {
        public Literal {
            Objects.requireNonNull(source, "source == null");
        }
    }

    record FieldValue(String field) implements Expr {
        public FieldValue {
            Objects.requireNonNull(field, "field == null");
        }

        @Override
        public String source() {
            return field;
        }
    }

    record Unary(UnaryOp op, Expr operand) implements Expr {
        public Unary {
            Objects.requireNonNull(op, "op == null");
            Objects.requireNonNull(operand, "operand == null");
        }

        @Override
        public String source() {
            return op.symbol + operand.source();
        }
    }

    record Binary(BinaryOp op, Expr left, Expr right) implements Expr {
        public Binary {
            Objects.requireNonNull(op, "op == null");
            Objects.requireNonNull(left, "left == null");
            Objects.requireNonNull(right, "right == null");
        }

        @Override
        public String source() {
            return "(" + left.source() + " " + op.symbol + " " + right.source() + ")";
        }
    }

    enum UnaryOp {
        NOT("!"), NEG("-"), BIT_NOT("~");

        public final String symbol;

        UnaryOp(String symbol) {
            this.symbol = symbol;
        }
    }

    enum BinaryOp {
        OR("||"), AND("&&"),
        EQ("=="), NE("!="), LT("<"), LE("<="), GT(">"), GE(">="),
        BIT_OR("|"), BIT_XOR("^"), BIT_AND("&"), SHL("<<"), SHR(">>"),
        ADD("+"), SUB("-"), MUL("*"), DIV("/"), MOD("%");

        public final String symbol;

        BinaryOp(String symbol) {
            this.symbol = symbol;
        }
    }
}

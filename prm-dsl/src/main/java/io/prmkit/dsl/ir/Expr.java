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

    /** A WQE rule's field of a segment (or of the current element of a repeated segment's alternative). */
    record SegmentField(String segment, String field) implements Expr {
        public SegmentField {
            Objects.requireNonNull(segment, "segment == null");
            Objects.requireNonNull(field, "field == null");
        }

        @Override
        public String source() {
            return segment + "." + field;
        }
    }

    /** A WQE rule's value from the device ({@code given NAME}). */
    record GivenValue(String given) implements Expr {
        public GivenValue {
            Objects.requireNonNull(given, "given == null");
        }

        @Override
        public String source() {
            return given;
        }
    }

    /** A field of the structure a WQE's lookup given holds for a key: {@code mkey(pointer.lkey).len}. */
    record Lookup(String given, Expr key, String field) implements Expr {
        public Lookup {
            Objects.requireNonNull(given, "given == null");
            Objects.requireNonNull(key, "key == null");
            Objects.requireNonNull(field, "field == null");
        }

        @Override
        public String source() {
            return given + "(" + key.source() + ")." + field;
        }
    }

    /**
     * A WQE built-in over a segment: {@code count(seg)} elements of a repeated segment (or of one of its
     * alternatives), {@code bytes(seg)} of an inline segment, {@code header_end(seg, level)} where the
     * frame's headers up to {@code level} end in an inline segment's bytes (docs/dsl.md).
     */
    record Builtin(Function function, String segment, java.util.Optional<Expr> arg) implements Expr {
        public Builtin {
            Objects.requireNonNull(function, "function == null");
            Objects.requireNonNull(segment, "segment == null");
            Objects.requireNonNull(arg, "arg == null");
            if (arg.isPresent() != (function == Function.HEADER_END)) throw new IllegalArgumentException(function + ": wrong arguments");
        }

        @Override
        public String source() {
            return function.word + "(" + segment + arg.map(a -> ", " + a.source()).orElse("") + ")";
        }
    }

    /** The WQE built-ins. */
    enum Function {
        COUNT("count"), BYTES("bytes"), HEADER_END("header_end");

        public final String word;

        Function(String word) {
            this.word = word;
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

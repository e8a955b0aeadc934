package io.prmkit.generator;

import com.palantir.javapoet.ClassName;
import com.palantir.javapoet.CodeBlock;
import io.prmkit.dsl.ir.Expr;
import io.prmkit.dsl.ir.Member;
import io.prmkit.dsl.ir.StructLayout;

/**
 * Compiles a resolved rule expression into a Java {@code long} expression with the spec's
 * semantics: unsigned 64-bit values, comparisons and logic yielding 0 or 1, any non-zero is true.
 * Field values are read through the generated getters of the same structure.
 */
final class RuleCode {
    private final StructLayout struct;
    private final ClassName layout;

    RuleCode(StructLayout struct, ClassName layout) {
        this.struct = struct;
        this.layout = layout;
    }

    CodeBlock compile(Expr e) {
        if (e instanceof Expr.Literal l) return CodeBlock.of("$L", ScalarCode.hex64(l.value()));
        if (e instanceof Expr.FieldValue f) return field(f.field());
        if (e instanceof Expr.Unary u) {
            CodeBlock x = compile(u.operand());
            return switch (u.op()) {
                case NOT -> CodeBlock.of("($L == 0L ? 1L : 0L)", x);
                case NEG -> CodeBlock.of("(-$L)", x);
                case BIT_NOT -> CodeBlock.of("(~$L)", x);
            };
        }
        Expr.Binary b = (Expr.Binary) e;
        return binary(b.op(), compile(b.left()), compile(b.right()), layout);
    }

    /** {@code l op r} on unsigned 64-bit values; shifts and division through {@code layout}'s helpers. */
    static CodeBlock binary(Expr.BinaryOp op, CodeBlock l, CodeBlock r, ClassName layout) {
        return switch (op) {
            case OR -> CodeBlock.of("($L != 0L || $L != 0L ? 1L : 0L)", l, r);
            case AND -> CodeBlock.of("($L != 0L && $L != 0L ? 1L : 0L)", l, r);
            case EQ -> CodeBlock.of("($L == $L ? 1L : 0L)", l, r);
            case NE -> CodeBlock.of("($L != $L ? 1L : 0L)", l, r);
            case LT -> CodeBlock.of("($T.compareUnsigned($L, $L) < 0 ? 1L : 0L)", Long.class, l, r);
            case LE -> CodeBlock.of("($T.compareUnsigned($L, $L) <= 0 ? 1L : 0L)", Long.class, l, r);
            case GT -> CodeBlock.of("($T.compareUnsigned($L, $L) > 0 ? 1L : 0L)", Long.class, l, r);
            case GE -> CodeBlock.of("($T.compareUnsigned($L, $L) >= 0 ? 1L : 0L)", Long.class, l, r);
            case BIT_OR -> CodeBlock.of("($L | $L)", l, r);
            case BIT_XOR -> CodeBlock.of("($L ^ $L)", l, r);
            case BIT_AND -> CodeBlock.of("($L & $L)", l, r);
            case SHL -> CodeBlock.of("$T.shl($L, $L)", layout, l, r); // not Java's <<, which masks the count
            case SHR -> CodeBlock.of("$T.shr($L, $L)", layout, l, r);
            case ADD -> CodeBlock.of("($L + $L)", l, r);
            case SUB -> CodeBlock.of("($L - $L)", l, r);
            case MUL -> CodeBlock.of("($L * $L)", l, r);
            case DIV -> CodeBlock.of("$T.div($L, $L)", layout, l, r);
            case MOD -> CodeBlock.of("$T.rem($L, $L)", layout, l, r);
        };
    }

    private CodeBlock field(String name) {
        Member m = struct.member(name).filter(Member::isScalar)
                .orElseThrow(() -> new IllegalStateException("rule field " + name + " is not a bit field")); // StructLayout guarantees it is
        long w = m.bitWidth();
        if (m.reserved()) {
            // reserved space has no getter: read it inline
            CodeBlock read = new ScalarCode(layout, m.bitOffset(), (int) w, struct.byteOrder() == java.nio.ByteOrder.LITTLE_ENDIAN).read();
            if (w == 1) return CodeBlock.of("(($L) ? 1L : 0L)", read);
            if (w <= 32) return CodeBlock.of("$T.toUnsignedLong($L)", Integer.class, read);
            return CodeBlock.of("($L)", read);
        }
        String getter = Names.member(m.name());
        if (w == 1) return CodeBlock.of("($L(s, offset) ? 1L : 0L)", getter);
        if (w <= 32) return CodeBlock.of("$T.toUnsignedLong($L(s, offset))", Integer.class, getter);
        return CodeBlock.of("$L(s, offset)", getter);
    }
}

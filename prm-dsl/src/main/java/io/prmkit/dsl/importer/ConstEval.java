package io.prmkit.dsl.importer;

import io.prmkit.dsl.importer.CLexer.Kind;
import io.prmkit.dsl.importer.CLexer.Token;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;

/**
 * Evaluates the integer constant expressions of enum values, #defines and array sizes: literals
 * with C suffixes, names of earlier constants, the kernel's {@code BIT()}/{@code BIT_ULL()}, and the
 * usual C operators by C precedence. Anything else is an {@link EvalException} naming the token.
 */
final class ConstEval {

    static final class EvalException extends Exception {
        final Token at;

        EvalException(Token at, String message) {
            super(message, null, false, false);
            this.at = at;
        }
    }

    private final List<Token> toks;
    private final Function<String, Long> names;
    private int p;

    private ConstEval(List<Token> toks, Function<String, Long> names) {
        this.toks = toks;
        this.names = names;
    }

    /** names returns null for an unknown name. */
    static long eval(List<Token> toks, Function<String, Long> names) throws EvalException {
        if (toks.isEmpty()) throw new EvalException(null, "empty expression");
        ConstEval e = new ConstEval(toks, names);
        long v = e.binary(0);
        if (e.p < toks.size()) throw new EvalException(toks.get(e.p), "unexpected '" + toks.get(e.p).text() + "' in constant expression");
        return v;
    }

    static long parseLiteral(String text) throws NumberFormatException {
        String s = text.toLowerCase(Locale.ROOT);
        int end = s.length();
        while (end > 0 && (s.charAt(end - 1) == 'u' || s.charAt(end - 1) == 'l')) end--;
        s = s.substring(0, end);
        if (s.startsWith("0x")) return Long.parseUnsignedLong(s.substring(2), 16);
        if (s.length() > 1 && s.startsWith("0")) return Long.parseUnsignedLong(s.substring(1), 8);
        return Long.parseUnsignedLong(s);
    }

    private static final String[][] LEVELS = {
        {"|"}, {"^"}, {"&"}, {"<<", ">>"}, {"+", "-"}, {"*", "/", "%"},
    };

    private Token peek() {
        return p < toks.size() ? toks.get(p) : null;
    }

    private Token last() {
        return toks.get(toks.size() - 1);
    }

    private long binary(int level) throws EvalException {
        if (level == LEVELS.length) return unary();
        long v = binary(level + 1);
        while (true) {
            Token t = peek();
            String op = null;
            if (t != null && t.kind() == Kind.PUNCT) {
                for (String o : LEVELS[level]) {
                    if (t.text().equals(o)) op = o;
                }
            }
            if (op == null) return v;
            p++;
            long r = binary(level + 1);
            v = switch (op) {
                case "|" -> v | r;
                case "^" -> v ^ r;
                case "&" -> v & r;
                case "<<" -> io.prmkit.dsl.ir.Expr.shiftLeft(v, r); // the spec's semantics: shifting out gives 0
                case ">>" -> io.prmkit.dsl.ir.Expr.shiftRight(v, r);
                case "+" -> v + r;
                case "-" -> v - r;
                case "*" -> v * r;
                case "/" -> {
                    if (r == 0) throw new EvalException(t, "division by zero");
                    yield Long.divideUnsigned(v, r);
                }
                default -> {
                    if (r == 0) throw new EvalException(t, "division by zero");
                    yield Long.remainderUnsigned(v, r);
                }
            };
        }
    }

    private long unary() throws EvalException {
        Token t = peek();
        if (t == null) throw new EvalException(last(), "constant expression ends early");
        p++;
        if (t.is("-")) return -unary();
        if (t.is("+")) return unary();
        if (t.is("~")) return ~unary();
        if (t.is("!")) return unary() == 0 ? 1 : 0;
        if (t.is("(") && isCast()) {
            p += 2; // a cast to an integer type changes nothing for the constants the headers use
            return unary();
        }
        if (t.is("(")) {
            long v = binary(0);
            closeParen(t);
            return v;
        }
        if (t.kind() == Kind.NUMBER) {
            try {
                return parseLiteral(t.text());
            } catch (NumberFormatException e) {
                throw new EvalException(t, "bad integer literal '" + t.text() + "'");
            }
        }
        if (t.kind() == Kind.IDENT) {
            if ((t.text().equals("BIT") || t.text().equals("BIT_ULL")) && peek() != null && peek().is("(")) {
                p++;
                long n = binary(0);
                closeParen(t);
                if (n < 0 || n > 63) throw new EvalException(t, t.text() + "(" + n + ") is out of range");
                return 1L << n;
            }
            Long v = names.apply(t.text());
            if (v == null) throw new EvalException(t, "unknown name '" + t.text() + "' in constant expression");
            return v;
        }
        throw new EvalException(t, "unexpected '" + t.text() + "' in constant expression");
    }

    private static final java.util.Set<String> INT_TYPES = java.util.Set.of(
            "u8", "u16", "u32", "u64", "int", "unsigned", "long", "size_t", "__u8", "__u16", "__u32", "__u64");

    /** After '(': a single integer type name and ')'. */
    private boolean isCast() {
        return p + 1 < toks.size() && toks.get(p).kind() == Kind.IDENT && INT_TYPES.contains(toks.get(p).text())
                && toks.get(p + 1).is(")");
    }

    private void closeParen(Token open) throws EvalException {
        Token t = peek();
        if (t == null || !t.is(")")) throw new EvalException(t == null ? open : t, "missing ')'");
        p++;
    }
}

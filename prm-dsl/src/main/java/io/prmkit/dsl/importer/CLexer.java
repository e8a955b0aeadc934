package io.prmkit.dsl.importer;

import java.util.ArrayList;
import java.util.List;

/**
 * Splits a C header into tokens and preprocessor lines. Only what the mlx5_ifc subset needs:
 * identifiers, integer literals (with C suffixes), punctuation and the two comment forms. A
 * preprocessor line (with its backslash continuations) becomes one {@link Directive}; the parser
 * decides what to make of it.
 */
final class CLexer {

    enum Kind { IDENT, NUMBER, PUNCT, EOF }

    record Token(Kind kind, String text, int line, int column) {
        boolean is(String s) {
            return text.equals(s) && kind != Kind.EOF;
        }

        @Override
        public String toString() {
            return kind == Kind.EOF ? "end of file" : "'" + text + "'";
        }
    }

    /** A preprocessor line: its text after '#', continuations joined, comments removed. */
    record Directive(String text, int line, int column) {}

    record Result(List<Token> tokens, List<Directive> directives, List<String> errors) {}

    private final String src;
    private int pos;
    private int line = 1;
    private int lineStart;
    private final List<Token> tokens = new ArrayList<>();
    private final List<Directive> directives = new ArrayList<>();
    private final List<String> errors = new ArrayList<>();

    private CLexer(String src) {
        this.src = src;
    }

    static Result lex(String src) {
        CLexer l = new CLexer(src);
        l.run();
        return new Result(List.copyOf(l.tokens), List.copyOf(l.directives), List.copyOf(l.errors));
    }

    private int col() {
        return pos - lineStart + 1;
    }

    private void newline() {
        line++;
        lineStart = pos;
    }

    private void run() {
        boolean lineHasToken = false;
        while (pos < src.length()) {
            char c = src.charAt(pos);
            if (c == '\n') {
                pos++;
                newline();
                lineHasToken = false;
            } else if (c == ' ' || c == '\t' || c == '\r' || c == '\f') {
                pos++;
            } else if (c == '/' && peek(1) == '/') {
                while (pos < src.length() && src.charAt(pos) != '\n') pos++;
            } else if (c == '/' && peek(1) == '*') {
                blockComment();
            } else if (c == '#' && !lineHasToken) {
                directive();
            } else if (Character.isLetter(c) || c == '_') {
                int l = line, col = col(), s = pos;
                while (pos < src.length() && (Character.isLetterOrDigit(src.charAt(pos)) || src.charAt(pos) == '_')) pos++;
                tokens.add(new Token(Kind.IDENT, src.substring(s, pos), l, col));
                lineHasToken = true;
            } else if (Character.isDigit(c)) {
                int l = line, col = col(), s = pos;
                while (pos < src.length() && (Character.isLetterOrDigit(src.charAt(pos)))) pos++;
                tokens.add(new Token(Kind.NUMBER, src.substring(s, pos), l, col));
                lineHasToken = true;
            } else {
                int l = line, col = col();
                String two = pos + 1 < src.length() ? src.substring(pos, pos + 2) : "";
                String p = switch (two) {
                    case "<<", ">>" -> two;
                    default -> String.valueOf(c);
                };
                pos += p.length();
                tokens.add(new Token(Kind.PUNCT, p, l, col));
                lineHasToken = true;
            }
        }
        tokens.add(new Token(Kind.EOF, "", line, col()));
    }

    private char peek(int ahead) {
        int i = pos + ahead;
        return i < src.length() ? src.charAt(i) : '\0';
    }

    private void blockComment() {
        int l = line, col = col();
        pos += 2;
        while (pos < src.length() && !(src.charAt(pos) == '*' && peek(1) == '/')) {
            if (src.charAt(pos++) == '\n') newline();
        }
        if (pos >= src.length()) {
            errors.add(l + ":" + col + ": unterminated comment");
            return;
        }
        pos += 2;
    }

    private void directive() {
        int l = line, col = col();
        pos++;
        StringBuilder sb = new StringBuilder();
        while (pos < src.length()) {
            char c = src.charAt(pos);
            if (c == '\\' && (peek(1) == '\n' || (peek(1) == '\r' && peek(2) == '\n'))) {
                pos += peek(1) == '\r' ? 3 : 2;
                newline();
                sb.append(' ');
            } else if (c == '\n') {
                break;
            } else if (c == '/' && peek(1) == '*') {
                blockComment();
                sb.append(' ');
            } else if (c == '/' && peek(1) == '/') {
                while (pos < src.length() && src.charAt(pos) != '\n') pos++;
            } else {
                sb.append(c);
                pos++;
            }
        }
        directives.add(new Directive(sb.toString().trim(), l, col));
    }
}

package io.prmkit.dsl.parser;

import io.prmkit.dsl.Diagnostic;
import io.prmkit.dsl.DiagnosticPrinter;
import io.prmkit.dsl.SourceLocation;
import java.util.ArrayList;
import java.util.List;
import org.antlr.v4.runtime.BaseErrorListener;
import org.antlr.v4.runtime.Parser;
import org.antlr.v4.runtime.ParserRuleContext;
import org.antlr.v4.runtime.RecognitionException;
import org.antlr.v4.runtime.Recognizer;
import org.antlr.v4.runtime.Token;
import org.antlr.v4.runtime.TokenStream;
import org.antlr.v4.runtime.misc.IntervalSet;

/**
 * Turns ANTLR's syntax errors into curated diagnostics. ANTLR's own texts ("mismatched input ...
 * expecting {...}") list token sets; a spec author wants to hear what is missing, in the words
 * of the language reference, at the place it is missing.
 */
final class SyntaxErrorListener extends BaseErrorListener {
    /**
     * Syntax errors collected per file before the parse stops. Recovery after each error can look far
     * ahead, so garbage input (millions of tokens on one line) would otherwise take time quadratic in
     * its length; and one error per line is all that is shown anyway.
     */
    static final int MAX_SYNTAX_ERRORS = 20;

    private final String file;
    final List<Diagnostic> diagnostics = new ArrayList<>();

    SyntaxErrorListener(String file) {
        this.file = file;
    }

    @Override
    public void syntaxError(Recognizer<?, ?> recognizer, Object offendingSymbol, int line, int col, String msg,
                            RecognitionException e) {
        if (diagnostics.size() >= MAX_SYNTAX_ERRORS) throw new org.antlr.v4.runtime.misc.ParseCancellationException("too many syntax errors");
        if (!(recognizer instanceof Parser parser) || !(offendingSymbol instanceof Token bad)) {
            diagnostics.add(Diagnostic.error(new SourceLocation(file, line, col + 1), msg));
            return;
        }
        IntervalSet expected;
        try {
            expected = e != null && e.getExpectedTokens() != null ? e.getExpectedTokens() : parser.getExpectedTokens();
        } catch (RuntimeException ex) {
            expected = new IntervalSet();
        }
        ParserRuleContext ctx = parser.getContext();
        Token prev = previousToken(parser.getInputStream(), bad);
        SourceLocation at = loc(bad);

        // A ';' left out at the end of a line: point just past the last token of that line.
        if (expected.contains(PrmLexer.SEMI) && prev != null && bad.getLine() > prev.getLine()) {
            diagnostics.add(Diagnostic.error(after(prev), "expected ';' after '" + DiagnosticPrinter.cut(prev.getText()) + "'"));
            return;
        }
        // ... and before a '}' on the same line: the last member or value needs its ';' too.
        if (expected.contains(PrmLexer.SEMI) && prev != null && bad.getType() == PrmLexer.RBRACE) {
            diagnostics.add(Diagnostic.error(after(prev), "expected ';' after '" + DiagnosticPrinter.cut(prev.getText())
                    + "': the last one before '}' needs it too"));
            return;
        }
        if (bad.getType() == Token.EOF) {
            if (expected.contains(PrmLexer.RBRACE)) {
                diagnostics.add(Diagnostic.error(at, "unexpected end of file: a '{' is not closed (missing '}')"));
            } else {
                diagnostics.add(Diagnostic.error(at, "unexpected end of file; expected " + describe(expected)));
            }
            return;
        }
        if (isDeclarationKeyword(bad.getType()) && bad.getCharPositionInLine() == 0 && expected.contains(PrmLexer.RBRACE)) {
            diagnostics.add(Diagnostic.error(at, "missing '}' before '" + DiagnosticPrinter.cut(bad.getText()) + "': the previous declaration is not closed"));
            return;
        }
        if (bad.getType() == PrmLexer.SEMI && prev != null && prev.getType() == PrmLexer.RBRACE) {
            diagnostics.add(Diagnostic.error(at, "unexpected ';' after '}': declarations do not end with ';'"));
            return;
        }
        if (bad.getType() == PrmLexer.LBRACK && prev != null && (prev.getType() == PrmLexer.SEMI || prev.getType() == PrmLexer.LBRACE
                || prev.getType() == PrmLexer.RBRACE)) {
            diagnostics.add(Diagnostic.error(at, "a bit range follows the byte offset of its dword, e.g. '0x04 [31:0] name'"));
            return;
        }
        boolean keywordAsMemberName = prev != null && (prev.getType() == PrmLexer.UNION || prev.getType() == PrmLexer.STRUCT)
                && (bad.getType() == PrmLexer.SEMI || bad.getType() == PrmLexer.COLON);
        if (prev != null && !keywordAsMemberName && expected.contains(PrmLexer.ID) && !expected.contains(PrmLexer.INT)
                && (bad.getType() == PrmLexer.SEMI || bad.getType() == PrmLexer.RBRACE || bad.getType() == PrmLexer.LBRACE
                || bad.getType() == PrmLexer.STRING)) {
            diagnostics.add(Diagnostic.error(at, "expected a name after '" + DiagnosticPrinter.cut(prev.getText()) + "'"));
            return;
        }
        if (prev != null && (prev.getType() == PrmLexer.UNION || prev.getType() == PrmLexer.STRUCT)
                && (bad.getType() == PrmLexer.SEMI || bad.getType() == PrmLexer.COLON)) {
            diagnostics.add(Diagnostic.error(loc(prev), "'" + prev.getText() + "' is a keyword and cannot be used as a name"));
            return;
        }
        if (isStructuralKeyword(bad.getType()) && expected.contains(PrmLexer.ID)) {
            diagnostics.add(Diagnostic.error(at, "'" + DiagnosticPrinter.cut(bad.getText()) + "' is a keyword and cannot be used as a name"));
            return;
        }
        if (ctx instanceof PrmParser.BitRangeContext || inBitRange(parser.getInputStream(), bad)) {
            diagnostics.add(Diagnostic.error(at, "bad bit range: write [hi:lo] with the high bit first (e.g. [23:16]) or [bit]"));
            return;
        }
        if (ctx instanceof PrmParser.PackageDeclContext || ctx instanceof PrmParser.SpecFileContext
                && prev == null) {
            diagnostics.add(Diagnostic.error(at, "a spec file starts with 'package NAME;'"));
            return;
        }
        if (ctx instanceof PrmParser.RuleDeclContext && bad.getType() == PrmLexer.SEMI) {
            diagnostics.add(Diagnostic.error(at, "a rule needs a message: rule NAME: EXPR \"message\";"));
            return;
        }
        if (ctx instanceof PrmParser.TypeSpecContext || ctx instanceof PrmParser.TypeBaseContext || (prev != null && prev.getType() == PrmLexer.COLON
                && ctx instanceof PrmParser.MemberContext)) {
            diagnostics.add(Diagnostic.error(at, "expected a type after ':' (a width in bits, u8/u16/u32/u64 or a struct name), found "
                    + quote(bad)));
            return;
        }
        if (ctx instanceof PrmParser.MemberContext && prev != null && prev.getType() == PrmLexer.STRING
                && bad.getType() >= PrmLexer.REF && bad.getType() <= PrmLexer.CAP || bad.getType() == PrmLexer.ENUM
                || bad.getType() == PrmLexer.FLAGS) {
            if (ctx instanceof PrmParser.MemberContext && prev != null && prev.getType() == PrmLexer.STRING) {
                diagnostics.add(Diagnostic.error(at, "the doc string comes last: move '" + DiagnosticPrinter.cut(bad.getText()) + "' before it"));
                return;
            }
        }
        if (ctx instanceof PrmParser.MemberContext && bad.getType() == PrmLexer.STRING && prev != null
                && prev.getType() == PrmLexer.STRING) {
            diagnostics.add(Diagnostic.error(at, "a member has one doc string; attributes go before it"));
            return;
        }
        if (ctx instanceof PrmParser.MemberContext && (bad.getType() == PrmLexer.ID || bad.getType() == PrmLexer.INT)) {
            diagnostics.add(Diagnostic.error(at, "unexpected " + quote(bad) + " after member '" + memberName(ctx)
                    + "': expected ':' and a type, an attribute, a doc string or ';'"));
            return;
        }
        diagnostics.add(Diagnostic.error(at, "unexpected " + quote(bad) + "; expected " + describe(expected)));
    }

    private static String memberName(ParserRuleContext ctx) {
        PrmParser.MemberContext m = (PrmParser.MemberContext) ctx;
        return m.name() != null ? DiagnosticPrinter.cut(m.name().getText()) : "?";
    }

    /** Whether the token follows an unclosed '[' that itself follows a placement offset on the same line. */
    private static boolean inBitRange(TokenStream in, Token t) {
        for (int i = t.getTokenIndex() - 1; i >= 1; i--) {
            Token p = in.get(i);
            if (p.getLine() != t.getLine() || p.getType() == PrmLexer.RBRACK) return false;
            if (p.getType() == PrmLexer.LBRACK) {
                Token before = in.get(i - 1);
                return before.getType() == PrmLexer.INT && (i < 2 || in.get(i - 2).getLine() != before.getLine()
                        || in.get(i - 2).getType() == PrmLexer.SEMI || in.get(i - 2).getType() == PrmLexer.LBRACE
                        || in.get(i - 2).getType() == PrmLexer.RBRACE);
            }
        }
        return false;
    }

    private static boolean isDeclarationKeyword(int type) {
        return type == PrmLexer.STRUCT || type == PrmLexer.UNION || type == PrmLexer.ENUM || type == PrmLexer.FLAGS
                || type == PrmLexer.CONST || type == PrmLexer.COMMAND || type == PrmLexer.REGISTER
                || type == PrmLexer.WQE;
    }

    private static boolean isStructuralKeyword(int type) {
        return type >= PrmLexer.PACKAGE && type <= PrmLexer.RULE;
    }

    private SourceLocation loc(Token t) {
        return new SourceLocation(file, t.getLine(), t.getCharPositionInLine() + 1);
    }

    private SourceLocation after(Token t) {
        String text = t.getText();
        int nl = text.lastIndexOf('\n');
        return nl < 0 ? new SourceLocation(file, t.getLine(), t.getCharPositionInLine() + 1 + text.length())
                : new SourceLocation(file, t.getLine(), 1);
    }

    private static Token previousToken(TokenStream in, Token t) {
        for (int i = t.getTokenIndex() - 1; i >= 0; i--) {
            Token p = in.get(i);
            if (p.getChannel() == Token.DEFAULT_CHANNEL) return p;
        }
        return null;
    }

    static String quote(Token t) {
        return switch (t.getType()) {
            case Token.EOF -> "end of file";
            case PrmLexer.STRING -> "string " + DiagnosticPrinter.cut(t.getText());
            default -> "'" + DiagnosticPrinter.cut(t.getText()) + "'";
        };
    }

    /** The expected tokens in reference words, e.g. "';' or ':'"; a long list is summarised. */
    static String describe(IntervalSet set) {
        List<String> words = new ArrayList<>();
        boolean name = false;
        // ';' first: a long list is cut, and a missing ';' is the most common mistake
        if (set.contains(PrmLexer.SEMI)) words.add(tokenWord(PrmLexer.SEMI));
        for (int type : set.toList()) {
            if (type == PrmLexer.SEMI) continue;
            if (type == PrmLexer.ID || (type > PrmLexer.RULE && type <= PrmLexer.MATCH && set.contains(PrmLexer.ID))) {
                if (!name) words.add("a name");
                name = true;
                continue;
            }
            words.add(tokenWord(type));
        }
        if (words.isEmpty()) return "something else";
        if (words.size() > 9) return String.join(", ", words.subList(0, 9)) + ", ...";
        if (words.size() == 1) return words.get(0);
        return String.join(", ", words.subList(0, words.size() - 1)) + " or " + words.get(words.size() - 1);
    }

    static String tokenWord(int type) {
        return switch (type) {
            case Token.EOF -> "end of file";
            case PrmLexer.ID -> "a name";
            case PrmLexer.INT -> "an integer";
            case PrmLexer.STRING -> "a string";
            default -> {
                String lit = PrmLexer.VOCABULARY.getLiteralName(type);
                yield lit != null ? lit : PrmLexer.VOCABULARY.getDisplayName(type);
            }
        };
    }
}

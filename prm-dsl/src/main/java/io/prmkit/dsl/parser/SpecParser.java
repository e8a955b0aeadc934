package io.prmkit.dsl.parser;

import io.prmkit.dsl.Diagnostic;
import io.prmkit.dsl.SourceFile;
import io.prmkit.dsl.SourceLocation;
import io.prmkit.dsl.ast.SpecFile;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.antlr.v4.runtime.BailErrorStrategy;
import org.antlr.v4.runtime.CharStreams;
import org.antlr.v4.runtime.DefaultErrorStrategy;
import org.antlr.v4.runtime.atn.PredictionMode;
import org.antlr.v4.runtime.misc.ParseCancellationException;
import org.antlr.v4.runtime.CommonTokenStream;
import org.antlr.v4.runtime.ListTokenSource;
import org.antlr.v4.runtime.ParserRuleContext;
import org.antlr.v4.runtime.tree.ErrorNode;
import org.antlr.v4.runtime.tree.ParseTreeListener;
import org.antlr.v4.runtime.tree.TerminalNode;
import io.prmkit.dsl.ast.Decl;
import org.antlr.v4.runtime.Token;

/**
 * Text to AST for one file. Never throws on bad input: lexical problems, syntax errors and
 * pathological nesting all come back as diagnostics, and the AST is only built from a clean parse.
 */
public final class SpecParser {
    /** Deepest nesting of parentheses or unary operators accepted in a rule expression. */
    public static final int MAX_EXPR_NESTING = 64;

    /** The AST (present iff there are no errors) and the diagnostics. */
    public record Result(Optional<SpecFile> ast, List<Diagnostic> diagnostics) {
        public Result {
            diagnostics = List.copyOf(diagnostics);
        }
    }

    private SpecParser() {
    }

    public static Result parse(SourceFile source) {
        String file = source.name();
        List<Diagnostic> diags = new ArrayList<>();
        PrmLexer lexer = new PrmLexer(CharStreams.fromString(lexable(source.text()), file));
        lexer.removeErrorListeners();
        List<Token> kept = new ArrayList<>();
        int depth = 0;
        int unaryRun = 0;
        boolean tooDeep = false;
        Set<Integer> badLines = new HashSet<>();
        // ',' separates the parts of a join and a call's arguments and nothing else: elsewhere it stays the lexical error it was
        int previous = PrmLexer.SEMI;
        boolean inJoin = false;
        for (Token t = lexer.nextToken(); ; t = lexer.nextToken()) {
            // lexical errors stop the file at the same count as syntax errors (1,000 lines of '@@' gave 1,000)
            if (!diags.isEmpty()) badLines.add(diags.get(diags.size() - 1).location().line());
            if (badLines.size() >= SyntaxErrorListener.MAX_SYNTAX_ERRORS) return new Result(Optional.empty(), onePerLine(diags));
            SourceLocation at = new SourceLocation(file, t.getLine(), t.getCharPositionInLine() + 1);
            if (t.getType() == PrmLexer.JOIN && (previous == PrmLexer.SEMI || previous == PrmLexer.LBRACE || previous == PrmLexer.RBRACE)) {
                inJoin = true;
            } else if (t.getType() == PrmLexer.SEMI || t.getType() == PrmLexer.LBRACE || t.getType() == PrmLexer.RBRACE) {
                inJoin = false;
            }
            if (t.getChannel() == Token.DEFAULT_CHANNEL) previous = t.getType();
            switch (t.getType()) {
                case PrmLexer.COMMA -> {
                    if (!inJoin && depth == 0) { // or between a call's arguments in a WQE rule
                        diags.add(Diagnostic.error(at, "unexpected character ','; members and enum values end with ';'"));
                        continue;
                    }
                }
                case PrmLexer.BAD_CHAR -> {
                    diags.add(Diagnostic.error(at, "unexpected character " + describeChar(t.getText())
                            + (t.getText().equals(",") ? "; members and enum values end with ';'" : "")));
                    continue;
                }
                case PrmLexer.UNTERMINATED_STRING -> {
                    diags.add(Diagnostic.error(at, "unterminated string: a string ends with '\"' on the same line"));
                    continue;
                }
                case PrmLexer.UNTERMINATED_COMMENT -> {
                    diags.add(Diagnostic.error(at, "unterminated comment: '/*' without '*/'"));
                    continue;
                }
                case PrmLexer.LPAREN -> depth++;
                case PrmLexer.RPAREN -> depth = Math.max(0, depth - 1);
                case PrmLexer.SEMI, PrmLexer.RBRACE, PrmLexer.LBRACE -> depth = 0;
                default -> { }
            }
            boolean unary = t.getType() == PrmLexer.BANG || t.getType() == PrmLexer.TILDE || t.getType() == PrmLexer.MINUS
                    || t.getType() == PrmLexer.LPAREN;
            unaryRun = unary ? unaryRun + 1 : 0;
            if (!tooDeep && (depth > MAX_EXPR_NESTING || unaryRun > MAX_EXPR_NESTING)) {
                tooDeep = true;
                diags.add(Diagnostic.error(at, "expression nested too deeply (more than " + MAX_EXPR_NESTING + " levels)"));
            }
            kept.add(t);
            if (t.getType() == Token.EOF) break;
        }
        if (tooDeep) return new Result(Optional.empty(), diags);

        CommonTokenStream tokens = new CommonTokenStream(new ListTokenSource(kept, file));
        PrmParser parser = new PrmParser(tokens);
        parser.removeErrorListeners();
        SyntaxErrorListener listener = new SyntaxErrorListener(file);
        DeclCollector collector = new DeclCollector(new AstBuilder(file, tokens), listener);
        parser.addParseListener(collector);
        PrmParser.SpecFileContext tree;
        try {
            // Two-stage parse: the fast SLL mode suffices for nearly all input; only a file it
            // cannot parse is parsed again in full LL mode, which also reports the errors.
            parser.getInterpreter().setPredictionMode(PredictionMode.SLL);
            parser.setErrorHandler(new BailErrorStrategy());
            try {
                tree = parser.specFile();
            } catch (ParseCancellationException e) {
                tokens.seek(0);
                parser.reset();
                collector.restart(new AstBuilder(file, tokens));
                parser.addErrorListener(listener);
                parser.setErrorHandler(new DefaultErrorStrategy());
                parser.getInterpreter().setPredictionMode(PredictionMode.LL);
                try {
                    tree = parser.specFile();
                } catch (ParseCancellationException tooMany) {
                    tree = null; // the listener stopped after MAX_SYNTAX_ERRORS; those are reported below
                }
            }
        } catch (StackOverflowError e) {
            // Guarded by the nesting checks; this keeps any input we did not foresee a diagnostic.
            diags.add(Diagnostic.error(new SourceLocation(file, 1, 1), "spec too deeply nested to parse"));
            return new Result(Optional.empty(), diags);
        }
        // A line with a lexical error gets no syntax error as well: that would only be its echo.
        Set<Integer> lexicalLines = new HashSet<>();
        diags.forEach(d -> lexicalLines.add(d.location().line()));
        for (Diagnostic d : listener.diagnostics) {
            if (!lexicalLines.contains(d.location().line())) diags.add(d);
        }
        if (!diags.isEmpty()) return new Result(Optional.empty(), onePerLine(diags));

        AstBuilder builder = collector.builder;
        SpecFile ast = builder.build(tree, collector.decls);
        diags.addAll(builder.diagnostics());
        boolean errors = diags.stream().anyMatch(Diagnostic::isError);
        return new Result(errors ? Optional.empty() : Optional.of(ast), diags);
    }

    /**
     * Builds each declaration's AST as soon as the parser has finished it, then drops its parse
     * tree: a spec of thousands of structs never holds the whole tree in memory. Stops building
     * at the first syntax error (the AST is not wanted then).
     */
    private static final class DeclCollector implements ParseTreeListener {
        AstBuilder builder;
        final SyntaxErrorListener errors;
        final List<Decl> decls = new ArrayList<>();

        DeclCollector(AstBuilder builder, SyntaxErrorListener errors) {
            this.builder = builder;
            this.errors = errors;
        }

        void restart(AstBuilder fresh) {
            builder = fresh;
            decls.clear();
        }

        @Override
        public void exitEveryRule(ParserRuleContext ctx) {
            if (ctx instanceof PrmParser.DeclContext d && errors.diagnostics.isEmpty() && ctx.exception == null) {
                decls.add(builder.decl(d));
                ParserRuleContext parent = ctx.getParent();
                if (parent != null && parent.getChildCount() > 0 && parent.getChild(parent.getChildCount() - 1) == ctx) {
                    parent.removeLastChild();
                }
            }
        }

        @Override
        public void enterEveryRule(ParserRuleContext ctx) {
        }

        @Override
        public void visitTerminal(TerminalNode node) {
        }

        @Override
        public void visitErrorNode(ErrorNode node) {
        }
    }

    /** After one syntax error, recovery often trips again on the same line; the first is the useful one. */
    private static List<Diagnostic> onePerLine(List<Diagnostic> diags) {
        List<Diagnostic> sorted = new ArrayList<>(diags);
        sorted.sort(Comparator.comparing(Diagnostic::location));
        Set<Integer> lines = new HashSet<>();
        List<Diagnostic> out = new ArrayList<>();
        for (Diagnostic d : sorted) {
            if (lines.add(d.location().line())) out.add(d);
        }
        return out;
    }

    /**
     * The text the lexer sees, of the same length so columns stay right: a leading byte order mark is
     * blank, and a lone CR (old Mac line end) is a line break like LF, as {@link SourceFile#line} counts.
     */
    static String lexable(String text) {
        String t = text.startsWith("\uFEFF") ? " " + text.substring(1) : text;
        return t.indexOf('\r') < 0 ? t : t.replaceAll("\r(?!\n)", "\n");
    }

    /** A character as the user can see it: invisible and control characters by code point and name. */
    private static String describeChar(String text) {
        if (text.isEmpty()) return "''";
        int cp = text.codePointAt(0);
        if (cp == 0xFEFF) return "U+FEFF (a byte order mark, allowed only at the very start of a file)";
        if (cp < 0x20 || cp == 0x7f) return String.format("U+%04X", cp);
        int type = Character.getType(cp);
        if (type == Character.FORMAT || type == Character.CONTROL || type == Character.SPACE_SEPARATOR
                || type == Character.LINE_SEPARATOR || type == Character.PARAGRAPH_SEPARATOR || type == Character.PRIVATE_USE
                || type == Character.UNASSIGNED) {
            String name = Character.getName(cp);
            return String.format("U+%04X", cp) + (name == null ? "" : " (" + name.toLowerCase(java.util.Locale.ROOT) + ")");
        }
        return "'" + text + "'";
    }
}

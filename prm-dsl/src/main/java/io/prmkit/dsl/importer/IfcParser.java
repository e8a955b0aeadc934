package io.prmkit.dsl.importer;

import io.prmkit.dsl.Diagnostic;
import io.prmkit.dsl.SourceLocation;
import io.prmkit.dsl.importer.CLexer.Directive;
import io.prmkit.dsl.importer.CLexer.Kind;
import io.prmkit.dsl.importer.CLexer.Token;
import io.prmkit.dsl.importer.CModel.Aggregate;
import io.prmkit.dsl.importer.CModel.BitField;
import io.prmkit.dsl.importer.CModel.Decl;
import io.prmkit.dsl.importer.CModel.Define;
import io.prmkit.dsl.importer.CModel.EnumDecl;
import io.prmkit.dsl.importer.CModel.EnumValue;
import io.prmkit.dsl.importer.CModel.Expr;
import io.prmkit.dsl.importer.CModel.Inline;
import io.prmkit.dsl.importer.CModel.Member;
import io.prmkit.dsl.importer.CModel.TypeRef;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A recursive-descent parser for the mlx5_ifc header convention. It accepts only the regular subset
 * the kernel uses for PRM layouts; anything else becomes an error diagnostic at its line and the
 * parser resynchronises at the next {@code ;} so one odd declaration does not hide the rest.
 */
final class IfcParser {

    record Parsed(List<Decl> decls, List<Diagnostic> diagnostics) {}

    private static final Pattern DEFINE = Pattern.compile("define\\s+([A-Za-z_][A-Za-z0-9_]*)(\\(?)\\s*(.*)", Pattern.DOTALL);
    private static final Pattern GUARD = Pattern.compile("(ifndef|define)\\s+([A-Za-z_][A-Za-z0-9_]*)\\s*");

    private final String file;
    private final List<Token> toks;
    private int p;
    private final List<Decl> decls = new ArrayList<>();
    private final List<Diagnostic> diags = new ArrayList<>();

    private IfcParser(String file, List<Token> toks) {
        this.file = file;
        this.toks = toks;
    }

    static Parsed parse(String file, String text) {
        CLexer.Result lexed = CLexer.lex(text);
        IfcParser parser = new IfcParser(file, lexed.tokens());
        for (String e : lexed.errors()) {
            String[] lc = e.split(":", 3);
            parser.diags.add(Diagnostic.error(new SourceLocation(file, Integer.parseInt(lc[0]), Integer.parseInt(lc[1])), lc[2].trim()));
        }
        parser.directives(lexed.directives());
        parser.topLevel();
        List<Decl> sorted = new ArrayList<>(parser.decls);
        sorted.sort(Comparator.comparingInt(Decl::line));
        return new Parsed(List.copyOf(sorted), List.copyOf(parser.diags));
    }

    private SourceLocation at(int line, int col) {
        return new SourceLocation(file, line, col);
    }

    private SourceLocation at(Token t) {
        return at(t.line(), t.column());
    }

    // ---- preprocessor -------------------------------------------------------------------------

    private void directives(List<Directive> ds) {
        String guard = null;
        for (int i = 0; i < ds.size(); i++) {
            Directive d = ds.get(i);
            String t = d.text();
            Matcher g = GUARD.matcher(t);
            if (i == 0 && g.matches() && g.group(1).equals("ifndef")) {
                guard = g.group(2);
                continue;
            }
            if (g.matches() && g.group(1).equals("define") && g.group(2).equals(guard)) continue;
            if (t.startsWith("endif") && i == ds.size() - 1 && guard != null) continue;
            if (t.startsWith("include")) continue; // the user passes every header to import explicitly
            Matcher m = DEFINE.matcher(t);
            if (m.matches()) {
                if (!m.group(2).isEmpty()) {
                    note(d, "function-like macro " + m.group(1) + " not imported (no DSL equivalent)");
                    continue;
                }
                List<Token> body = new ArrayList<>(CLexer.lex(m.group(3)).tokens());
                body.remove(body.size() - 1); // EOF
                if (body.isEmpty()) {
                    note(d, "empty macro " + m.group(1) + " not imported");
                    continue;
                }
                decls.add(new Define(m.group(1), new Expr(body, d.line(), d.column()), d.line(), d.column()));
                continue;
            }
            note(d, "preprocessor line ignored: #" + t);
        }
    }

    private void note(Directive d, String msg) {
        diags.add(new Diagnostic(io.prmkit.dsl.Severity.WARNING, at(d.line(), d.column()), msg, List.of()));
    }

    // ---- declarations -------------------------------------------------------------------------

    private Token peek() {
        return toks.get(p);
    }

    private Token peek(int ahead) {
        return toks.get(Math.min(p + ahead, toks.size() - 1));
    }

    private Token next() {
        Token t = toks.get(p);
        if (t.kind() != Kind.EOF) p++;
        return t;
    }

    private static final class Bail extends RuntimeException {
        Bail() {
            super(null, null, false, false);
        }
    }

    /** The expression between [ and ]: located at its first token (at the [ when empty), where a message about its value points. */
    private static Expr bracketed(List<Token> tokens, Token open) {
        Token at = tokens.isEmpty() ? open : tokens.get(0);
        return new Expr(tokens, at.line(), at.column());
    }

    private Bail fail(Token t, String msg) {
        diags.add(Diagnostic.error(at(t), msg));
        return new Bail();
    }

    private Token expect(String s, String what) {
        Token t = peek();
        if (!t.is(s)) throw fail(t, "expected '" + s + "' " + what + ", found " + t);
        return next();
    }

    private String ident(String what) {
        Token t = peek();
        if (t.kind() != Kind.IDENT) throw fail(t, "expected " + what + ", found " + t);
        return next().text();
    }

    /** Skips to just past the next ';' at brace depth 0 (relative to here). */
    private void recover() {
        int depth = 0;
        while (peek().kind() != Kind.EOF) {
            Token t = next();
            if (t.is("{")) depth++;
            else if (t.is("}")) depth = Math.max(0, depth - 1);
            else if (t.is(";") && depth == 0) return;
        }
    }

    private void topLevel() {
        while (peek().kind() != Kind.EOF) {
            int start = p;
            try {
                Token t = peek();
                if ((t.is("struct") || t.is("union")) && peek(1).kind() == Kind.IDENT && peek(2).is("{")) {
                    Aggregate a = aggregateBody(next().is("union"), next().text(), t);
                    attributes(a.tag());
                    expect(";", "after the closing brace of " + a.tag());
                    decls.add(a);
                } else if ((t.is("struct") || t.is("union")) && peek(1).kind() == Kind.IDENT && peek(2).is(";")) {
                    diags.add(new Diagnostic(io.prmkit.dsl.Severity.WARNING, at(t),
                            "forward declaration of " + peek(1).text() + " ignored", List.of()));
                    p += 3;
                } else if (t.is("enum")) {
                    enumDecl();
                } else if (t.is(";")) {
                    next();
                } else {
                    throw fail(t, "unsupported declaration starting with " + t
                            + " (the importer reads struct/union mlx5_ifc_*_bits, enums and #defines)");
                }
            } catch (Bail b) {
                if (p == start) next();
                recover();
            }
        }
    }

    private Aggregate aggregateBody(boolean union, String tag, Token start) {
        expect("{", "to open " + (tag == null ? "the inline " + (union ? "union" : "struct") : tag));
        List<Member> members = new ArrayList<>();
        boolean broken = false;
        while (!peek().is("}")) {
            if (peek().kind() == Kind.EOF) throw fail(peek(), "missing '}' for the " + (union ? "union" : "struct") + " opened at line " + start.line());
            int before = diags.size();
            try {
                members.add(member());
            } catch (Bail b) {
                broken = true;
                // resynchronise inside the body: skip to the end of this member
                while (!peek().is(";") && !peek().is("}") && peek().kind() != Kind.EOF) {
                    if (peek().is("{")) skipBraces();
                    else next();
                }
                if (peek().is(";")) next();
                if (diags.size() == before) throw b;
            }
        }
        next();
        return new Aggregate(tag, union, members, broken, start.line(), start.column());
    }

    private void skipBraces() {
        int depth = 0;
        do {
            Token t = next();
            if (t.is("{")) depth++;
            else if (t.is("}")) depth--;
        } while (depth > 0 && peek().kind() != Kind.EOF);
    }

    private Member member() {
        Token t = peek();
        if (t.is("DECLARE_FLEX_ARRAY") && peek(1).is("(")) {
            // the kernel's DECLARE_FLEX_ARRAY(TYPE, NAME): a flexible array, allowed even in a union
            next();
            next();
            Token kind = peek();
            if (kind.is("struct") || kind.is("union")) {
                next();
                String tag = ident("a struct or union tag");
                expect(",", "in DECLARE_FLEX_ARRAY");
                String name = ident("a member name");
                expect(")", "to close DECLARE_FLEX_ARRAY");
                attributes(name);
                expect(";", "after DECLARE_FLEX_ARRAY");
                return new TypeRef(kind.is("union"), tag, name, new Expr(List.of(), t.line(), t.column()), t.line(), t.column());
            }
            throw fail(kind, "DECLARE_FLEX_ARRAY of " + kind + " is not supported (expected struct or union): in the mlx5_ifc"
                    + " convention a flexible array of fields is written u8 name[][0xN] (N the element width in bits); write that in a copy of the header");
        }
        if (t.is("u8")) {
            next();
            String name = ident("a field name after u8");
            List<Expr> dims = new ArrayList<>();
            while (peek().is("[")) {
                Token open = next();
                List<Token> e = new ArrayList<>();
                while (!peek().is("]")) {
                    if (peek().kind() == Kind.EOF || peek().is(";")) throw fail(peek(), "missing ']'");
                    e.add(next());
                }
                next();
                dims.add(bracketed(e, open));
            }
            attributes(name);
            expect(";", "after field " + name);
            return switch (dims.size()) {
                case 1 -> {
                    if (dims.get(0).isEmpty()) {
                        // u8 data[]: a trailing buffer of unstated element width; the kernel reads it as bytes
                        diags.add(new Diagnostic(io.prmkit.dsl.Severity.NOTE, at(t),
                                "u8 " + name + "[] has no element width; imported as a flexible byte array u8[]", List.of()));
                        yield new BitField(name, dims.get(0), new Expr(List.of(new Token(Kind.NUMBER, "8", t.line(), t.column())),
                                t.line(), t.column()), t.line(), t.column());
                    }
                    yield new BitField(name, null, dims.get(0), t.line(), t.column());
                }
                case 2 -> new BitField(name, dims.get(0), dims.get(1), t.line(), t.column());
                default -> throw fail(t, "field " + name + " has " + dims.size()
                        + " array dimensions; the mlx5_ifc convention uses u8 name[bits] or u8 name[count][bits]");
            };
        }
        if (t.is("struct") || t.is("union")) {
            boolean union = next().is("union");
            String tag = null;
            if (peek().kind() == Kind.IDENT) tag = next().text();
            if (peek().is("{")) {
                Aggregate body = aggregateBody(union, tag, t);
                if (tag != null) throw fail(t, "nested definition of tagged " + (union ? "union " : "struct ") + tag + " is not supported; define it at top level");
                attributes("the inline " + (union ? "union" : "struct"));
                String name = null;
                if (peek().kind() == Kind.IDENT && !isAttribute(peek())) name = next().text();
                if (name != null) attributes(name);
                if (peek().is("[")) throw fail(peek(), "arrays of inline " + (union ? "unions" : "structs") + " are not supported");
                expect(";", "after the inline " + (union ? "union" : "struct"));
                return new Inline(body, name, t.line(), t.column());
            }
            if (tag == null) throw fail(peek(), "expected a struct/union tag or '{', found " + peek());
            String name = ident("a member name after " + tag);
            Expr count = null;
            if (peek().is("[")) {
                Token open = next();
                List<Token> e = new ArrayList<>();
                while (!peek().is("]")) {
                    if (peek().kind() == Kind.EOF || peek().is(";")) throw fail(peek(), "missing ']'");
                    e.add(next());
                }
                next();
                count = bracketed(e, open);
                if (peek().is("[")) throw fail(peek(), "multi-dimensional arrays of " + tag + " are not supported");
            }
            attributes(name);
            expect(";", "after member " + name);
            return new TypeRef(union, tag, name, count, t.line(), t.column());
        }
        throw fail(t, "unsupported member starting with " + t + " (expected u8 name[bits], struct or union)");
    }

    private static boolean isAttribute(Token t) {
        return t.is("__packed") || t.is("__aligned") || t.is("__attribute__") || t.is("__attribute");
    }

    /**
     * GNU attributes after a member or a closing brace. {@code __packed} (or {@code __attribute__((packed))})
     * changes nothing here: every mlx5_ifc member is an array of bytes, so nothing is padded anyway; it
     * is skipped with a note. Any other attribute ({@code __aligned(8)}, {@code __attribute__((aligned(8)))},
     * ...) may move or pad what follows, which the DSL cannot say: it is refused at its column.
     */
    private void attributes(String of) {
        while (isAttribute(peek())) {
            Token t = next();
            List<String> words = new ArrayList<>();
            StringBuilder text = new StringBuilder(t.text());
            if (peek().is("(")) {
                int depth = 0;
                do {
                    Token x = next();
                    if (x.kind() == Kind.EOF) throw fail(t, "unterminated " + t.text() + "(...)");
                    if (x.is("(")) depth++;
                    else if (x.is(")")) depth--;
                    else if (x.kind() == Kind.IDENT) words.add(x.text());
                    text.append(x.text());
                } while (depth > 0);
            }
            boolean packed = t.is("__packed") || (!t.is("__aligned") && !words.isEmpty()
                    && words.stream().allMatch(w -> w.equals("packed") || w.equals("__packed__")));
            if (!packed) {
                throw fail(t, "attribute " + text + " after " + of + " may change the layout (alignment or padding), which the"
                        + " mlx5_ifc convention and the DSL do not express; import a copy of the header without it, and"
                        + " pad with reserved_at_X fields where the PRM has reserved space");
            }
            diags.add(new Diagnostic(io.prmkit.dsl.Severity.NOTE, at(t), "attribute " + text + " after " + of
                    + " ignored: members of u8 arrays are never padded, so it does not change the layout", List.of()));
        }
    }

    private void enumDecl() {
        Token start = next();
        String tag = null;
        if (peek().kind() == Kind.IDENT) tag = next().text();
        if (!peek().is("{")) {
            throw fail(peek(), "enum " + (tag == null ? "" : tag + " ") + "without a body is not imported");
        }
        next();
        List<EnumValue> values = new ArrayList<>();
        while (!peek().is("}")) {
            Token n = peek();
            String name = ident("an enum constant");
            Expr e = null;
            if (peek().is("=")) {
                Token eq = next();
                List<Token> body = new ArrayList<>();
                int depth = 0;
                while (!(depth == 0 && (peek().is(",") || peek().is("}")))) {
                    if (peek().kind() == Kind.EOF || peek().is(";")) throw fail(peek(), "unterminated value of " + name);
                    if (peek().is("(")) depth++;
                    if (peek().is(")")) depth--;
                    body.add(next());
                }
                e = new Expr(body, eq.line(), eq.column());
            }
            values.add(new EnumValue(name, e, n.line(), n.column()));
            if (peek().is(",")) next();
            else if (!peek().is("}")) throw fail(peek(), "expected ',' or '}' in enum, found " + peek());
        }
        next();
        expect(";", "after the enum");
        decls.add(new EnumDecl(tag, values, start.line(), start.column()));
    }
}

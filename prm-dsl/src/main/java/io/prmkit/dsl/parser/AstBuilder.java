package io.prmkit.dsl.parser;

import io.prmkit.dsl.Diagnostic;
import io.prmkit.dsl.SourceLocation;
import io.prmkit.dsl.ast.Attr;
import io.prmkit.dsl.ast.CommandDecl;
import io.prmkit.dsl.ast.ConstDecl;
import io.prmkit.dsl.ast.Decl;
import io.prmkit.dsl.ast.EnumDecl;
import io.prmkit.dsl.ast.ExprNode;
import io.prmkit.dsl.ast.WqeDecl;
import io.prmkit.dsl.ast.GroupAlt;
import io.prmkit.dsl.ast.InlineUnion;
import io.prmkit.dsl.ast.Item;
import io.prmkit.dsl.ast.MemberDecl;
import io.prmkit.dsl.ast.Name;
import io.prmkit.dsl.ast.Num;
import io.prmkit.dsl.ast.Placement;
import io.prmkit.dsl.ast.QName;
import io.prmkit.dsl.ast.RegisterDecl;
import io.prmkit.dsl.ast.JoinDecl;
import io.prmkit.dsl.ast.RuleDecl;
import io.prmkit.dsl.ast.SpecFile;
import io.prmkit.dsl.ast.StructDecl;
import io.prmkit.dsl.ast.TypeRef;
import io.prmkit.dsl.ast.ValueRef;
import io.prmkit.dsl.ir.Access;
import io.prmkit.dsl.ir.Expr;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.antlr.v4.runtime.BufferedTokenStream;
import org.antlr.v4.runtime.ParserRuleContext;
import org.antlr.v4.runtime.Token;
import org.antlr.v4.runtime.tree.TerminalNode;

/** Parse tree to AST. Only called on a tree without syntax errors; reports bad literals. */
final class AstBuilder {
    private static final int DOC_CHANNEL = 2;
    /** Deepest rule expression tree accepted (long operator chains nest too). */
    static final int MAX_EXPR_DEPTH = 256;

    private final String file;
    private final BufferedTokenStream tokens;
    private final List<Diagnostic> diagnostics = new ArrayList<>();

    AstBuilder(String file, BufferedTokenStream tokens) {
        this.file = file;
        this.tokens = tokens;
    }

    List<Diagnostic> diagnostics() {
        return diagnostics;
    }

    /** The file's AST from its header and the declarations already built while parsing (see {@link #decl}). */
    SpecFile build(PrmParser.SpecFileContext ctx, List<Decl> decls) {
        QName pkg = qname(ctx.packageDecl().qname());
        List<SpecFile.Import> imports = new ArrayList<>();
        for (PrmParser.ImportDeclContext i : ctx.importDecl()) {
            imports.add(new SpecFile.Import(qname(i.qname()), loc(i.getStart())));
        }
        return new SpecFile(file, pkg, imports, decls);
    }

    Decl decl(PrmParser.DeclContext d) {
        if (d instanceof PrmParser.StructDeclContext s) {
            return structDecl(s.name(), false, s.declOption(), s.structItem(), List.of(), d);
        } else if (d instanceof PrmParser.UnionDeclContext u) {
            return structDecl(u.name(), true, u.declOption(), List.of(), u.unionAlt(), d);
        } else if (d instanceof PrmParser.EnumDeclContext e) {
            return enumDecl(e.name(), false, e.INT(), e.enumValue(), d);
        } else if (d instanceof PrmParser.FlagsDeclContext f) {
            return enumDecl(f.name(), true, f.INT(), f.enumValue(), d);
        } else if (d instanceof PrmParser.CommandDeclContext c) {
            return commandDecl(c);
        } else if (d instanceof PrmParser.RegisterDeclContext r) {
            return registerDecl(r);
        } else if (d instanceof PrmParser.WqeDeclContext w) {
            return wqeDecl(w);
        } else {
            PrmParser.ConstDeclContext c = (PrmParser.ConstDeclContext) d;
            String doc = c.STRING() != null ? string(c.STRING()) : docComment(d);
            return new ConstDecl(name(c.name()), num(c.INT()), doc, loc(d.getStart()));
        }
    }

    private StructDecl structDecl(PrmParser.NameContext nameCtx, boolean union, List<PrmParser.DeclOptionContext> options,
                                  List<PrmParser.StructItemContext> structItems, List<PrmParser.UnionAltContext> alts,
                                  ParserRuleContext d) {
        Optional<Num> size = Optional.empty();
        boolean little = false;
        boolean gaps = false;
        String ref = "";
        String since = "";
        List<String> seen = new ArrayList<>();
        for (PrmParser.DeclOptionContext o : options) {
            String word = o.getStart().getText();
            if (seen.contains(word)) {
                error(o.getStart(), "duplicate '" + word + "' option");
            }
            seen.add(word);
            if (o instanceof PrmParser.SizeOptionContext s) {
                size = Optional.of(num(s.INT()));
            } else if (o instanceof PrmParser.OrderOptionContext ord) {
                little = ord.LITTLE() != null;
            } else if (o instanceof PrmParser.GapsOptionContext) {
                gaps = true;
            } else if (o instanceof PrmParser.RefOptionContext r) {
                ref = string(r.STRING());
            } else if (o instanceof PrmParser.SinceOptionContext s) {
                since = string(s.STRING());
            }
            if (union && (o instanceof PrmParser.OrderOptionContext || o instanceof PrmParser.GapsOptionContext)) {
                error(o.getStart(), "'" + word + "' applies to structs, not unions");
            }
        }
        List<Item> items = new ArrayList<>();
        List<RuleDecl> rules = new ArrayList<>();
        List<JoinDecl> joins = new ArrayList<>();
        for (PrmParser.StructItemContext it : structItems) {
            if (it.member() != null) {
                items.add(member(it.member()));
            } else if (it.inlineUnion() != null) {
                items.add(inlineUnion(it.inlineUnion()));
            } else if (it.joinDecl() != null) {
                joins.add(join(it.joinDecl()));
            } else {
                rules.add(rule(it.ruleDecl()));
            }
        }
        for (PrmParser.UnionAltContext a : alts) {
            items.add(unionAlt(a));
        }
        return new StructDecl(name(nameCtx), union, size, little, gaps, ref, since, docComment(d), items, rules, joins,
                loc(d.getStart()));
    }

    /** ref and since of a command or register; the layout options are refused. */
    private String[] refSince(List<PrmParser.DeclOptionContext> options, String kind) {
        String[] out = {"", ""};
        List<String> seen = new ArrayList<>();
        for (PrmParser.DeclOptionContext o : options) {
            String word = o.getStart().getText();
            if (seen.contains(word)) error(o.getStart(), "duplicate '" + word + "' option");
            seen.add(word);
            if (o instanceof PrmParser.RefOptionContext r) {
                out[0] = string(r.STRING());
            } else if (o instanceof PrmParser.SinceOptionContext s) {
                out[1] = string(s.STRING());
            } else {
                error(o.getStart(), "'" + word + "' applies to structs and unions, not to " + kind + "s");
            }
        }
        return out;
    }

    /** Reports a clause written twice in one command or register. */
    private void once(List<String> seen, ParserRuleContext clause, String kind) {
        String word = clause.getStart().getText();
        if (seen.contains(word)) error(clause.getStart(), "duplicate '" + word + "' clause in " + kind);
        seen.add(word);
    }

    private CommandDecl commandDecl(PrmParser.CommandDeclContext c) {
        String[] rs = refSince(c.declOption(), "command");
        Optional<ValueRef> opcode = Optional.empty();
        Optional<QName> in = Optional.empty();
        Optional<QName> out = Optional.empty();
        Optional<Num> oldest = Optional.empty();
        Optional<QName> opModEnum = Optional.empty();
        Optional<List<EnumDecl.Value>> opModValues = Optional.empty();
        Optional<CommandDecl.Carries> carries = Optional.empty();
        List<String> seen = new ArrayList<>();
        for (PrmParser.CommandClauseContext k : c.commandClause()) {
            once(seen, k, "command '" + c.name().getText() + "'");
            if (k instanceof PrmParser.OpcodeClauseContext o) {
                opcode = Optional.of(value(o.value()));
            } else if (k instanceof PrmParser.InClauseContext i) {
                in = Optional.of(qname(i.qname()));
                oldest = Optional.ofNullable(i.INT()).map(this::num);
            } else if (k instanceof PrmParser.OutClauseContext o) {
                out = Optional.of(qname(o.qname()));
            } else if (k instanceof PrmParser.OpModEnumClauseContext e) {
                opModEnum = Optional.of(qname(e.qname()));
            } else if (k instanceof PrmParser.OpModValuesClauseContext v) {
                opModValues = Optional.of(enumValues(v.enumValue()));
            } else {
                PrmParser.CarriesClauseContext r = (PrmParser.CarriesClauseContext) k;
                carries = Optional.of(new CommandDecl.Carries(name(r.name(0)), name(r.name(1)), loc(r.getStart())));
            }
        }
        return new CommandDecl(name(c.name()), opcode, in, oldest, out, opModEnum, opModValues, carries, rs[0], rs[1],
                docComment(c), loc(c.getStart()));
    }

    private WqeDecl wqeDecl(PrmParser.WqeDeclContext w) {
        String[] rs = refSince(w.declOption(), "wqe");
        Optional<ExprNode> size = Optional.empty();
        String sizeMessage = "";
        SourceLocation sizeAt = loc(w.getStart());
        Optional<ExprNode> match = Optional.empty();
        List<WqeDecl.Given> givens = new ArrayList<>();
        List<WqeDecl.Segment> segments = new ArrayList<>();
        List<RuleDecl> rules = new ArrayList<>();
        List<String> seen = new ArrayList<>();
        for (PrmParser.WqeItemContext it : w.wqeItem()) {
            if (it instanceof PrmParser.WqeSizeContext z) {
                once(seen, z, "wqe '" + w.name().getText() + "'");
                size = Optional.of(expr(z.expr(), 0));
                sizeMessage = string(z.STRING());
                sizeAt = loc(z.getStart());
            } else if (it instanceof PrmParser.WqeMatchContext m) {
                once(seen, m, "wqe '" + w.name().getText() + "'");
                match = Optional.of(expr(m.expr(), 0));
            } else if (it instanceof PrmParser.WqeGivenContext g) {
                givens.add(new WqeDecl.Given(name(g.name()), Optional.ofNullable(g.qname(0)).filter(q -> g.COLON() != null).map(this::qname),
                        Optional.ofNullable(g.ENUM()).map(e -> qname(g.qname(g.COLON() != null ? 1 : 0))),
                        g.STRING() != null ? string(g.STRING()) : docComment(g), loc(g.getStart())));
            } else if (it instanceof PrmParser.WqeSegmentContext g) {
                segments.add(new WqeDecl.Segment(name(g.name()), WqeDecl.Kind.STRUCT, Optional.of(qname(g.qname())),
                        Optional.ofNullable(g.SIZE()).map(x -> expr(g.expr(0), 0)), Optional.empty(),
                        Optional.ofNullable(g.WHEN()).map(x -> expr(g.expr(g.SIZE() != null ? 1 : 0), 0)), List.of(),
                        g.STRING() != null ? string(g.STRING()) : docComment(g), loc(g.getStart())));
            } else if (it instanceof PrmParser.WqeInlineContext g) {
                segments.add(new WqeDecl.Segment(name(g.name()), WqeDecl.Kind.INLINE, Optional.empty(), Optional.of(expr(g.expr(0), 0)),
                        Optional.ofNullable(g.qname()).map(this::qname), Optional.ofNullable(g.WHEN()).map(x -> expr(g.expr(1), 0)), List.of(),
                        g.STRING() != null ? string(g.STRING()) : docComment(g), loc(g.getStart())));
            } else if (it instanceof PrmParser.WqeRepeatedContext g) {
                List<WqeDecl.Segment> alts = new ArrayList<>();
                for (PrmParser.WqeAlternativeContext a : g.wqeAlternative()) {
                    alts.add(new WqeDecl.Segment(name(a.name()), WqeDecl.Kind.STRUCT, Optional.of(qname(a.qname())),
                            Optional.ofNullable(a.SIZE()).map(x -> expr(a.expr(0), 0)), Optional.empty(),
                            Optional.ofNullable(a.WHEN()).map(x -> expr(a.expr(a.SIZE() != null ? 1 : 0), 0)), List.of(),
                            a.STRING() != null ? string(a.STRING()) : docComment(a), loc(a.getStart())));
                }
                segments.add(new WqeDecl.Segment(name(g.name()), WqeDecl.Kind.REPEATED, Optional.empty(), Optional.empty(), Optional.empty(),
                        Optional.empty(), alts, g.STRING() != null ? string(g.STRING()) : docComment(g), loc(g.getStart())));
            } else {
                rules.add(rule(((PrmParser.WqeRuleContext) it).ruleDecl()));
            }
        }
        return new WqeDecl(name(w.name()), size, sizeMessage, sizeAt, match, givens, segments, rules, rs[0], rs[1], docComment(w), loc(w.getStart()));
    }

    private RegisterDecl registerDecl(PrmParser.RegisterDeclContext r) {
        String[] rs = refSince(r.declOption(), "register");
        Optional<ValueRef> id = Optional.empty();
        Optional<QName> layout = Optional.empty();
        List<String> seen = new ArrayList<>();
        for (PrmParser.RegisterClauseContext k : r.registerClause()) {
            once(seen, k, "register '" + r.name().getText() + "'");
            if (k instanceof PrmParser.IdClauseContext i) {
                id = Optional.of(value(i.value()));
            } else {
                layout = Optional.of(qname(((PrmParser.LayoutClauseContext) k).qname()));
            }
        }
        return new RegisterDecl(name(r.name()), id, layout, rs[0], rs[1], docComment(r), loc(r.getStart()));
    }

    private List<EnumDecl.Value> enumValues(List<PrmParser.EnumValueContext> values) {
        List<EnumDecl.Value> out = new ArrayList<>();
        for (PrmParser.EnumValueContext v : values) {
            List<TerminalNode> strings = v.STRING();
            String detail = v.DETAIL() != null ? string(strings.get(strings.size() - 1)) : "";
            int docs = strings.size() - (v.DETAIL() != null ? 1 : 0);
            String doc = docs > 0 ? string(strings.get(0)) : docComment(v);
            out.add(new EnumDecl.Value(name(v.name()), num(v.INT()), doc, detail, loc(v.getStart())));
        }
        return out;
    }

    private EnumDecl enumDecl(PrmParser.NameContext nameCtx, boolean flags, TerminalNode width,
                              List<PrmParser.EnumValueContext> values, ParserRuleContext d) {
        return new EnumDecl(name(nameCtx), flags, Optional.ofNullable(width).map(this::num), enumValues(values), docComment(d),
                loc(d.getStart()));
    }

    private Item unionAlt(PrmParser.UnionAltContext a) {
        if (a instanceof PrmParser.MemberAltContext m) {
            return member(m.member());
        }
        PrmParser.GroupAltContext g = (PrmParser.GroupAltContext) a;
        List<MemberDecl> members = new ArrayList<>();
        for (PrmParser.MemberContext m : g.member()) {
            members.add(member(m));
        }
        return new GroupAlt(name(g.name()), Optional.ofNullable(g.value()).map(this::value), members, docComment(g),
                loc(g.getStart()));
    }

    private InlineUnion inlineUnion(PrmParser.InlineUnionContext u) {
        Optional<Num> size = Optional.empty();
        Optional<Name> tag = Optional.empty();
        for (PrmParser.UnionOptionContext o : u.unionOption()) {
            if (o instanceof PrmParser.UnionSizeContext s) {
                if (size.isPresent()) error(o.getStart(), "duplicate 'size' option");
                size = Optional.of(num(s.INT()));
            } else {
                if (tag.isPresent()) error(o.getStart(), "duplicate 'tag' option");
                tag = Optional.of(name(((PrmParser.UnionTagContext) o).name()));
            }
        }
        List<Item> alts = new ArrayList<>();
        for (PrmParser.UnionAltContext a : u.unionAlt()) {
            alts.add(unionAlt(a));
        }
        return new InlineUnion(Optional.ofNullable(u.placement()).map(this::placement),
                Optional.ofNullable(u.name()).map(this::name), size, tag, alts, loc(u.UNION().getSymbol()));
    }

    private MemberDecl member(PrmParser.MemberContext m) {
        List<Attr> attrs = new ArrayList<>();
        for (PrmParser.AttributeContext a : m.attribute()) {
            attrs.add(attr(a));
        }
        String doc = m.STRING() != null ? string(m.STRING()) : docComment(m);
        return new MemberDecl(Optional.ofNullable(m.placement()).map(this::placement), name(m.name()),
                Optional.ofNullable(m.typeSpec()).map(this::typeRef), attrs, doc, loc(m.name().getStart()));
    }

    private JoinDecl join(PrmParser.JoinDeclContext j) {
        List<JoinDecl.Part> parts = new ArrayList<>();
        for (PrmParser.JoinPartContext p : j.joinPart()) {
            parts.add(new JoinDecl.Part(name(p.name()), Optional.ofNullable(p.bitRange()).map(this::bitRange), loc(p.getStart())));
        }
        List<Attr> attrs = new ArrayList<>();
        for (PrmParser.AttributeContext a : j.attribute()) attrs.add(attr(a));
        String doc = j.STRING() != null ? string(j.STRING()) : docComment(j);
        return new JoinDecl(name(j.name()), parts, attrs, doc, loc(j.getStart()));
    }

    private Placement.BitRange bitRange(PrmParser.BitRangeContext r) {
        List<TerminalNode> ints = r.INT();
        return new Placement.BitRange(num(ints.get(0)), ints.size() > 1 ? Optional.of(num(ints.get(1))) : Optional.empty(), loc(r.getStart()));
    }

    private Placement placement(PrmParser.PlacementContext p) {
        Optional<Placement.BitRange> range = Optional.empty();
        if (p.bitRange() != null) {
            List<TerminalNode> ints = p.bitRange().INT();
            range = Optional.of(new Placement.BitRange(num(ints.get(0)),
                    ints.size() > 1 ? Optional.of(num(ints.get(1))) : Optional.empty(), loc(p.bitRange().getStart())));
        }
        return new Placement(num(p.INT()), range, loc(p.getStart()));
    }

    private TypeRef typeRef(PrmParser.TypeSpecContext t) {
        PrmParser.TypeBaseContext base = t.typeBase();
        Optional<Num> width = Optional.ofNullable(base.INT()).map(this::num);
        Optional<QName> name = Optional.ofNullable(base.qname()).map(this::qname);
        TypeRef.Arity arity = TypeRef.Arity.SINGLE;
        Optional<ValueRef> count = Optional.empty();
        if (t.LBRACK() != null) {
            if (t.value() != null) {
                arity = TypeRef.Arity.FIXED;
                count = Optional.of(value(t.value()));
            } else {
                arity = TypeRef.Arity.FLEXIBLE;
            }
        }
        return new TypeRef(width, name, arity, count, loc(t.getStart()));
    }

    private Attr attr(PrmParser.AttributeContext a) {
        SourceLocation at = loc(a.getStart());
        if (a instanceof PrmParser.AccessAttrContext) {
            Access access = switch (a.getStart().getType()) {
                case PrmLexer.RO -> Access.RO;
                case PrmLexer.WO -> Access.WO;
                case PrmLexer.IN -> Access.IN;
                case PrmLexer.OUT -> Access.OUT;
                default -> Access.RW;
            };
            return new Attr.AccessAttr(access, at);
        } else if (a instanceof PrmParser.EnumAttrContext e) {
            return new Attr.EnumAttr(qname(e.qname()), at);
        } else if (a instanceof PrmParser.FlagsAttrContext f) {
            return new Attr.FlagsAttr(qname(f.qname()), at);
        } else if (a instanceof PrmParser.RangeAttrContext r) {
            return new Attr.RangeAttr(num(r.INT(0)), num(r.INT(1)), at);
        } else if (a instanceof PrmParser.Pow2AttrContext) {
            return new Attr.Pow2Attr(at);
        } else if (a instanceof PrmParser.Log2AttrContext) {
            return new Attr.Log2Attr(at);
        } else if (a instanceof PrmParser.MbzAttrContext) {
            return new Attr.MbzAttr(at);
        } else if (a instanceof PrmParser.CapAttrContext c) {
            return new Attr.CapAttr(qname(c.qname()), at);
        } else if (a instanceof PrmParser.TagAttrContext t) {
            return new Attr.TagAttr(name(t.name()), at);
        } else if (a instanceof PrmParser.WhenAttrContext w) {
            return new Attr.WhenAttr(value(w.value()), at);
        } else if (a instanceof PrmParser.RefAttrContext r) {
            return new Attr.RefAttr(string(r.STRING()), at);
        } else {
            return new Attr.SinceAttr(string(((PrmParser.SinceAttrContext) a).STRING()), at);
        }
    }

    private ValueRef value(PrmParser.ValueContext v) {
        return v.INT() != null ? num(v.INT()) : qname(v.qname());
    }

    private RuleDecl rule(PrmParser.RuleDeclContext r) {
        return new RuleDecl(name(r.name()), expr(r.expr(), 0), string(r.STRING()), loc(r.getStart()));
    }

    private boolean exprTooDeep;

    private ExprNode expr(PrmParser.ExprContext e, int depth) {
        if (depth == 0) exprTooDeep = false;
        if (depth > MAX_EXPR_DEPTH) {
            if (!exprTooDeep) error(e.getStart(), "expression too complex (nested more than " + MAX_EXPR_DEPTH + " levels)");
            exprTooDeep = true;
            return new ExprNode.IntLit(new Num(0, "0", loc(e.getStart())));
        }
        if (e instanceof PrmParser.ParenExprContext p) {
            return expr(p.expr(), depth + 1);
        } else if (e instanceof PrmParser.UnaryExprContext u) {
            Expr.UnaryOp op = switch (u.op.getType()) {
                case PrmLexer.BANG -> Expr.UnaryOp.NOT;
                case PrmLexer.MINUS -> Expr.UnaryOp.NEG;
                default -> Expr.UnaryOp.BIT_NOT;
            };
            return new ExprNode.Unary(op, expr(u.expr(), depth + 1), loc(u.op));
        } else if (e instanceof PrmParser.BinaryExprContext b) {
            Expr.BinaryOp op = binaryOp(b.op.getType());
            return new ExprNode.Binary(op, expr(b.expr(0), depth + 1), expr(b.expr(1), depth + 1), loc(b.op));
        } else if (e instanceof PrmParser.IntExprContext i) {
            return new ExprNode.IntLit(num(i.INT()));
        } else if (e instanceof PrmParser.CallExprContext k) {
            List<ExprNode> args = new ArrayList<>();
            for (PrmParser.ExprContext a : k.expr()) args.add(expr(a, depth + 1));
            return new ExprNode.Call(name(k.name(0)), args, Optional.ofNullable(k.name().size() > 1 ? name(k.name(1)) : null), loc(k.getStart()));
        } else {
            return new ExprNode.NameRef(qname(((PrmParser.NameExprContext) e).qname()));
        }
    }

    private static Expr.BinaryOp binaryOp(int type) {
        return switch (type) {
            case PrmLexer.OROR -> Expr.BinaryOp.OR;
            case PrmLexer.ANDAND -> Expr.BinaryOp.AND;
            case PrmLexer.EQ -> Expr.BinaryOp.EQ;
            case PrmLexer.NE -> Expr.BinaryOp.NE;
            case PrmLexer.LT -> Expr.BinaryOp.LT;
            case PrmLexer.LE -> Expr.BinaryOp.LE;
            case PrmLexer.GT -> Expr.BinaryOp.GT;
            case PrmLexer.GE -> Expr.BinaryOp.GE;
            case PrmLexer.PIPE -> Expr.BinaryOp.BIT_OR;
            case PrmLexer.CARET -> Expr.BinaryOp.BIT_XOR;
            case PrmLexer.AMP -> Expr.BinaryOp.BIT_AND;
            case PrmLexer.SHL -> Expr.BinaryOp.SHL;
            case PrmLexer.SHR -> Expr.BinaryOp.SHR;
            case PrmLexer.PLUS -> Expr.BinaryOp.ADD;
            case PrmLexer.MINUS -> Expr.BinaryOp.SUB;
            case PrmLexer.STAR -> Expr.BinaryOp.MUL;
            case PrmLexer.SLASH -> Expr.BinaryOp.DIV;
            default -> Expr.BinaryOp.MOD;
        };
    }

    private Name name(PrmParser.NameContext n) {
        return new Name(n.getText(), loc(n.getStart()));
    }

    private QName qname(PrmParser.QnameContext q) {
        List<String> parts = new ArrayList<>();
        for (PrmParser.NameContext n : q.name()) {
            parts.add(n.getText());
        }
        return new QName(parts, loc(q.getStart()));
    }

    private Num num(TerminalNode node) {
        Token t = node.getSymbol();
        String text = t.getText();
        long value = 0;
        try {
            value = text.startsWith("0x") || text.startsWith("0X")
                    ? Long.parseUnsignedLong(text.substring(2), 16)
                    : Long.parseUnsignedLong(text);
        } catch (NumberFormatException e) {
            error(t, "integer " + text + " does not fit in 64 bits");
        }
        return new Num(value, text, loc(t));
    }

    private String string(TerminalNode node) {
        Token t = node.getSymbol();
        String raw = t.getText();
        StringBuilder sb = new StringBuilder();
        for (int i = 1; i < raw.length() - 1; i++) {
            char c = raw.charAt(i);
            if (c == '\\') {
                char n = raw.charAt(++i);
                if (n != '"' && n != '\\') {
                    diagnostics.add(Diagnostic.error(new SourceLocation(file, t.getLine(), t.getCharPositionInLine() + i),
                            "unknown escape '\\" + n + "' in string (only \\\" and \\\\ are allowed)"));
                }
                sb.append(n);
            } else {
                sb.append(c);
            }
        }
        return sb.toString();
    }

    /** The {@code ///} lines right before a construct, joined with spaces. */
    private String docComment(ParserRuleContext ctx) {
        List<Token> hidden = tokens.getHiddenTokensToLeft(ctx.getStart().getTokenIndex(), DOC_CHANNEL);
        if (hidden == null) return "";
        List<String> lines = new ArrayList<>();
        for (Token h : hidden) {
            String text = h.getText().substring(3).strip();
            if (!text.isEmpty()) lines.add(text);
        }
        return String.join(" ", lines);
    }

    private SourceLocation loc(Token t) {
        return new SourceLocation(file, t.getLine(), t.getCharPositionInLine() + 1);
    }

    private void error(Token t, String message) {
        diagnostics.add(Diagnostic.error(loc(t), message));
    }
}

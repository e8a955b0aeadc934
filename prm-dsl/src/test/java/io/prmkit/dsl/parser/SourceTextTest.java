package io.prmkit.dsl.parser;

import static io.prmkit.dsl.Specs.assertError;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.prmkit.dsl.CompileResult;
import io.prmkit.dsl.Diagnostic;
import io.prmkit.dsl.DiagnosticPrinter;
import io.prmkit.dsl.SourceFile;
import io.prmkit.dsl.SourceLocation;
import io.prmkit.dsl.Specs;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Odd source text: BOMs, line ends, missing ';' before '}', and very long lines and tokens in messages. */
class SourceTextTest {
    @Test
    void aMissingSemicolonBeforeABraceOnTheSameLineIsNamed() {
        assertError("2:25: error: expected ';' after 'x': the last one before '}' needs it too",
                "package p;\nstruct a { 0x00 [31:0] x }\n");
        assertError("2:15: error: expected ';' after '1': the last one before '}' needs it too", "package p;\nenum e { A = 1 }\n");
    }

    @Test
    void whereALongListIsCutTheSemicolonIsStillInIt() {
        org.antlr.v4.runtime.misc.IntervalSet set = org.antlr.v4.runtime.misc.IntervalSet.of(PrmLexer.PACKAGE, PrmLexer.RULE);
        set.add(PrmLexer.SEMI);
        set.add(PrmLexer.LBRACE);
        String words = SyntaxErrorListener.describe(set);
        assertTrue(words.startsWith("';', ") && words.endsWith(", ..."), words);
    }

    @Test
    void aLeadingByteOrderMarkIsNoCharacterOfTheSpec() {
        assertFalse(Specs.compile("\uFEFFpackage p;\nstruct a { 0x00 [31:0] x; }\n").hasErrors());
    }

    @Test
    void aByteOrderMarkElsewhereIsNamedNotShownInvisibly() {
        assertError("2:8: error: unexpected character U+FEFF (a byte order mark, allowed only at the very start of a file)",
                "package p;\nstruct \uFEFFa { 0x00 [31:0] x; }\n");
        assertError("2:9: error: unexpected character U+200B (zero width space)", "package p;\nstruct a\u200B { 0x00 [31:0] x; }\n");
    }

    @Test
    void aLoneCarriageReturnEndsALine() {
        String text = "package p;\rstruct a {\r    0x00 [8:23] x;\r}\r";
        CompileResult r = Specs.compile(text);
        assertEquals("3:10: error: bit range [8:23] is reversed: the high bit comes first, [23:8]", Specs.diags(r));
        assertEquals("    0x00 [8:23] x;", new SourceFile("t.prm", text).line(3));
        assertEquals("}", new SourceFile("t.prm", "a\r\nb\rc\n}").line(4));
    }

    @Test
    void aLongSourceLineIsShownAsAWindowAroundTheColumn() {
        String line = "x".repeat(5000) + "@" + "y".repeat(5000);
        Diagnostic d = Diagnostic.error(new SourceLocation("t.prm", 1, 5001), "here");
        String out = DiagnosticPrinter.render(d, Map.of("t.prm", new SourceFile("t.prm", line)));
        String[] lines = out.split("\n");
        assertEquals("t.prm:1:5001: error: here", lines[0]);
        assertTrue(lines[1].length() < 200, lines[1].length() + " chars");
        assertTrue(lines[1].startsWith("...") && lines[1].endsWith("..."), lines[1]);
        assertEquals('@', lines[1].charAt(lines[2].indexOf('^')), "the caret stays under the column");
    }

    @Test
    void aLongTokenIsCutInMessages() {
        String name = "n".repeat(1_000_000);
        CompileResult r = Specs.compile("package p;\nstruct a { 0x00 [31:0] x " + name + "; }\n");
        assertTrue(r.hasErrors());
        for (Diagnostic d : r.diagnostics()) assertTrue(d.message().length() < 200, d.message().length() + " chars");
    }

    @Test
    void aWholeFileProblemHasNoLineOrColumn() {
        assertEquals("dir/x.prm: error: no such file or folder",
                Diagnostic.error(new SourceLocation("dir/x.prm", 0, 0), "no such file or folder").toString());
    }

    /** Recovery from each syntax error can scan far ahead: a file stops being parsed after the first few errors. */
    @Test
    void syntaxErrorsStopAfterAFixedNumber() {
        StringBuilder text = new StringBuilder("package p;\nstruct a {\n");
        for (int i = 0; i < 100; i++) text.append("    x").append(i).append(" y;\n");
        text.append("}\n");
        CompileResult r = Specs.compile(text.toString());
        assertEquals(SyntaxErrorListener.MAX_SYNTAX_ERRORS, r.errors().size());
        assertEquals(3, r.errors().get(0).location().line());
    }

    /** Lexical errors stop at the same count: 1,000 lines of '@@' gave 1,000 errors. */
    @Test
    void lexicalErrorsStopAfterTheSameNumber() {
        CompileResult r = Specs.compile("package p;\n" + "@@\n".repeat(1000));
        assertEquals(SyntaxErrorListener.MAX_SYNTAX_ERRORS, r.errors().size());
        assertEquals(2, r.errors().get(0).location().line());
    }
}

package io.prmkit.dsl.parser;

import static io.prmkit.dsl.Specs.assertError;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.prmkit.dsl.CompileResult;
import io.prmkit.dsl.Specs;
import org.junit.jupiter.api.Test;

/** The parser's curated messages for common mistakes, with exact positions. */
class SyntaxTest {
    @Test
    void missingSemicolonPointsAfterTheRow() {
        assertError("3:18: error: expected ';' after 'x'", "package p;\nstruct a {\n    0x00 [31:0] x\n    0x04 [31:0] y;\n}\n");
    }

    @Test
    void keywordAsName() {
        assertError("3:17: error: 'struct' is a keyword and cannot be used as a name",
                "package p;\nstruct a {\n    0x00 [31:0] struct;\n}\n");
    }

    @Test
    void attributeWordsAreUsableAsNames() {
        assertEquals(3, Specs.struct("package p;\nstruct a { 0x00 [31:16] size; 0x00 [15:8] tag; 0x00 [7:0] in; }\n", "a").members().size());
    }

    @Test
    void unclosedBrace() {
        assertError("4:1: error: unexpected end of file: a '{' is not closed (missing '}')", "package p;\nstruct a {\n    0x00 [31:0] x;\n");
    }

    @Test
    void unterminatedStringIsOneError() {
        assertError("3:19: error: unterminated string: a string ends with '\"' on the same line",
                "package p;\nstruct a {\n    0x00 [31:0] x \"doc;\n}\n");
    }

    @Test
    void malformedBitRange() {
        assertError("3:14: error: bad bit range: write [hi:lo] with the high bit first (e.g. [23:16]) or [bit]",
                "package p;\nstruct a {\n    0x00 [31 0] x;\n}\n");
    }

    @Test
    void missingType() {
        assertError("3:21: error: expected a type after ':' (a width in bits, u8/u16/u32/u64 or a struct name), found ';'",
                "package p;\nstruct a {\n    0x00 [31:0] x : ;\n}\n");
    }

    @Test
    void missingPackage() {
        assertError("1:1: error: a spec file starts with 'package NAME;'", "struct a {\n    0x00 [31:0] x;\n}\n");
    }

    @Test
    void ruleWithoutMessage() {
        assertError("4:18: error: a rule needs a message: rule NAME: EXPR \"message\";",
                "package p;\nstruct a {\n    0x00 [31:0] x;\n    rule r: x > 3;\n}\n");
    }

    @Test
    void docStringComesLast() {
        assertError("2:39: error: the doc string comes last: move 'ref' before it",
                "package p;\nstruct a { 0x00 [31:0] x ro \"the doc\" ref \"T1\"; }\n");
    }

    @Test
    void strayCharacter() {
        assertError("2:26: error: unexpected character '@'", "package p;\nstruct a { 0x00 [31:0] x @; }\n");
    }

    @Test
    void integerTooLarge() {
        assertError("2:13: error: integer 0x10000000000000000 does not fit in 64 bits",
                "package p;\nconst BIG = 0x10000000000000000;\n");
    }

    @Test
    void badEscape() {
        assertError("2:15: error: unknown escape '\\n' in string (only \\\" and \\\\ are allowed)",
                "package p;\nconst A = 1 \"a\\nb\";\n");
    }

    @Test
    void deepParenthesesAreADiagnosticNotAStackOverflow() {
        String text = "package p;\nstruct s { 0x00 [31:0] x; rule r: " + "(".repeat(100_000) + "x" + ")".repeat(100_000) + " \"m\"; }\n";
        CompileResult r = Specs.compile(text);
        assertEquals("2:99: error: expression nested too deeply (more than 64 levels)", Specs.diags(r));
    }

    @Test
    void longOperatorChainsAreBounded() {
        String text = "package p;\nstruct s { 0x00 [31:0] x; rule r: " + String.join("+", java.util.Collections.nCopies(20_000, "x")) + " \"m\"; }\n";
        CompileResult r = Specs.compile(text);
        assertEquals("2:35: error: expression too complex (nested more than 256 levels)", Specs.diags(r));
    }

    @Test
    void allSyntaxErrorsOfARunAreReported() {
        CompileResult r = Specs.compileFiles(
                "a.prm", "package p;\nstruct a { 0x00 [31:0] x }\n",
                "b.prm", "package p;\nstruct b { 0x00 [31:0] y; ? }\n");
        assertEquals(2, r.errors().size());
        assertTrue(r.model().isEmpty());
        assertEquals("a.prm:2:25", r.errors().get(0).location().toString());
        assertEquals("b.prm:2:27", r.errors().get(1).location().toString());
    }

    @Test
    void docCommentsDocumentTheNextDeclaration() {
        var s = Specs.struct("package p;\n/// First line\n/// second line.\nstruct a ref \"T 1\" {\n  /// The x.\n  0x00 [31:0] x;\n}\n", "a");
        assertEquals("First line second line.", s.doc().text());
        assertEquals("T 1", s.doc().prmRef());
        assertEquals("The x.", s.members().get(0).doc().text());
    }
}

package io.prmkit.doc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.prmkit.dsl.CompileResult;
import io.prmkit.dsl.PrmCompiler;
import io.prmkit.dsl.SourceFile;
import io.prmkit.dsl.diff.DiffReport;
import io.prmkit.dsl.diff.LayoutDiff;
import io.prmkit.dsl.ir.LayoutModel;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

class DiffPageTest {
    static final String OLD = """
            package acme;
            enum mode width 2 { A = 0; B = 1; }
            struct regs size 0x8 {
                0x00 [31:24] keep;
                0x00 [23:16] gone;
                0x00 [15:8]  wander;
                0x00 [7:0]   grow;
                0x04 [31:0]  reserved;
            }
            struct old_only size 0x4 { 0x00 [31:0] x; }
            """;
    static final String NEW = """
            package acme;
            enum mode width 2 { A = 0; C = 2; }
            struct regs size 0x8 {
                0x00 [31:24] keep;
                0x00 [23:16] reserved;
                0x00 [15:12] grow;
                0x00 [11:0]  reserved;
                0x04 [31:24] wander;
                0x04 [23:16] fresh;
                0x04 [15:0]  reserved;
            }
            """;

    static LayoutModel model(String text) {
        CompileResult r = PrmCompiler.compile(List.of(new SourceFile("t.prm", text)));
        assertFalse(r.hasErrors(), r.errors()::toString);
        return r.model().orElseThrow();
    }

    /** The CSS classes of the cell of {@code field} in the diagram of one revision ("old" or "new"). */
    static String cellClass(String page, String revision, String field) {
        int at = page.indexOf("<div class=\"diagram " + revision + "\">", page.indexOf("id=\"s-acme.regs\""));
        assertTrue(at >= 0, "no " + revision + " diagram");
        int end = page.indexOf("</div>", at);
        Matcher m = Pattern.compile("<td class=\"([^\"]*)\"[^>]*data-field=\"" + field + "\"").matcher(page.substring(at, end));
        assertTrue(m.find(), () -> "no cell " + field + " in the " + revision + " diagram");
        return m.group(1);
    }

    @Test
    void changedFieldsAreMarkedInBothDiagrams() {
        LayoutModel a = model(OLD);
        LayoutModel b = model(NEW);
        DiffReport report = LayoutDiff.diff(a, b);
        String page = DiffPage.render(a, b, report, "old.prm", "new.prm");
        assertTrue(page.contains("<section class=\"changed\" id=\"s-acme.regs\">"), page);
        assertEquals("f removed", cellClass(page, "old", "gone"));
        assertEquals("f moved", cellClass(page, "old", "wander"));
        assertEquals("f moved", cellClass(page, "new", "wander"));
        assertEquals("f resized", cellClass(page, "old", "grow"));
        assertEquals("f resized", cellClass(page, "new", "grow"));
        assertEquals("f added", cellClass(page, "new", "fresh"));
        assertEquals("f", cellClass(page, "new", "keep"));
        assertTrue(page.contains("<h3>old (removed)</h3>"), "old_only is drawn as removed");
        assertTrue(page.contains("<li class=\"breaking\" data-kind=\"field_removed\"><code>acme.regs.gone</code>"), page);
        assertTrue(page.contains("data-kind=\"enum_value_added\""), "enum changes are listed");
        assertTrue(page.contains("<style>") && !page.contains("<link"), "self-contained");
    }

    @Test
    void noChangesSaysSo() {
        LayoutModel a = model(OLD);
        String page = DiffPage.render(a, a, LayoutDiff.diff(a, a), "a", "a");
        assertTrue(page.contains("no layout changes."), page);
        assertFalse(page.contains("<table"), page);
    }
}

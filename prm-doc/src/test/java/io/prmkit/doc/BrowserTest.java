package io.prmkit.doc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The site of the bundled spec, rendered by a real headless Chromium from file://, asserted on the DOM it built. */
class BrowserTest {
    @TempDir
    static Path work;
    static Path site;
    static Chromium chromium;

    @BeforeAll
    static void writeSite() throws Exception {
        chromium = Chromium.require();
        site = work.resolve("site");
        DocSite.write(BundledSpec.model(), "mlx5 PRM reference", site);
    }

    private static String url(String page) {
        return site.resolve(page).toUri().toString();
    }

    private static void assertNoConsoleMessages(Chromium.Result r) {
        assertEquals(List.of(), r.consoleMessages(), "console messages or script errors");
    }

    /** The geometry of the insert_vlan cell and of the bit-31 column header, measured by the browser's layout. */
    @Test
    void insertVlanIsDrawnInTheColumnOfBit31OfDword0x0c() throws Exception {
        // A probe page next to the site loads the structure page in a frame and writes what the layout engine measured.
        Files.writeString(site.resolve("probe.html"), """
                <!DOCTYPE html><html><head><meta charset="utf-8"></head><body>
                <iframe id="f" src="structs/mlx5.wqe_eth_seg.html" style="width:1400px;height:900px"></iframe>
                <pre id="out">not measured</pre>
                <script>
                window.addEventListener("load", function () {
                  var d = document.getElementById("f").contentDocument;
                  var row = d.querySelector('table.bits tr[data-dword="0x0c"]');
                  var cell = row.querySelector('td[data-field="insert_vlan"]');
                  var head = Array.prototype.filter.call(d.querySelectorAll("table.bits thead th"), function (th) { return th.textContent === "31"; })[0];
                  var c = cell.getBoundingClientRect(), h = head.getBoundingClientRect();
                  document.getElementById("out").textContent = "cell " + c.left + " " + c.right + " head " + h.left + " " + h.right
                      + " text " + cell.textContent.trim();
                });
                </script></body></html>
                """);
        Chromium.Result r = chromium.dumpDom(url("probe.html"), work, "--allow-file-access-from-files");
        assertNoConsoleMessages(r);
        Matcher m = Pattern.compile("cell ([-\\d.]+) ([-\\d.]+) head ([-\\d.]+) ([-\\d.]+) text ([a-z_]+)").matcher(r.dom());
        assertTrue(m.find(), () -> "the probe measured nothing:\n" + r.dom());
        double cellLeft = Double.parseDouble(m.group(1));
        double cellRight = Double.parseDouble(m.group(2));
        double headLeft = Double.parseDouble(m.group(3));
        double headRight = Double.parseDouble(m.group(4));
        assertEquals("insert_vlan", m.group(5));
        assertTrue(headRight - headLeft > 5, "the bit columns have a width");
        assertEquals(headLeft, cellLeft, 1.5, "insert_vlan starts at bit 31");
        assertEquals(headRight, cellRight, 1.5, "insert_vlan ends at bit 31");
    }

    @Test
    void theStructurePageRendersItsDiagramWithoutConsoleErrors() throws Exception {
        Chromium.Result r = chromium.dumpDom(url("structs/mlx5.wqe_eth_seg.html"), work);
        assertNoConsoleMessages(r);
        Matcher row = Pattern.compile("<tr[^>]*data-dword=\"0x0c\"[^>]*>(.*?)</tr>", Pattern.DOTALL).matcher(r.dom());
        assertTrue(row.find(), r.dom());
        Matcher first = Pattern.compile("<td class=\"f[^\"]*\" colspan=\"1\" data-field=\"insert_vlan\" data-hi=\"31\"").matcher(row.group(1));
        assertTrue(first.find(), row.group(1));
        assertTrue(r.dom().contains("dword3: vlan_insert (insert_vlan == 0x1)"));
    }

    @Test
    void searchFindsCqeSyndromeAndHidesTheRest() throws Exception {
        Chromium.Result r = chromium.dumpDom(url("index.html") + "#q=cqe_syndrome", work);
        assertNoConsoleMessages(r);
        String dom = r.dom();
        Matcher hit = Pattern.compile("<li data-n=\"cqe_error_syndrome\"([^>]*)>").matcher(dom);
        assertTrue(hit.find(), "cqe_error_syndrome is listed");
        assertFalse(hit.group(1).contains("hidden"), "cqe_error_syndrome is shown: " + hit.group(0));
        Matcher miss = Pattern.compile("<li data-n=\"wqe_eth_seg\"([^>]*)>").matcher(dom);
        assertTrue(miss.find());
        assertTrue(miss.group(1).contains("hidden"), "wqe_eth_seg is filtered out: " + miss.group(0));
        Matcher count = Pattern.compile("<span id=\"count\">(\\d+) match(es)?</span>").matcher(dom);
        assertTrue(count.find(), "the match count is shown");
        long shown = Pattern.compile("<li data-n=\"[^\"]*\" data-s=\"[^\"]*\">").matcher(dom).results().count();
        assertEquals(Long.parseLong(count.group(1)), shown, "the count is the number of entries left visible");
    }

    @Test
    void searchFindsAStructureByAFieldName() throws Exception {
        Chromium.Result r = chromium.dumpDom(url("index.html") + "#q=log_cq_size", work);
        assertNoConsoleMessages(r);
        Matcher cqc = Pattern.compile("<li data-n=\"cqc\"([^>]*)>.*?<span class=\"via\">([^<]*)</span>").matcher(r.dom());
        assertTrue(cqc.find());
        assertFalse(cqc.group(1).contains("hidden"), cqc.group(0));
        assertEquals("has log_cq_size", cqc.group(2));
    }

    @Test
    void theDiffPageRendersWithItsMarks() throws Exception {
        var a = DiffPageTest.model(DiffPageTest.OLD);
        var b = DiffPageTest.model(DiffPageTest.NEW);
        Files.writeString(site.resolve("diff.html"), DiffPage.render(a, b, io.prmkit.dsl.diff.LayoutDiff.diff(a, b), "old.prm", "new.prm"));
        Chromium.Result r = chromium.dumpDom(url("diff.html"), work);
        assertNoConsoleMessages(r);
        assertTrue(r.dom().contains("<td class=\"f added\""), "an added field is marked");
        assertTrue(r.dom().contains("<td class=\"f removed\""), "a removed field is marked");
    }

    /** The console check above can fail: a page with a script error is caught. */
    @Test
    void aScriptErrorIsSeen() throws Exception {
        Files.writeString(site.resolve("broken.html"), "<!DOCTYPE html><html><body><script>undefinedFunction();</script></body></html>");
        Chromium.Result r = chromium.dumpDom(url("broken.html"), work);
        assertFalse(r.consoleMessages().isEmpty(), r.log());
    }
}

package io.prmkit.doc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.prmkit.dsl.CompileResult;
import io.prmkit.dsl.PrmCompiler;
import io.prmkit.dsl.SourceFile;
import io.prmkit.dsl.ir.LayoutModel;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DocSiteTest {

    private static final SortedMap<String, String> SITE = DocSite.render(BundledSpec.model(), "mlx5 PRM reference");

    private static String page(String path) {
        String p = SITE.get(path);
        assertTrue(p != null, () -> "no page " + path);
        return p;
    }

    /** The cells of the diagram row of one dword (the first such row: the base layer). */
    private static List<String> cells(String page, String dword) {
        Matcher row = Pattern.compile("<tr[^>]* data-dword=\"" + dword + "\">(.*?)</tr>").matcher(page);
        assertTrue(row.find(), () -> "no row for dword " + dword);
        List<String> cells = new ArrayList<>();
        Matcher cell = Pattern.compile("<td([^>]*)>").matcher(row.group(1));
        while (cell.find()) cells.add(cell.group(1));
        return cells;
    }

    private static int colspan(String attrs) {
        Matcher m = Pattern.compile("colspan=\"(\\d+)\"").matcher(attrs);
        return m.find() ? Integer.parseInt(m.group(1)) : 1;
    }

    @Test
    void aWqeIsDrawnAsItsSegmentsWithItsRules() {
        String p = page("wqes/mlx5.tx_wqe.html");
        // the strip: ctrl and eth one DS each at 0x00 and 0x10, then the variable inline headers and the repeated data
        Matcher strip = Pattern.compile("<span class=\"n\">([a-z_]+)</span><span class=\"u\">([^<]*)</span>").matcher(p);
        List<String> cells = new ArrayList<>();
        while (strip.find()) cells.add(strip.group(1) + ": " + strip.group(2));
        assertEquals(List.of("ctrl: 0x00, 1 DS unit", "eth: 0x10, 1 DS unit", "headers: variable", "data: to the end"), cells);
        assertTrue(p.contains("<a href=\"../structs/mlx5.wqe_eth_seg.html\">wqe_eth_seg</a> (0x10 bytes)"), p);
        assertTrue(p.contains("inline bytes, from eth.inline_hdr_start (0x0e of eth)"), p);
        assertTrue(p.contains("<td class=\"name\">data.pointer</td>"), p);
        assertTrue(p.contains("when <code>(inline_data.inline_flag == 1)</code>"), p);
        assertTrue(p.contains("<tr id=\"r-lso_needs_mss\"><td class=\"name\">lso_needs_mss</td>"), p);
        assertTrue(p.contains("<a href=\"../enums/mlx5.inline_mode.html\">inline_mode</a>"), p);
        String umr = page("wqes/mlx5.umr_wqe.html");
        assertTrue(umr.contains("<span class=\"n\">mkc</span><span class=\"u\">0x40, 4 DS units</span>"), umr);
    }

    @Test
    void everyStructureAndEnumHasAPageAndTheIndexListsThem() {
        LayoutModel model = BundledSpec.model();
        assertEquals(4 + model.structs().size() + model.enums().size() + model.wqes().size(), SITE.size());
        String index = page("index.html");
        model.wqes().forEach(w -> assertTrue(index.contains("href=\"wqes/" + w.name() + ".html\""), w.name()::toString));
        model.structs().forEach(s -> assertTrue(index.contains("href=\"structs/" + s.name() + ".html\""), s.name()::toString));
        model.enums().forEach(e -> assertTrue(index.contains("href=\"enums/" + e.name() + ".html\""), e.name()::toString));
    }

    @Test
    void insertVlanSpansBit31OfDword0x0cAndTheUnionTheRest() {
        List<String> row = cells(page("structs/mlx5.wqe_eth_seg.html"), "0x0c");
        // offset column, insert_vlan [31], union dword3 [30:0], alternative label column
        assertEquals(4, row.size(), row::toString);
        assertTrue(row.get(1).contains("data-field=\"insert_vlan\""), row.get(1));
        assertTrue(row.get(1).contains("data-hi=\"31\" data-lo=\"31\""), row.get(1));
        assertEquals(1, colspan(row.get(1)));
        assertTrue(row.get(2).contains("data-union=\"dword3\""), row.get(2));
        assertEquals(31, colspan(row.get(2)));
    }

    /** mlx5_ifc.h 7.x's query_esw_functions_out ends in union { u8 reserved_at_80[0x380]; DECLARE_FLEX_ARRAY(...); }. */
    @Test
    void aFlexibleUnionAlternativeIsARowAtTheUnionsStartNotAnEmptyAlternative() {
        CompileResult r = PrmCompiler.compile(List.of(new SourceFile("t.prm", """
                package t;
                struct rec size 0x8 { a : 0x20; b : 0x20; }
                struct out size 0x14 {
                    n : 0x20;
                    union {
                        reserved_at_20 : 0x80;
                        params : rec[];
                    }
                }
                """)));
        String page = DocSite.render(r.model().orElseThrow(), "t").get("structs/t.out.html");
        String table = page.substring(page.indexOf("<table class=\"bits\""), page.indexOf("</table>"));
        Matcher flex = Pattern.compile("<tr class=\"flex\"><td class=\"off\">([^<]*)</td>(.*?)<td class=\"alt\">([^<]*)</td></tr>").matcher(table);
        assertTrue(flex.find(), table);
        assertEquals("0x04..", flex.group(1), "the flexible alternative starts where its union does");
        assertTrue(flex.group(2).contains("data-field=\"params\"") && flex.group(2).contains("(flexible array)"), flex.group(2));
        assertEquals("union_at_20: params", flex.group(3));
        assertFalse(table.contains("class=\"gap\""), "no empty alternative row for the flexible array: " + table);
        assertEquals(1, table.split("data-field=\"reserved_at_20\"", -1).length - 1, "the fixed alternative is drawn once");
    }

    @Test
    void everyDwordRowSpansExactly32Bits() {
        Pattern rowPattern = Pattern.compile("<tr[^>]* data-dword=\"(0x[0-9a-f]+)\">(.*?)</tr>");
        for (Map.Entry<String, String> f : SITE.entrySet()) {
            if (!f.getKey().startsWith("structs/")) continue;
            Matcher row = rowPattern.matcher(f.getValue());
            int rows = 0;
            while (row.find()) {
                rows++;
                List<String> cells = new ArrayList<>();
                Matcher cell = Pattern.compile("<td([^>]*)>").matcher(row.group(2));
                while (cell.find()) cells.add(cell.group(1));
                int bits = cells.subList(1, cells.size() - 1).stream().mapToInt(DocSiteTest::colspan).sum();
                assertEquals(32, bits, () -> f.getKey() + " dword " + row.group(1) + " spans " + bits + " columns");
            }
            assertTrue(rows > 0, () -> f.getKey() + " has no diagram rows");
        }
    }

    @Test
    void unionAlternativesAreRowsWithTheirTagCondition() {
        String page = page("structs/mlx5.wqe_eth_seg.html");
        assertTrue(page.contains("dword3: inline_hdr (insert_vlan == 0x0)"), "inline_hdr alternative row");
        assertTrue(page.contains("dword3: vlan_insert (insert_vlan == 0x1)"), "vlan_insert alternative row");
        int base = page.indexOf("data-union=\"dword3\"");
        int alt = page.indexOf("data-field=\"vlan_tci\"");
        assertTrue(base > 0 && alt > base, "alternatives follow the union's base row");
    }

    @Test
    void dwordsNoAlternativeTouchesCollapseIntoOneRow() {
        // hca_cap_union: 4 KiB, each alternative a capability page of 0x100..0x1000 bytes
        String page = page("structs/mlx5.hca_cap_union.html");
        long rows = Pattern.compile("<tr[^>]* data-dword=").matcher(page).results().count();
        assertTrue(rows < 200, "hca_cap_union draws " + rows + " rows");
        assertTrue(page.contains("<td class=\"off\">0x100..0xffc</td><td class=\"gap\" colspan=\"32\"></td>"), "the rest of a 0x100-byte alternative");
    }

    @Test
    void nestedStructuresLinkBothWays() {
        String createCq = page("structs/mlx5.create_cq_in.html");
        assertTrue(createCq.contains("href=\"../structs/mlx5.cqc.html\""), "create_cq_in links its cq_context to cqc");
        String cqc = page("structs/mlx5.cqc.html");
        assertTrue(cqc.contains("href=\"../structs/mlx5.create_cq_in.html#f-cq_context\""), "cqc links back to create_cq_in");
        assertTrue(cqc.contains("href=\"../structs/mlx5.modify_cq_in.html#f-cq_context\""), "and to modify_cq_in");
    }

    @Test
    void enumPagesListMeaningsLikelyCausesAndUsers() {
        String e = page("enums/mlx5.cqe_error_syndrome.html");
        assertTrue(e.contains("<td class=\"num\">0x4</td><td class=\"name\">LOCAL_PROT_ERR</td><td>Local protection error</td>"), e);
        assertTrue(e.contains("<th>likely cause</th>"));
        assertTrue(e.contains("The lkey does not cover the address range"));
        assertTrue(e.contains("href=\"../structs/mlx5.err_cqe.html#f-syndrome\""), "used by err_cqe.syndrome");
    }

    /** commands.html: every command with opcode, structures (linked), op_mod values, oldest input length; every register. */
    @Test
    void theCommandsPageListsEveryCommandAndRegister() {
        LayoutModel model = BundledSpec.model();
        String c = page("commands.html");
        assertTrue(page("index.html").contains("href=\"commands.html\""), "the index links to it");
        for (var k : model.commands()) {
            Matcher row = Pattern.compile("<tr id=\"c-" + k.name().name() + "\"><td class=\"num\">0x" + Long.toHexString(k.opcode()) + "</td>.*?</tr>").matcher(c);
            assertTrue(row.find(), k.name()::toString);
            assertTrue(row.group().contains("href=\"structs/" + k.in() + ".html\"") && row.group().contains("href=\"structs/" + k.out() + ".html\""),
                    k.name()::toString);
        }
        for (var r : model.registers()) assertTrue(c.contains("<tr id=\"r-" + r.name().name() + "\"><td class=\"num\">0x" + Long.toHexString(r.id())), r.name()::toString);
        Matcher init = Pattern.compile("<tr id=\"c-INIT_HCA\">.*?</tr>").matcher(c);
        assertTrue(init.find());
        assertTrue(init.group().contains("<td class=\"num\">0x10 bytes</td>"), init.group());
        Matcher reg = Pattern.compile("<tr id=\"c-ACCESS_REG\">.*?</tr>").matcher(c);
        assertTrue(reg.find());
        assertTrue(reg.group().contains("<code>WRITE</code>=0x0") && reg.group().contains("<code>READ</code>=0x1"), reg.group());
    }

    @Test
    void joinedFieldsAreListedWithTheBitsOfEachPart() {
        String mkc = page("structs/mlx5.mkc.html");
        assertTrue(mkc.contains("<tr id=\"j-access_mode\"><td class=\"name\">access_mode</td><td class=\"num\">5</td><td>"
                + "<a href=\"#f-access_mode_4_2\">access_mode_4_2</a> [4:2], <a href=\"#f-access_mode_1_0\">access_mode_1_0</a> [1:0]</td>"), mkc);
        assertTrue(page("structs/mlx5.init_seg.html").contains("<a href=\"#f-cmdq_phy_addr_low\">cmdq_phy_addr_low</a> [31:12], [11:0] zero"));
    }

    @Test
    void everyLinkResolvesToAPageAndAnchor() {
        Pattern href = Pattern.compile("href=\"([^\"]*)\"");
        for (Map.Entry<String, String> f : SITE.entrySet()) {
            Matcher m = href.matcher(f.getValue());
            while (m.find()) {
                String link = m.group(1);
                String file = link.contains("#") ? link.substring(0, link.indexOf('#')) : link;
                String anchor = link.contains("#") ? link.substring(link.indexOf('#') + 1) : "";
                String target = file.isEmpty() ? f.getKey() : Path.of(f.getKey()).resolveSibling(file).normalize().toString().replace('\\', '/');
                assertTrue(SITE.containsKey(target), () -> f.getKey() + " links to missing " + link);
                if (!anchor.isEmpty()) {
                    assertTrue(SITE.get(target).contains("id=\"" + anchor + "\""), () -> f.getKey() + " links to missing anchor " + link);
                }
            }
        }
    }

    @Test
    void outputIsDeterministicWhateverTheFileOrder() {
        List<SourceFile> files = new ArrayList<>(BundledSpec.files());
        Collections.reverse(files);
        assertEquals(SITE, DocSite.render(BundledSpec.compile(files), "mlx5 PRM reference"));
    }

    @Test
    void noPageFetchesAnythingFromTheNetwork() {
        for (Map.Entry<String, String> f : SITE.entrySet()) {
            assertFalse(f.getValue().matches("(?s).*(src|href)=\"(https?:)?//.*"), () -> f.getKey() + " refers to the network");
        }
    }

    @Test
    void mustBeZeroFieldsAreMarkedAndReservedBitsShaded() {
        CompileResult r = PrmCompiler.compile(List.of(new SourceFile("x.prm", """
                package acme;
                struct regs size 0x4 {
                    0x00 [31:16] high;
                    0x00 [15:8]  zero mbz "must stay zero";
                    0x00 [7:0]   reserved;
                }
                """)));
        assertFalse(r.hasErrors(), r.errors()::toString);
        String page = DocSite.render(r.model().orElseThrow(), "t").get("structs/acme.regs.html");
        assertTrue(page.contains("<td class=\"f mbz\" colspan=\"8\" data-field=\"zero\""), page);
        assertTrue(page.contains("title=\"must be zero\">0</span>"), page);
        assertTrue(page.contains("<td class=\"rsvd\" colspan=\"8\" data-field=\"reserved_at_18\""), page);
        assertTrue(page.contains("<span class=\"note\">must be zero</span>"), "the field table says so too");
    }

    @Test
    void specTextIsEscaped() {
        CompileResult r = PrmCompiler.compile(List.of(new SourceFile("x.prm", """
                package acme;
                /// A <b>bold</b> & "quoted" structure
                struct regs size 0x4 {
                    0x00 [31:16] high "uses <script>alert(1)</script>";
                    0x00 [15:0]  low;
                }
                """)));
        assertFalse(r.hasErrors(), r.errors()::toString);
        String page = DocSite.render(r.model().orElseThrow(), "t").get("structs/acme.regs.html");
        assertTrue(page.contains("A &lt;b&gt;bold&lt;/b&gt; &amp; &quot;quoted&quot; structure"), page);
        assertFalse(page.contains("<script>alert"), page);
    }

    @Test
    void writeCreatesTheSiteOnDisk(@TempDir Path dir) throws Exception {
        Path out = dir.resolve("a/b");
        int n = DocSite.write(BundledSpec.model(), "mlx5 PRM reference", out);
        assertEquals(SITE.size(), n);
        assertEquals(SITE.get("structs/mlx5.wqe_eth_seg.html"), Files.readString(out.resolve("structs/mlx5.wqe_eth_seg.html")));
        assertTrue(Files.isRegularFile(out.resolve("search.js")));
    }

    @Test
    void aSecondWriteRemovesPagesThatAreGoneAndNothingElse(@TempDir Path dir) throws Exception {
        CompileResult two = PrmCompiler.compile(List.of(new SourceFile("x.prm",
                "package acme;\nstruct a size 0x4 { 0x00 [31:0] x; }\nstruct b size 0x4 { 0x00 [31:0] y; }\n")));
        CompileResult one = PrmCompiler.compile(List.of(new SourceFile("x.prm", "package acme;\nstruct a size 0x4 { 0x00 [31:0] x; }\n")));
        DocSite.write(two.model().orElseThrow(), "t", dir);
        Files.writeString(dir.resolve("notes.txt"), "mine");
        Files.writeString(dir.resolve("structs/mine.html"), "mine");
        assertTrue(Files.exists(dir.resolve("structs/acme.b.html")));
        DocSite.write(one.model().orElseThrow(), "t", dir);
        assertFalse(Files.exists(dir.resolve("structs/acme.b.html")), "the page of the removed structure");
        assertTrue(Files.exists(dir.resolve("structs/acme.a.html")));
        assertTrue(Files.exists(dir.resolve("notes.txt")) && Files.exists(dir.resolve("structs/mine.html")), "files the site did not write");
        Files.writeString(dir.resolve(DocSite.MANIFEST), "../outside.html\nstructs/../../x.html\n");
        Files.writeString(dir.getParent().resolve("outside.html"), "keep");
        DocSite.write(one.model().orElseThrow(), "t", dir);
        assertTrue(Files.exists(dir.getParent().resolve("outside.html")), "a tampered manifest cannot delete outside the folder");
    }

    @Test
    void aWriteThatFailsLeavesNothingBehind(@TempDir Path dir) throws Exception {
        // A file where the structure pages' folder must go: the enum pages (sorted first) are staged by then.
        Files.writeString(dir.resolve("structs"), "in the way");
        IOException e = assertThrows(IOException.class, () -> DocSite.write(BundledSpec.model(), "t", dir));
        assertTrue(e.getMessage().contains("structs"), e.getMessage());
        try (var left = Files.list(dir)) {
            assertEquals(List.of(dir.resolve("structs")), left.toList(), "no page, no folder, no temporary file, no manifest");
        }
    }

    @Test
    void pagesWhoseBytesAreRightAreNotRewritten(@TempDir Path dir) throws Exception {
        DocSite.write(BundledSpec.model(), "mlx5 PRM reference", dir);
        Path page = dir.resolve("structs/mlx5.wqe_eth_seg.html");
        FileTime old = FileTime.fromMillis(1_000_000_000_000L);
        Files.setLastModifiedTime(page, old);
        Files.writeString(dir.resolve("index.html"), "edited");
        assertEquals(SITE.size(), DocSite.write(BundledSpec.model(), "mlx5 PRM reference", dir));
        assertEquals(old, Files.getLastModifiedTime(page), "an unchanged page keeps its time");
        assertEquals(SITE.get("index.html"), Files.readString(dir.resolve("index.html")), "a changed one is rewritten");
    }
}

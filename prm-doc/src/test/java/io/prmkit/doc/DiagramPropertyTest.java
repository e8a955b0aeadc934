package io.prmkit.doc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.prmkit.dsl.CompileResult;
import io.prmkit.dsl.PrmCompiler;
import io.prmkit.dsl.Property;
import io.prmkit.dsl.SourceFile;
import io.prmkit.dsl.ir.Member;
import io.prmkit.dsl.ir.StructLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Random structures (bit fields in dwords, u64 fields, byte arrays, reserved space, inline unions
 * of two alternatives over a dword) drawn as diagrams: every row covers exactly 32 bits, and every
 * bit field within a dword is one cell at its own PRM bits.
 */
class DiagramPropertyTest {
    private static final Pattern ROW = Pattern.compile("<tr[^>]* data-dword=\"(0x[0-9a-f]+)\">(.*?)</tr>");
    private static final Pattern CELL = Pattern.compile("<td([^>]*)>");

    @Test
    void rowsCover32BitsAndFieldsSitAtTheirBits() {
        Property.check(200, g -> {
            StringBuilder spec = new StringBuilder("package p;\nstruct s {\n");
            int dwords = g.between("dwords", 1, 12);
            int field = 0;
            for (int d = 0; d < dwords; ) {
                int pick = g.between(0, 9);
                if (pick == 0 && d + 2 <= dwords) {
                    spec.append(String.format("    0x%02x f%d : u64;%n", d * 4, field++));
                    d += 2;
                } else if (pick == 1) {
                    int n = g.between(1, Math.min(3, dwords - d));
                    spec.append(String.format("    0x%02x f%d : u8[%d];%n", d * 4, field++, n * 4));
                    d += n;
                } else if (pick == 2) {
                    spec.append(String.format("    union u%d {%n        struct a%d {%n", d, d));
                    field = dword(g, spec, d, field, "            ");
                    spec.append(String.format("        }%n        struct b%d {%n", d));
                    field = dword(g, spec, d, field, "            ");
                    spec.append("        }\n    }\n");
                    d++;
                } else {
                    field = dword(g, spec, d, field, "    ");
                    d++;
                }
            }
            spec.append("}\n");
            String text = g.note("spec", spec.toString());
            CompileResult r = PrmCompiler.compile(List.of(new SourceFile("p.prm", text)));
            assertFalse(r.hasErrors(), () -> r.errors().toString());
            StructLayout s = r.model().orElseThrow().struct("s").orElseThrow();
            String html = BitDiagram.render(s, m -> "#f-" + m.name(), Map.of());

            Matcher row = ROW.matcher(html);
            List<String> rows = new ArrayList<>();
            while (row.find()) {
                rows.add(row.group(1) + "|" + row.group(2));
                List<String> cells = new ArrayList<>();
                Matcher c = CELL.matcher(row.group(2));
                while (c.find()) cells.add(c.group(1));
                int bits = 0;
                for (String attrs : cells.subList(1, cells.size() - 1)) {
                    Matcher span = Pattern.compile("colspan=\"(\\d+)\"").matcher(attrs);
                    bits += span.find() ? Integer.parseInt(span.group(1)) : 1;
                }
                assertEquals(32, bits, "row " + row.group(1) + ": " + row.group(2));
            }
            for (Member m : s.members()) {
                if (m.reserved() || !m.isScalar() || m.bitWidth() > 32) continue;
                String needle = "data-field=\"" + m.name() + "\" data-hi=\"" + m.hiBit() + "\" data-lo=\"" + m.loBit() + "\"";
                String dword = String.format("0x%02x", m.dwordByteOffset());
                assertTrue(rows.stream().anyMatch(x -> x.startsWith(dword + "|") && x.contains(needle)),
                        () -> m.name() + " at " + m.prmPosition() + " not drawn in its dword row:\n" + html);
            }
        });
    }

    /** One dword tiled with random bit fields and reserved gaps, written in PRM notation. */
    private static int dword(Property.Gen g, StringBuilder spec, int d, int field, String indent) {
        int bit = 0;
        while (bit < 32) {
            int w = g.between(1, 32 - bit);
            if (g.bool("narrow")) w = Math.min(w, g.between(1, 8));
            int hi = 31 - bit;
            int lo = hi - w + 1;
            String name = g.between(0, 5) == 0 ? "reserved" : "f" + field++;
            spec.append(String.format("%s0x%02x [%s] %s;%n", indent, d * 4, hi == lo ? "" + hi : hi + ":" + lo, name));
            bit += w;
        }
        return field;
    }
}

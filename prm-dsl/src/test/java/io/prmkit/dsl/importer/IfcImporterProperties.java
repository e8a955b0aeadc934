package io.prmkit.dsl.importer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import io.prmkit.dsl.CompileResult;
import io.prmkit.dsl.Diagnostic;
import io.prmkit.dsl.PrmCompiler;
import io.prmkit.dsl.SourceFile;
import io.prmkit.dsl.ir.Member;
import io.prmkit.dsl.ir.StructLayout;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * Whatever the field widths, the importer's output compiles and every field lands where the C
 * one-byte-per-bit convention puts it: wide and unaligned runs are split so the DSL accepts them,
 * never moved.
 */
class IfcImporterProperties {

    @Provide
    Arbitrary<List<Integer>> widths() {
        // mostly PRM-like widths, plus long and odd ones
        Arbitrary<Integer> w = Arbitraries.frequencyOf(
                net.jqwik.api.Tuple.of(6, Arbitraries.integers().between(1, 32)),
                net.jqwik.api.Tuple.of(2, Arbitraries.of(0x40, 0x80, 0x100)),
                net.jqwik.api.Tuple.of(2, Arbitraries.integers().between(33, 0x300)));
        return w.list().ofMinSize(1).ofMaxSize(40);
    }

    @Property(tries = 150)
    void anyWidthsImportCompileAndKeepTheirBits(@ForAll("widths") List<Integer> widths, @ForAll boolean reservedNames) {
        StringBuilder h = new StringBuilder("struct mlx5_ifc_t_bits {\n");
        long off = 0;
        for (int i = 0; i < widths.size(); i++) {
            int w = widths.get(i);
            String name = reservedNames && i % 2 == 1 ? "reserved_at_" + Long.toHexString(off) : "f" + i;
            h.append("\tu8 ").append(name).append("[0x").append(Integer.toHexString(w)).append("];\n");
            off += w;
        }
        long total = off;
        // the PRM's structures are whole bytes; pad like the kernel would
        if (total % 8 != 0) {
            h.append("\tu8 reserved_at_").append(Long.toHexString(total)).append("[0x").append(Long.toHexString(8 - total % 8)).append("];\n");
            total += 8 - total % 8;
        }
        h.append("};\n");

        ImportResult r = IfcImporter.importSources(List.of(new SourceFile("t.h", h.toString())), ImportOptions.DEFAULTS);
        assertFalse(r.hasErrors(), r.notes()::toString);
        CompileResult c = PrmCompiler.compile(r.dslFiles());
        assertEquals(List.of(), c.diagnostics().stream().filter(Diagnostic::isError).map(Diagnostic::toString).toList(),
                r.dslFiles().get(0).text());
        StructLayout s = c.model().orElseThrow().struct("t").orElseThrow();
        assertEquals(total / 8, s.sizeBytes());
        long at = 0;
        int i = 0;
        for (Member m : s.members()) {
            if (i < widths.size()) {
                assertEquals(at, m.bitOffset(), m.name());
                assertEquals((long) widths.get(i), m.bitWidth(), m.name());
                at += widths.get(i);
            }
            i++;
        }
        assertEquals(widths.size() + (at % 8 != 0 ? 1 : 0), s.members().size());
    }
}

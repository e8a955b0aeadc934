package io.prmkit.dsl.importer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import io.prmkit.dsl.Diagnostic;
import io.prmkit.dsl.HostTools;
import io.prmkit.dsl.SourceFile;
import io.prmkit.dsl.ir.LayoutModel;
import io.prmkit.dsl.ir.StructLayout;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The shapes newer mlx5_ifc.h headers use, as small headers of our own
 * ({@code src/test/resources/ifc-corpus}): each is imported, and every structure size, member
 * offset and width, enum value and constant of the import must equal what gcc makes of the header.
 * The kernel's own headers go through the same comparison in {@link IfcRoundTripTest}.
 */
class IfcCorpusTest {

    static String text(String header) throws IOException {
        try (InputStream in = IfcCorpusTest.class.getResourceAsStream("/ifc-corpus/" + header)) {
            if (in == null) throw new IOException("no corpus header " + header);
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    static LayoutModel imported(String header) throws IOException {
        ImportResult r = IfcImporter.importSources(List.of(new SourceFile(header, text(header))), ImportOptions.DEFAULTS);
        assertFalse(r.hasErrors(), () -> "import errors: " + r.notes());
        return r.model().orElseThrow();
    }

    @ParameterizedTest
    @ValueSource(strings = {"flex_unions.h", "nested_unions.h", "attributes.h", "enum_exprs.h"})
    void importedLayoutEqualsGccFieldByField(String header) throws Exception {
        String gcc = HostTools.gcc();
        LayoutModel model = imported(header);
        Path work = Path.of("target", "ifc-corpus", header.replace(".h", "")).toAbsolutePath();
        Files.createDirectories(work);
        Files.writeString(work.resolve(header), text(header), StandardCharsets.UTF_8);
        GccLayout.Result r = GccLayout.compare(work, List.of(header), List.of(header), model, work);
        assertEquals(List.of(), r.mismatches(), header);
        System.out.printf("[ifc-corpus] %s: gcc (%s) agrees on %d structure sizes, %d members, %d enum values and constants%n",
                header, gcc, r.structures(), r.members(), r.values());
    }

    /** The facts the shapes are about, so a change in both gcc's and our reading cannot pass unseen. */
    @ParameterizedTest
    @ValueSource(strings = {"flex_unions.h"})
    void flexibleAlternativesStartAtTheirUnionAndTheUnionKeepsItsFixedSize(String header) throws IOException {
        LayoutModel m = imported(header);
        StructLayout out = m.struct("demo_query_out").orElseThrow();
        assertEquals(0x80, out.sizeBytes(), "0x60 bits before the union, 0x3a0 bits of its fixed alternative");
        assertEquals(0x60, out.member("params").orElseThrow().bitOffset());
        assertEquals("params", out.flexibleArray().orElseThrow().name());
        StructLayout table = m.struct("demo_table").orElseThrow();
        assertEquals(4, table.sizeBytes());
        assertEquals(0x20, table.member("entries").orElseThrow().bitOffset());
        assertEquals(0x20, table.member("ids").orElseThrow().bitOffset());
        StructLayout any = m.struct("demo_any").orElseThrow();
        assertEquals(8, any.sizeBytes());
        assertEquals(0, any.member("entries").orElseThrow().bitOffset());
        assertEquals(0x20, m.struct("demo_any_holder").orElseThrow().member("any").orElseThrow().bitOffset());
    }

    @ParameterizedTest
    @ValueSource(strings = {"nested_unions.h"})
    void nestedAnonymousAggregatesKeepTheirFlexibleTails(String header) throws IOException {
        LayoutModel m = imported(header);
        StructLayout cmd = m.struct("demo_cmd_in").orElseThrow();
        assertEquals(0x18, cmd.sizeBytes());
        assertEquals(0x60, cmd.member("data").orElseThrow().bitOffset(), "after len and kind, inside the union's struct alternative");
        assertEquals(0x20, m.struct("demo_nested").orElseThrow().member("hdrs").orElseThrow().bitOffset());
        assertEquals(0x40, m.struct("demo_wrapped").orElseThrow().member("items").orElseThrow().bitOffset());
        assertEquals(0x40, m.struct("demo_outer").orElseThrow().member("after").orElseThrow().bitOffset());
    }

    @ParameterizedTest
    @ValueSource(strings = {"attributes.h"})
    void packedAttributesAreNotedAtTheirColumn(String header) throws IOException {
        ImportResult r = IfcImporter.importSources(List.of(new SourceFile(header, text(header))), ImportOptions.DEFAULTS);
        assertEquals(List.of("attributes.h:9:20", "attributes.h:12:21", "attributes.h:13:3", "attributes.h:18:62", "attributes.h:19:3"),
                r.notes().stream().map(Diagnostic::location).map(Object::toString).toList());
    }
}

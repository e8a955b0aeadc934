package io.prmkit.generator;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import io.prmkit.dsl.Child;
import io.prmkit.dsl.HostTools;
import io.prmkit.dsl.SourceFile;
import io.prmkit.dsl.importer.IfcImporter;
import io.prmkit.dsl.importer.ImportOptions;
import io.prmkit.dsl.importer.ImportResult;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A flexible array as a union alternative (newer mlx5_ifc.h: {@code union { u8 reserved_at_60[0x3a0];
 * DECLARE_FLEX_ARRAY(union ..., params); }}) from header to accessor: prm-dsl's corpus header
 * {@code ifc-corpus/flex_unions.h} is imported, generated and compiled; element {@code i} is reached
 * at the union's offset, where gcc puts {@code params[i]}.
 */
class FlexibleUnionIT {
    static final String HEADER = "flex_unions.h";
    static String text;
    static Loaded gen;

    @BeforeAll
    static void generate() throws IOException {
        try (InputStream in = FlexibleUnionIT.class.getResourceAsStream("/ifc-corpus/" + HEADER)) {
            text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        ImportResult r = IfcImporter.importSources(List.of(new SourceFile(HEADER, text)), ImportOptions.DEFAULTS);
        assertFalse(r.hasErrors(), r.notes()::toString);
        gen = Loaded.compile(new AccessorGenerator(new GeneratorOptions("com.example")).generate(r.model().orElseThrow()), "com.example.mlx5");
    }

    @Test
    void elementIOfTheFlexibleAlternativeIsAtTheUnionsOffset() {
        assertEquals(0x0cL, gen.constant("DemoQueryOut", "params$BYTE_OFFSET"));
        assertEquals(0x20L, gen.constant("DemoQueryOut", "params$ELEMENT_SIZE"));
        assertEquals(0x80L, gen.constant("DemoQueryOut", "SIZE"), "the union counts its fixed alternative only");
        byte[] b = new byte[0x0c + 3 * 0x20];
        Object s = Loaded.segment(b);
        Object third = gen.call("DemoQueryOut", "params$elem", s, 2L);
        gen.call("DemoEntry", "id$set", gen.call("DemoParams", "entry", third), 0x1234);
        gen.call("DemoEntry", "addr$set", gen.call("DemoParams", "entry", third), 0x0102030405060708L);
        byte[] want = new byte[b.length];
        int at = 0x0c + 2 * 0x20;
        want[at] = 0x12;
        want[at + 1] = 0x34;
        for (int i = 0; i < 8; i++) want[at + 4 + i] = (byte) (i + 1);
        assertArrayEquals(want, b);
        assertEquals(0x0cL + 5 * 0x20, gen.call("DemoQueryOut", "params$offset", 5L));
        assertEquals(0x04L + 7 * 0x0cL, gen.call("DemoTable", "entries$offset", 7L), "a union of flexible alternatives only");
        assertEquals(3 * 0x0cL, gen.call("DemoAny", "entries$offset", 3L), "a union declaration's flexible alternative starts at 0");
        assertEquals(8L, gen.constant("DemoAny", "SIZE"));
    }

    /** gcc's offsetof(params[i]) counts bits (one byte per bit in mlx5_ifc.h): the accessors' byte offsets times 8. */
    @Test
    void theAccessorsOffsetsAreGccs() throws Exception {
        String gcc = HostTools.gcc();
        Path work = Path.of("target", "flexible-union-gcc").toAbsolutePath();
        Files.createDirectories(work);
        Files.writeString(work.resolve(HEADER), text, StandardCharsets.UTF_8);
        Files.writeString(work.resolve("offsets.c"), """
                #include <stddef.h>
                #include <stdio.h>
                typedef unsigned char u8;
                #define DECLARE_FLEX_ARRAY(T, N) struct { struct { } __empty_ ## N; T N[]; }
                #include "flex_unions.h"
                int main(void) {
                    for (int i = 0; i < 4; i++)
                        printf("%zu %zu\\n", offsetof(struct mlx5_ifc_demo_query_out_bits, params[i]),
                               offsetof(struct mlx5_ifc_demo_table_bits, entries[i]));
                    printf("%zu\\n", sizeof(struct mlx5_ifc_demo_query_out_bits));
                    return 0;
                }
                """, StandardCharsets.UTF_8);
        Child.run(new ProcessBuilder(gcc, "-std=gnu11", "-w", "-o", "offsets", "offsets.c").directory(work.toFile()).redirectErrorStream(true),
                Duration.ofMinutes(2)).assertSuccess();
        List<String> got = Child.run(Duration.ofMinutes(1), work.resolve("offsets").toString()).assertSuccess().stdout().lines().toList();
        StringBuilder ours = new StringBuilder();
        for (long i = 0; i < 4; i++) {
            ours.append((Long) gen.call("DemoQueryOut", "params$offset", i) * 8).append(' ')
                    .append((Long) gen.call("DemoTable", "entries$offset", i) * 8).append('\n');
        }
        ours.append((Long) gen.constant("DemoQueryOut", "SIZE") * 8).append('\n');
        assertEquals(String.join("\n", got) + "\n", ours.toString());
        assertEquals(5, got.size(), Arrays.toString(got.toArray()));
    }
}

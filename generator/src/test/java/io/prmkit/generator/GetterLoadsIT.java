package io.prmkit.generator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.prmkit.dsl.ir.LayoutModel;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Getters read a field narrower than 32 bits from a load of its whole dword (one load shared by the
 * getters of a dword), except in a structure whose size is not a multiple of 4, whose last dword is
 * cut short: there they keep byte and short loads and never read past the structure.
 */
class GetterLoadsIT {
    /** Fields in the last bytes of the structure: b = byte 4, c = the high nibble of byte 5, d = bit 0 of byte 5. */
    private static List<GeneratedFile> files(String name, long size) {
        return new AccessorGenerator(new GeneratorOptions("io.prmkit.gl")).generate(new LayoutModel(List.of(Fixtures.struct(name, size, List.of(
                Fixtures.M.field("a", 0, 31, 0),
                Fixtures.M.field("b", 4, 31, 24),
                Fixtures.M.field("c", 4, 23, 20),
                Fixtures.M.field("d", 4, 16, 16)), List.of(), "", "g.prm", 1)), List.of(), List.of()));
    }

    private static String source(List<GeneratedFile> files, String cls) {
        return files.stream().filter(f -> f.relativePath().endsWith("/" + cls + ".java")).findFirst().orElseThrow().content();
    }

    @Test
    void aStructureCutShortOfItsLastDwordIsReadWithNarrowLoads() {
        List<GeneratedFile> files = files("odd", 6);
        assertTrue(source(files, "Odd").contains("s.get(PrmLayout.BYTE, offset + 4L)"), "byte load for b");
        Loaded gen = Loaded.compile(files, "io.prmkit.gl.mlx5");
        byte[] b = {1, 2, 3, 4, (byte) 0xab, (byte) 0xc1};
        Object s = Loaded.segment(b);
        assertEquals(0x01020304, gen.call("Odd", "a", s));
        assertEquals(0xab, gen.call("Odd", "b", s));
        assertEquals(0xc, gen.call("Odd", "c", s));
        assertEquals(true, gen.call("Odd", "d", s));
    }

    @Test
    void aWholeDwordIsOneLoadAndItsBytesComeOutInPrmOrder() {
        List<GeneratedFile> files = files("even", 8);
        String java = source(files, "Even");
        assertTrue(java.contains("(s.get(PrmLayout.LE_INT, offset + 4L) >>> 12) & 0xf"), "c: memory byte 5 is bits 8..15 of the little-endian dword (no swap)");
        assertTrue(java.contains("s.get(PrmLayout.LE_INT, offset + 4L) & 0xff"), "b is memory byte 4: the low byte of the LE dword");
        Loaded gen = Loaded.compile(files, "io.prmkit.gl.mlx5");
        byte[] b = {1, 2, 3, 4, (byte) 0xab, (byte) 0xc1, (byte) 0xff, (byte) 0xff};
        Object s = Loaded.segment(b);
        assertEquals(0xab, gen.call("Even", "b", s));
        assertEquals(0xc, gen.call("Even", "c", s));
        assertEquals(true, gen.call("Even", "d", s));
        b[5] = 0x30; // c = 3, d = 0; the bytes after (6, 7) do not leak in
        assertEquals(0x3, gen.call("Even", "c", s));
        assertEquals(false, gen.call("Even", "d", s));
        // A dword read needs the dword: an 8-byte structure in a 6-byte segment cannot be read past byte 4.
        assertThrows(IndexOutOfBoundsException.class, () -> gen.call("Even", "b", Loaded.segment(new byte[6])));
    }
}

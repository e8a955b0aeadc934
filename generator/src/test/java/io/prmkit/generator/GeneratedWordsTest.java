package io.prmkit.generator;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.prmkit.dsl.ir.LayoutModel;
import io.prmkit.dsl.ir.MemberType;
import io.prmkit.dsl.ir.StructLayout;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Counts in generated Javadoc read as English: "1 bit", never "1 bits". */
class GeneratedWordsTest {
    @Test
    void oneBitFieldsAndOneBitElementsAreNotPlural() {
        StructLayout s = Fixtures.struct("bitmap", 8, List.of(
                Fixtures.M.field("enable", 0, 31, 31),
                Fixtures.M.reserved(1, 31),
                Fixtures.M.at("valid", 32, new MemberType.Array(new MemberType.Bits(1), 32, false))), List.of(), "", "b.prm", 1);
        String java = new AccessorGenerator(GeneratorOptions.defaults()).generate(new LayoutModel(List.of(s), List.of(), List.of())).stream()
                .filter(f -> f.relativePath().endsWith("/Bitmap.java")).findFirst().orElseThrow().content();
        assertFalse(java.matches("(?s).*\\b1 bits\\b.*"), "no '1 bits' in the generated text");
        assertTrue(java.contains("{@code dword 0x00 [31]}, 1 bit;"), "the field's PRM paragraph");
        assertTrue(java.contains("{@code bytes 0x04..0x07}, 32 bits;"), "the array's PRM paragraph");
        assertTrue(java.contains("Writes element {@code index} of {@code valid} (structure at byte {@code offset}). See"), "no width sentence for a boolean element");
    }
}

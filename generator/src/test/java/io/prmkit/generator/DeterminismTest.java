package io.prmkit.generator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.prmkit.dsl.ir.LayoutModel;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;

class DeterminismTest {
    private static List<GeneratedFile> generate(LayoutModel model) {
        return new AccessorGenerator(new GeneratorOptions("io.prmkit.gen")).generate(model);
    }

    @Test
    void generatingTwiceGivesIdenticalBytes() {
        List<GeneratedFile> a = generate(Fixtures.model());
        List<GeneratedFile> b = generate(Fixtures.model());
        assertEquals(a.size(), b.size());
        for (int i = 0; i < a.size(); i++) {
            assertEquals(a.get(i).relativePath(), b.get(i).relativePath());
            assertTrue(java.util.Arrays.equals(a.get(i).content().getBytes(StandardCharsets.UTF_8), b.get(i).content().getBytes(StandardCharsets.UTF_8)),
                    a.get(i).relativePath());
        }
    }

    /** Another machine may have another default locale; number formatting must not follow it. */
    @Test
    void outputDoesNotDependOnTheDefaultLocale() {
        Locale saved = Locale.getDefault();
        List<GeneratedFile> reference = generate(Fixtures.model());
        try {
            for (Locale l : List.of(Locale.forLanguageTag("tr-TR"), Locale.forLanguageTag("ar-EG-u-nu-arab"), Locale.forLanguageTag("hi-IN-u-nu-deva"))) {
                Locale.setDefault(l);
                assertEquals(reference, generate(Fixtures.model()), l.toString());
            }
        } finally {
            Locale.setDefault(saved);
        }
    }

    @Test
    void filesAreSortedUseNewlinesAndCarryNoTimestamps() {
        List<GeneratedFile> files = generate(Fixtures.model());
        for (int i = 1; i < files.size(); i++) {
            assertTrue(files.get(i - 1).relativePath().compareTo(files.get(i).relativePath()) < 0, "not sorted at " + i);
        }
        for (GeneratedFile f : files) {
            assertFalse(f.content().contains("\r"), f.relativePath());
            assertTrue(f.content().endsWith("\n"), f.relativePath());
            assertFalse(f.content().matches("(?s).*20\\d\\d-\\d\\d-\\d\\d.*"), "date in " + f.relativePath());
            assertFalse(f.content().contains("@Generated"), f.relativePath());
        }
    }
}

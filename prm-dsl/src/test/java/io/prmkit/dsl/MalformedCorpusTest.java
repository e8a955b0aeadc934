package io.prmkit.dsl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * Each file under {@code malformed/} starts with one or more {@code // expect: LINE:COL: error: MESSAGE}
 * lines: exactly those diagnostics, in that order, and no model.
 */
class MalformedCorpusTest {
    private static final String EXPECT = "// expect: ";

    static List<Path> corpus() throws IOException, URISyntaxException {
        Path dir = Path.of(MalformedCorpusTest.class.getResource("/malformed").toURI());
        try (Stream<Path> s = Files.list(dir)) {
            return s.filter(p -> p.toString().endsWith(".prm")).sorted().toList();
        }
    }

    @Test
    void corpusIsLargeEnough() throws Exception {
        assertTrue(corpus().size() >= 30, "at least 30 malformed specs");
    }

    @TestFactory
    Stream<DynamicTest> eachMalformedSpecGivesItsDiagnostic() throws Exception {
        return corpus().stream().map(p -> DynamicTest.dynamicTest(p.getFileName().toString(), () -> {
            String text = Files.readString(p, StandardCharsets.UTF_8);
            List<String> expected = new ArrayList<>();
            for (String line : text.split("\n")) {
                if (!line.startsWith(EXPECT)) break;
                expected.add(line.substring(EXPECT.length()));
            }
            assertFalse(expected.isEmpty(), "no '// expect:' line");
            CompileResult r = PrmCompiler.compile(List.of(new SourceFile(p.getFileName().toString(), text)));
            List<String> actual = r.diagnostics().stream()
                    .map(d -> d.location().line() + ":" + d.location().column() + ": " + d.severity().label() + ": " + d.message())
                    .toList();
            assertEquals(String.join("\n", expected), String.join("\n", actual));
            assertTrue(r.model().isEmpty());
        }));
    }
}

package io.prmkit.dsl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The toolchain counts, escapes JSON and prints PRM positions one way each: {@link Words},
 * {@link Json} and {@code ir.PrmPosition}. This scans the main sources of the toolchain modules for
 * hand-rolled copies ({@code n == 1 ? " bit" : " bits"}, {@code "\\u%04x"}, {@code "0x%02x"}), so a
 * second one does not creep back. prm-layout is not scanned: its {@code PrmLayout}, which all
 * generated code imports, depends on java.base only.
 */
class OneHelperEachTest {
    private static final List<String> MODULES = List.of("prm-dsl", "generator", "pipeline", "prm-doc", "maven-plugin", "cli");

    private record Rule(String what, Pattern pattern, String owner) {}

    private static final List<Rule> RULES = List.of(
            new Rule("a pluraliser (use Words.plural)", Pattern.compile("[=!]= 1 \\? \"[^\"]*\" : \"[^\"]*s\""), "Words.java"),
            new Rule("a JSON string escaper (use Json)", Pattern.compile("\\\\\\\\u%04x"), "Json.java"),
            new Rule("a PRM position formatter (use PrmPosition)", Pattern.compile("format\\(\"0x%02x"), "PrmPosition.java"));

    private static List<Path> sources() throws IOException {
        List<Path> out = new ArrayList<>();
        for (String m : MODULES) {
            Path dir = Path.of("..", m, "src", "main", "java");
            assertTrue(Files.isDirectory(dir), dir + " is missing: run from the prm-dsl module directory");
            try (Stream<Path> files = Files.walk(dir)) {
                files.filter(p -> p.toString().endsWith(".java")).sorted().forEach(out::add);
            }
        }
        return out;
    }

    @Test
    void noHandRolledCopies() throws IOException {
        List<String> found = new ArrayList<>();
        for (Path p : sources()) {
            List<String> lines = Files.readAllLines(p, StandardCharsets.UTF_8);
            for (int i = 0; i < lines.size(); i++) {
                for (Rule r : RULES) {
                    Matcher m = r.pattern().matcher(lines.get(i));
                    if (m.find() && !p.getFileName().toString().equals(r.owner())) found.add(p + ":" + (i + 1) + ": " + r.what());
                }
            }
        }
        assertEquals(List.of(), found);
    }

    @Test
    void thePatternsFindWhatTheyAreFor() {
        assertTrue(RULES.get(0).pattern().matcher("e.width() == 1 ? \" bit\" : \" bits\"").find());
        assertTrue(RULES.get(0).pattern().matcher("b.add(\"$L bit$L\", w, w == 1 ? \"\" : \"s\")").find());
        assertTrue(RULES.get(1).pattern().matcher("sb.append(String.format(\"\\\\u%04x\", (int) c));").find());
        assertTrue(RULES.get(2).pattern().matcher("return String.format(\"0x%02x [%s]\", d, r);").find());
    }
}

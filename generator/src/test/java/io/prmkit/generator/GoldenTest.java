package io.prmkit.generator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The generated sources for the representative fixtures, compared with checked-in golden files.
 * After an intended change of the output, regenerate them with
 * {@code ./mvnw -pl generator test -Dtest=GoldenTest -Dprmkit.updateGolden=true} and review the diff.
 * The support class {@code io.prmkit.layout.PrmLayout} is not among them: generated code imports it from
 * the prmkit-layout jar ({@link #noPackageGetsACopyOfTheSupportClass}).
 */
class GoldenTest {
    static final Path GOLDEN = Path.of("src/test/resources/golden");
    static final String PREFIX = "io.prmkit.gen";

    @Test
    void generatedSourcesMatchGoldenFiles() throws IOException {
        List<GeneratedFile> files = new AccessorGenerator(new GeneratorOptions(PREFIX)).generate(Fixtures.model());
        if (Boolean.getBoolean("prmkit.updateGolden")) {
            if (Files.exists(GOLDEN)) {
                try (Stream<Path> old = Files.walk(GOLDEN)) {
                    for (Path p : old.sorted((a, b) -> b.compareTo(a)).toList()) Files.delete(p);
                }
            }
            for (GeneratedFile f : files) {
                Path p = GOLDEN.resolve(f.relativePath());
                Files.createDirectories(p.getParent());
                Files.writeString(p, f.content(), StandardCharsets.UTF_8);
            }
        }
        TreeSet<String> expected = new TreeSet<>();
        try (Stream<Path> walk = Files.walk(GOLDEN)) {
            walk.filter(Files::isRegularFile).forEach(p -> expected.add(GOLDEN.relativize(p).toString().replace('\\', '/')));
        }
        TreeSet<String> actual = new TreeSet<>();
        files.forEach(f -> actual.add(f.relativePath()));
        assertEquals(expected, actual, "generated file set differs from golden (update with -Dprmkit.updateGolden=true)");
        List<String> differing = new ArrayList<>();
        for (GeneratedFile f : files) {
            String golden = Files.readString(GOLDEN.resolve(f.relativePath()), StandardCharsets.UTF_8);
            if (!golden.equals(f.content())) differing.add(f.relativePath() + firstDifference(golden, f.content()));
        }
        if (!differing.isEmpty()) fail("generated sources differ from golden files (update with -Dprmkit.updateGolden=true):\n" + String.join("\n", differing));
    }

    @Test
    void noPackageGetsACopyOfTheSupportClass() {
        List<GeneratedFile> files = new AccessorGenerator(new GeneratorOptions(PREFIX)).generate(Fixtures.model());
        assertTrue(files.stream().noneMatch(f -> f.relativePath().endsWith("/PrmLayout.java")), "PrmLayout comes from the prmkit-layout jar");
        for (GeneratedFile f : files) {
            boolean uses = f.content().contains("PrmLayout.");
            assertEquals(uses, f.content().contains("\nimport io.prmkit.layout.PrmLayout;\n"), f.relativePath() + " imports the shared PrmLayout where it uses it");
            assertEquals(uses, f.content().contains("PRM_LAYOUT_API = PrmLayout.requireApi(" + GeneratorContext.LAYOUT_API + ");"),
                    f.relativePath() + " checks the API level where it uses PrmLayout");
        }
    }

    private static String firstDifference(String a, String b) {
        String[] x = a.split("\n", -1);
        String[] y = b.split("\n", -1);
        for (int i = 0; i < Math.min(x.length, y.length); i++) {
            if (!x[i].equals(y[i])) return " at line " + (i + 1) + ":\n  golden:    " + x[i] + "\n  generated: " + y[i];
        }
        return " (length " + x.length + " vs " + y.length + " lines)";
    }

    /** Every public method of a structure class has Javadoc; one per member cites its PRM position and spec line, the others link to it. */
    @Test
    void everyAccessorHasJavadocWithPositionAndSpecLine() {
        List<GeneratedFile> files = new AccessorGenerator(new GeneratorOptions(PREFIX)).generate(Fixtures.model());
        GeneratedFile ctrl = files.stream().filter(f -> f.relativePath().endsWith("/WqeCtrlSeg.java")).findFirst().orElseThrow();
        Matcher m = Pattern.compile("(?s)/\\*\\*((?:(?!\\*/).)*)\\*/\\n    public static (?!final)[^(]*?(\\w+(?:\\$\\w+)?)\\(").matcher(ctrl.content());
        int documented = 0;
        int full = 0;
        while (m.find()) {
            documented++;
            String doc = m.group(1);
            String method = m.group(2);
            if (method.startsWith("opcode")) {
                // the full description once per member (on the getter with an offset), a link to it everywhere else
                if (doc.contains("{@code dword 0x00 [7:0]}")) {
                    full++;
                    assertTrue(doc.contains("spec wqe.prm:19"), method + ": " + doc);
                    assertTrue(doc.contains("What the WQE does."), method + ": " + doc);
                } else {
                    assertTrue(doc.contains("See {@link #opcode(MemorySegment, long)}.")
                            || doc.matches("(?s).*Same as \\{@link #" + java.util.regex.Pattern.quote(method) + "\\(MemorySegment, long[^)]*\\)} with \\{@code offset} 0.*"),
                            method + ": " + doc);
                }
            }
        }
        assertEquals(1, full, "one accessor of opcode carries the full description");
        long methods = Pattern.compile("\\n    public static (?!final)").matcher(ctrl.content()).results().count();
        assertEquals(methods, documented, "public static methods without Javadoc");
        assertTrue(documented > 60, "expected the full accessor set, got " + documented);
    }
}

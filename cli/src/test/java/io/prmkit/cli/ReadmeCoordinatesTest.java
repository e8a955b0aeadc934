package io.prmkit.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** The Maven coordinates the README tells users to write are those the build installs. */
class ReadmeCoordinatesTest {
    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    /** An io.prmkit coordinate in a README snippet: group, artifact, version on consecutive lines. */
    private static final Pattern COORDINATE = Pattern.compile(
            "<groupId>io\\.prmkit</groupId>\\s*\\n\\s*<artifactId>([\\w.-]+)</artifactId>[^\\n]*\\n\\s*<version>([^<]+)</version>");
    private static final Pattern OWN_ARTIFACT = Pattern.compile("</parent>\\s*(?:<!--.*?-->\\s*)*<artifactId>([\\w.-]+)</artifactId>", Pattern.DOTALL);
    private static final Pattern PROJECT_VERSION = Pattern.compile("<artifactId>prmkit-parent</artifactId>\\s*<version>([^<]+)</version>");

    @Test
    void everyCoordinateInTheReadmeIsAModuleAtTheBuildsVersion() throws IOException {
        String parent = Files.readString(ROOT.resolve("pom.xml"));
        Matcher v = PROJECT_VERSION.matcher(parent);
        assertTrue(v.find(), "the parent pom's version");
        String version = v.group(1);
        Map<String, Path> modules = new TreeMap<>();
        try (Stream<Path> dirs = Files.list(ROOT)) {
            for (Path pom : dirs.map(d -> d.resolve("pom.xml")).filter(Files::isRegularFile).toList()) {
                Matcher a = OWN_ARTIFACT.matcher(Files.readString(pom));
                if (a.find()) modules.put(a.group(1), pom);
            }
        }
        assertTrue(modules.containsKey("prmkit-generated-runtime"), "modules found: " + modules.keySet());
        Matcher m = COORDINATE.matcher(Files.readString(ROOT.resolve("README.md")));
        List<String> named = new ArrayList<>();
        while (m.find()) {
            named.add(m.group(1));
            assertTrue(modules.containsKey(m.group(1)), "README names io.prmkit:" + m.group(1) + ", which no module builds: " + modules.keySet());
            assertEquals(version, m.group(2), "README's version of " + m.group(1));
        }
        assertFalse(named.isEmpty(), "the README's snippets name no io.prmkit coordinate");
        assertTrue(named.containsAll(List.of("prmkit-maven-plugin", "prmkit-generated-runtime", "prmkit-driver")), named.toString());
    }
}

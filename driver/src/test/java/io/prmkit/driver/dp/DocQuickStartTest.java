package io.prmkit.driver.dp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.prmkit.dsl.Child;
import java.io.File;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * docs/datapath.md "A first program" is a program a reader can paste: its Java block, as it stands,
 * compiles against the driver and the soft HCA and, run in a JVM of its own, prints the line the page
 * says it prints.
 */
class DocQuickStartTest {
    private static final Path DOC = Path.of("../docs/datapath.md");
    private static final String HEADING = "## A first program";

    /** The section's Java block and the line the page says it prints (in backquotes after "It prints"). */
    record Example(String code, String printed) {}

    static Example example() throws Exception {
        String doc = Files.readString(DOC);
        int section = doc.indexOf(HEADING);
        assertTrue(section >= 0, "docs/datapath.md has no section '" + HEADING + "'");
        int open = doc.indexOf("```java\n", section);
        int close = doc.indexOf("\n```", open + 8);
        assertTrue(open > 0 && close > open, "no java block in '" + HEADING + "'");
        int says = doc.indexOf("It prints `", close);
        assertTrue(says > 0, "the section does not say what the program prints");
        String printed = doc.substring(says + "It prints `".length(), doc.indexOf('`', says + "It prints `".length()));
        return new Example(doc.substring(open + 8, close + 1), printed.replaceAll("\\s+", " "));
    }

    @Test
    void theFirstProgramCompilesRunsAndPrintsWhatThePageSays(@TempDir Path dir) throws Exception {
        Example ex = example();
        Path src = dir.resolve("QuickStart.java");
        Files.writeString(src, ex.code());
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        assertNotNull(javac, "tests need a JDK");
        StringWriter errors = new StringWriter();
        String cp = System.getProperty("java.class.path");
        boolean ok = javac.getTask(errors, null, null, List.of("-proc:none", "-d", dir.toString(), "-cp", cp), null,
                javac.getStandardFileManager(null, null, StandardCharsets.UTF_8).getJavaFileObjects(src)).call();
        assertTrue(ok, "docs/datapath.md's first program does not compile:\n" + errors);

        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Child.Result p = Child.run(new ProcessBuilder(java, "-cp", dir + File.pathSeparator + cp, "QuickStart").redirectErrorStream(true),
                Duration.ofMinutes(2));
        String text = p.stdout();
        assertEquals(0, p.exit(), text);
        assertEquals(ex.printed(), text.strip(), "what it printed (stdout and stderr)");
    }
}

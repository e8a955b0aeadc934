package io.prmkit.mlx5;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.StringWriter;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.SimpleJavaFileObject;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;

/**
 * The Java examples of docs/generated-api.md compile against the accessors generated from the
 * bundled spec (package {@code io.prmkit.mlx5}, as the Maven plugin makes them here). A block
 * fenced {@code ```java sketch} is an outline of an API, not code: its constant names must exist.
 */
class DocExamplesTest {
    private static final Path DOC = Path.of("../docs/generated-api.md");

    /** Names the examples use without declaring them, as a reader's surrounding code would provide. */
    private static final String GIVEN = """
            Arena arena = Arena.ofConfined();
            int pc = 0, sqn = 0, n = 0, len = 0, lkey = 0, cqn = 0, wqeIndex = 0;
            long addr = 0, ci = 0;
            boolean ownerBit = true;
            MemorySegment cq = arena.allocate(4096), out = arena.allocate(64), s = arena.allocate(64);
            """;

    record Block(int line, String info, String code) {}

    static List<Block> javaBlocks() throws IOException {
        List<String> lines = Files.readAllLines(DOC);
        List<Block> blocks = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            String l = lines.get(i);
            if (!l.startsWith("```java")) continue;
            int start = i + 1;
            StringBuilder code = new StringBuilder();
            for (i = start; i < lines.size() && !lines.get(i).startsWith("```"); i++) code.append(lines.get(i)).append('\n');
            blocks.add(new Block(start, l.substring(3).strip(), code.toString()));
        }
        return blocks;
    }

    @Test
    void everyJavaExampleCompiles() throws IOException {
        List<Block> blocks = javaBlocks();
        List<JavaFileObject> sources = new ArrayList<>();
        for (Block b : blocks) {
            if (b.info().contains("sketch")) continue;
            String cls = "DocExampleAtLine" + b.line();
            // The first example declares the ring (sq) and the WQE offset (wqe) the later ones use.
            String ring = (b.code().contains("MemorySegment sq =") ? "" : "MemorySegment sq = arena.allocate(65536);\n")
                    + (b.code().contains("long wqe =") ? "" : "long wqe = 0;\n");
            String src = "import io.prmkit.layout.PrmLayout;\nimport io.prmkit.mlx5.*;\nimport java.lang.foreign.*;\nimport java.util.*;\n"
                    + "class " + cls + " {\n    void example() {\n" + GIVEN + ring + b.code() + "    }\n}\n";
            sources.add(new SimpleJavaFileObject(URI.create("string:///" + cls + ".java"), JavaFileObject.Kind.SOURCE) {
                @Override
                public CharSequence getCharContent(boolean ignoreEncodingErrors) {
                    return src;
                }
            });
        }
        assertTrue(sources.size() >= 4, "expected the doc's examples, found " + sources.size());
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        assertNotNull(javac, "tests need a JDK");
        StringWriter errors = new StringWriter();
        Path outDir = Files.createDirectories(Path.of("target", "doc-examples"));
        boolean ok = javac.getTask(errors, null, null,
                List.of("-proc:none", "-d", outDir.toString(), "-cp", System.getProperty("java.class.path")), null, sources).call();
        assertTrue(ok, "docs/generated-api.md examples do not compile (class DocExampleAtLineN = block starting at line N):\n" + errors);
    }

    /** The enum outline names real constants of the bundled spec. */
    @Test
    void sketchesNameRealConstants() throws IOException, ReflectiveOperationException {
        int checked = 0;
        for (Block b : javaBlocks()) {
            if (!b.info().contains("sketch")) continue;
            Matcher enumName = Pattern.compile("public enum (\\w+)").matcher(b.code());
            if (!enumName.find()) continue;
            Class<?> e = Class.forName("io.prmkit.mlx5." + enumName.group(1));
            Matcher constant = Pattern.compile("\\b([A-Z][A-Z0-9_]*)(?:\\(0x|\\$VALUE)").matcher(b.code());
            while (constant.find()) {
                String name = constant.group(0).endsWith("$VALUE") ? constant.group(1) + "$VALUE" : constant.group(1);
                assertNotNull(e.getField(name), "line " + b.line() + ": " + name);
                checked++;
            }
            Matcher value = Pattern.compile("(\\w+)\\$VALUE = (0x\\w+)").matcher(b.code());
            while (value.find()) assertEquals(Integer.decode(value.group(2)), e.getField(value.group(1) + "$VALUE").get(null));
        }
        assertTrue(checked >= 3, "expected the CmdStatus outline, checked " + checked);
    }
}

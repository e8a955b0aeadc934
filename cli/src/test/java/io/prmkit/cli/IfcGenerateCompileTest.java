package io.prmkit.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.prmkit.dsl.CompileResult;
import io.prmkit.dsl.Diagnostic;
import io.prmkit.dsl.PrmCompiler;
import io.prmkit.dsl.importer.IfcImporter;
import io.prmkit.dsl.HostTools;
import io.prmkit.dsl.importer.ImportOptions;
import io.prmkit.dsl.importer.ImportResult;
import io.prmkit.dsl.ir.LayoutModel;
import io.prmkit.generator.AccessorGenerator;
import io.prmkit.generator.GeneratedFile;
import io.prmkit.generator.GeneratorOptions;
import java.io.StringWriter;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.nio.charset.StandardCharsets;
import javax.tools.JavaCompiler;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The kernel's whole mlx5_ifc.h through the full chain: import -> check -> generate -> javac; then
 * the generated accessors write fields where MLX5_SET would (offsets that IfcRoundTripTest checks
 * against gcc).
 */
class IfcGenerateCompileTest {

    @TempDir
    Path tmp;

    @Test
    void wholeHeaderGeneratesAndCompilesAndAccessorsMatchMlx5Set() throws Exception {
        ImportResult imported = IfcImporter.importHeaders(List.of(HostTools.kernelMlx5Dir().resolve("mlx5_ifc.h")), ImportOptions.DEFAULTS);
        assertFalse(imported.hasErrors(), imported.notes()::toString);
        CompileResult compiled = PrmCompiler.compile(imported.dslFiles());
        assertEquals(List.of(), compiled.diagnostics().stream().filter(Diagnostic::isError).toList());
        LayoutModel model = compiled.model().orElseThrow();

        List<GeneratedFile> files = new AccessorGenerator(new GeneratorOptions("gen")).generate(model);
        Path src = tmp.resolve("src"), classes = tmp.resolve("classes");
        List<Path> sources = new ArrayList<>();
        for (GeneratedFile f : files) {
            Path p = src.resolve(f.relativePath());
            Files.createDirectories(p.getParent());
            Files.writeString(p, f.content());
            if (p.toString().endsWith(".java")) sources.add(p);
        }
        Files.createDirectories(classes);
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        StringWriter log = new StringWriter();
        boolean ok;
        try (StandardJavaFileManager fm = javac.getStandardFileManager(null, null, StandardCharsets.UTF_8)) {
            ok = javac.getTask(log, fm, null, List.of("-d", classes.toString(), "-proc:none", "-nowarn", "-Xlint:none"), null,
                    fm.getJavaFileObjectsFromPaths(sources)).call();
        }
        assertTrue(ok, () -> log.toString().lines().limit(40).reduce("", (a, b) -> a + b + "\n"));
        System.out.printf("[ifc] generated and compiled %d Java files for %d structures%n", sources.size(), model.structs().size());

        try (URLClassLoader loader = new URLClassLoader(new URL[] {classes.toUri().toURL()}, getClass().getClassLoader());
             Arena arena = Arena.ofConfined()) {
            Class<?> cqc = loader.loadClass("gen.mlx5.Cqc");
            MemorySegment s = arena.allocate(0x40);
            // cqc.log_page_size: bits 0xc3..0xc7, i.e. dword 6 [28:24]; MLX5_SET(cqc, p, log_page_size, 0x1f)
            Method lps = cqc.getMethod("log_page_size$set", MemorySegment.class, int.class);
            lps.invoke(null, s, 0x1f);
            byte[] expected = new byte[0x40];
            expected[0x18] = 0x1f;
            assertArrayEquals(expected, s.toArray(ValueLayout.JAVA_BYTE));
            // cqc.dbr_addr: a 64-bit field at bit 0x1c0 (byte 0x38), big-endian like MLX5_SET64
            Method dbr = cqc.getMethod("dbr_addr$set", MemorySegment.class, long.class);
            dbr.invoke(null, s, 0x0102030405060708L);
            for (int i = 0; i < 8; i++) expected[0x38 + i] = (byte) (i + 1);
            assertArrayEquals(expected, s.toArray(ValueLayout.JAVA_BYTE));
            assertTrue((long) cqc.getField("SIZE").get(null) == 0x40);
        }
    }
}

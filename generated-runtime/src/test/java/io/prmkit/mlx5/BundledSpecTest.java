package io.prmkit.mlx5;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.prmkit.dsl.CompileResult;
import io.prmkit.dsl.DiagnosticPrinter;
import io.prmkit.dsl.PrmCompiler;
import io.prmkit.dsl.SourceFile;
import io.prmkit.dsl.ir.LayoutModel;
import io.prmkit.dsl.ir.Member;
import io.prmkit.dsl.ir.StructLayout;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** The spec files shipped in this jar: listed by prm/index.txt, all of them compile together. */
class BundledSpecTest {

    private static final Path SPEC_DIR = Path.of("src/main/prm");

    private static List<String> index() throws IOException {
        try (InputStream in = BundledSpecTest.class.getResourceAsStream("/prm/index.txt")) {
            assertNotNull(in, "prm/index.txt is not on the classpath");
            return new String(in.readAllBytes(), StandardCharsets.UTF_8).lines()
                    .map(String::strip).filter(l -> !l.isEmpty()).toList();
        }
    }

    static List<SourceFile> bundled() throws IOException {
        List<SourceFile> files = new ArrayList<>();
        for (String path : index()) {
            try (InputStream in = BundledSpecTest.class.getResourceAsStream("/prm/" + path)) {
                assertNotNull(in, "index.txt lists " + path + " but prm/" + path + " is not in the jar");
                files.add(new SourceFile(path, new String(in.readAllBytes(), StandardCharsets.UTF_8)));
            }
        }
        return files;
    }

    @Test
    void indexListsExactlyTheSpecFilesInTheSourceTree() throws IOException {
        List<String> onDisk;
        try (Stream<Path> walk = Files.walk(SPEC_DIR)) {
            onDisk = walk.filter(p -> p.toString().endsWith(".prm"))
                    .map(p -> SPEC_DIR.relativize(p).toString().replace('\\', '/'))
                    .sorted().toList();
        }
        assertEquals(onDisk, index().stream().sorted().toList());
    }

    @Test
    void bundledSpecCompilesWithoutDiagnostics() throws IOException {
        List<SourceFile> files = bundled();
        CompileResult result = PrmCompiler.compile(files);
        Map<String, SourceFile> byName = files.stream().collect(Collectors.toMap(SourceFile::name, Function.identity()));
        String rendered = result.diagnostics().stream()
                .map(d -> DiagnosticPrinter.render(d, byName)).collect(Collectors.joining("\n"));
        assertTrue(result.diagnostics().isEmpty(), rendered);
        assertTrue(result.model().isPresent());
    }

    @Test
    void landmarksSitWhereTheKernelHeaderPutsThem() throws IOException {
        LayoutModel model = PrmCompiler.compile(bundled()).model().orElseThrow();
        Map<String, StructLayout> structs = model.structs().stream()
                .collect(Collectors.toMap(s -> s.name().name(), Function.identity()));
        // size in bytes, then member -> {bit offset, bit width}, values from mlx5_ifc.h (Linux 6.1)
        assertEquals(0x100, structs.get("cmd_hca_cap").sizeBytes());
        assertEquals(0x1000, structs.get("hca_cap_union").sizeBytes());
        assertEquals(0xe8, structs.get("qpc").sizeBytes());
        assertMember(structs, "qpc", "log_sq_size", 0x40 + 17, 4);
        assertMember(structs, "qpc", "log_rq_stride", 0x40 + 13, 3);
        assertMember(structs, "cqc", "log_cq_size", 0x63, 5);
        assertMember(structs, "wq", "log_wq_sz", 0x11b, 5);
        assertMember(structs, "mkc", "log_page_size", 0x1db, 5);
        assertMember(structs, "cmd_hca_cap", "cmdif_checksum", 0x210, 2);
        assertMember(structs, "query_q_counter_out", "out_of_buffer", 0x30 * 8, 32);
        assertMember(structs, "create_flow_group_in", "match_criteria", 0x40 * 8, 0x200 * 8);
        assertMember(structs, "set_fte_in", "flow_context", 0x40 * 8, 0x300 * 8);
        assertTrue(structs.get("qpc").members().stream().noneMatch(m -> m.name().equals("log_sq_stride")),
                "qpc has no log_sq_stride");
    }

    private static void assertMember(Map<String, StructLayout> structs, String struct, String name, long bitOffset, long bitWidth) {
        Member m = structs.get(struct).members().stream().filter(x -> x.name().equals(name)).findFirst()
                .orElseThrow(() -> new AssertionError(struct + "." + name + " missing"));
        assertEquals(bitOffset, m.bitOffset(), struct + "." + name + " bit offset");
        assertEquals(bitWidth, m.bitWidth(), struct + "." + name + " bit width");
    }
}

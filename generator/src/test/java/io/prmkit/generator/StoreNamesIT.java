package io.prmkit.generator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.prmkit.dsl.CompileResult;
import io.prmkit.dsl.PrmCompiler;
import io.prmkit.dsl.SourceFile;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A static store takes each value after its field's name ({@code PrmField.qpn}), so a caller written
 * against one version of a spec does not compile against a version that moves, renames, inserts or
 * removes a field of the structure, where positional arguments of one type (all {@code int} here) would
 * be silently re-assigned. Each case compiles the same caller against the structure generated from the
 * changed spec; the unchanged spec is the control that compiles and writes what the caller meant.
 */
class StoreNamesIT {
    /** The structure as the caller was written for: four int fields. */
    static final String V1 = """
            package t;
            struct seg size 0x08 {
                0x00 [31:24] opcode;
                0x00 [23:0]  qpn;
                0x04 [31:16] ds;
                0x04 [15:0]  wqe_index;
            }
            """;

    /** A caller of {@code Seg.store}, as driver code writes it: qualified names and a static import. */
    static final GeneratedFile CALLER = new GeneratedFile("c/Caller.java", """
            package c;

            import static t.PrmField.*;

            import java.lang.foreign.MemorySegment;
            import t.PrmField;
            import t.Seg;

            public final class Caller {
                private Caller() {
                }

                public static void post(MemorySegment s, long at, int op, int sqn, int n, int pc) {
                    Seg.store(s, at, PrmField.opcode, op, PrmField.qpn, sqn, PrmField.ds, n, PrmField.wqe_index, pc);
                }

                public static void postAtZero(MemorySegment s, int op, int sqn, int n, int pc) {
                    Seg.storeUnchecked(s, opcode, op, qpn, sqn, ds, n, wqe_index, pc);
                }
            }
            """);

    private static List<GeneratedFile> generate(String spec) {
        CompileResult r = PrmCompiler.compile(List.of(new SourceFile("seg.prm", spec)));
        assertTrue(r.model().isPresent(), r.diagnostics().toString());
        return new AccessorGenerator(GeneratorOptions.defaults()).generate(r.model().get());
    }

    private static List<String> callerErrors(String spec) {
        List<GeneratedFile> files = new ArrayList<>(generate(spec));
        files.add(CALLER);
        return InMemoryJavac.errors(files);
    }

    @Test
    void theCallerCompilesAgainstItsSpecAndWritesWhatItMeans() {
        List<GeneratedFile> files = new ArrayList<>(generate(V1));
        files.add(CALLER);
        Loaded gen = Loaded.compile(files, "");
        byte[] b = new byte[12];
        gen.call("c.Caller", "post", Loaded.segment(b), 4L, 0x0a, 0x123456, 5, 0xbeef);
        assertEquals(List.of(0, 0, 0, 0, 0x0a, 0x12, 0x34, 0x56, 0, 5, 0xbe, 0xef), unsigned(b));
        byte[] z = new byte[8];
        gen.call("c.Caller", "postAtZero", Loaded.segment(z), 0x10a, 0x123456, 5, 0xbeef); // unchecked: opcode keeps 8 bits
        assertEquals(List.of(0x0a, 0x12, 0x34, 0x56, 0, 5, 0xbe, 0xef), unsigned(z));
        // the names are never read: the tag types stay unloaded, only PrmField itself is
        assertTrue(gen.defined().contains("t.PrmField"), gen.defined().toString());
        assertTrue(gen.defined().stream().noneMatch(c -> c.startsWith("t.PrmField$")), gen.defined().toString());
    }

    @Test
    void fieldsSwappedInTheSpecDoNotCompile() {
        // ds and wqe_index swap places; every value is an int, so positional arguments would compile
        List<String> errors = callerErrors(V1.replace("0x04 [31:16] ds;", "0x04 [31:16] wqe_index;")
                .replace("0x04 [15:0]  wqe_index;", "0x04 [15:0]  ds;"));
        assertFailsAtTheCalls(errors);
        assertTrue(errors.stream().anyMatch(e -> e.contains("PrmField<t.PrmField.ds> cannot be converted to t.PrmField<t.PrmField.wqe_index>")), errors.toString());
    }

    @Test
    void aRenamedFieldDoesNotCompile() {
        List<String> errors = callerErrors(V1.replace("qpn;", "sqn;"));
        assertFailsAtTheCalls(errors);
        assertTrue(errors.stream().anyMatch(e -> e.contains("qpn")), errors.toString());
    }

    @Test
    void anInsertedFieldDoesNotCompile() {
        List<String> errors = callerErrors(V1.replace("0x04 [31:16] ds;", "0x04 [31:24] ds;\n    0x04 [23:16] signature;"));
        assertFailsAtTheCalls(errors);
    }

    @Test
    void aRemovedFieldDoesNotCompile() {
        List<String> errors = callerErrors(V1.replace("0x04 [31:16] ds;", "0x04 [31:16] reserved;"));
        assertFailsAtTheCalls(errors);
    }

    @Test
    void aFieldThatBecomesReadOnlyDoesNotCompile() {
        // the driver's store no longer takes it (the device writes it)
        List<String> errors = callerErrors(V1.replace("0x04 [31:16] ds;", "0x04 [31:16] ds ro;"));
        assertFailsAtTheCalls(errors);
    }

    /** Both calls of the caller fail, and nothing else does (the generated code compiles). */
    private static void assertFailsAtTheCalls(List<String> errors) {
        assertFalse(errors.isEmpty(), "the old caller compiled against the changed spec");
        List<String> located = errors.stream().filter(e -> e.contains(": ERROR: ")).toList();
        assertTrue(located.stream().allMatch(e -> e.startsWith("/c/Caller.java:")), errors.toString());
        assertTrue(located.stream().anyMatch(e -> e.startsWith("/c/Caller.java:14:")), "store call: " + errors);
        assertTrue(located.stream().anyMatch(e -> e.startsWith("/c/Caller.java:18:")), "storeUnchecked call: " + errors);
    }

    private static List<Integer> unsigned(byte[] b) {
        List<Integer> out = new ArrayList<>();
        for (byte x : b) out.add(x & 0xff);
        return out;
    }
}

package io.prmkit.generator;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.prmkit.dsl.CompileResult;
import io.prmkit.dsl.PrmCompiler;
import io.prmkit.dsl.Property;
import io.prmkit.dsl.SourceFile;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The static whole-structure stores on spec text with what the random layouts of
 * {@link LayoutRoundTripIT} lack: tagged unions (two in one structure, so one store per combination
 * of alternatives), untagged unions and union declarations (no store), byte arrays and arrays inside
 * (written as zero), {@code ro} fields (only the {@code Device} store takes them). Each store writes
 * the bytes the per-field setters write on a zeroed structure, and those the writer writes.
 */
class StoreIT {
    static final String SPEC = """
            package t;
            enum kind width 4 { A = 1; B = 2; }
            struct tagged size 0x18 {
                0x00 [31:28] k     enum kind;
                0x00 [27:24] sel2;
                0x00 [23:0]  n;
                0x04 union u1 tag k {
                    struct a when A {
                        0x04 [31:16] a_hi;
                        0x04 [15:0]  a_lo;
                    }
                    struct b when B {
                        0x04 [31]    b_flag;
                        0x04 [30:16] reserved;
                        0x06 b_bytes : u8[2];
                    }
                }
                0x08 union u2 tag sel2 {
                    0x08 wide : u64 when 3;
                    struct small when 5 {
                        0x08 [31:0] s_lo;
                        0x0c [31:8] s_ro ro;
                        0x0f s_nib : 4[2];
                    }
                }
                0x10 [31:1] tail;
                0x10 [0]    done ro;
                0x14 [31:0] reserved;
            }
            struct untagged size 0x08 {
                0x00 [31:0] head;
                0x04 union {
                    0x04 [31:0] one;
                    0x04 [31:0] other;
                }
            }
            union decl size 0x04 {
                0x00 [31:0] x;
                0x00 [31:0] y;
            }
            """;

    static Loaded gen;

    @BeforeAll
    static void compile() {
        CompileResult r = PrmCompiler.compile(List.of(new SourceFile("store.prm", SPEC)));
        assertTrue(r.model().isPresent(), r.diagnostics().toString());
        gen = Loaded.compile(new AccessorGenerator(GeneratorOptions.defaults()).generate(r.model().get()), "t");
    }

    /** What each store form takes: field name and width, in layout order. */
    static final Map<String, List<String>> DRIVER = Map.of(
            "store$a$wide", List.of("n:24", "a_hi:16", "a_lo:16", "wide:64", "tail:31"),
            "store$a$small", List.of("n:24", "a_hi:16", "a_lo:16", "s_lo:32", "tail:31"),
            "store$b$wide", List.of("n:24", "b_flag:1", "wide:64", "tail:31"),
            "store$b$small", List.of("n:24", "b_flag:1", "s_lo:32", "tail:31"));
    static final Map<String, List<String>> DEVICE = Map.of(
            "store$a$wide", List.of("n:24", "a_hi:16", "a_lo:16", "wide:64", "tail:31", "done:1"),
            "store$a$small", List.of("n:24", "a_hi:16", "a_lo:16", "s_lo:32", "s_ro:24", "tail:31", "done:1"),
            "store$b$wide", List.of("n:24", "b_flag:1", "wide:64", "tail:31", "done:1"),
            "store$b$small", List.of("n:24", "b_flag:1", "s_lo:32", "s_ro:24", "tail:31", "done:1"));
    static final Map<String, long[]> TAGS = Map.of("a", new long[] {1}, "b", new long[] {2}, "wide", new long[] {3}, "small", new long[] {5});

    @Test
    void aTaggedUnionGetsOneStorePerAlternativeAndNoPlainStore() {
        assertEquals(new TreeSet<>(List.of("store$a$small", "store$a$wide", "store$b$small", "store$b$wide",
                "storeUnchecked$a$small", "storeUnchecked$a$wide", "storeUnchecked$b$small", "storeUnchecked$b$wide")), stores("Tagged"));
        assertEquals(stores("Tagged"), stores("Tagged$Device"));
        // which alternative an untagged union (or a union declaration) holds is the caller's knowledge: no store
        assertTrue(gen.hasMethod("Untagged", "writer"));
        assertEquals(new TreeSet<>(), stores("Untagged"));
        assertEquals(new TreeSet<>(), stores("Decl"));
    }

    private static TreeSet<String> stores(String cls) {
        TreeSet<String> names = new TreeSet<>();
        for (Method m : gen.cls(cls).getMethods()) {
            if (Modifier.isStatic(m.getModifiers()) && m.getName().startsWith("store")) names.add(m.getName());
        }
        return names;
    }

    @Test
    void eachStoreWritesWhatTheSettersAndTheWriterWrite() {
        Property.check(40, g -> {
            for (boolean device : new boolean[] {false, true}) {
                for (Map.Entry<String, List<String>> form : (device ? DEVICE : DRIVER).entrySet()) {
                    String cls = device ? "Tagged$Device" : "Tagged";
                    List<String> params = form.getValue();
                    int offset = g.between(0, 8);
                    long[] values = new long[params.size()];
                    Object[] boxed = new Object[params.size()];
                    byte[] stored = new byte[offset + 0x18 + 8];
                    Arrays.fill(stored, (byte) 0x5a);
                    for (int i = 0; i < params.size(); i++) {
                        int w = width(params.get(i));
                        values[i] = g.anyLong() & LayoutRoundTripIT.mask(w);
                        boxed[i] = LayoutRoundTripIT.box(w, values[i]);
                    }
                    List<String> names = params.stream().map(StoreIT::name).toList();
                    Object[] args = gen.storeArgs(Loaded.segment(stored), (long) offset, names, boxed);
                    gen.call(cls, form.getKey(), args);

                    // reference 1: the per-field setters on zeroed bytes, the selectors set to the alternatives' tags
                    byte[] set = new byte[stored.length];
                    Arrays.fill(set, (byte) 0x5a);
                    Arrays.fill(set, offset, offset + 0x18, (byte) 0);
                    Object seg = Loaded.segment(set);
                    String[] alts = form.getKey().substring("store$".length()).split("\\$");
                    gen.call("Tagged", "k$set", seg, (long) offset, (int) TAGS.get(alts[0])[0]);
                    gen.call("Tagged", "sel2$set", seg, (long) offset, (int) TAGS.get(alts[1])[0]);
                    for (int i = 0; i < params.size(); i++) {
                        String f = name(params.get(i));
                        Object v = LayoutRoundTripIT.box(width(params.get(i)), values[i]);
                        gen.call(f.equals("s_ro") || f.equals("done") ? "Tagged$Device" : "Tagged", f + "$set", seg, (long) offset, v);
                    }
                    assertArrayEquals(set, stored, form.getKey() + (device ? " (device)" : "") + " against the setters");

                    // reference 2: the writer with the same fields
                    byte[] written = new byte[stored.length];
                    Arrays.fill(written, (byte) 0x5a);
                    Object w = gen.call(cls, "writer", Loaded.segment(written), (long) offset);
                    Loaded.invoke(w, "k", (int) TAGS.get(alts[0])[0]);
                    Loaded.invoke(w, "sel2", (int) TAGS.get(alts[1])[0]);
                    for (int i = 0; i < params.size(); i++) Loaded.invoke(w, name(params.get(i)), LayoutRoundTripIT.box(width(params.get(i)), values[i]));
                    Loaded.invoke(w, "write");
                    assertArrayEquals(written, stored, form.getKey() + (device ? " (device)" : "") + " against the writer");

                    // unchecked: out-of-range bits are dropped, the rest is the same store
                    Object[] wideValues = boxed.clone();
                    for (int i = 0; i < params.size(); i++) {
                        int wd = width(params.get(i));
                        if (wd > 1 && wd < 32) wideValues[i] = (int) values[i] | (int) (g.anyLong() << wd);
                        if (wd > 32 && wd < 64) wideValues[i] = values[i] | (g.anyLong() << wd);
                    }
                    byte[] unchecked = new byte[stored.length];
                    Arrays.fill(unchecked, (byte) 0x5a);
                    Object[] wide = gen.storeArgs(Loaded.segment(unchecked), (long) offset, names, wideValues);
                    gen.call(cls, form.getKey().replace("store", "storeUnchecked"), wide);
                    assertArrayEquals(stored, unchecked, form.getKey() + " unchecked");
                }
            }
        });
    }

    @Test
    void aValueThatDoesNotFitIsRejectedNamingTheFieldAndNothingIsWritten() {
        byte[] b = new byte[0x18];
        List<String> fields = List.of("n", "a_hi", "a_lo", "wide", "tail");
        Object[] args = gen.storeArgs(Loaded.segment(b), 0L, fields, new Object[] {1, 2, 3, 4L, 1 << 31});
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> gen.call("Tagged", "store$a$wide", args));
        assertEquals("tagged.tail: value -2147483648 (0xffffffff80000000) does not fit in 31 bits (0..2147483647)", e.getMessage());
        args[11] = 0;
        args[3] = 1 << 24;
        e = assertThrows(IllegalArgumentException.class, () -> gen.call("Tagged", "store$a$wide", args));
        assertTrue(e.getMessage().startsWith("tagged.n: value 16777216 "), e.getMessage());
        assertArrayEquals(new byte[0x18], b);
        // a structure that does not fit the segment: IndexOutOfBoundsException, nothing written
        args[3] = 1;
        byte[] small = new byte[0x17];
        args[0] = Loaded.segment(small);
        assertThrows(IndexOutOfBoundsException.class, () -> gen.call("Tagged", "store$a$wide", args));
        assertArrayEquals(new byte[0x17], small);
        args[0] = Loaded.segment(b);
        gen.call("Tagged", "store$a$wide", args);
        assertFalse(Arrays.equals(new byte[0x18], b));
    }

    @Test
    void theOffsetFreeFormIsTheStoreAtOffsetZero() {
        byte[] at0 = new byte[0x18];
        byte[] viaOffset = new byte[0x18];
        List<String> fields = List.of("n", "b_flag", "s_lo", "tail");
        Object[] values = {0x123456, true, 0xdeadbeef, 0x7fffffff};
        gen.call("Tagged", "store$b$small", gen.storeArgs(Loaded.segment(at0), null, fields, values));
        gen.call("Tagged", "store$b$small", gen.storeArgs(Loaded.segment(viaOffset), 0L, fields, values));
        assertArrayEquals(viaOffset, at0);
        assertEquals(0x2, (at0[0] & 0xff) >>> 4, "k = B");
        assertEquals(0x5, at0[0] & 0x0f, "sel2 = small");
        assertEquals((byte) 0x80, at0[4], "b_flag");
    }

    private static String name(String param) {
        return param.substring(0, param.indexOf(':'));
    }

    private static int width(String param) {
        return Integer.parseInt(param.substring(param.indexOf(':') + 1));
    }
}

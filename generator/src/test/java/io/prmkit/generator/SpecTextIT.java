package io.prmkit.generator;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.prmkit.dsl.CompileResult;
import io.prmkit.dsl.PrmCompiler;
import io.prmkit.dsl.SourceFile;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Spec text through the real DSL compiler and the generator: the two agree on every position. */
class SpecTextIT {
    static Loaded gen;
    static List<GeneratedFile> files;

    @BeforeAll
    static void compile() throws IOException {
        String text;
        try (InputStream in = SpecTextIT.class.getResourceAsStream("/spec/sample.prm")) {
            text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        CompileResult r = PrmCompiler.compile(List.of(new SourceFile("spec/sample.prm", text)));
        assertTrue(r.model().isPresent(), r.diagnostics().toString());
        files = new AccessorGenerator(new GeneratorOptions("com.example")).generate(r.model().get());
        gen = Loaded.compile(files, "com.example.mlx5");
    }

    @Test
    void wideFieldsNestedStructsAndArraysLandWhereThePrmSays() {
        byte[] b = new byte[0x40];
        Object s = Loaded.segment(b);
        long data = (Long) gen.constant("Sample", "data$BYTE_OFFSET");
        gen.call("WqeDataSeg", "addr$set", s, data, 0x0102030405060708L);
        gen.call("WqeDataSeg", "byte_count$set", s, (Long) gen.call("Sample", "more$offset", 1L), 0x11223344);
        gen.call("Sample", "nibbles$set", s, 2L, 0xc);
        gen.call("Sample", "dmac$copyFrom", s, new byte[] {(byte) 0xaa, (byte) 0xbb});
        gen.call("Sample", "vlan$set", s, 0x8000);
        assertArrayEquals(new byte[] {1, 2, 3, 4, 5, 6, 7, 8}, java.util.Arrays.copyOfRange(b, 0x10, 0x18));
        assertArrayEquals(new byte[] {0x11, 0x22, 0x33, 0x44}, java.util.Arrays.copyOfRange(b, 0x28, 0x2c));
        assertEquals((byte) 0xc0, b[1]);
        assertEquals((byte) 0xaa, b[0x38]);
        assertEquals((byte) 0x80, b[0x3e]);
        assertEquals(0xc, gen.call("Sample", "nibbles$elem", s, 2L));
        assertEquals(List.of(), gen.call("Sample", "validate", s));
    }

    /**
     * Two spec packages, two Java packages, one PrmLayout: a structure nesting another package's gets that
     * structure's layout as its field's target, and dump and validate walk into it.
     */
    @Test
    void aStructureNestingAnotherPackagesStructureSharesItsLayoutType() throws ReflectiveOperationException {
        CompileResult r = PrmCompiler.compile(List.of(
                new SourceFile("hdr.prm", "package hdr;\nstruct inner size 4 { 0x00 [31:8] tag \"Tag\"; 0x00 [7:0] reserved; }\n"),
                new SourceFile("dev.prm", "package dev;\nimport hdr;\nstruct outer size 8 { 0x00 [31:0] word; 0x04 in : inner; }\n")));
        assertTrue(r.model().isPresent(), r.diagnostics().toString());
        List<GeneratedFile> two = new AccessorGenerator(new GeneratorOptions("com.example")).generate(r.model().get());
        assertTrue(two.stream().noneMatch(f -> f.relativePath().endsWith("PrmLayout.java")), "no copies");
        Loaded dev = Loaded.compile(two, "com.example.dev");
        Loaded hdr = new Loaded(dev.loader(), "com.example.hdr");
        Object outer = dev.call("Outer", "layout");
        Object inner = hdr.call("Inner", "layout");
        Class<?> struct = Class.forName("io.prmkit.layout.PrmLayout$Struct");
        assertTrue(struct.isInstance(outer) && struct.isInstance(inner), "one PrmLayout.Struct type for both packages");
        Object field = ((List<?>) struct.getMethod("fields").invoke(outer)).get(1);
        assertEquals(java.util.Optional.of(inner), field.getClass().getMethod("target").invoke(field));
        byte[] b = {0, 0, 0, 1, 0x12, 0x34, 0x56, 0x01};
        String dump = (String) dev.call("Outer", "dump", Loaded.segment(b));
        assertTrue(dump.contains("tag") && dump.contains("0x123456"), dump);
        assertEquals(List.of("outer.in.reserved_at_18 (dword 0x00 [7:0]): must be zero, is 0x1"), dev.call("Outer", "validate", Loaded.segment(b)));
    }

    @Test
    void accessDefaultsFollowTheMailboxConvention() {
        assertTrue(gen.hasMethod("CreateThingIn", "log_size$set"));
        assertTrue(gen.hasMethod("CreateThingOut", "syndrome"));
        assertFalse(gen.hasMethod("CreateThingOut", "syndrome$set"));
        assertFalse(gen.hasMethod("CreateThingOut", "status$set"));
    }

    @Test
    void rulesRangesAndCapabilitiesFromTheSpec() {
        byte[] b = new byte[0x10];
        Object s = Loaded.segment(b);
        gen.call("CreateThingIn", "log_size$set", s, 20);
        assertEquals(List.of("create_thing_in: rule fits violated: log_size at most 17 [(log_size <= 17)]"), gen.call("CreateThingIn", "validate", s));
        gen.call("CreateThingIn", "log_size$set", s, 23 & 0x1f);
        assertEquals(2, ((List<?>) gen.call("CreateThingIn", "validate", s)).size());
        byte[] e = new byte[0x10];
        gen.call("WqeEthSeg", "swp_outer_l4_offset$set", Loaded.segment(e), 3);
        java.util.function.Predicate<String> none = c -> false;
        assertEquals(List.of("wqe_eth_seg.swp_outer_l4_offset (dword 0x00 [31:24]): non-zero, but capability cmd_hca_cap.swp is not present"),
                gen.call("WqeEthSeg", "validate", Loaded.segment(e), none));
        assertEquals("L3_CSUM|L4_CSUM", gen.call("CsFlags", "describe", 0xc0L));
        assertEquals(64L, gen.constant("PrmConstants", "send_wqe_bb"));
    }

    @Test
    void javadocCitesTheSpecFileAndLine() {
        String ctrl = files.stream().filter(f -> f.relativePath().equals("com/example/mlx5/WqeDataSeg.java")).findFirst().orElseThrow().content();
        assertTrue(ctrl.contains("<p>PRM: {@code bytes 0x08..0x0f}, 64 bits; spec spec/sample.prm:19."), ctrl);
    }
}

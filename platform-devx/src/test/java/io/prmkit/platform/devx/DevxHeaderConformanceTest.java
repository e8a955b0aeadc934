package io.prmkit.platform.devx;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.prmkit.dsl.Child;
import io.prmkit.dsl.CompileResult;
import io.prmkit.dsl.HostTools;
import io.prmkit.dsl.PrmCompiler;
import io.prmkit.dsl.SpecLoader;
import io.prmkit.dsl.ir.Constant;
import io.prmkit.dsl.ir.LayoutModel;
import io.prmkit.dsl.ir.Member;
import io.prmkit.dsl.ir.StructLayout;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The rdma-core spec (src/main/prm/devx/devx.prm) against the system's infiniband/verbs.h and
 * infiniband/mlx5dv.h, by gcc: every structure's size, every member's offset and size and every
 * constant's value come from the compiler and must equal the spec's.
 */
class DevxHeaderConformanceTest {

    static LayoutModel spec() throws Exception {
        CompileResult r = PrmCompiler.compile(SpecLoader.load(List.of(Path.of("src/main/prm/devx"))));
        return r.model().orElseThrow(() -> new AssertionError("the DEVX spec does not compile: " + r.diagnostics()));
    }

    /** rdma-core's name of a spec member (`flags` is a keyword of the layout language). */
    static String cName(String member) {
        return member.equals("flag_bits") ? "flags" : member;
    }

    @Test
    void everyStructureMemberAndValueMatchesVerbsHAndMlx5dvH() throws Exception {
        Path mlx5dv = HostTools.mlx5dvHeader();
        String gcc = HostTools.gcc();
        Path include = mlx5dv.getParent().getParent();
        LayoutModel m = spec();
        StringBuilder c = new StringBuilder("#include <stdio.h>\n#include <stddef.h>\n#include <infiniband/verbs.h>\n#include <infiniband/mlx5dv.h>\n"
                + "#define SZ(t, f) sizeof(((t *) 0)->f)\nint main(void) {\n");
        Map<String, Long> expected = new HashMap<>();
        for (StructLayout s : m.structs()) {
            String t = "struct " + s.name().name();
            assertEquals(ByteOrder.LITTLE_ENDIAN, s.byteOrder(), t + " is a host structure: order little");
            c.append("printf(\"%s\\t%zu\\n\", \"").append(t).append(" size\", sizeof(").append(t).append("));\n");
            expected.put(t + " size", s.sizeBytes());
            for (Member mem : s.members()) {
                if (mem.reserved()) continue;
                String f = cName(mem.name());
                String key = t + "." + f;
                c.append("printf(\"%s\\t%zu\\n\", \"").append(key).append(" offset\", offsetof(").append(t).append(", ").append(f).append("));\n");
                expected.put(key + " offset", mem.bitOffset() / 8);
                c.append("printf(\"%s\\t%zu\\n\", \"").append(key).append(" size\", SZ(").append(t).append(", ").append(f).append("));\n");
                expected.put(key + " size", mem.bitWidth() / 8);
            }
        }
        for (Constant k : m.constants()) {
            String n = k.name().name();
            c.append("printf(\"%s\\t%llu\\n\", \"").append(n).append("\", (unsigned long long) (").append(n).append("));\n");
            expected.put(n, k.value());
        }
        c.append("return 0;\n}\n");
        Path dir = Path.of("target", "devx-conformance");
        Files.createDirectories(dir);
        Path src = dir.resolve("devx_conformance.c");
        Files.writeString(src, c);
        Path exe = dir.resolve("devx_conformance");
        Child.run(Duration.ofSeconds(120), gcc, "-std=gnu11", "-I", include.toString(), "-o", exe.toString(), src.toString()).assertSuccess();
        Map<String, Long> actual = new HashMap<>();
        for (String line : Child.run(Duration.ofSeconds(60), exe.toString()).assertSuccess().stdout().split("\n")) {
            if (line.isBlank()) continue;
            String[] cols = line.split("\t");
            actual.put(cols[0], Long.parseUnsignedLong(cols[1]));
        }
        List<String> wrong = new ArrayList<>();
        for (var e : expected.entrySet())
            if (!e.getValue().equals(actual.get(e.getKey()))) wrong.add(e.getKey() + ": spec " + e.getValue() + ", headers " + actual.get(e.getKey()));
        assertEquals(List.of(), wrong, "spec and verbs.h/mlx5dv.h disagree");
        assertTrue(expected.size() > 40, "checked " + expected.size() + " facts");
        System.out.println("[prmkit] devx.prm: " + expected.size() + " sizes, offsets and values agree with verbs.h and mlx5dv.h");
    }
}

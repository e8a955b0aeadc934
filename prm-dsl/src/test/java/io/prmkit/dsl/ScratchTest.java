package io.prmkit.dsl;

import java.nio.file.*;
import org.junit.jupiter.api.Test;

class ScratchTest {
    @Test
    void print() throws Exception {
        for (Path p : Files.list(Path.of("/tmp/scratch")).sorted().toList()) {
            String t = Files.readString(p);
            CompileResult r = Specs.compile(t);
            System.out.println("=== " + p.getFileName() + (r.model().isPresent() ? " OK" : ""));
            System.out.print(Specs.render(r, t));
            r.model().ifPresent(m -> m.structs().forEach(st -> {
                System.out.println(st.name() + " size=" + st.sizeBytes() + " " + st.kind() + " " + st.byteOrder());
                st.members().forEach(x -> System.out.println("   " + x.name() + " @" + Long.toHexString(x.bitOffset()) + " " + x.type() + " " + x.access() + " " + x.prmPosition() + " " + x.variant() + " " + x.enumType() + " " + x.constraints() + " sel=" + x.selector() + " cap=" + x.capability() + " doc=" + x.doc()));
                st.rules().forEach(ru -> System.out.println("   rule " + ru.name() + ": " + ru.condition().source()));
            }));
        }
    }
}

package io.prmkit.cli;

import io.prmkit.dsl.PrmCompiler;
import io.prmkit.dsl.SourceFile;
import io.prmkit.dsl.SpecLoader;
import io.prmkit.dsl.ir.LayoutModel;
import java.nio.file.Path;
import java.util.List;
import java.util.SortedMap;
import java.util.TreeMap;

/** The bundled spec's structures, for tests that pick among them. */
final class SpecInputNames {
    private SpecInputNames() {
    }

    /** Simple name to size in bytes (without a flexible array), sorted by name. */
    static SortedMap<String, Long> bundledStructs() throws Exception {
        SortedMap<String, Long> sizes = new TreeMap<>();
        bundledModel().structs().forEach(s -> sizes.put(s.name().name(), s.sizeBytes()));
        return sizes;
    }

    /** The bundled spec, compiled from generated-runtime's sources. */
    static LayoutModel bundledModel() throws Exception {
        List<SourceFile> files = SpecLoader.load(List.of(Path.of("..", "generated-runtime", "src", "main", "prm")));
        return PrmCompiler.compile(files).model().orElseThrow();
    }
}

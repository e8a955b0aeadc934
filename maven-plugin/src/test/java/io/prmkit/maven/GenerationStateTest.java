package io.prmkit.maven;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class GenerationStateTest {
    @TempDir
    Path dir;

    @Test
    void roundTrips() throws IOException {
        Path f = dir.resolve("sub/state.txt");
        GenerationState s = new GenerationState("abc123", "/p/target/gen", new TreeMap<>(Map.of("p/B.java", "h2", "p/A b.java", "h1")), 2,
                List.of("a.prm:1:2: warning: w", "  some source", "  ^"));
        s.write(f);
        assertEquals(s, GenerationState.read(f).orElseThrow());
    }

    @Test
    void missingOrForeignFileIsNoState() throws IOException {
        assertTrue(GenerationState.read(dir.resolve("none")).isEmpty());
        Path f = dir.resolve("state.txt");
        Files.writeString(f, "something else\n");
        assertTrue(GenerationState.read(f).isEmpty());
    }

    @Test
    void stateOfAnOlderFormatIsIgnored() throws IOException {
        Path f = dir.resolve("state.txt");
        new GenerationState("d", "/o", new TreeMap<>(), 0, List.of()).write(f);
        String text = Files.readString(f).replace(InputDigest.FORMAT, "prmkit-incremental-1");
        Files.writeString(f, text);
        assertTrue(GenerationState.read(f).isEmpty());
    }
}

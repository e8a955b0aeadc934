package io.prmkit.maven;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.SortedMap;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class InputDigestTest {
    private static SpecInput in(String path, String text) {
        return new SpecInput(path, "src/main/prm/" + path, text.getBytes(StandardCharsets.UTF_8));
    }

    private static SortedMap<String, String> settings(String prefix) {
        return new TreeMap<>(java.util.Map.of("packagePrefix", prefix));
    }

    private static final String BASE = InputDigest.compute("v1", settings("io.x"), List.of(in("a.prm", "A"), in("b.prm", "B")));

    @Test
    void sameInputsSameDigest() {
        assertEquals(BASE, InputDigest.compute("v1", settings("io.x"), List.of(in("a.prm", "A"), in("b.prm", "B"))));
    }

    @Test
    void displayNameDoesNotMatter() {
        SpecInput a = new SpecInput("a.prm", "/elsewhere/a.prm", "A".getBytes(StandardCharsets.UTF_8));
        assertEquals(BASE, InputDigest.compute("v1", settings("io.x"), List.of(a, in("b.prm", "B"))));
    }

    @Test
    void everyIngredientCounts() {
        assertNotEquals(BASE, InputDigest.compute("v2", settings("io.x"), List.of(in("a.prm", "A"), in("b.prm", "B"))));
        assertNotEquals(BASE, InputDigest.compute("v1", settings("io.y"), List.of(in("a.prm", "A"), in("b.prm", "B"))));
        assertNotEquals(BASE, InputDigest.compute("v1", settings("io.x"), List.of(in("a.prm", "A"), in("b.prm", "B "))));
        assertNotEquals(BASE, InputDigest.compute("v1", settings("io.x"), List.of(in("a.prm", "A"), in("c.prm", "B"))));
        assertNotEquals(BASE, InputDigest.compute("v1", settings("io.x"), List.of(in("a.prm", "A"))));
    }

    @Test
    void fieldBoundariesCount() {
        // Same concatenated bytes, different split between path and content.
        assertNotEquals(InputDigest.compute("v", settings(""), List.of(in("a.prm", "xB"))),
                InputDigest.compute("v", settings(""), List.of(in("a.prmx", "B"))));
    }
}

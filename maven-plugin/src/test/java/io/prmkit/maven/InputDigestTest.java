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

    /**
     * The digest is a function of its inputs alone, not of this JVM (it is compared with the one a
     * previous build wrote): SHA-256 over the format name, the tool, then each settings entry and each
     * input's path and bytes, every field prefixed by its length as 8 big-endian bytes, computed here
     * independently.
     */
    @Test
    void theDigestIsSha256OverLengthPrefixedFields() throws Exception {
        java.security.MessageDigest md = java.security.MessageDigest.getInstance("SHA-256");
        for (String field : List.of(InputDigest.FORMAT, "v1", "settings", "1", "packagePrefix", "io.x", "inputs", "2", "a.prm", "A",
                "b.prm", "B", "headers", "0")) {
            byte[] b = field.getBytes(StandardCharsets.UTF_8);
            md.update(java.nio.ByteBuffer.allocate(8).putLong(b.length).array());
            md.update(b);
        }
        assertEquals(java.util.HexFormat.of().formatHex(md.digest()), BASE);
    }

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

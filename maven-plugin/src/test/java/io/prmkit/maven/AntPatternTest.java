package io.prmkit.maven;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

class AntPatternTest {

    @ParameterizedTest(name = "{0} matches {1}: {2}")
    @CsvSource({
        "**/*.prm, a.prm, true",
        "**/*.prm, mlx5/a.prm, true",
        "**/*.prm, mlx5/caps/a.prm, true",
        "**/*.prm, a.prm.bak, false",
        "**/*.prm, a.prmx, false",
        "*.prm, a.prm, true",
        "*.prm, mlx5/a.prm, false",
        "mlx5/*.prm, mlx5/a.prm, true",
        "mlx5/*.prm, mlx5/caps/a.prm, false",
        "mlx5/**, mlx5/caps/a.prm, true",
        "mlx5/**, mlx5x/a.prm, false",
        "mlx5/, mlx5/a.prm, true",
        "mlx5/**/a.prm, mlx5/a.prm, true",
        "mlx5/**/a.prm, mlx5/x/y/a.prm, true",
        "mlx5/**/a.prm, mlx5/x/y/b.prm, false",
        "?.prm, a.prm, true",
        "?.prm, ab.prm, false",
        "a+b.prm, a+b.prm, true",
        "a+b.prm, aab.prm, false",
        "**/draft-*.prm, x/draft-1.prm, true",
        "**/draft-*.prm, x/final-1.prm, false",
        "/mlx5/*.prm, mlx5/a.prm, true",
    })
    void matchesLikeAnt(String pattern, String path, boolean expected) {
        if (expected) {
            assertTrue(AntPattern.of(pattern).matches(path));
        } else {
            assertFalse(AntPattern.of(pattern).matches(path));
        }
    }

    @Test
    void backslashesAreSeparators() {
        assertTrue(AntPattern.of("mlx5\\*.prm").matches("mlx5/a.prm"));
    }

    @Test
    void emptyPatternIsRejected() {
        assertThrows(IllegalArgumentException.class, () -> AntPattern.of("  "));
    }
}

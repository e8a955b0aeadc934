package io.prmkit.maven;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.prmkit.maven.SupportDependency.Coordinates;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class SupportDependencyTest {
    private static final Coordinates LAYOUT = new Coordinates("io.prmkit", "prmkit-layout");

    @Test
    void theSupportJarAmongTheDependenciesIsEnough() {
        assertEquals(Optional.empty(), SupportDependency.problem(
                List.of(new Coordinates("org.junit.jupiter", "junit-jupiter"), LAYOUT), "generate", false, "0.1.0"));
    }

    @Test
    void withoutItTheGoalSaysWhatToAddAndHowToOptOut() {
        assertEquals(Optional.of("prmkit:generate: the generated sources import io.prmkit.layout.PrmLayout, but "
                        + "io.prmkit:prmkit-layout is not a compile-scope dependency of this project; add it (version 0.1.0 "
                        + "or newer), or set prmkit.checkSupport to false if these sources are compiled elsewhere"),
                SupportDependency.problem(List.of(new Coordinates("io.prmkit", "prmkit-generated-runtime-other")),
                        "generate", false, "0.1.0"));
        assertEquals(Optional.of("prmkit:generate-test: the generated test sources import io.prmkit.layout.PrmLayout, but "
                        + "io.prmkit:prmkit-layout is not a dependency of this project; add it (version 0.1.0 or newer), or set "
                        + "prmkit.checkSupport to false if these sources are compiled elsewhere"),
                SupportDependency.problem(List.of(), "generate-test", true, "0.1.0"));
    }

    @Test
    void aJarOfTheSameNameFromAnotherGroupIsNotIt() {
        assertEquals(true, SupportDependency.problem(List.of(new Coordinates("com.example", "prmkit-layout")),
                "generate", false, "0.1.0").isPresent());
    }
}

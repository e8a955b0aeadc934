package io.prmkit.maven;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class CompilerReleaseTest {
    private static Optional<CompilerRelease.Declared> declared(Map<String, String> config, Map<String, String> props, boolean test) {
        return CompilerRelease.declared(config::get, props::get, test);
    }

    @Test
    void theCompilerPluginsOwnLookupOrder() {
        assertEquals(Optional.empty(), declared(Map.of(), Map.of(), false), "nothing declared: the compiling JDK decides");
        assertEquals(Optional.of(new CompilerRelease.Declared(17, "maven.compiler.release")),
                declared(Map.of(), Map.of("maven.compiler.release", "17", "maven.compiler.target", "22"), false), "release before target");
        assertEquals(Optional.of(new CompilerRelease.Declared(22, "maven-compiler-plugin <release>")),
                declared(Map.of("release", "22"), Map.of("maven.compiler.release", "17"), false), "configuration before property");
        assertEquals(Optional.of(new CompilerRelease.Declared(8, "maven.compiler.target")),
                declared(Map.of(), Map.of("maven.compiler.target", "1.8"), false), "1.8 is 8");
        assertEquals(Optional.of(new CompilerRelease.Declared(25, "maven.compiler.testRelease")),
                declared(Map.of(), Map.of("maven.compiler.release", "17", "maven.compiler.testRelease", "25"), true), "test sources: testRelease first");
        assertEquals(Optional.of(new CompilerRelease.Declared(17, "maven.compiler.release")),
                declared(Map.of(), Map.of("maven.compiler.release", "17", "maven.compiler.testRelease", "25"), false), "main sources ignore testRelease");
        assertEquals(Optional.empty(), declared(Map.of("release", "${java.version}"), Map.of(), false), "an unresolved value says nothing");
    }

    @Test
    void onlyAReleaseOlderThan22IsAProblem() {
        assertEquals(Optional.empty(), CompilerRelease.problem(Optional.empty(), "generate"));
        assertEquals(Optional.empty(), CompilerRelease.problem(Optional.of(new CompilerRelease.Declared(22, "x")), "generate"));
        assertEquals(Optional.of("prmkit:generate-test: the generated accessors need Java 22 or newer (java.lang.foreign), but this project "
                        + "compiles for Java 21 (maven.compiler.testRelease); set maven.compiler.release to 22 or higher, or prmkit.checkRelease "
                        + "to false if these sources are compiled elsewhere"),
                CompilerRelease.problem(Optional.of(new CompilerRelease.Declared(21, "maven.compiler.testRelease")), "generate-test"));
    }
}

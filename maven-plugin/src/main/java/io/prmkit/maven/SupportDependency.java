package io.prmkit.maven;

import java.util.Collection;
import java.util.Optional;

/**
 * Every generated class imports {@code io.prmkit.layout.PrmLayout} from the {@code prmkit-layout} jar.
 * Without that jar on the classpath the sources compile to one "package io.prmkit.layout does not
 * exist" per generated file, far from the cause; this check names the cause before anything is written.
 */
final class SupportDependency {
    static final String GROUP = "io.prmkit";
    static final String ARTIFACT = "prmkit-layout";

    private SupportDependency() {}

    /** A dependency as Maven collected it: {@code groupId:artifactId}. */
    record Coordinates(String groupId, String artifactId) {}

    /**
     * @param collected the project's dependencies (transitive ones included) in the scope the goal's
     *     sources are compiled with
     * @param version the plugin's version, the oldest {@code prmkit-layout} the generated code runs on
     * @return the message when {@code prmkit-layout} is not among them, else empty
     */
    static Optional<String> problem(Collection<Coordinates> collected, String goal, boolean testSources, String version) {
        for (Coordinates c : collected) {
            if (GROUP.equals(c.groupId()) && ARTIFACT.equals(c.artifactId())) return Optional.empty();
        }
        return Optional.of("prmkit:" + goal + ": the generated " + (testSources ? "test sources" : "sources")
                + " import io.prmkit.layout.PrmLayout, but " + GROUP + ":" + ARTIFACT + " is not a"
                + (testSources ? "" : " compile-scope") + " dependency of this project; add it (version " + version
                + " or newer), or set prmkit.checkSupport to false if these sources are compiled elsewhere");
    }
}

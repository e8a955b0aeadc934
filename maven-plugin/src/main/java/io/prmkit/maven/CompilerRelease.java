package io.prmkit.maven;

import java.util.Optional;
import java.util.function.Function;

/**
 * The Java release a project's compiler targets, as far as its POM says, so that a project that
 * compiles for Java 17 hears at once that the accessors need 22 (the final {@code java.lang.foreign})
 * instead of reading javac's errors about generated files. The lookup follows maven-compiler-plugin:
 * {@code release} (for test sources {@code testRelease} first), else {@code target} ({@code testTarget}
 * first), each from the plugin's configuration or else its user property. Nothing declared: the JDK
 * that compiles decides (a toolchain may pick it), so nothing is checked.
 */
final class CompilerRelease {
    /** The first release whose {@code java.lang.foreign} is final. */
    static final int NEEDED = 22;

    private CompilerRelease() {}

    /** A declared release and where it was found, e.g. {@code 17} from {@code maven.compiler.release}. */
    record Declared(int feature, String where) {}

    /**
     * @param config the compiler plugin's configuration value of a parameter (the execution's over the
     *     plugin's), or null
     * @param property a project property, or null
     */
    static Optional<Declared> declared(Function<String, String> config, Function<String, String> property, boolean test) {
        String[][] lookups = test
                ? new String[][] {{"testRelease", "maven.compiler.testRelease"}, {"release", "maven.compiler.release"},
                    {"testTarget", "maven.compiler.testTarget"}, {"target", "maven.compiler.target"}}
                : new String[][] {{"release", "maven.compiler.release"}, {"target", "maven.compiler.target"}};
        for (String[] l : lookups) {
            Optional<Declared> d = parse(config.apply(l[0]), "maven-compiler-plugin <" + l[0] + ">");
            if (d.isEmpty()) d = parse(property.apply(l[1]), l[1]);
            if (d.isPresent()) return d;
        }
        return Optional.empty();
    }

    /** The message when the declared release is too old for the generated code, else empty. */
    static Optional<String> problem(Optional<Declared> declared, String goal) {
        if (declared.isEmpty() || declared.get().feature() >= NEEDED) return Optional.empty();
        Declared d = declared.get();
        return Optional.of("prmkit:" + goal + ": the generated accessors need Java " + NEEDED + " or newer (java.lang.foreign), but this project "
                + "compiles for Java " + d.feature() + " (" + d.where() + "); set maven.compiler.release to " + NEEDED
                + " or higher, or prmkit.checkRelease to false if these sources are compiled elsewhere");
    }

    /** "17", "1.8" (-> 8), " 22 "; anything else (empty, an unresolved ${...}) says nothing. */
    private static Optional<Declared> parse(String value, String where) {
        if (value == null) return Optional.empty();
        String v = value.strip();
        if (v.startsWith("1.")) v = v.substring(2);
        if (v.isEmpty() || !v.chars().allMatch(Character::isDigit) || v.length() > 3) return Optional.empty();
        return Optional.of(new Declared(Integer.parseInt(v), where));
    }
}

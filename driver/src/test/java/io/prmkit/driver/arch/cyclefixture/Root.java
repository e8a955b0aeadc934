package io.prmkit.driver.arch.cyclefixture;

/** A root-package class in a cycle with a subpackage (LayeringTest checks that its rule sees such a cycle). */
public final class Root {
    public static int viaSub() {
        return io.prmkit.driver.arch.cyclefixture.sub.Sub.one(); // a call, not a constant javac would inline
    }
}

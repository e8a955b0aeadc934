package io.prmkit.driver.arch.cyclefixture.sub;

import io.prmkit.driver.arch.cyclefixture.Root;

/** The other half of {@link Root}'s cycle. */
public final class Sub {
    public static int one() {
        return 1;
    }

    public static int back() {
        return Root.viaSub();
    }
}

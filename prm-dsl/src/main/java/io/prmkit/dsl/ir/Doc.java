package io.prmkit.dsl.ir;

import java.util.Objects;

/**
 * Documentation carried from the spec: a one-line description, the PRM section or table it comes
 * from, and the PRM/firmware revision that introduced it. Empty strings mean "not given".
 */
public record Doc(String text, String prmRef, String since) {
    public static final Doc NONE = new Doc("", "", "");

    public Doc {
        Objects.requireNonNull(text, "text == null");
        Objects.requireNonNull(prmRef, "prmRef == null");
        Objects.requireNonNull(since, "since == null");
    }

    public boolean isEmpty() {
        return text.isEmpty() && prmRef.isEmpty() && since.isEmpty();
    }
}

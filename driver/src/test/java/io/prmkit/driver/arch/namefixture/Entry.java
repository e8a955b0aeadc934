package io.prmkit.driver.arch.namefixture;

/** ClassNamesTest's fixture: a top-level class named like java.util.Map.Entry. */
public final class Entry {
}

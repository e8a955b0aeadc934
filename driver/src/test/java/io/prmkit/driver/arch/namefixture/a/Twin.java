package io.prmkit.driver.arch.namefixture.a;

/** ClassNamesTest's fixture: one of two top-level classes named Twin. */
public final class Twin {
}

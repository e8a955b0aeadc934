package io.prmkit.driver.arch.namefixture;

/** ClassNamesTest's fixture: a class named like java.util.zip.Checksum, with a nested List and a nested Kind. */
public final class Checksum {
    static final class List {
    }

    enum Kind { A }
}

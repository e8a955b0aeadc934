package io.prmkit.doc;

import io.prmkit.dsl.ir.QualifiedName;

/** Where each page of the site lives, and relative links between them (every page sits one folder deep or at the root). */
final class Pages {
    private Pages() {
    }

    static String struct(QualifiedName n) {
        return "structs/" + file(n);
    }

    static String enumPage(QualifiedName n) {
        return "enums/" + file(n);
    }

    static String wqe(QualifiedName n) {
        return "wqes/" + file(n);
    }

    /** A link from a page in {@code structs/} or {@code enums/} to another page. */
    static String fromPage(String target) {
        return "../" + target;
    }

    private static String file(QualifiedName n) {
        // Spec names are identifiers and dots, so they are safe file names on every system.
        return n.toString() + ".html";
    }
}

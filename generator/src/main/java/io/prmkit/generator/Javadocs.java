package io.prmkit.generator;

import io.prmkit.dsl.SourceLocation;
import io.prmkit.dsl.ir.Doc;

/** Spec text made safe for Javadoc, and the common "where it comes from" lines. */
final class Javadocs {
    private Javadocs() {}

    /**
     * Escapes text for a Javadoc comment: HTML specials, {@code @} (no accidental tags), a comment
     * terminator, and backslashes (javac reads {@code \\u} escapes even in comments).
     */
    static String escape(String text) {
        StringBuilder sb = new StringBuilder(text.length());
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (c) {
                case '&' -> sb.append("&amp;");
                case '<' -> sb.append("&lt;");
                case '>' -> sb.append("&gt;");
                case '@' -> sb.append("&#64;");
                case '\\' -> sb.append("&#92;");
                case '/' -> sb.append(i > 0 && text.charAt(i - 1) == '*' ? "&#47;" : "/");
                case '\r', '\n' -> sb.append(' ');
                default -> sb.append(c);
            }
        }
        return sb.toString();
    }

    /** The doc text as a sentence, or "" when the spec gives none. */
    static String sentence(Doc doc) {
        String t = doc.text().strip();
        if (t.isEmpty()) return "";
        return escape(t.endsWith(".") || t.endsWith("?") || t.endsWith("!") ? t : t + ".");
    }

    /** {@code PRM 8.9.4.1; since PRM 0.54; spec wqe.prm:12}, parts omitted when absent. */
    static String origin(Doc doc, SourceLocation location) {
        StringBuilder sb = new StringBuilder();
        if (!doc.prmRef().isEmpty()) sb.append(escape(doc.prmRef())).append("; ");
        if (!doc.since().isEmpty()) sb.append("since ").append(escape(doc.since())).append("; ");
        sb.append("spec ").append(escape(source(location)));
        return sb.toString();
    }

    /** {@code file:line}, the spec position generated docs and metadata cite. */
    static String source(SourceLocation location) {
        return location.file() + ":" + location.line();
    }
}

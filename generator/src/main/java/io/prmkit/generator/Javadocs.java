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

    /** Longest string put in one Java literal: a class-file constant holds 65535 bytes of modified UTF-8, 3 per char at most. */
    static final int MAX_LITERAL_CHARS = 16384;

    /**
     * A Java expression for {@code text}: a literal, or for text too long for one class-file constant
     * ("constant string too long") a {@code String.join} of literals, which javac does not fold.
     */
    static com.palantir.javapoet.CodeBlock literal(String text) {
        if (text.length() <= MAX_LITERAL_CHARS) return com.palantir.javapoet.CodeBlock.of("$S", text);
        com.palantir.javapoet.CodeBlock.Builder b = com.palantir.javapoet.CodeBlock.builder().add("$T.join(\"\"", String.class);
        for (int i = 0; i < text.length(); ) {
            int end = Math.min(text.length(), i + MAX_LITERAL_CHARS);
            if (end < text.length() && Character.isHighSurrogate(text.charAt(end - 1))) end--; // keep a surrogate pair together
            b.add(", $S", text.substring(i, end));
            i = end;
        }
        return b.add(")").build();
    }

    /** {@code file:line}, the spec position generated docs and metadata cite. */
    static String source(SourceLocation location) {
        return location.file() + ":" + location.line();
    }
}

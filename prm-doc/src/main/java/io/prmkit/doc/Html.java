package io.prmkit.doc;

/** HTML text helpers: escaping for text and attribute values. */
final class Html {
    private Html() {
    }

    /** Escapes text for element content and double-quoted attribute values. */
    static String esc(String s) {
        StringBuilder sb = new StringBuilder(s.length() + 8);
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '&' -> sb.append("&amp;");
                case '<' -> sb.append("&lt;");
                case '>' -> sb.append("&gt;");
                case '"' -> sb.append("&quot;");
                case '\'' -> sb.append("&#39;");
                default -> sb.append(c);
            }
        }
        return sb.toString();
    }

    static String hex(long v) {
        return "0x" + Long.toHexString(v);
    }

    /** A byte offset as the PRM tables print it ({@code 0x04}), from the toolchain's one position formatter. */
    static String hex2(long v) {
        return io.prmkit.dsl.ir.PrmPosition.byteOffset(v);
    }

    /** The start of every page: doctype, charset, title, the stylesheet at {@code css}. */
    static void head(StringBuilder sb, String title, String css) {
        sb.append("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n")
                .append("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n")
                .append("<title>").append(esc(title)).append("</title>\n");
        if (css != null) sb.append("<link rel=\"stylesheet\" href=\"").append(esc(css)).append("\">\n");
    }
}

package io.prmkit.dsl;

/**
 * The one JSON writer of the tools (layout and diff output): strings escaped one way, keys and
 * values appended to a {@link StringBuilder} so each format keeps its own line layout.
 */
public final class Json {
    private Json() {}

    /** {@code s} as a JSON string, with {@code \"}, {@code \\}, {@code \n}, {@code \r}, {@code \t} and {@code \\uXXXX} escapes. */
    public static String string(String s) {
        StringBuilder sb = new StringBuilder(s.length() + 2);
        string(sb, s);
        return sb.toString();
    }

    public static void string(StringBuilder sb, String s) {
        sb.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> sb.append("\\\"");
                case '\\' -> sb.append("\\\\");
                case '\n' -> sb.append("\\n");
                case '\r' -> sb.append("\\r");
                case '\t' -> sb.append("\\t");
                default -> {
                    if (c < 0x20 || c == 0x2028 || c == 0x2029) sb.append(String.format("\\u%04x", (int) c));
                    else sb.append(c);
                }
            }
        }
        sb.append('"');
    }

    /** {@code , "key": "value"} (without the comma when {@code first}). */
    public static void field(StringBuilder sb, String key, String value, boolean first) {
        key(sb, key, first);
        string(sb, value);
    }

    /** {@code , "key": N} with N unsigned decimal, so 64-bit values stay exact. */
    public static void unsigned(StringBuilder sb, String key, long value) {
        key(sb, key, false);
        sb.append(Long.toUnsignedString(value));
    }

    /** {@code , "key": N}. */
    public static void number(StringBuilder sb, String key, long value) {
        key(sb, key, false);
        sb.append(value);
    }

    /** {@code , "key": true|false}. */
    public static void bool(StringBuilder sb, String key, boolean value) {
        key(sb, key, false);
        sb.append(value);
    }

    /** {@code , "key": } followed by whatever the caller writes. */
    public static void key(StringBuilder sb, String key, boolean first) {
        if (!first) sb.append(", ");
        string(sb, key);
        sb.append(": ");
    }
}

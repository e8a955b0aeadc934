package io.prmkit.maven;

import java.util.Objects;
import java.util.regex.Pattern;

/**
 * An Ant-style path pattern as Maven users write them in {@code <includes>}: {@code *} matches
 * within one path segment, {@code ?} one character, {@code **} any number of segments (including
 * none, so <code>**&#47;*.prm</code> also matches {@code a.prm}). A pattern ending in {@code /}
 * means everything below that directory. Paths are matched with {@code /} separators.
 */
record AntPattern(String pattern, Pattern regex) {

    AntPattern {
        Objects.requireNonNull(pattern, "pattern == null");
        Objects.requireNonNull(regex, "regex == null");
    }

    static AntPattern of(String pattern) {
        Objects.requireNonNull(pattern, "pattern == null");
        String p = pattern.trim().replace('\\', '/');
        if (p.isEmpty()) throw new IllegalArgumentException("empty include/exclude pattern");
        if (p.endsWith("/")) p = p + "**";
        while (p.startsWith("/")) p = p.substring(1);
        return new AntPattern(pattern, Pattern.compile(toRegex(p)));
    }

    boolean matches(String relativePath) {
        return regex.matcher(relativePath).matches();
    }

    private static String toRegex(String p) {
        StringBuilder re = new StringBuilder();
        int i = 0;
        while (i < p.length()) {
            boolean segmentStart = i == 0 || p.charAt(i - 1) == '/';
            if (segmentStart && p.startsWith("**/", i)) {
                re.append("(?:[^/]*/)*");
                i += 3;
            } else if (segmentStart && p.startsWith("**", i) && i + 2 == p.length()) {
                re.append(".*");
                i += 2;
            } else if (p.charAt(i) == '*') {
                // "**" inside a segment behaves like "*", as in Ant.
                while (i < p.length() && p.charAt(i) == '*') i++;
                re.append("[^/]*");
            } else if (p.charAt(i) == '?') {
                re.append("[^/]");
                i++;
            } else {
                int j = i;
                while (j < p.length() && p.charAt(j) != '*' && p.charAt(j) != '?') j++;
                re.append(Pattern.quote(p.substring(i, j)));
                i = j;
            }
        }
        return re.toString();
    }

    @Override
    public String toString() {
        return pattern;
    }
}

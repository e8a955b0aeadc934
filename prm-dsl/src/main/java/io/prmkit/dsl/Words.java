package io.prmkit.dsl;

/** Small English helpers for messages, so every tool counts things the same way ("1 error", "2 errors"). */
public final class Words {
    private Words() {}

    /** {@code n} and the noun, plural unless n is 1: "1 structure", "3 classes", "0 files". */
    public static String plural(long n, String noun) {
        if (n == 1) return n + " " + noun;
        // entry -> entries, but key -> keys
        if (noun.length() > 1 && noun.endsWith("y") && "aeiou".indexOf(noun.charAt(noun.length() - 2)) < 0)
            return n + " " + noun.substring(0, noun.length() - 1) + "ies";
        boolean es = noun.endsWith("s") || noun.endsWith("x") || noun.endsWith("ch") || noun.endsWith("sh");
        return n + " " + noun + (es ? "es" : "s");
    }

    /** The choices as a reader lists them: "a", "a or b", "a, b or c". */
    public static String or(java.util.List<String> choices) {
        int n = choices.size();
        if (n == 0) throw new IllegalArgumentException("no choices");
        if (n == 1) return choices.get(0);
        return String.join(", ", choices.subList(0, n - 1)) + " or " + choices.get(n - 1);
    }
}

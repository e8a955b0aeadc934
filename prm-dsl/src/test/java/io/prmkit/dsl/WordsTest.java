package io.prmkit.dsl;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class WordsTest {
    @Test
    void oneIsSingularEverythingElsePlural() {
        assertEquals("1 structure", Words.plural(1, "structure"));
        assertEquals("0 structures", Words.plural(0, "structure"));
        assertEquals("2 enums", Words.plural(2, "enum"));
        assertEquals("3 classes", Words.plural(3, "class"));
        assertEquals("2 prefixes", Words.plural(2, "prefix"));
        assertEquals("12 entries", Words.plural(12, "entry"));
        assertEquals("2 keys", Words.plural(2, "key"));
    }

    @Test
    void choicesAreListedWithOrBeforeTheLast() {
        assertEquals("text", Words.or(java.util.List.of("text")));
        assertEquals("text or json", Words.or(java.util.List.of("text", "json")));
        assertEquals("text, json, markdown or html", Words.or(java.util.List.of("text", "json", "markdown", "html")));
    }
}

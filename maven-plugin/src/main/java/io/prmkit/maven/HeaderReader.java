package io.prmkit.maven;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads the C headers to import, with the siblings they {@code #include "x.h"} (included ones
 * first), following the importer's rule. Reading them here, once, lets the digest and the importer
 * see the same bytes, and makes an edit to an included header regenerate too.
 */
final class HeaderReader {
    private static final Pattern INCLUDE = Pattern.compile("(?m)^[ \\t]*#[ \\t]*include[ \\t]+\"([^\"]+)\"");

    private HeaderReader() {}

    /** @param displayName the name a header has in diagnostics */
    static List<SpecInput> read(List<Path> headers, Function<Path, String> displayName) throws IOException {
        Map<Path, SpecInput> out = new LinkedHashMap<>();
        for (Path h : headers) {
            read(h.toAbsolutePath().normalize(), out, new HashSet<>(), displayName);
        }
        return List.copyOf(out.values());
    }

    private static void read(Path h, Map<Path, SpecInput> out, Set<Path> stack, Function<Path, String> name)
            throws IOException {
        if (out.containsKey(h) || !stack.add(h)) return;
        byte[] bytes = Files.readAllBytes(h);
        // Includes are ASCII lines; a lossy decode is enough to find them.
        Matcher m = INCLUDE.matcher(new String(bytes, StandardCharsets.ISO_8859_1));
        while (m.find()) {
            Path inc = h.resolveSibling(m.group(1)).normalize();
            if (Files.isRegularFile(inc)) read(inc, out, stack, name);
        }
        String display = name.apply(h);
        out.put(h, new SpecInput(display, display, bytes));
    }
}

package io.prmkit.mlx5.conformance;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Builds a user-space C translation unit from the kernel's mlx5 headers. device.h, qp.h and cq.h
 * pull in kernel-only headers, so they cannot be included as a whole; instead the top-level
 * struct/union/enum definitions and simple #defines that the queries need are copied out verbatim,
 * together with everything they refer to, in header order. mlx5_ifc.h itself compiles in user
 * space and is included whole (device.h depends on it).
 */
final class KernelSource {

    /** Headers scanned, in an order where each only depends on earlier ones. */
    static final List<String> HEADERS = List.of("device.h", "driver.h", "eq.h", "qp.h", "cq.h", "doorbell.h", "port.h");

    static final String PRELUDE = """
            #include <stddef.h>
            #include <stdio.h>
            #include <string.h>
            typedef unsigned char u8;
            typedef unsigned short u16;
            typedef unsigned int u32;
            typedef unsigned long long u64;
            typedef u16 __be16;
            typedef u32 __be32;
            typedef u64 __be64;
            #define BIT(n) (1UL << (n))
            #define BIT_ULL(n) (1ULL << (n))
            #define __packed __attribute__((packed))
            /* the kernel's struct_group(): the members both plain and as a named struct */
            #define struct_group(NAME, ...) union { struct { __VA_ARGS__ }; struct { __VA_ARGS__ } NAME; }
            #define DECLARE_FLEX_ARRAY(TYPE, NAME) struct { struct { } __empty_##NAME; TYPE NAME[]; }
            """;

    private record Item(int order, Set<String> defines, String text) {}

    private static final Pattern TOP = Pattern.compile("(?m)^(struct|union|enum)\\b\\s*(\\w*)\\s*\\{");
    private static final Pattern DEFINE = Pattern.compile("(?m)^#define\\s+(\\w+)[ \\t]+([^\\n\\\\]+)$");
    private static final Pattern TYPE_REF = Pattern.compile("\\b(struct|union)\\s+(\\w+)");
    private static final Pattern IDENT = Pattern.compile("\\b[A-Za-z_]\\w*\\b");

    private final List<Item> items = new ArrayList<>();
    private final Map<String, Item> byName = new HashMap<>();

    KernelSource(Path mlx5Dir) {
        int order = 0;
        for (String h : HEADERS) {
            String text;
            try {
                text = Files.readString(mlx5Dir.resolve(h));
            } catch (IOException e) {
                throw new AssertionError("cannot read " + mlx5Dir.resolve(h) + ": " + e.getMessage(), e);
            }
            text = text.replaceAll("(?s)/\\*.*?\\*/", " ");
            Matcher m = TOP.matcher(text);
            while (m.find()) {
                int open = m.end() - 1;
                int close = matchBrace(text, open);
                int semi = text.indexOf(';', close);
                if (close < 0 || semi < 0) continue;
                String body = text.substring(m.start(), semi + 1);
                Set<String> names = new LinkedHashSet<>();
                if (m.group(1).equals("enum")) {
                    for (String entry : text.substring(open + 1, close).split(",")) {
                        Matcher id = IDENT.matcher(entry.trim());
                        if (id.lookingAt()) names.add(id.group());
                    }
                    if (!m.group(2).isEmpty()) names.add("enum " + m.group(2));
                } else if (!m.group(2).isEmpty()) {
                    names.add(m.group(1) + " " + m.group(2));
                }
                add(new Item(order++, names, body));
            }
            Matcher d = DEFINE.matcher(text);
            while (d.find()) {
                add(new Item(order++, Set.of(d.group(1)), d.group().trim()));
            }
        }
    }

    private void add(Item item) {
        items.add(item);
        for (String n : item.defines()) byName.putIfAbsent(n, item);
    }

    private static int matchBrace(String s, int open) {
        int depth = 0;
        for (int i = open; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '{') depth++;
            else if (c == '}' && --depth == 0) return i;
        }
        return -1;
    }

    /**
     * The declarations needed for {@code roots} (C types such as "struct mlx5_cqe64" and constant
     * names), with their dependencies, after the prelude and mlx5_ifc.h.
     */
    String declarationsFor(Set<String> roots) {
        Set<Item> needed = new LinkedHashSet<>();
        Deque<String> todo = new ArrayDeque<>(roots);
        Set<String> seen = new LinkedHashSet<>();
        while (!todo.isEmpty()) {
            String name = todo.pop();
            if (!seen.add(name)) continue;
            Item item = byName.get(name);
            if (item == null || !needed.add(item)) continue;
            Matcher t = TYPE_REF.matcher(item.text());
            while (t.find()) todo.push(t.group(1) + " " + t.group(2));
            Matcher id = IDENT.matcher(item.text());
            while (id.find()) todo.push(id.group());
        }
        StringBuilder sb = new StringBuilder(PRELUDE).append("#include \"mlx5_ifc.h\"\n\n");
        items.stream().filter(needed::contains).forEach(i -> sb.append(i.text()).append("\n\n"));
        return sb.toString();
    }

    /** Whether a root name (C type or constant) is defined in the scanned headers. */
    boolean defines(String name) {
        return byName.containsKey(name);
    }
}

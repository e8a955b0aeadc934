package io.prmkit.dsl.diff;

import io.prmkit.dsl.Words;
import io.prmkit.dsl.Json;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalLong;

/** Renders a {@link DiffReport} for people (text, Markdown) or tools (JSON). Output ends in a newline. */
public final class DiffRenderer {
    private DiffRenderer() {}

    public enum Format {
        TEXT, JSON, MARKDOWN;

        public static Format parse(String s) {
            return parse(s, List.of());
        }

        /**
         * Like {@link #parse(String)} for a front end that renders {@code ownFormats} itself (the CLI
         * draws html with prm-doc): its error lists every format the user may give.
         */
        public static Format parse(String s, List<String> ownFormats) {
            for (Format f : values()) {
                if (f.name().equalsIgnoreCase(s)) return f;
            }
            List<String> expected = new ArrayList<>();
            for (Format f : values()) expected.add(f.name().toLowerCase(Locale.ROOT));
            expected.addAll(ownFormats);
            throw new IllegalArgumentException("unknown format '" + s + "' (expected " + Words.or(expected) + ")");
        }
    }

    public static String render(DiffReport report, Format format) {
        return switch (format) {
            case TEXT -> text(report);
            case JSON -> json(report);
            case MARKDOWN -> markdown(report);
        };
    }

    private static String summary(DiffReport r) {
        if (r.isEmpty()) return "no layout changes";
        return Words.plural(r.changes().size(), "change") + ": " + r.breakingCount() + " breaking, "
                + r.additiveCount() + " additive";
    }

    /** One line per change: {@code BREAKING  mlx5.qpc.state: moved from 0x04 [23:20] to 0x08 [23:20]}. */
    public static String text(DiffReport r) {
        StringBuilder sb = new StringBuilder();
        for (Change c : r.changes()) {
            sb.append(c.breaking() ? "BREAKING  " : "additive  ").append(c.subject()).append(": ").append(c.description()).append('\n');
        }
        return sb.append(summary(r)).append('\n').toString();
    }

    public static String markdown(DiffReport r) {
        StringBuilder sb = new StringBuilder("## Layout changes\n\n").append(summary(r)).append(".\n");
        if (r.isEmpty()) return sb.toString();
        sb.append("\n| | Where | Change |\n|---|---|---|\n");
        for (Change c : r.changes()) {
            sb.append("| ").append(c.breaking() ? "**breaking**" : "additive").append(" | `").append(c.subject()).append("` | ")
                    .append(c.description().replace("|", "\\|")).append(" |\n");
        }
        return sb.toString();
    }

    public static String json(DiffReport r) {
        StringBuilder sb = new StringBuilder("{\n  \"breaking\": ").append(r.isBreaking())
                .append(",\n  \"breakingCount\": ").append(r.breakingCount())
                .append(",\n  \"additiveCount\": ").append(r.additiveCount())
                .append(",\n  \"changes\": [");
        String sep = "\n";
        for (Change c : r.changes()) {
            sb.append(sep).append("    {\"kind\": ").append(str(c.kind().name().toLowerCase(Locale.ROOT)))
                    .append(", \"breaking\": ").append(c.breaking())
                    .append(", \"owner\": ").append(str(c.owner()));
            if (!c.name().isEmpty()) sb.append(", \"name\": ").append(str(c.name()));
            if (!c.newName().isEmpty()) sb.append(", \"newName\": ").append(str(c.newName()));
            bits(sb, "before", c.before());
            bits(sb, "after", c.after());
            value(sb, "oldValue", c.oldValue());
            value(sb, "newValue", c.newValue());
            sb.append(", \"description\": ").append(str(c.description())).append('}');
            sep = ",\n";
        }
        return sb.append(r.isEmpty() ? "]\n}\n" : "\n  ]\n}\n").toString();
    }

    private static void bits(StringBuilder sb, String key, Optional<Change.Bits> b) {
        b.ifPresent(x -> sb.append(", \"").append(key).append("\": {\"bitOffset\": ").append(x.offset())
                .append(", \"bitWidth\": ").append(x.width()).append('}'));
    }

    private static void value(StringBuilder sb, String key, OptionalLong v) {
        // unsigned, so 64-bit masks stay exact for any JSON reader that keeps big integers
        v.ifPresent(x -> sb.append(", \"").append(key).append("\": ").append(Long.toUnsignedString(x)));
    }

    static String str(String s) {
        return Json.string(s);
    }
}

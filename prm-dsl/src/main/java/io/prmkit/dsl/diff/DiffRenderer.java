package io.prmkit.dsl.diff;

import io.prmkit.dsl.Words;
import io.prmkit.dsl.Json;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * Renders a {@link DiffReport} for people (text, Markdown: a firmware-changes report, additions first)
 * or tools (JSON: every change in the report's order). Output ends in a newline.
 */
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

    /**
     * The report's sections, in the order a firmware-changes report reads: what the new PRM adds
     * first (structures, then fields, then enums, values and constants), then other additive
     * changes, then what breaks. Within a section, changes keep the report's order (by owner, then
     * by position).
     */
    enum Section {
        ADDED_STRUCTURES("Added structures"),
        ADDED_FIELDS("Added fields"),
        ADDED_VALUES("Added enums, values and constants"),
        OTHER_ADDITIVE("Other additive changes"),
        BREAKING("Breaking changes");

        final String title;

        Section(String title) {
            this.title = title;
        }

        static Section of(Change c) {
            if (c.breaking()) return BREAKING;
            return switch (c.kind()) {
                case STRUCT_ADDED -> ADDED_STRUCTURES;
                case FIELD_ADDED, JOIN_ADDED -> ADDED_FIELDS;
                case FIELD_RENAMED -> reservedNowNamed(c) ? ADDED_FIELDS : OTHER_ADDITIVE;
                case ENUM_ADDED, ENUM_VALUE_ADDED, CONST_ADDED -> ADDED_VALUES;
                default -> OTHER_ADDITIVE;
            };
        }
    }

    /** Reserved bits that became a field with exactly their bits: to the reader of a new PRM, a field added there. */
    private static boolean reservedNowNamed(Change c) {
        return c.kind() == Change.Kind.FIELD_RENAMED && !c.breaking() && c.name().startsWith("reserved");
    }

    /** The changes of each section, in section order; empty sections left out. */
    static java.util.Map<Section, List<Change>> sections(DiffReport r) {
        java.util.Map<Section, List<Change>> out = new java.util.EnumMap<>(Section.class);
        for (Change c : r.changes()) out.computeIfAbsent(Section.of(c), k -> new ArrayList<>()).add(c);
        return out;
    }

    /** {@code mlx5.cqc.cq_period: moved from ...}; a field added in reserved bits is named by its new name. */
    private static String[] line(Change c) {
        if (reservedNowNamed(c)) {
            long w = c.after().orElseThrow().width();
            return new String[] {c.owner() + "." + c.newName(), "added at " + c.after().orElseThrow().prm()
                    + (w == 0 ? "" : ", " + Words.plural(w, "bit")) + " (was " + c.name() + ")"};
        }
        return new String[] {c.subject(), c.description()};
    }

    /**
     * A firmware-changes report: one titled section per kind of change (added structures and fields
     * first, breaking changes last), one line per change ({@code   mlx5.qpc.state: moved from 0x04
     * [23:20] to 0x08 [23:20]}), and the counts.
     */
    public static String text(DiffReport r) {
        StringBuilder sb = new StringBuilder();
        sections(r).forEach((section, changes) -> {
            sb.append(section.title).append(" (").append(changes.size()).append("):\n");
            for (Change c : changes) {
                String[] l = line(c);
                sb.append("  ").append(l[0]).append(": ").append(l[1]).append('\n');
            }
            sb.append('\n');
        });
        return sb.append(summary(r)).append('\n').toString();
    }

    public static String markdown(DiffReport r) {
        StringBuilder sb = new StringBuilder("## Layout changes\n\n").append(summary(r)).append(".\n");
        sections(r).forEach((section, changes) -> {
            sb.append("\n### ").append(section.title).append(" (").append(changes.size()).append(")\n\n| Where | Change |\n|---|---|\n");
            for (Change c : changes) {
                String[] l = line(c);
                sb.append("| `").append(l[0]).append("` | ").append(l[1].replace("|", "\\|")).append(" |\n");
            }
        });
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
            if (!c.oldText().isEmpty()) sb.append(", \"old\": ").append(str(c.oldText()));
            if (!c.newText().isEmpty()) sb.append(", \"new\": ").append(str(c.newText()));
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

package io.prmkit.doc;

import io.prmkit.dsl.diff.Change;
import io.prmkit.dsl.diff.DiffReport;
import io.prmkit.dsl.ir.LayoutModel;
import io.prmkit.dsl.ir.QualifiedName;
import io.prmkit.dsl.ir.StructLayout;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * {@code prmkit diff OLD NEW --format html}: one self-contained page (its CSS inline) with every
 * structure that changed drawn twice, old and new, the changed fields marked in the diagrams:
 * added and removed fields, moved, resized, retyped and renamed ones. Enum and constant changes
 * follow as a table.
 */
public final class DiffPage {
    private static final Set<Change.Kind> STRUCT_KINDS = EnumSet.of(Change.Kind.STRUCT_ADDED, Change.Kind.STRUCT_REMOVED,
            Change.Kind.KIND_CHANGED, Change.Kind.SIZE_CHANGED, Change.Kind.FIELD_ADDED, Change.Kind.FIELD_REMOVED,
            Change.Kind.FIELD_MOVED, Change.Kind.FIELD_RESIZED, Change.Kind.FIELD_RETYPED, Change.Kind.FIELD_RENAMED);

    private DiffPage() {
    }

    /** The page; {@code oldLabel} and {@code newLabel} name the two revisions (e.g. the paths given). */
    public static String render(LayoutModel older, LayoutModel newer, DiffReport report, String oldLabel, String newLabel) {
        StringBuilder sb = new StringBuilder();
        Html.head(sb, "Layout changes: " + oldLabel + " \u2192 " + newLabel, null);
        sb.append("<style>\n").append(DocSite.resource("style.css")).append("</style>\n</head>\n<body class=\"diff\">\n");
        sb.append("<h1>Layout changes</h1>\n<p class=\"meta\"><code>").append(Html.esc(oldLabel)).append("</code> \u2192 <code>")
                .append(Html.esc(newLabel)).append("</code>: ");
        if (report.isEmpty()) {
            sb.append("no layout changes.</p>\n</body>\n</html>\n");
            return sb.toString();
        }
        sb.append(report.changes().size()).append(report.changes().size() == 1 ? " change, " : " changes, ").append(report.breakingCount())
                .append(" breaking, ").append(report.additiveCount()).append(" additive.</p>\n");
        sb.append("<p class=\"legend\">In the diagrams: <span class=\"f added\">added</span> <span class=\"f removed\">removed</span> "
                + "<span class=\"f moved\">moved</span> <span class=\"f resized\">resized</span> <span class=\"f changed\">retyped or renamed</span></p>\n");

        Map<String, List<Change>> byStruct = new LinkedHashMap<>();
        List<Change> others = new ArrayList<>();
        for (Change c : report.changes()) {
            if (STRUCT_KINDS.contains(c.kind())) {
                byStruct.computeIfAbsent(c.owner(), k -> new ArrayList<>()).add(c);
            } else {
                others.add(c);
            }
        }
        if (!byStruct.isEmpty()) {
            sb.append("<nav class=\"toc\"><ul>\n");
            for (String owner : byStruct.keySet()) {
                sb.append("<li><a href=\"#s-").append(Html.esc(owner)).append("\">").append(Html.esc(owner)).append("</a></li>\n");
            }
            sb.append("</ul></nav>\n");
        }
        for (Map.Entry<String, List<Change>> e : byStruct.entrySet()) structure(sb, e.getKey(), e.getValue(), older, newer);
        if (!others.isEmpty()) {
            sb.append("<h2 id=\"enums-constants\">Enums and constants</h2>\n<ul class=\"changes\">\n");
            for (Change c : others) change(sb, c);
            sb.append("</ul>\n");
        }
        sb.append("</body>\n</html>\n");
        return sb.toString();
    }

    private static void structure(StringBuilder sb, String owner, List<Change> changes, LayoutModel older, LayoutModel newer) {
        QualifiedName name = QualifiedName.parse(owner);
        Optional<StructLayout> before = older.struct(name);
        Optional<StructLayout> after = newer.struct(name);
        sb.append("<section class=\"changed\" id=\"s-").append(Html.esc(owner)).append("\">\n<h2>").append(Html.esc(owner)).append("</h2>\n");
        sb.append("<ul class=\"changes\">\n");
        for (Change c : changes) change(sb, c);
        sb.append("</ul>\n");
        Map<String, String> oldMarks = new HashMap<>();
        Map<String, String> newMarks = new HashMap<>();
        for (Change c : changes) {
            switch (c.kind()) {
                case FIELD_ADDED -> newMarks.put(c.name(), "added");
                case FIELD_REMOVED -> oldMarks.put(c.name(), "removed");
                case FIELD_MOVED -> {
                    oldMarks.put(c.name(), "moved");
                    newMarks.put(c.name(), "moved");
                }
                case FIELD_RESIZED -> {
                    oldMarks.put(c.name(), "resized");
                    newMarks.put(c.name(), "resized");
                }
                case FIELD_RETYPED -> {
                    oldMarks.put(c.name(), "changed");
                    newMarks.put(c.name(), "changed");
                }
                case FIELD_RENAMED -> {
                    oldMarks.put(c.name(), "changed");
                    newMarks.put(c.newName(), "changed");
                }
                default -> {
                }
            }
        }
        if (before.isPresent()) {
            sb.append("<h3>old").append(after.isEmpty() ? " (removed)" : "").append("</h3>\n<div class=\"diagram old\">\n")
                    .append(BitDiagram.render(before.get(), null, oldMarks)).append("</div>\n");
        }
        if (after.isPresent()) {
            sb.append("<h3>new").append(before.isEmpty() ? " (added)" : "").append("</h3>\n<div class=\"diagram new\">\n")
                    .append(BitDiagram.render(after.get(), null, newMarks)).append("</div>\n");
        }
        sb.append("</section>\n");
    }

    private static void change(StringBuilder sb, Change c) {
        sb.append("<li").append(c.breaking() ? " class=\"breaking\"" : "").append(" data-kind=\"").append(c.kind().name().toLowerCase(java.util.Locale.ROOT))
                .append("\"><code>").append(Html.esc(c.subject())).append("</code>: ").append(Html.esc(c.description())).append("</li>\n");
    }
}

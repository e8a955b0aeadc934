package io.prmkit.doc;

import io.prmkit.dsl.Words;
import io.prmkit.dsl.ir.Constant;
import io.prmkit.dsl.ir.EnumLayout;
import io.prmkit.dsl.ir.LayoutModel;
import io.prmkit.dsl.ir.Member;
import io.prmkit.dsl.ir.StructLayout;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;

/**
 * The index: every structure, enum and flag set with a search box. Each entry carries the names
 * it can be found by (its fields, or its values) in a {@code data-s} attribute; {@code search.js}
 * filters on them, so the page works from {@code file://} without a server or a fetched index.
 */
final class IndexPage {
    private IndexPage() {
    }

    static String render(LayoutModel model, String title) {
        StringBuilder sb = new StringBuilder();
        Html.head(sb, title, "style.css");
        sb.append("<script src=\"search.js\" defer></script>\n</head>\n<body class=\"index\">\n<h1>").append(Html.esc(title)).append("</h1>\n");
        sb.append("<p class=\"meta\">").append(model.structs().size()).append(" structures, ")
                .append(model.enums().stream().filter(e -> e.kind() == EnumLayout.Kind.ENUM).count()).append(" enums, ")
                .append(model.enums().stream().filter(e -> e.kind() == EnumLayout.Kind.FLAGS).count()).append(" flag sets, ")
                .append(model.constants().size()).append(" constants");
        if (!model.commands().isEmpty()) {
            sb.append("; <a href=\"").append(CommandsPage.PATH).append("\">").append(model.commands().size()).append(" commands, ")
                    .append(model.registers().size()).append(" registers</a>");
        }
        sb.append("</p>\n");
        sb.append("<p class=\"search\"><label for=\"q\">Search</label> <input id=\"q\" type=\"search\" autocomplete=\"off\" "
                + "placeholder=\"structure, field or enum value, e.g. cqe_syndrome or log_cq_size\"> <span id=\"count\"></span></p>\n");
        sb.append("<noscript><p>The search box needs JavaScript; the lists below work without it.</p></noscript>\n");

        sb.append("<section id=\"structs\">\n<h2>Structures</h2>\n<ul class=\"entries\">\n");
        for (StructLayout s : model.structs()) {
            Set<String> names = new TreeSet<>();
            for (Member m : s.members()) if (!m.reserved()) names.add(lower(m.name()));
            entry(sb, Pages.struct(s.name()), s.name().name(), (s.isUnion() ? "union, " : "") + Html.hex(s.sizeBytes()) + " bytes",
                    s.doc().text(), names);
        }
        sb.append("</ul>\n</section>\n");
        if (!model.wqes().isEmpty()) {
            sb.append("<section id=\"wqes\">\n<h2>WQEs</h2>\n<ul class=\"entries\">\n");
            for (io.prmkit.dsl.ir.WqeLayout w : model.wqes()) {
                Set<String> names = new TreeSet<>();
                w.segments().forEach(s -> names.add(lower(s.name())));
                w.rules().forEach(r -> names.add(lower(r.name())));
                entry(sb, Pages.wqe(w.name()), w.name().name(), String.join(", ", w.segments().stream().map(io.prmkit.dsl.ir.WqeLayout.Segment::name).toList()),
                        w.doc().text(), names);
            }
            sb.append("</ul>\n</section>\n");
        }
        enums(sb, model.enums(), EnumLayout.Kind.ENUM, "enums", "Enums");
        enums(sb, model.enums(), EnumLayout.Kind.FLAGS, "flags", "Flag sets");
        if (!model.constants().isEmpty()) {
            sb.append("<section id=\"constants\">\n<h2>Constants</h2>\n<ul class=\"entries\">\n");
            for (Constant c : model.constants()) {
                sb.append("<li data-n=\"").append(Html.esc(lower(c.name().name()))).append("\" data-s=\"\"><code>").append(Html.esc(c.name().name()))
                        .append("</code> = ").append(Html.hex(c.value())).append(" <span class=\"d\">").append(Html.esc(c.doc().text()))
                        .append("</span> <span class=\"via\"></span></li>\n");
            }
            sb.append("</ul>\n</section>\n");
        }
        sb.append("</body>\n</html>\n");
        return sb.toString();
    }

    private static void enums(StringBuilder sb, List<EnumLayout> all, EnumLayout.Kind kind, String id, String heading) {
        List<EnumLayout> some = all.stream().filter(e -> e.kind() == kind).toList();
        if (some.isEmpty()) return;
        sb.append("<section id=\"").append(id).append("\">\n<h2>").append(heading).append("</h2>\n<ul class=\"entries\">\n");
        for (EnumLayout e : some) {
            Set<String> names = new TreeSet<>();
            e.values().forEach(v -> names.add(lower(v.name())));
            entry(sb, Pages.enumPage(e.name()), e.name().name(), Words.plural(e.values().size(), "value"),
                    e.doc().text(), names);
        }
        sb.append("</ul>\n</section>\n");
    }

    private static void entry(StringBuilder sb, String href, String name, String meta, String doc, Set<String> names) {
        sb.append("<li data-n=\"").append(Html.esc(lower(name))).append("\" data-s=\"").append(Html.esc(String.join(" ", names)))
                .append("\"><a href=\"").append(Html.esc(href)).append("\">").append(Html.esc(name)).append("</a> <span class=\"m\">")
                .append(Html.esc(meta)).append("</span> <span class=\"d\">").append(Html.esc(doc)).append("</span> <span class=\"via\"></span></li>\n");
    }

    private static String lower(String s) {
        return s.toLowerCase(Locale.ROOT);
    }
}

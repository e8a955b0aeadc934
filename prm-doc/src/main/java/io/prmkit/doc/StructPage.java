package io.prmkit.doc;

import io.prmkit.dsl.ir.Constraints;
import io.prmkit.dsl.ir.Member;
import io.prmkit.dsl.ir.QualifiedName;
import io.prmkit.dsl.ir.Rule;
import io.prmkit.dsl.ir.StructLayout;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;

/** One structure's page: the PRM bit diagram, the field table, rules, enums used, and back-links. */
final class StructPage {
    private StructPage() {
    }

    static String render(StructLayout s, CrossRefs refs, String siteTitle) {
        StringBuilder sb = new StringBuilder();
        String name = s.name().name();
        Html.head(sb, name + " \u2014 " + siteTitle, "../style.css");
        sb.append("</head>\n<body class=\"struct\">\n<nav><a href=\"../index.html\">").append(Html.esc(siteTitle)).append("</a> / ")
                .append(s.isUnion() ? "union" : "struct").append("</nav>\n");
        sb.append("<h1 id=\"name\">").append(Html.esc(name)).append("</h1>\n<p class=\"meta\">")
                .append(s.isUnion() ? "union" : "struct").append(" <code>").append(Html.esc(s.name().toString())).append("</code>, ")
                .append(Html.hex(s.sizeBytes())).append(" (").append(s.sizeBytes()).append(") bytes");
        if (!s.doc().prmRef().isEmpty()) sb.append(", ").append(Html.esc(s.doc().prmRef()));
        if (!s.doc().since().isEmpty()) sb.append(", since ").append(Html.esc(s.doc().since()));
        sb.append(", <span class=\"src\">").append(Html.esc(s.location().file() + ":" + s.location().line())).append("</span></p>\n");
        if (!s.doc().text().isEmpty()) sb.append("<p class=\"doc\">").append(Html.esc(s.doc().text())).append("</p>\n");

        sb.append("<h2>Layout</h2>\n<div class=\"diagram\">\n");
        sb.append(BitDiagram.render(s, m -> link(m, refs), Map.of()));
        sb.append("</div>\n<p class=\"legend\"><span class=\"f\">field</span> <span class=\"rsvd\">reserved</span> "
                + "<span class=\"f mbz\">must be zero <span class=\"mbzmark\">0</span></span> <span class=\"union\">union</span> "
                + "\u2026 continues in the next row</p>\n");

        fieldTable(s, refs, sb);
        joins(s, sb);
        rules(s, sb);
        related(s, refs, sb);
        sb.append("</body>\n</html>\n");
        return sb.toString();
    }

    private static String link(Member m, CrossRefs refs) {
        var t = CrossRefs.target(m.type());
        if (t.isPresent() && refs.hasStruct(t.get())) return Pages.fromPage(Pages.struct(t.get()));
        return "#f-" + m.name();
    }

    private static void fieldTable(StructLayout s, CrossRefs refs, StringBuilder sb) {
        sb.append("<h2>Fields</h2>\n<table class=\"fields\">\n<thead><tr><th>offset</th><th>bits</th><th>name</th><th>type</th>"
                + "<th>access</th><th>capability</th><th>since</th><th>description</th></tr></thead>\n<tbody>\n");
        for (Member m : s.members()) {
            sb.append("<tr id=\"f-").append(Html.esc(m.name())).append('"').append(m.reserved() ? " class=\"rsvd\"" : "").append('>');
            sb.append("<td class=\"pos\">").append(Html.esc(m.prmPosition())).append("</td>");
            sb.append("<td class=\"num\">").append(m.bitWidth()).append("</td>");
            sb.append("<td class=\"name\">").append(Html.esc(m.name())).append("</td>");
            sb.append("<td>").append(m.reserved() ? "" : type(m, refs)).append("</td>");
            sb.append("<td>").append(m.reserved() ? "" : m.access().name().toLowerCase(java.util.Locale.ROOT)).append("</td>");
            sb.append("<td>").append(m.capability().map(c -> Html.esc(c.struct().name() + "." + c.field())).orElse("")).append("</td>");
            sb.append("<td>").append(Html.esc(m.doc().since())).append("</td>");
            sb.append("<td>").append(description(m)).append("</td></tr>\n");
        }
        sb.append("</tbody>\n</table>\n");
    }

    private static String type(Member m, CrossRefs refs) {
        StringBuilder t = new StringBuilder();
        var target = CrossRefs.target(m.type());
        String typeName = BitDiagram.typeName(m.type());
        if (target.isPresent() && refs.hasStruct(target.get())) {
            t.append("<a href=\"").append(Html.esc(Pages.fromPage(Pages.struct(target.get())))).append("\">").append(Html.esc(typeName)).append("</a>");
        } else {
            t.append(Html.esc(typeName));
        }
        m.enumType().ifPresent(e -> t.append(", enum ").append(enumLink(e, refs)));
        m.flagsType().ifPresent(e -> t.append(", flags ").append(enumLink(e, refs)));
        return t.toString();
    }

    static String enumLink(QualifiedName e, CrossRefs refs) {
        if (!refs.hasEnum(e)) return Html.esc(e.name());
        return "<a class=\"enum\" href=\"" + Html.esc(Pages.fromPage(Pages.enumPage(e))) + "\">" + Html.esc(e.name()) + "</a>";
    }

    private static String description(Member m) {
        StringBuilder d = new StringBuilder(Html.esc(m.doc().text()));
        m.variant().ifPresent(v -> note(d, "alternative " + v.alternative() + " of union " + v.union()
                + (v.selector().isEmpty() || v.tag().isEmpty() ? "" : ", when " + v.selector() + " == " + Html.hex(v.tag().getAsLong()))));
        if (!m.selector().isEmpty()) note(d, "alternative chosen by " + m.selector());
        Constraints c = m.constraints();
        if (!m.reserved()) {
            if (c.mustBeZero()) note(d, "must be zero");
            if (c.min().isPresent() || c.max().isPresent()) {
                note(d, (c.log2() ? "log2 range " : "range ") + (c.min().isPresent() ? c.min().getAsLong() : "") + ".."
                        + (c.max().isPresent() ? c.max().getAsLong() : ""));
            } else if (c.log2()) {
                note(d, "log2 of a size");
            }
            if (c.powerOfTwo()) note(d, "power of two");
        }
        if (!m.doc().prmRef().isEmpty()) note(d, m.doc().prmRef());
        return d.toString();
    }

    private static void note(StringBuilder d, String text) {
        if (d.length() > 0) d.append(' ');
        d.append("<span class=\"note\">").append(Html.esc(text)).append("</span>");
    }

    /** The joined fields: each whole value with the bits every part holds (the parts link to their rows). */
    private static void joins(StructLayout s, StringBuilder sb) {
        if (s.joins().isEmpty()) return;
        sb.append("<h2>Joined fields</h2>\n<table class=\"joins\">\n<thead><tr><th>field</th><th>bits</th><th>parts</th><th>description</th></tr></thead>\n<tbody>\n");
        for (io.prmkit.dsl.ir.Join j : s.joins()) {
            sb.append("<tr id=\"j-").append(Html.esc(j.name())).append("\"><td class=\"name\">").append(Html.esc(j.name())).append("</td><td class=\"num\">")
                    .append(j.bitWidth()).append("</td><td>");
            for (int i = 0; i < j.parts().size(); i++) {
                io.prmkit.dsl.ir.Join.Part p = j.parts().get(i);
                int hi = p.shift() + p.width() - 1;
                sb.append(i == 0 ? "" : ", ").append("<a href=\"#f-").append(Html.esc(p.field())).append("\">").append(Html.esc(p.field()))
                        .append("</a> [").append(hi).append(hi == p.shift() ? "" : ":" + p.shift()).append("]");
            }
            int low = j.parts().get(j.parts().size() - 1).shift();
            if (low > 0) sb.append(", [").append(low - 1).append(low == 1 ? "" : ":0").append("] zero");
            sb.append("</td><td>").append(Html.esc(j.doc().text()));
            j.enumType().ifPresent(e -> sb.append(" <a href=\"").append(Html.esc(Pages.fromPage(Pages.enumPage(e)))).append("\">").append(Html.esc(e.name())).append("</a>"));
            sb.append("</td></tr>\n");
        }
        sb.append("</tbody>\n</table>\n");
    }

    private static void rules(StructLayout s, StringBuilder sb) {
        if (s.rules().isEmpty()) return;
        sb.append("<h2>Rules</h2>\n<table class=\"rules\">\n<thead><tr><th>rule</th><th>must hold</th><th>message</th></tr></thead>\n<tbody>\n");
        for (Rule r : s.rules()) {
            sb.append("<tr><td class=\"name\">").append(Html.esc(r.name())).append("</td><td><code>").append(Html.esc(r.condition().source()))
                    .append("</code></td><td>").append(Html.esc(r.message())).append("</td></tr>\n");
        }
        sb.append("</tbody>\n</table>\n");
    }

    private static void related(StructLayout s, CrossRefs refs, StringBuilder sb) {
        Set<QualifiedName> enums = new LinkedHashSet<>();
        Set<QualifiedName> embeds = new LinkedHashSet<>();
        for (Member m : s.members()) {
            m.enumType().ifPresent(enums::add);
            m.flagsType().ifPresent(enums::add);
            CrossRefs.target(m.type()).filter(refs::hasStruct).ifPresent(embeds::add);
        }
        if (!enums.isEmpty()) {
            sb.append("<h2>Enums used</h2>\n<ul class=\"uses\">\n");
            for (QualifiedName e : enums) sb.append("<li>").append(enumLink(e, refs)).append("</li>\n");
            sb.append("</ul>\n");
        }
        if (!embeds.isEmpty()) {
            sb.append("<h2>Embeds</h2>\n<ul class=\"embeds\">\n");
            for (QualifiedName e : embeds) {
                sb.append("<li><a href=\"").append(Html.esc(Pages.fromPage(Pages.struct(e)))).append("\">").append(Html.esc(e.name())).append("</a></li>\n");
            }
            sb.append("</ul>\n");
        }
        sb.append("<h2>Embedded by</h2>\n");
        if (refs.embeddedBy(s.name()).isEmpty()) {
            sb.append("<p class=\"none\">No structure of the spec embeds " + Html.esc(s.name().name()) + ".</p>\n");
            return;
        }
        sb.append("<ul class=\"backlinks\">\n");
        for (CrossRefs.Use u : refs.embeddedBy(s.name())) {
            sb.append("<li><a href=\"").append(Html.esc(Pages.fromPage(Pages.struct(u.owner().name())) + "#f-" + u.member().name())).append("\">")
                    .append(Html.esc(u.owner().name().name() + "." + u.member().name())).append("</a> <span class=\"pos\">")
                    .append(Html.esc(u.member().prmPosition())).append("</span></li>\n");
        }
        sb.append("</ul>\n");
    }
}

package io.prmkit.doc;

import io.prmkit.dsl.Words;
import io.prmkit.dsl.ir.EnumLayout;
import java.util.Locale;

/** One enum or flag set: its values with names, meanings and likely causes, and the fields that use it. */
final class EnumPage {
    private EnumPage() {
    }

    static String render(EnumLayout e, CrossRefs refs, String siteTitle) {
        boolean flags = e.kind() == EnumLayout.Kind.FLAGS;
        String kind = flags ? "flag set" : "enum";
        StringBuilder sb = new StringBuilder();
        Html.head(sb, e.name().name() + " \u2014 " + siteTitle, "../style.css");
        sb.append("</head>\n<body class=\"enum\">\n<nav><a href=\"../index.html\">").append(Html.esc(siteTitle)).append("</a> / ")
                .append(kind).append("</nav>\n");
        sb.append("<h1 id=\"name\">").append(Html.esc(e.name().name())).append("</h1>\n<p class=\"meta\">").append(kind)
                .append(" <code>").append(Html.esc(e.name().toString())).append("</code>");
        if (e.width() > 0) sb.append(", ").append(Words.plural(e.width(), "bit"));
        sb.append(", ").append(Words.plural(e.values().size(), "value"));
        if (!e.doc().prmRef().isEmpty()) sb.append(", ").append(Html.esc(e.doc().prmRef()));
        sb.append(", <span class=\"src\">").append(Html.esc(e.location().file() + ":" + e.location().line())).append("</span></p>\n");
        if (!e.doc().text().isEmpty()) sb.append("<p class=\"doc\">").append(Html.esc(e.doc().text())).append("</p>\n");

        boolean details = e.values().stream().anyMatch(v -> !v.detail().isEmpty());
        boolean since = e.values().stream().anyMatch(v -> !v.doc().since().isEmpty());
        sb.append("<h2>Values</h2>\n<table class=\"values\">\n<thead><tr>").append(flags ? "<th>bit</th><th>mask</th>" : "<th>value</th>")
                .append("<th>name</th><th>meaning</th>").append(details ? "<th>likely cause</th>" : "").append(since ? "<th>since</th>" : "")
                .append("</tr></thead>\n<tbody>\n");
        for (EnumLayout.EnumValue v : e.values()) {
            sb.append("<tr id=\"v-").append(Html.esc(v.name())).append("\">");
            if (flags) {
                sb.append("<td class=\"num\">").append(v.value()).append("</td><td class=\"num\">")
                        .append(v.value() < 64 ? Html.hex(1L << v.value()) : "").append("</td>");
            } else {
                sb.append("<td class=\"num\">").append(Html.hex(v.value())).append("</td>");
            }
            sb.append("<td class=\"name\">").append(Html.esc(v.name())).append("</td><td>").append(Html.esc(v.doc().text())).append("</td>");
            if (details) sb.append("<td class=\"detail\">").append(Html.esc(v.detail())).append("</td>");
            if (since) sb.append("<td>").append(Html.esc(v.doc().since())).append("</td>");
            sb.append("</tr>\n");
        }
        sb.append("</tbody>\n</table>\n");

        sb.append("<h2>Used by</h2>\n");
        if (refs.enumUsers(e.name()).isEmpty()) {
            sb.append("<p class=\"none\">No field of the spec is bound to this ").append(kind).append(".</p>\n");
        } else {
            sb.append("<ul class=\"backlinks\">\n");
            for (CrossRefs.Use u : refs.enumUsers(e.name())) {
                sb.append("<li><a href=\"").append(Html.esc(Pages.fromPage(Pages.struct(u.owner().name())) + "#f-" + u.member().name()))
                        .append("\">").append(Html.esc(u.owner().name().name() + "." + u.member().name())).append("</a> <span class=\"pos\">")
                        .append(Html.esc(u.member().prmPosition())).append("</span></li>\n");
            }
            sb.append("</ul>\n");
        }
        sb.append("</body>\n</html>\n");
        return sb.toString();
    }

    static String lower(String s) {
        return s.toLowerCase(Locale.ROOT);
    }
}

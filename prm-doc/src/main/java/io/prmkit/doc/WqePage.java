package io.prmkit.doc;

import io.prmkit.dsl.Words;
import io.prmkit.dsl.ir.Rule;
import io.prmkit.dsl.ir.StructLayout;
import io.prmkit.dsl.ir.WqeLayout;
import java.util.Map;

/**
 * One WQE drawn as its segments, the way the PRM's WQE figures stack them: a strip of 16-byte units
 * (DS) with each segment's span (a structure's units; inline bytes and repeated runs as many as the
 * WQE holds), then the segments as a table (offset where it is fixed, structure linked, condition,
 * size), the size rule, the values the rules need from the device, and the rules.
 */
final class WqePage {
    private WqePage() {
    }

    static String render(WqeLayout w, Map<io.prmkit.dsl.ir.QualifiedName, StructLayout> structs, String siteTitle) {
        StringBuilder sb = new StringBuilder();
        Html.head(sb, w.name().name() + " \u2014 " + siteTitle, "../style.css");
        sb.append("</head>\n<body class=\"wqe\">\n<nav><a href=\"../index.html\">").append(Html.esc(siteTitle)).append("</a> / WQE</nav>\n");
        sb.append("<h1 id=\"name\">").append(Html.esc(w.name().name())).append("</h1>\n<p class=\"meta\">WQE <code>")
                .append(Html.esc(w.name().toString())).append("</code>, ").append(Words.plural(w.segments().size(), "segment"));
        if (!w.doc().prmRef().isEmpty()) sb.append(", ").append(Html.esc(w.doc().prmRef()));
        sb.append(", <span class=\"src\">").append(Html.esc(w.location().file() + ":" + w.location().line())).append("</span></p>\n");
        if (!w.doc().text().isEmpty()) sb.append("<p class=\"doc\">").append(Html.esc(w.doc().text())).append("</p>\n");

        // the strip: one cell per segment, as wide as its 16-byte units when fixed
        sb.append("<div class=\"wqe-strip\" role=\"img\" aria-label=\"segments of ").append(Html.esc(w.name().name())).append("\">\n");
        long at = 0;
        boolean fixed = true;
        for (WqeLayout.Segment s : w.segments()) {
            long units = 0;
            if (s.kind() == WqeLayout.Kind.STRUCT && s.size().isEmpty()) {
                StructLayout st = structs.get(s.struct().orElseThrow());
                units = st == null ? 0 : (st.sizeBytes() + WqeLayout.UNIT - 1) / WqeLayout.UNIT;
            }
            String cls = s.kind() == WqeLayout.Kind.STRUCT ? (s.when().isPresent() ? "seg opt" : "seg") : s.kind() == WqeLayout.Kind.INLINE ? "seg inl" : "seg rep";
            sb.append("<div class=\"").append(cls).append("\" style=\"flex-grow:").append(Math.max(1, units)).append("\"><span class=\"n\">")
                    .append(Html.esc(s.name())).append("</span><span class=\"u\">")
                    .append(fixed && units > 0 ? Html.hex2(at) + ", " + Words.plural(units, "DS unit") : s.kind() == WqeLayout.Kind.REPEATED ? "to the end" : "variable")
                    .append("</span></div>\n");
            if (units > 0 && s.when().isEmpty() && fixed) at += units * WqeLayout.UNIT;
            else fixed = false;
        }
        sb.append("</div>\n<p class=\"legend\"><span class=\"seg\">structure</span><span class=\"seg opt\">optional</span>"
                + "<span class=\"seg inl\">inline bytes, padded to 16</span><span class=\"seg rep\">repeated to the end</span> one DS = 16 bytes</p>\n");

        sb.append("<h2>Segments</h2>\n<table class=\"fields\">\n<thead><tr><th>offset</th><th>segment</th><th>what</th><th>present</th><th>bytes</th>"
                + "<th>description</th></tr></thead>\n<tbody>\n");
        at = 0;
        fixed = true;
        for (WqeLayout.Segment s : w.segments()) {
            String offset = fixed ? Html.hex2(at) : "";
            row(sb, offset, s, structs, "");
            for (WqeLayout.Segment a : s.alternatives()) row(sb, "", a, structs, s.name() + ".");
            if (fixed && s.kind() == WqeLayout.Kind.STRUCT && s.when().isEmpty() && s.size().isEmpty() && structs.get(s.struct().get()) != null) {
                at += (structs.get(s.struct().get()).sizeBytes() + WqeLayout.UNIT - 1) / WqeLayout.UNIT * WqeLayout.UNIT;
            } else {
                fixed = false;
            }
        }
        sb.append("</tbody>\n</table>\n");
        sb.append("<p><b>Size</b>: <code>").append(Html.esc(w.size().source())).append("</code> bytes \u2014 ").append(Html.esc(w.sizeMessage())).append("</p>\n");
        w.match().ifPresent(m -> sb.append("<p><b>Describes</b> the WQEs where <code>").append(Html.esc(m.source())).append("</code></p>\n"));

        if (!w.givens().isEmpty()) {
            sb.append("<h2>From the device</h2>\n<table class=\"values\">\n<thead><tr><th>name</th><th>what</th><th>description</th></tr></thead>\n<tbody>\n");
            for (WqeLayout.Given g : w.givens()) {
                sb.append("<tr id=\"g-").append(Html.esc(g.name())).append("\"><td class=\"name\">").append(Html.esc(g.name())).append("</td><td>");
                if (g.lookup().isPresent()) {
                    sb.append("a <a href=\"").append(Html.esc(Pages.fromPage(Pages.struct(g.lookup().get())))).append("\">")
                            .append(Html.esc(g.lookup().get().name())).append("</a> by key: <code>").append(Html.esc(g.name())).append("(KEY).FIELD</code>");
                } else if (g.enumType().isPresent()) {
                    sb.append("a value of <a href=\"").append(Html.esc(Pages.fromPage(Pages.enumPage(g.enumType().get())))).append("\">")
                            .append(Html.esc(g.enumType().get().name())).append("</a>");
                } else {
                    sb.append("a value");
                }
                sb.append("</td><td>").append(Html.esc(g.doc())).append("</td></tr>\n");
            }
            sb.append("</tbody>\n</table>\n");
        }
        sb.append("<h2>Rules</h2>\n<table class=\"rules\">\n<thead><tr><th>rule</th><th>must hold</th><th>when broken</th></tr></thead>\n<tbody>\n");
        for (Rule r : w.rules()) {
            sb.append("<tr id=\"r-").append(Html.esc(r.name())).append("\"><td class=\"name\">").append(Html.esc(r.name())).append("</td><td><code>")
                    .append(Html.esc(r.condition().source())).append("</code></td><td>").append(Html.esc(r.message())).append("</td></tr>\n");
        }
        sb.append("</tbody>\n</table>\n</body>\n</html>\n");
        return sb.toString();
    }

    private static void row(StringBuilder sb, String offset, WqeLayout.Segment s, Map<io.prmkit.dsl.ir.QualifiedName, StructLayout> structs, String prefix) {
        sb.append("<tr id=\"s-").append(Html.esc(s.name())).append("\"><td class=\"num\">").append(offset).append("</td><td class=\"name\">")
                .append(Html.esc(prefix + s.name())).append("</td><td>");
        switch (s.kind()) {
            case STRUCT -> {
                StructLayout st = structs.get(s.struct().orElseThrow());
                sb.append("<a href=\"").append(Html.esc(Pages.fromPage(Pages.struct(s.struct().get())))).append("\">").append(Html.esc(s.struct().get().name()))
                        .append("</a>");
                if (st != null && s.size().isEmpty()) sb.append(" (").append(Html.hex(st.sizeBytes())).append(" bytes)");
            }
            case INLINE -> sb.append("inline bytes").append(s.at().map(a -> ", from " + Html.esc(a.segment() + "." + a.member()) + " (" + Html.hex2(a.byteOffset())
                    + " of " + Html.esc(a.segment()) + ")").orElse(""));
            case REPEATED -> sb.append("repeated to the end of the WQE, each element the first alternative that applies:");
        }
        sb.append("</td><td>").append(s.when().map(e -> "when <code>" + Html.esc(e.source()) + "</code>").orElse(s.kind() == WqeLayout.Kind.REPEATED ? "" : "always"))
                .append("</td><td>").append(s.size().map(e -> "<code>" + Html.esc(e.source()) + "</code>" + (s.kind() == WqeLayout.Kind.INLINE ? ", padded to 16" : "")).orElse(""))
                .append("</td><td>").append(Html.esc(s.doc())).append("</td></tr>\n");
    }
}

package io.prmkit.doc;

import io.prmkit.dsl.ir.CommandLayout;
import io.prmkit.dsl.ir.EnumLayout;
import io.prmkit.dsl.ir.LayoutModel;
import io.prmkit.dsl.ir.RegisterLayout;
import java.util.Comparator;
import java.util.List;

/**
 * The spec's commands and registers ({@code commands.html}): per command its opcode, input and output
 * structures (linked), op_mod values and the oldest input length a device accepts; per register its
 * id, layout (linked) and the command that carries it. Sorted by opcode and id, as the PRM lists them.
 */
final class CommandsPage {
    static final String PATH = "commands.html";

    private CommandsPage() {
    }

    static String render(LayoutModel model, String title) {
        StringBuilder sb = new StringBuilder();
        Html.head(sb, "Commands and registers \u2014 " + title, "style.css");
        sb.append("</head>\n<body class=\"commands\">\n<nav><a href=\"index.html\">").append(Html.esc(title)).append("</a> / commands</nav>\n");
        sb.append("<h1>Commands and registers</h1>\n<p class=\"meta\">").append(model.commands().size()).append(" commands, ")
                .append(model.registers().size()).append(" registers</p>\n");

        sb.append("<h2 id=\"commands\">Commands</h2>\n<table class=\"commands\">\n<thead><tr><th>opcode</th><th>command</th><th>input</th>"
                + "<th>output</th><th>op_mod</th><th>oldest input</th><th>meaning</th></tr></thead>\n<tbody>\n");
        List<CommandLayout> commands = model.commands().stream()
                .sorted(Comparator.comparingLong(CommandLayout::opcode).thenComparing(CommandLayout::name)).toList();
        for (CommandLayout c : commands) {
            sb.append("<tr id=\"c-").append(Html.esc(c.name().name())).append("\"><td class=\"num\">").append(Html.hex(c.opcode()))
                    .append("</td><td class=\"name\">").append(Html.esc(c.name().name())).append("</td><td>")
                    .append(link(Pages.struct(c.in()), c.in().name())).append(" <span class=\"m\">").append(Html.hex(c.inBytes()))
                    .append(" bytes</span></td><td>").append(link(Pages.struct(c.out()), c.out().name())).append(" <span class=\"m\">")
                    .append(Html.hex(c.outBytes())).append(" bytes</span></td><td>");
            opMods(sb, c);
            sb.append("</td><td class=\"num\">").append(c.oldestInputBytes() == c.inBytes() ? "" : Html.hex(c.oldestInputBytes()) + " bytes")
                    .append("</td><td>").append(Html.esc(c.doc().text()));
            if (!c.doc().prmRef().isEmpty()) sb.append(" <span class=\"m\">").append(Html.esc(c.doc().prmRef())).append("</span>");
            if (c.registers().isPresent()) sb.append(" <span class=\"m\">carries the registers below</span>");
            sb.append("</td></tr>\n");
        }
        sb.append("</tbody>\n</table>\n");

        if (!model.registers().isEmpty()) {
            sb.append("<h2 id=\"registers\">Registers</h2>\n<table class=\"registers\">\n<thead><tr><th>id</th><th>register</th><th>layout</th>"
                    + "<th>carried by</th><th>meaning</th></tr></thead>\n<tbody>\n");
            List<RegisterLayout> registers = model.registers().stream()
                    .sorted(Comparator.comparingLong(RegisterLayout::id).thenComparing(RegisterLayout::name)).toList();
            for (RegisterLayout r : registers) {
                sb.append("<tr id=\"r-").append(Html.esc(r.name().name())).append("\"><td class=\"num\">").append(Html.hex(r.id()))
                        .append("</td><td class=\"name\">").append(Html.esc(r.name().name())).append("</td><td>")
                        .append(link(Pages.struct(r.layout()), r.layout().name())).append("</td><td><a href=\"#c-")
                        .append(Html.esc(r.command().name())).append("\">").append(Html.esc(r.command().name())).append("</a></td><td>")
                        .append(Html.esc(r.doc().text())).append("</td></tr>\n");
            }
            sb.append("</tbody>\n</table>\n");
        }
        sb.append("</body>\n</html>\n");
        return sb.toString();
    }

    /** The op_mod values: the enum's page when they come from one, else the values named in the command. */
    private static void opMods(StringBuilder sb, CommandLayout c) {
        if (c.opModEnum().isPresent()) sb.append(link(Pages.enumPage(c.opModEnum().get()), c.opModEnum().get().name())).append(": ");
        for (int i = 0; i < c.opMods().size(); i++) {
            EnumLayout.EnumValue v = c.opMods().get(i);
            sb.append(i == 0 ? "" : ", ").append("<code>").append(Html.esc(v.name())).append("</code>=").append(Html.hex(v.value()));
        }
    }

    private static String link(String href, String text) {
        return "<a href=\"" + Html.esc(href) + "\">" + Html.esc(text) + "</a>";
    }
}

package io.prmkit.doc;

import io.prmkit.dsl.ir.EnumLayout;
import io.prmkit.dsl.ir.LayoutModel;
import io.prmkit.dsl.ir.StructLayout;
import io.prmkit.pipeline.OutputFile;
import io.prmkit.pipeline.OutputSync;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * A browsable PRM reference for a layout model: {@code index.html} (every structure, enum and
 * flag set, with a search box), one page per structure under {@code structs/} with its bit
 * diagram, one page per enum or flag set under {@code enums/}, one per WQE under {@code wqes/} (its segments), {@code style.css} and
 * {@code search.js}. Plain HTML and CSS that reads from {@code file://}; the output depends on
 * the model only (no dates, sorted names, {@code \n} line endings), so equal specs give
 * byte-identical sites.
 */
public final class DocSite {
    private DocSite() {
    }

    /** Every file of the site, by path relative to the site's root, rendered in memory. */
    public static SortedMap<String, String> render(LayoutModel model, String title) {
        CrossRefs refs = new CrossRefs(model);
        SortedMap<String, String> files = new TreeMap<>();
        files.put("index.html", IndexPage.render(model, title));
        files.put("style.css", resource("style.css"));
        files.put("search.js", resource("search.js"));
        if (!model.commands().isEmpty()) files.put(CommandsPage.PATH, CommandsPage.render(model, title));
        for (StructLayout s : model.structs()) files.put(Pages.struct(s.name()), StructPage.render(s, refs, title));
        for (EnumLayout e : model.enums()) files.put(Pages.enumPage(e.name()), EnumPage.render(e, refs, title));
        java.util.Map<io.prmkit.dsl.ir.QualifiedName, StructLayout> structs = new java.util.HashMap<>();
        model.structs().forEach(s -> structs.put(s.name(), s));
        for (io.prmkit.dsl.ir.WqeLayout w : model.wqes()) files.put(Pages.wqe(w.name()), WqePage.render(w, structs, title));
        return files;
    }

    /** The list of files the last {@link #write} put into a folder, so the next one can remove pages that are gone. */
    public static final String MANIFEST = ".prmkit-doc";

    /**
     * Renders the site and writes it under {@code dir} (created if needed) through {@link OutputSync}:
     * everything is rendered before the first file is written, changed pages are staged and renamed
     * into place only when all of them are written (a full disk leaves the previous site as it was,
     * never a mix), pages whose bytes are already right are not touched, and pages an earlier run
     * wrote (listed in {@value #MANIFEST}) that the site no longer has, e.g. of a removed structure,
     * are deleted; other files in {@code dir} are left alone.
     *
     * @return the number of files in the site
     */
    public static int write(LayoutModel model, String title, Path dir) throws IOException {
        SortedMap<String, String> files = render(model, title);
        List<OutputFile> out = new ArrayList<>();
        files.forEach((path, text) -> out.add(new OutputFile(path, text)));
        OutputSync.applyWithManifest(dir, out, MANIFEST, "", DocSite::isOurs);
        return files.size();
    }

    /** Only names the site itself produces: never a path that leaves the folder or points elsewhere. */
    private static boolean isOurs(String name) {
        return name.matches("(index\\.html|commands\\.html|style\\.css|search\\.js|(structs|enums|wqes)/[A-Za-z0-9_.]+\\.html)") && !name.contains("..");
    }

    static String resource(String name) {
        try (InputStream in = DocSite.class.getResourceAsStream(name)) {
            if (in == null) throw new IllegalStateException("missing resource io/prmkit/doc/" + name);
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}

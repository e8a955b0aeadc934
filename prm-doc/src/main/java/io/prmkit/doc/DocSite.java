package io.prmkit.doc;

import io.prmkit.dsl.ir.EnumLayout;
import io.prmkit.dsl.ir.LayoutModel;
import io.prmkit.dsl.ir.StructLayout;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * A browsable PRM reference for a layout model: {@code index.html} (every structure, enum and
 * flag set, with a search box), one page per structure under {@code structs/} with its bit
 * diagram, one page per enum or flag set under {@code enums/}, {@code style.css} and
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
        for (StructLayout s : model.structs()) files.put(Pages.struct(s.name()), StructPage.render(s, refs, title));
        for (EnumLayout e : model.enums()) files.put(Pages.enumPage(e.name()), EnumPage.render(e, refs, title));
        return files;
    }

    /** The list of files the last {@link #write} put into a folder, so the next one can remove pages that are gone. */
    public static final String MANIFEST = ".prmkit-doc";

    /**
     * Renders the site and writes it under {@code dir} (created if needed). Everything is rendered
     * before the first file is written, so a failure to render leaves no half-written site. Pages
     * written by an earlier run (listed in {@value #MANIFEST}) that the site no longer has, e.g.
     * of a removed structure, are deleted; other files in {@code dir} are left alone.
     *
     * @return the number of files written
     */
    public static int write(LayoutModel model, String title, Path dir) throws IOException {
        SortedMap<String, String> files = render(model, title);
        Path manifest = dir.resolve(MANIFEST);
        if (Files.isRegularFile(manifest)) {
            for (String old : Files.readAllLines(manifest, StandardCharsets.UTF_8)) {
                if (!files.containsKey(old) && isOurs(old)) Files.deleteIfExists(dir.resolve(old));
            }
        }
        for (Map.Entry<String, String> f : files.entrySet()) {
            Path p = dir.resolve(f.getKey());
            Files.createDirectories(p.getParent());
            Files.writeString(p, f.getValue(), StandardCharsets.UTF_8);
        }
        Files.writeString(manifest, String.join("\n", files.keySet()) + "\n", StandardCharsets.UTF_8);
        return files.size();
    }

    /** Only names the site itself produces: never a path that leaves the folder or points elsewhere. */
    private static boolean isOurs(String name) {
        return name.matches("(index\\.html|style\\.css|search\\.js|(structs|enums)/[A-Za-z0-9_.]+\\.html)") && !name.contains("..");
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

package io.prmkit.cli;

import io.prmkit.doc.DiffPage;
import io.prmkit.dsl.diff.DiffRenderer;
import io.prmkit.dsl.diff.DiffReport;
import io.prmkit.dsl.diff.LayoutDiff;
import io.prmkit.dsl.importer.ImportOptions;
import io.prmkit.dsl.ir.LayoutModel;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code prmkit diff OLD NEW}: what changed between two layouts, and whether it breaks anything. */
@Command(
        name = "diff",
        mixinStandardHelpOptions = true,
        description = {
            "Compares two revisions of a spec, structure by structure: fields added, removed, moved, resized, "
                    + "retyped or renamed (same bits, new name, e.g. a reserved range that became a field), size changes, "
                    + "and enum values and constants added, removed or changed.",
            "OLD and NEW are each a .prm file, a folder of .prm files, an mlx5_ifc-style C header (imported first, "
                    + "with the headers it #includes from its folder), or a folder holding mlx5_ifc*.h headers.",
            "Breaking: fields removed, moved, resized, retyped or renamed (unless they were reserved); structures "
                    + "removed or shrunk; enum values and constants removed or changed; a field's enum or flags binding removed "
                    + "or changed, a writable field made read-only, a range, mbz or power-of-two constraint added or narrowed. "
                    + "Everything else is additive."},
        exitCodeList = {
            "0:no breaking change (identical, or additive changes only)",
            "1:errors in the input (unreadable, import or compile errors)",
            "3:breaking changes"})
public final class DiffCommand implements Callable<Integer> {
    /** Exit code when NEW breaks users of OLD (2 is the usage error, as in every command). */
    static final int BREAKING = 3;

    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "OLD", description = "The older revision.")
    Path older;

    @Parameters(index = "1", paramLabel = "NEW", description = "The newer revision.")
    Path newer;

    @Option(names = "--format", paramLabel = "FORMAT", defaultValue = "text",
            description = "text, json, markdown or html (default: ${DEFAULT-VALUE}). html: one self-contained page drawing each "
                    + "changed structure old and new, with added, removed, moved and resized fields marked.")
    String format;

    /** HTML comes from prm-doc (it draws the diagrams), the other formats from prm-dsl's DiffRenderer. */
    private boolean html() {
        return format.equalsIgnoreCase("html");
    }

    @Option(names = "--package", paramLabel = "PKG", defaultValue = "mlx5",
            description = "Spec package for imported headers (default: ${DEFAULT-VALUE}).")
    String packageName;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        DiffRenderer.Format f;
        ImportOptions options;
        try {
            // html is drawn by prm-doc, the other formats by DiffRenderer, whose error names html too
            f = html() ? DiffRenderer.Format.TEXT : DiffRenderer.Format.parse(format, List.of("html"));
            options = new ImportOptions(packageName);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage());
        }
        try {
            LayoutModel a = LayoutInput.load(older, options, spec);
            LayoutModel b = LayoutInput.load(newer, options, spec);
            DiffReport report = LayoutDiff.diff(a, b);
            out.print(html() ? DiffPage.render(a, b, report, older.toString(), newer.toString()) : DiffRenderer.render(report, f));
            out.flush();
            return report.isBreaking() ? BREAKING : PrmkitCli.OK;
        } catch (SpecInput.Failed e) {
            return PrmkitCli.INPUT_ERROR;
        }
    }
}

package io.prmkit.cli;

import io.prmkit.dsl.Severity;
import io.prmkit.dsl.SourceFile;
import io.prmkit.dsl.importer.IfcImporter;
import io.prmkit.dsl.importer.ImportOptions;
import io.prmkit.dsl.importer.ImportResult;
import io.prmkit.dsl.ir.LayoutModel;
import io.prmkit.dsl.ir.Member;
import io.prmkit.dsl.ir.StructLayout;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code prmkit import-ifc HEADER... -o DIR}: mlx5_ifc.h-style C headers to reviewable .prm files. */
@Command(
        name = "import-ifc",
        mixinStandardHelpOptions = true,
        exitCodeOnInvalidInput = 1,
        exitCodeOnExecutionException = 1,
        description = {
            "Converts headers written in the Linux mlx5_ifc convention (one u8 array element per bit:",
            "struct mlx5_ifc_X_bits { u8 field[0x20]; ... }) into .prm files, one per header, keeping every",
            "structure, field and enum name. Headers a header #includes from its own folder come along.",
            "What cannot be translated is reported with its header line; then nothing is written.",
            "The output is compiled before it is written (unless --no-check)."},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:imported", "1:error (a header could not be read or translated, or the result does not compile)"})
public final class ImportIfcCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Parameters(arity = "1..*", paramLabel = "HEADER", description = "mlx5_ifc-style C headers.")
    List<Path> headers;

    @Option(names = {"-o", "--output"}, required = true, paramLabel = "DIR", description = "Folder for the .prm files.")
    Path output;

    @Option(names = "--package", paramLabel = "PKG", defaultValue = "mlx5",
            description = "Spec package of the imported declarations (default: ${DEFAULT-VALUE}).")
    String packageName;

    @Option(names = "--no-check", description = "Write the files without compiling them first.")
    boolean noCheck;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        ImportResult result;
        try {
            result = IfcImporter.importHeaders(headers, new ImportOptions(packageName));
        } catch (IllegalArgumentException e) {
            err.println("prmkit import-ifc: " + e.getMessage());
            return 1;
        } catch (NoSuchFileException e) {
            err.println("prmkit import-ifc: " + e.getFile() + ": no such file");
            return 1;
        } catch (IOException e) {
            err.println("prmkit import-ifc: " + e.getMessage());
            return 1;
        }
        printNotes(result, err);
        long errors = count(result, Severity.ERROR);
        if (errors > 0) {
            err.println("prmkit import-ifc: " + errors + " error" + (errors == 1 ? "" : "s") + "; nothing written");
            return 1;
        }
        String counts = "";
        if (!noCheck) {
            try {
                LayoutModel model = LayoutInput.compile(result.dslFiles(), "imported spec", err);
                counts = counts(model);
            } catch (LayoutInput.Failed e) {
                err.println("prmkit import-ifc: the imported spec does not compile (an importer bug: please report it with the header)");
                return 1;
            }
        }
        try {
            Files.createDirectories(output);
            for (SourceFile f : result.dslFiles()) {
                Path p = output.resolve(f.name());
                Files.writeString(p, f.text(), StandardCharsets.UTF_8);
                out.println("wrote " + p);
            }
        } catch (IOException e) {
            err.println("prmkit import-ifc: cannot write to " + output + ": " + e.getMessage());
            return 1;
        }
        out.println(counts + count(result, Severity.WARNING) + " warnings, " + count(result, Severity.NOTE) + " notes");
        return 0;
    }

    /** Errors with their header line and a caret; warnings and notes on one line each. */
    private static void printNotes(ImportResult result, PrintWriter err) {
        java.util.Map<String, SourceFile> headers = new java.util.HashMap<>();
        for (io.prmkit.dsl.Diagnostic d : result.notes()) {
            if (!d.isError()) {
                err.println(d);
                continue;
            }
            String file = d.location().file();
            if (!headers.containsKey(file)) {
                try {
                    headers.put(file, new SourceFile(file, Files.readString(Path.of(file), StandardCharsets.UTF_8)));
                } catch (IOException | RuntimeException e) {
                    headers.put(file, null); // rendered without the source line
                }
            }
            java.util.Map<String, SourceFile> known = new java.util.HashMap<>();
            headers.forEach((k, v) -> {
                if (v != null) known.put(k, v);
            });
            err.print(io.prmkit.dsl.DiagnosticPrinter.render(d, known));
        }
    }

    private static long count(ImportResult r, Severity s) {
        return r.notes().stream().filter(d -> d.severity() == s).count();
    }

    static String counts(LayoutModel m) {
        long structs = m.structs().stream().filter(s -> !s.isUnion()).count();
        long unions = m.structs().size() - structs;
        long named = 0, reserved = 0;
        for (StructLayout s : m.structs()) {
            for (Member x : s.members()) {
                if (x.reserved()) reserved++;
                else named++;
            }
        }
        return structs + " structs, " + unions + " unions, " + named + " named fields, " + reserved + " reserved ranges, "
                + m.enums().size() + " enums, " + m.constants().size() + " constants; ";
    }
}

package io.prmkit.cli;

import io.prmkit.dsl.Diagnostic;
import io.prmkit.dsl.Severity;
import io.prmkit.dsl.SourceFile;
import io.prmkit.dsl.Words;
import io.prmkit.dsl.importer.IfcImporter;
import io.prmkit.dsl.importer.ImportOptions;
import io.prmkit.dsl.importer.ImportResult;
import io.prmkit.dsl.ir.LayoutModel;
import io.prmkit.dsl.ir.Member;
import io.prmkit.dsl.ir.StructLayout;
import io.prmkit.pipeline.Inputs;
import io.prmkit.pipeline.OutputFile;
import io.prmkit.pipeline.OutputSync;
import java.io.IOException;
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

/** {@code prmkit import-ifc HEADER... -o DIR}: mlx5_ifc.h-style C headers to reviewable .prm files. */
@Command(
        name = "import-ifc",
        mixinStandardHelpOptions = true,
        description = {
            "Converts headers written in the Linux mlx5_ifc convention (one u8 array element per bit: "
                    + "struct mlx5_ifc_X_bits { u8 field[0x20]; ... }) into .prm files, one per header, keeping every "
                    + "structure, field and enum name. Headers that a header #includes from its own folder come along.",
            "What cannot be translated is reported with its header line and column and what to do, and then nothing is "
                    + "written: the import compiles its output before answering, so what it writes always compiles."},
        exitCodeList = {"0:imported", "1:a header could not be read or translated, "
                + "or the files cannot be written; nothing was written"})
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

    /** Kept for scripts written when the check was optional; every import is compiled now. */
    @Option(names = "--no-check", hidden = true, description = "No effect: the import is always compiled.")
    boolean noCheck;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        ImportOptions options;
        try {
            options = new ImportOptions(packageName);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), "--package: " + e.getMessage());
        }
        Inputs.Read read = Inputs.headers(headers);
        if (read.hasProblems()) {
            SpecInput.print(read.problems(), read.files(), err);
            SpecInput.say(spec, err, Words.plural(read.problems().size(), "error") + " reading the headers");
            return PrmkitCli.INPUT_ERROR;
        }
        ImportResult result;
        try (Progress p = Progress.start("import-ifc", () -> "importing " + Words.plural(read.files().size(), "header"))) {
            result = IfcImporter.importSources(read.files(), options);
        }
        printNotes(result, read.files(), err);
        long errors = count(result, Severity.ERROR);
        if (errors > 0) {
            SpecInput.say(spec, err, Words.plural(errors, "error") + "; nothing written");
            return PrmkitCli.INPUT_ERROR;
        }
        String counts = counts(result.model().orElseThrow());
        List<OutputFile> files = result.dslFiles().stream().map(f -> new OutputFile(f.name(), f.text())).toList();
        try {
            OutputSync.apply(output, files, List.of());
        } catch (IOException e) {
            SpecInput.say(spec, err, SpecInput.cannotWrite(output, e) + "; nothing written");
            return PrmkitCli.INPUT_ERROR;
        }
        for (OutputFile f : files) out.println("wrote " + output.resolve(f.relativePath()));
        out.println(counts + Words.plural(count(result, Severity.WARNING), "warning") + ", "
                + Words.plural(count(result, Severity.NOTE), "note"));
        return PrmkitCli.OK;
    }

    /** Errors with their header line and a caret; warnings and notes on one line each. */
    private static void printNotes(ImportResult result, List<SourceFile> headers, PrintWriter err) {
        for (Diagnostic d : result.notes()) {
            if (d.isError()) {
                SpecInput.print(List.of(d), headers, err);
            } else {
                err.println(d);
            }
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
        return Words.plural(structs, "struct") + ", " + Words.plural(unions, "union") + ", " + Words.plural(named, "named field") + ", "
                + Words.plural(reserved, "reserved range") + ", " + Words.plural(m.enums().size(), "enum") + ", "
                + Words.plural(m.constants().size(), "constant") + "; ";
    }
}

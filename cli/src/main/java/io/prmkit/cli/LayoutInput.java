package io.prmkit.cli;

import io.prmkit.dsl.CompileResult;
import io.prmkit.dsl.Diagnostic;
import io.prmkit.dsl.PrmCompiler;
import io.prmkit.dsl.SourceFile;
import io.prmkit.dsl.SpecLoader;
import io.prmkit.dsl.importer.IfcImporter;
import io.prmkit.dsl.importer.ImportOptions;
import io.prmkit.dsl.importer.ImportResult;
import io.prmkit.dsl.ir.LayoutModel;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/**
 * Turns a command-line path into a layout model: a {@code .prm} file or a folder of them is
 * compiled; a C header (or a folder holding {@code mlx5_ifc*.h} and no {@code .prm}) is imported
 * first. Problems are printed with their location and end in {@link Failed}.
 */
final class LayoutInput {
    private LayoutInput() {}

    /** Already reported to the user; the command exits with 1. */
    static final class Failed extends Exception {
        Failed() {
            super(null, null, false, false);
        }
    }

    static LayoutModel load(Path path, ImportOptions options, PrintWriter err) throws Failed {
        List<SourceFile> sources;
        try {
            if (!Files.exists(path)) {
                err.println("prmkit: " + path + ": no such file or directory");
                throw new Failed();
            }
            List<Path> headers = headers(path);
            if (headers.isEmpty()) {
                sources = SpecLoader.load(List.of(path));
                if (sources.isEmpty()) {
                    err.println("prmkit: " + path + ": no .prm files and no mlx5_ifc*.h headers there");
                    throw new Failed();
                }
            } else {
                ImportResult r = IfcImporter.importHeaders(headers, options);
                r.notes().stream().filter(Diagnostic::isError).forEach(d -> err.println(d));
                if (r.hasErrors()) {
                    err.println("prmkit: " + path + ": the header could not be imported");
                    throw new Failed();
                }
                sources = r.dslFiles();
            }
        } catch (NoSuchFileException e) {
            err.println("prmkit: " + e.getFile() + ": no such file");
            throw new Failed();
        } catch (IOException e) {
            err.println("prmkit: " + path + ": " + e.getMessage());
            throw new Failed();
        }
        return compile(sources, path.toString(), err);
    }

    static LayoutModel compile(List<SourceFile> sources, String what, PrintWriter err) throws Failed {
        CompileResult result = PrmCompiler.compile(sources);
        SpecInput.print(result.errors(), sources, err);
        if (result.model().isEmpty()) {
            err.println("prmkit: " + what + ": the spec does not compile");
            throw new Failed();
        }
        return result.model().get();
    }

    /** The headers a path names: itself if it is a .h file, the mlx5_ifc*.h of a folder without .prm files. */
    private static List<Path> headers(Path path) throws IOException {
        if (Files.isRegularFile(path)) {
            return path.getFileName().toString().endsWith(".h") ? List.of(path) : List.of();
        }
        try (Stream<Path> all = Files.walk(path)) {
            if (all.anyMatch(p -> p.getFileName().toString().endsWith(".prm"))) return List.of();
        }
        try (Stream<Path> here = Files.list(path)) {
            return here.filter(p -> {
                String n = p.getFileName().toString();
                return n.startsWith("mlx5_ifc") && n.endsWith(".h") && Files.isRegularFile(p);
            }).sorted().toList();
        }
    }
}

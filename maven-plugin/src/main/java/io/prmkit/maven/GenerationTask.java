package io.prmkit.maven;

import io.prmkit.dsl.Diagnostic;
import io.prmkit.dsl.Words;
import io.prmkit.pipeline.InputFile;
import io.prmkit.pipeline.Inputs;
import io.prmkit.pipeline.OutputSync;
import io.prmkit.dsl.Severity;
import io.prmkit.dsl.SourceFile;
import io.prmkit.dsl.SourceLocation;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * One run of the generator over a source directory, with the incremental rules:
 * <ul>
 *   <li>inputs, settings and tool unchanged, and every recorded output still has the recorded
 *       bytes: nothing is compiled and no file is touched;</li>
 *   <li>anything else: compile all specs, generate all files, write only those whose bytes
 *       changed, delete outputs of the previous run that are no longer produced;</li>
 *   <li>errors: every diagnostic is reported, nothing is written, the previous state stays.</li>
 * </ul>
 * It knows nothing about Maven; the mojo gives it a {@link Request} and a {@link Reporter}.
 */
final class GenerationTask {

    /**
     * @param baseDirectory           spec names in diagnostics are relative to this (the project's basedir)
     * @param sourceDirectoryRequired fail if the source directory is missing (it was configured explicitly)
     * @param toolFingerprint         plugin version (plus code hash for snapshots): a new tool regenerates
     * @param headers                 mlx5_ifc-style C headers to import and generate with the specs
     */
    record Request(
            Path baseDirectory,
            Path sourceDirectory,
            Path outputDirectory,
            Path stateFile,
            List<String> includes,
            List<String> excludes,
            String packagePrefix,
            boolean failOnWarnings,
            boolean sourceDirectoryRequired,
            String toolFingerprint,
            List<Path> headers) {
        Request {
            Objects.requireNonNull(baseDirectory, "baseDirectory == null");
            Objects.requireNonNull(sourceDirectory, "sourceDirectory == null");
            Objects.requireNonNull(outputDirectory, "outputDirectory == null");
            Objects.requireNonNull(stateFile, "stateFile == null");
            includes = includes == null || includes.isEmpty() ? SpecScanner.DEFAULT_INCLUDES : List.copyOf(includes);
            excludes = excludes == null ? List.of() : List.copyOf(excludes);
            packagePrefix = packagePrefix == null ? "" : packagePrefix.trim();
            Objects.requireNonNull(toolFingerprint, "toolFingerprint == null");
            headers = headers == null ? List.of() : List.copyOf(headers);
        }
    }

    enum Status { NO_SPECS, UP_TO_DATE, GENERATED }

    /** What happened; {@code sync} is present only when files were generated. */
    record Outcome(Status status, int specs, int outputs, Optional<OutputSync.Report> sync) {}

    private final SpecPipeline pipeline;
    private final Reporter reporter;

    GenerationTask(SpecPipeline pipeline, Reporter reporter) {
        this.pipeline = Objects.requireNonNull(pipeline, "pipeline == null");
        this.reporter = Objects.requireNonNull(reporter, "reporter == null");
    }

    Outcome run(Request req) throws IOException, GenerationException {
        Path sourceDir = req.sourceDirectory();
        if (req.sourceDirectoryRequired() && !Files.isDirectory(sourceDir)) {
            throw new GenerationException("sourceDirectory " + display(req, sourceDir) + " does not exist");
        }
        for (Path h : req.headers()) {
            if (Files.isDirectory(h)) throw new GenerationException("header " + display(req, h) + " is a folder, not a file");
            if (!Files.isRegularFile(h)) throw new GenerationException("header " + display(req, h) + " does not exist");
        }
        List<String> specPaths = new SpecScanner(req.includes(), req.excludes()).scan(sourceDir);
        Optional<GenerationState> previous = readState(req.stateFile());

        Path outputDir = req.outputDirectory().toAbsolutePath().normalize();
        if (previous.isPresent() && !previous.get().outputDirectory().equals(outputDir.toString())) {
            // outputDirectory was changed: what we generated into the old one is stale as a whole.
            Path oldDir = Path.of(previous.get().outputDirectory());
            OutputSync.Report r = OutputSync.apply(oldDir, List.of(), previous.get().outputs().keySet());
            reporter.info("Deleted " + plural(r.deleted().size(), "file") + " generated into the previous outputDirectory "
                    + display(req, oldDir));
            Files.deleteIfExists(req.stateFile());
            previous = Optional.empty();
        }

        if (specPaths.isEmpty() && req.headers().isEmpty()) {
            reporter.info("No prm specs found in " + display(req, sourceDir));
            // Specs were all removed: their outputs are stale too.
            if (previous.isPresent() && !previous.get().outputs().isEmpty()) {
                OutputSync.Report r = OutputSync.apply(outputDir, List.of(), previous.get().outputs().keySet());
                reporter.info("Deleted " + plural(r.deleted().size(), "stale generated file") + " from "
                        + display(req, outputDir));
            }
            Files.deleteIfExists(req.stateFile());
            return new Outcome(Status.NO_SPECS, 0, 0, Optional.empty());
        }

        List<SpecInput> inputs = new ArrayList<>(specPaths.size());
        int unreadable = 0;
        for (String rel : specPaths) {
            Path file = sourceDir.resolve(rel);
            try {
                inputs.add(new SpecInput(rel, display(req, file), Inputs.read(file, display(req, file)).bytes()));
            } catch (Inputs.Problem e) {
                reporter.error(e.diagnostic().toString());
                unreadable++;
            }
        }
        // Headers with the siblings they #include, each once, read and decoded the shared way.
        Inputs.Read headerRead = Inputs.headers(req.headers(), p -> display(req, p));
        for (Diagnostic d : headerRead.problems()) {
            reporter.error(d.toString());
            unreadable++;
        }
        if (unreadable > 0) throw new GenerationException(plural(unreadable, "error") + " in prm specs");
        List<SpecInput> headers = headerRead.raw().stream().map(h -> new SpecInput(h.name(), h.name(), h.bytes())).toList();
        String digest = InputDigest.compute(req.toolFingerprint(), settings(req), inputs, headers);
        String what = plural(inputs.size(), "spec") + (headers.isEmpty() ? "" : " and " + plural(headers.size(), "header"));

        if (previous.isPresent() && isUpToDate(previous.get(), digest, outputDir)) {
            GenerationState state = previous.get();
            state.warningLines().forEach(reporter::warn);
            failOnWarnings(req, state.warningCount());
            reporter.info("Generated sources are up to date (" + what + ", "
                    + plural(state.outputs().size(), "file") + " in " + display(req, outputDir) + ")");
            return new Outcome(Status.UP_TO_DATE, inputs.size(), state.outputs().size(), Optional.empty());
        }

        List<SourceFile> sources = decode(inputs);
        List<SourceFile> headerSources = headerRead.files();
        SpecPipeline.Result result = pipeline.run(sources, headerSources, req.packagePrefix());
        List<SourceFile> all = new ArrayList<>(sources);
        all.addAll(headerSources);
        Reported reported = report(result, all);
        if (reported.errors() > 0) {
            throw new GenerationException(plural(reported.errors(), "error") + " in prm specs");
        }
        failOnWarnings(req, reported.warnings());

        OutputSync.Report sync = OutputSync.apply(
                outputDir, result.files(),
                previous.isPresent() ? previous.get().outputs().keySet() : Set.of());
        new GenerationState(digest, outputDir.toString(), sync.hashes(), reported.warnings(), reported.warningLines())
                .write(req.stateFile());
        reporter.info("Generated " + plural(result.files().size(), "file") + " from " + what
                + " into " + display(req, outputDir) + ": " + sync.written().size() + " written, "
                + sync.unchanged().size() + " unchanged, " + sync.deleted().size() + " deleted");
        sync.written().forEach(p -> reporter.debug("  wrote " + p));
        sync.deleted().forEach(p -> reporter.debug("  deleted " + p));
        return new Outcome(Status.GENERATED, inputs.size(), result.files().size(), Optional.of(sync));
    }

    private record Reported(int errors, int warnings, List<String> warningLines) {}

    /** Logs every diagnostic, rendered with its source line, at its own level. */
    private Reported report(SpecPipeline.Result result, List<SourceFile> sources) {
        Map<String, SourceFile> byName = new LinkedHashMap<>();
        sources.forEach(s -> byName.put(s.name(), s));
        int errors = 0;
        int warnings = 0;
        List<String> warningLines = new ArrayList<>();
        for (Diagnostic d : result.diagnostics()) {
            List<String> lines = pipeline.render(d, byName).lines().toList();
            switch (d.severity()) {
                case ERROR -> {
                    errors++;
                    lines.forEach(reporter::error);
                }
                case WARNING -> {
                    warnings++;
                    lines.forEach(reporter::warn);
                    warningLines.addAll(lines);
                }
                case NOTE -> lines.forEach(reporter::info);
            }
        }
        for (String problem : result.problems()) {
            errors++;
            reporter.error("error: " + problem);
        }
        return new Reported(errors, warnings, warningLines);
    }

    private Optional<GenerationState> readState(Path stateFile) throws IOException {
        Optional<GenerationState> s = GenerationState.read(stateFile);
        if (s.isEmpty() && Files.exists(stateFile)) {
            reporter.debug("Ignoring unreadable state file " + stateFile);
        }
        return s;
    }

    private boolean isUpToDate(GenerationState state, String digest, Path outputDir) throws IOException {
        if (!state.digest().equals(digest)) {
            reporter.debug("Specs, settings or plugin changed since the last generation");
            return false;
        }
        for (Map.Entry<String, String> out : state.outputs().entrySet()) {
            if (!OutputSync.isSafeRelative(out.getKey())) return false;
            Path file = outputDir.resolve(out.getKey());
            if (!Files.isRegularFile(file) || !OutputSync.sha256(Files.readAllBytes(file)).equals(out.getValue())) {
                reporter.info("Generated file " + out.getKey() + " is missing or was edited; regenerating");
                return false;
            }
        }
        return true;
    }

    private static void failOnWarnings(Request req, int warnings) throws GenerationException {
        if (warnings > 0 && req.failOnWarnings()) {
            throw new GenerationException(plural(warnings, "warning") + " in prm specs (failOnWarnings is set)");
        }
    }

    /**
     * Settings that change the generated files; includes/excludes matter through the input list,
     * the output directory through the state file.
     */
    private static SortedMap<String, String> settings(Request req) {
        SortedMap<String, String> s = new TreeMap<>();
        s.put("packagePrefix", req.packagePrefix());
        return s;
    }

    /** Strict UTF-8 (the shared rule): a spec with bad bytes is an error at the place of the first bad byte. */
    private List<SourceFile> decode(List<SpecInput> inputs) throws GenerationException {
        List<SourceFile> out = new ArrayList<>(inputs.size());
        int bad = 0;
        for (SpecInput in : inputs) {
            Inputs.Decoded d = Inputs.decode(new InputFile(in.displayName(), in.bytes()));
            if (d.ok()) {
                out.add(d.file());
            } else {
                reporter.error(d.problem().toString());
                bad++;
            }
        }
        if (bad > 0) {
            throw new GenerationException(plural(bad, "error") + " in prm specs");
        }
        return out;
    }

    /** A path as users see it: relative to the project when inside it, with {@code /}. */
    static String display(Request req, Path p) {
        Path base = req.baseDirectory().toAbsolutePath().normalize();
        Path abs = p.toAbsolutePath().normalize();
        if (abs.startsWith(base) && !abs.equals(base)) return SpecScanner.toSlashes(base.relativize(abs));
        return abs.toString();
    }

    static String plural(int n, String noun) {
        return Words.plural(n, noun);
    }

}

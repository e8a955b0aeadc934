package io.prmkit.maven;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class GenerationTaskTest {
    private static final FileTime OLD = FileTime.fromMillis(1_000_000_000_000L);

    @TempDir
    Path project;

    Path src;
    Path out;
    Path state;
    final FakePipeline pipeline = new FakePipeline();
    final RecordingReporter log = new RecordingReporter();
    List<Path> headers = List.of();

    @BeforeEach
    void layout() {
        src = project.resolve("src/main/prm");
        out = project.resolve("target/generated-sources/prm");
        state = project.resolve("target/prmkit-maven-plugin/generate-default/state.txt");
    }

    private GenerationTask.Request request(String prefix, String tool, boolean failOnWarnings) {
        return new GenerationTask.Request(project, src, out, state, null, null, prefix, failOnWarnings, false, tool, headers);
    }

    private GenerationTask.Outcome run() throws Exception {
        return run(request("io.acme", "tool-1", false));
    }

    private GenerationTask.Outcome run(GenerationTask.Request req) throws Exception {
        log.clear();
        return new GenerationTask(pipeline, log).run(req);
    }

    private void spec(String rel, String text) throws IOException {
        Path p = src.resolve(rel);
        Files.createDirectories(p.getParent());
        Files.writeString(p, text);
    }

    /** Every generated file with its mtime set far in the past, to detect any later write. */
    private Map<String, FileTime> ageOutputs() throws IOException {
        Map<String, FileTime> times = new TreeMap<>();
        try (Stream<Path> s = Files.walk(out)) {
            for (Path p : s.filter(Files::isRegularFile).toList()) {
                Files.setLastModifiedTime(p, OLD);
                times.put(SpecScanner.toSlashes(out.relativize(p)), OLD);
            }
        }
        return times;
    }

    private Map<String, FileTime> mtimes() throws IOException {
        Map<String, FileTime> times = new TreeMap<>();
        try (Stream<Path> s = Files.walk(out)) {
            for (Path p : s.filter(Files::isRegularFile).toList()) {
                times.put(SpecScanner.toSlashes(out.relativize(p)), Files.getLastModifiedTime(p));
            }
        }
        return times;
    }

    @Test
    void firstRunGeneratesEverything() throws Exception {
        spec("acme/a.prm", "struct Foo\nstruct Bar\n");
        spec("b.prm", "struct Baz\n");

        GenerationTask.Outcome o = run();

        assertEquals(GenerationTask.Status.GENERATED, o.status());
        assertEquals(List.of("io/acme/Bar.java", "io/acme/Baz.java", "io/acme/Foo.java"), List.copyOf(mtimes().keySet()));
        assertEquals(List.of("src/main/prm/acme/a.prm", "src/main/prm/b.prm"), pipeline.lastSourceNames);
        assertTrue(Files.isRegularFile(state));
        assertTrue(log.at("INFO").contains(
                "Generated 3 files from 2 specs into target/generated-sources/prm: 3 written, 0 unchanged, 0 deleted"),
                log.lines.toString());
    }

    @Test
    void secondRunWithNothingChangedTouchesNothing() throws Exception {
        spec("a.prm", "struct Foo\n");
        run();
        Map<String, FileTime> before = ageOutputs();
        FileTime stateTime = Files.getLastModifiedTime(state);

        GenerationTask.Outcome o = run();

        assertEquals(GenerationTask.Status.UP_TO_DATE, o.status());
        assertEquals(1, pipeline.runs, "the compiler is not even called");
        assertEquals(before, mtimes());
        assertEquals(stateTime, Files.getLastModifiedTime(state));
        assertEquals(List.of("Generated sources are up to date (1 spec, 1 file in target/generated-sources/prm)"), log.at("INFO"));
    }

    @Test
    void changedSpecRewritesOnlyChangedFiles() throws Exception {
        spec("a.prm", "struct Foo\n");
        spec("b.prm", "struct Bar\n");
        run();
        ageOutputs();

        spec("b.prm", "struct Bar\nstruct Qux\n");
        GenerationTask.Outcome o = run();

        assertEquals(GenerationTask.Status.GENERATED, o.status());
        assertEquals(2, pipeline.runs);
        Map<String, FileTime> after = mtimes();
        assertEquals(OLD, after.get("io/acme/Foo.java"), "unchanged bytes, untouched");
        assertEquals(OLD, after.get("io/acme/Bar.java"));
        assertNotEquals(OLD, after.get("io/acme/Qux.java"));
        assertEquals(List.of("io/acme/Qux.java"), o.sync().orElseThrow().written());
    }

    @Test
    void removedStructLosesItsClass() throws Exception {
        spec("a.prm", "struct Foo\nstruct Bar\n");
        run();
        spec("a.prm", "struct Foo\n");

        GenerationTask.Outcome o = run();

        assertEquals(List.of("io/acme/Bar.java"), o.sync().orElseThrow().deleted());
        assertEquals(List.of("io/acme/Foo.java"), List.copyOf(mtimes().keySet()));
    }

    @Test
    void changedPrefixMovesOutputsAndDeletesOldOnes() throws Exception {
        spec("a.prm", "struct Foo\n");
        run();

        run(request("org.other", "tool-1", false));

        assertEquals(List.of("org/other/Foo.java"), List.copyOf(mtimes().keySet()));
        assertFalse(Files.exists(out.resolve("io")), "emptied package directories are removed");
    }

    @Test
    void changedOutputDirectoryCleansTheOldOneOnly() throws Exception {
        spec("a.prm", "struct Foo\n");
        run();
        Path old = out;
        Files.writeString(old.resolve("io/acme/Mine.java"), "hand-written");
        out = project.resolve("target/other-gen");

        GenerationTask.Outcome o = run();

        assertEquals(GenerationTask.Status.GENERATED, o.status());
        assertTrue(Files.exists(out.resolve("io/acme/Foo.java")));
        assertFalse(Files.exists(old.resolve("io/acme/Foo.java")), "old output deleted");
        assertTrue(Files.exists(old.resolve("io/acme/Mine.java")), "but nothing we did not generate");
        assertEquals(GenerationTask.Status.UP_TO_DATE, run().status());
    }

    @Test
    void newPluginVersionRegenerates() throws Exception {
        spec("a.prm", "struct Foo\n");
        run();
        GenerationTask.Outcome o = run(request("io.acme", "tool-2", false));
        assertEquals(GenerationTask.Status.GENERATED, o.status());
        assertEquals(2, pipeline.runs);
        assertEquals(List.of("io/acme/Foo.java"), o.sync().orElseThrow().unchanged());
    }

    @Test
    void editedOrDeletedOutputIsRestored() throws Exception {
        spec("a.prm", "struct Foo\nstruct Bar\n");
        run();
        String original = Files.readString(out.resolve("io/acme/Foo.java"));
        Files.writeString(out.resolve("io/acme/Foo.java"), "hacked");
        Files.delete(out.resolve("io/acme/Bar.java"));

        GenerationTask.Outcome o = run();

        assertEquals(GenerationTask.Status.GENERATED, o.status());
        assertEquals(original, Files.readString(out.resolve("io/acme/Foo.java")));
        assertTrue(Files.exists(out.resolve("io/acme/Bar.java")));
    }

    @Test
    void errorsAreAllReportedWithLocationsAndNothingIsWritten() throws Exception {
        spec("a.prm", "struct Foo\n");
        run();
        Map<String, FileTime> before = ageOutputs();
        String stateBefore = Files.readString(state);
        spec("a.prm", "struct Foo\nstruct New\nerror bad width\n");
        spec("z/b.prm", "error unknown type\n");

        GenerationException e = assertThrows(GenerationException.class, this::run);

        assertEquals("2 errors in prm specs", e.getMessage());
        List<String> errors = log.at("ERROR");
        assertTrue(errors.contains("src/main/prm/a.prm:3:1: error: bad width"), errors.toString());
        assertTrue(errors.contains("src/main/prm/z/b.prm:1:1: error: unknown type"), errors.toString());
        assertEquals(before, mtimes(), "no partial output");
        assertEquals(stateBefore, Files.readString(state));

        // Still failing next time (the failure is not recorded as up to date) ...
        assertThrows(GenerationException.class, this::run);
        // ... and fixed once the spec is.
        spec("a.prm", "struct Foo\nstruct New\n");
        spec("z/b.prm", "");
        assertEquals(GenerationTask.Status.GENERATED, run().status());
        assertTrue(Files.exists(out.resolve("io/acme/New.java")));
    }

    @Test
    void problemsWithoutAPlaceAreErrorsToo() throws Exception {
        spec("a.prm", "struct Foo\nproblem a.foo and b.foo both map to class io.acme.Foo; rename one\n");
        GenerationException e = assertThrows(GenerationException.class, this::run);
        assertEquals("1 error in prm specs", e.getMessage());
        assertEquals(List.of("error: a.foo and b.foo both map to class io.acme.Foo; rename one"), log.at("ERROR"));
        assertFalse(Files.exists(out));
    }

    @Test
    void oneErrorIsSingular() throws Exception {
        spec("a.prm", "error x\n");
        assertEquals("1 error in prm specs", assertThrows(GenerationException.class, this::run).getMessage());
    }

    @Test
    void warningsAreShownAgainWhenUpToDate() throws Exception {
        spec("a.prm", "struct Foo\nwarning field overlaps reserved\n");
        run();
        List<String> first = log.at("WARN");
        assertEquals("src/main/prm/a.prm:2:1: warning: field overlaps reserved", first.get(0));

        assertEquals(GenerationTask.Status.UP_TO_DATE, run().status());
        assertEquals(first, log.at("WARN"));
    }

    @Test
    void failOnWarningsFailsAlsoWhenUpToDate() throws Exception {
        spec("a.prm", "struct Foo\nwarning w\n");
        run();
        GenerationException e = assertThrows(GenerationException.class, () -> run(request("io.acme", "tool-1", true)));
        assertEquals("1 warning in prm specs (failOnWarnings is set)", e.getMessage());
    }

    @Test
    void failOnWarningsWritesNothing() throws Exception {
        spec("a.prm", "struct Foo\nwarning w\n");
        assertThrows(GenerationException.class, () -> run(request("io.acme", "tool-1", true)));
        assertFalse(Files.exists(out));
        assertFalse(Files.exists(state));
    }

    @Test
    void noSpecsInDefaultDirectoryIsFine() throws Exception {
        GenerationTask.Outcome o = run();
        assertEquals(GenerationTask.Status.NO_SPECS, o.status());
        assertEquals(List.of("No prm specs found in src/main/prm"), log.at("INFO"));
        assertEquals(0, pipeline.runs);
        assertFalse(Files.exists(out));
    }

    @Test
    void removingAllSpecsDeletesTheirOutputs() throws Exception {
        spec("a.prm", "struct Foo\n");
        run();
        Files.delete(src.resolve("a.prm"));

        assertEquals(GenerationTask.Status.NO_SPECS, run().status());
        assertEquals(Map.of(), mtimes());
        assertFalse(Files.exists(state));
    }

    @Test
    void explicitMissingSourceDirectoryFails() {
        GenerationTask.Request req = new GenerationTask.Request(project, project.resolve("specs"), out, state,
                null, null, "", false, true, "t", null);
        GenerationException e = assertThrows(GenerationException.class, () -> run(req));
        assertEquals("sourceDirectory specs does not exist", e.getMessage());
    }

    @Test
    void includesAndExcludesSelectSpecs() throws Exception {
        spec("a.prm", "struct Foo\n");
        spec("drafts/b.prm", "error not ready\n");
        GenerationTask.Request req = new GenerationTask.Request(project, src, out, state,
                List.of("**/*.prm"), List.of("drafts/**"), "", false, false, "t", null);
        assertEquals(GenerationTask.Status.GENERATED, run(req).status());
        assertEquals(List.of("src/main/prm/a.prm"), pipeline.lastSourceNames);
        assertTrue(Files.exists(out.resolve("Foo.java")));
    }

    @Test
    void headersAndTheSiblingsTheyIncludeAreInputs() throws Exception {
        Path inc = project.resolve("headers");
        Files.createDirectories(inc);
        Files.writeString(inc.resolve("main_ifc.h"), "#include \"extra_ifc.h\"\nstruct FromHeader\n");
        Files.writeString(inc.resolve("extra_ifc.h"), "struct FromInclude\n");
        headers = List.of(inc.resolve("main_ifc.h"));

        GenerationTask.Outcome o = run();
        assertEquals(GenerationTask.Status.GENERATED, o.status(), "headers alone are enough");
        assertEquals(List.of("headers/extra_ifc.h", "headers/main_ifc.h"), pipeline.lastSourceNames, "includes first");
        assertTrue(log.at("INFO").get(0).contains("from 0 specs and 2 headers"), log.lines.toString());
        assertEquals(GenerationTask.Status.UP_TO_DATE, run().status());

        Files.writeString(inc.resolve("extra_ifc.h"), "struct FromInclude\nstruct Added\n");
        assertEquals(GenerationTask.Status.GENERATED, run().status(), "an edited include regenerates");
        assertTrue(Files.exists(out.resolve("io/acme/Added.java")));
    }

    @Test
    void missingHeaderFails() {
        headers = List.of(project.resolve("nope/mlx5_ifc.h"));
        GenerationException e = assertThrows(GenerationException.class, this::run);
        assertEquals("header nope/mlx5_ifc.h does not exist", e.getMessage());
    }

    @Test
    void aHeaderThatIsAFolderIsSaidToBeOne() throws IOException {
        Files.createDirectories(project.resolve("inc/mlx5_ifc.h"));
        headers = List.of(project.resolve("inc/mlx5_ifc.h"));
        GenerationException e = assertThrows(GenerationException.class, this::run);
        assertEquals("header inc/mlx5_ifc.h is a folder, not a file", e.getMessage());
    }

    @Test
    void invalidUtf8IsAnErrorAtItsPosition() throws Exception {
        Files.createDirectories(src);
        Files.write(src.resolve("a.prm"), new byte[] {'s', 't', '\n', 'a', 'b', (byte) 0xC3, '(', '\n'});
        GenerationException e = assertThrows(GenerationException.class, this::run);
        assertEquals("1 error in prm specs", e.getMessage());
        assertEquals(List.of("src/main/prm/a.prm:2:3: error: not valid UTF-8 (byte 0xc3)"), log.at("ERROR"));
        assertEquals(0, pipeline.runs);
    }

    @Test
    void byteOrderMarkIsDropped() throws Exception {
        spec("a.prm", "\uFEFFstruct Foo\n");
        run();
        assertTrue(Files.exists(out.resolve("io/acme/Foo.java")));
    }

    @Test
    void corruptStateFileMeansFullRegeneration() throws Exception {
        spec("a.prm", "struct Foo\n");
        run();
        Files.writeString(state, "garbage");
        assertEquals(GenerationTask.Status.GENERATED, run().status());
        assertEquals(GenerationTask.Status.UP_TO_DATE, run().status());
    }
}

package io.prmkit.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class OutputSyncTest {
    private static final FileTime OLD = FileTime.fromMillis(1_000_000_000_000L);

    @TempDir
    Path out;

    @Test
    void writesNewFilesWithExactBytes() throws IOException {
        OutputSync.Report r = OutputSync.apply(out, List.of(new OutputFile("a/b/C.java", "class C {}\nü\n")), Set.of());
        assertEquals(List.of("a/b/C.java"), r.written());
        assertEquals("class C {}\nü\n", Files.readString(out.resolve("a/b/C.java"), StandardCharsets.UTF_8));
        assertEquals(OutputSync.sha256("class C {}\nü\n".getBytes(StandardCharsets.UTF_8)), r.hashes().get("a/b/C.java"));
    }

    @Test
    void leavesIdenticalFilesUntouched() throws IOException {
        OutputSync.apply(out, List.of(new OutputFile("p/A.java", "A"), new OutputFile("p/B.java", "B")), Set.of());
        Files.setLastModifiedTime(out.resolve("p/A.java"), OLD);
        Files.setLastModifiedTime(out.resolve("p/B.java"), OLD);

        OutputSync.Report r = OutputSync.apply(out,
                List.of(new OutputFile("p/A.java", "A"), new OutputFile("p/B.java", "B2")), Set.of("p/A.java", "p/B.java"));

        assertEquals(List.of("p/B.java"), r.written());
        assertEquals(List.of("p/A.java"), r.unchanged());
        assertEquals(OLD, Files.getLastModifiedTime(out.resolve("p/A.java")));
        assertFalse(OLD.equals(Files.getLastModifiedTime(out.resolve("p/B.java"))));
        assertEquals("B2", Files.readString(out.resolve("p/B.java")));
    }

    @Test
    void sameLengthDifferentBytesIsRewritten() throws IOException {
        OutputSync.apply(out, List.of(new OutputFile("A.java", "abc")), Set.of());
        OutputSync.Report r = OutputSync.apply(out, List.of(new OutputFile("A.java", "abd")), Set.of("A.java"));
        assertEquals(List.of("A.java"), r.written());
        assertEquals("abd", Files.readString(out.resolve("A.java")));
    }

    @Test
    void deletesStaleOutputsAndTheirEmptyDirectoriesOnly() throws IOException {
        OutputSync.apply(out, List.of(new OutputFile("p/q/Old.java", "o"), new OutputFile("p/Keep.java", "k")), Set.of());
        Files.writeString(out.resolve("p/Handwritten.java"), "mine");

        OutputSync.Report r = OutputSync.apply(out, List.of(new OutputFile("p/Keep.java", "k")),
                Set.of("p/q/Old.java", "p/Keep.java"));

        assertEquals(List.of("p/q/Old.java"), r.deleted());
        assertFalse(Files.exists(out.resolve("p/q")), "emptied directory is removed");
        assertTrue(Files.exists(out.resolve("p/Keep.java")));
        assertTrue(Files.exists(out.resolve("p/Handwritten.java")), "files we never generated stay");
        assertTrue(Files.isDirectory(out), "the output directory itself stays");
    }

    @Test
    void staleEntryAlreadyGoneIsNotReported() throws IOException {
        OutputSync.Report r = OutputSync.apply(out, List.of(), Set.of("gone/X.java"));
        assertEquals(List.of(), r.deleted());
    }

    @Test
    void neverDeletesOutsideTheOutputDirectory() throws IOException {
        Path victim = out.getParent().resolve(out.getFileName() + "-victim.txt");
        Files.writeString(victim, "precious");
        try {
            OutputSync.apply(out, List.of(), Set.of("../" + victim.getFileName(), victim.toString()));
            assertTrue(Files.exists(victim));
        } finally {
            Files.deleteIfExists(victim);
        }
    }

    @Test
    void rejectsBadOrDuplicatePathsBeforeWritingAnything() throws IOException {
        for (String bad : List.of("", "/abs/A.java", "../A.java", "a/../../A.java", "a//A.java", "a\\A.java", "C:/A.java", "a/")) {
            assertThrows(IllegalArgumentException.class,
                    () -> OutputSync.apply(out, List.of(new OutputFile("ok/A.java", "a"), new OutputFile(bad, "x")), Set.of()),
                    bad);
        }
        assertThrows(IllegalArgumentException.class,
                () -> OutputSync.apply(out, List.of(new OutputFile("A.java", "a"), new OutputFile("A.java", "b")), Set.of()));
        assertEquals(0, countFiles());
    }

    @Test
    void leavesNoTemporaryFiles() throws IOException {
        OutputSync.apply(out, List.of(new OutputFile("A.java", "a")), Set.of());
        OutputSync.apply(out, List.of(new OutputFile("A.java", "b")), Set.of("A.java"));
        assertEquals(1, countFiles());
    }

    /**
     * A folder where a changed file must go: the run fails naming that folder, and the output is as it
     * was (the files renamed before it are not left renamed, no temporary file stays behind).
     */
    @Test
    void aBlockedPathLeavesTheOutputAsItWasAndIsNamed() throws IOException {
        OutputSync.apply(out, List.of(new OutputFile("p/A.java", "A1"), new OutputFile("p/Z.java", "Z1")), Set.of());
        Files.delete(out.resolve("p/Z.java"));
        Files.createDirectories(out.resolve("p/Z.java/inside"));
        OutputSync.Blocked e = assertThrows(OutputSync.Blocked.class, () -> OutputSync.apply(out,
                List.of(new OutputFile("p/A.java", "A2"), new OutputFile("q/New.java", "N"), new OutputFile("p/Z.java", "Z2")),
                Set.of("p/A.java", "p/Z.java")));
        assertEquals(out.resolve("p/Z.java").toAbsolutePath().normalize(), e.path());
        assertEquals("A1", Files.readString(out.resolve("p/A.java")));
        assertFalse(Files.exists(out.resolve("q")), "a folder made for the run is removed");
        assertEquals(List.of(out.resolve("p/A.java")), regularFiles());
    }

    /** A rename that fails after others succeeded (the folder changed under us): those are undone. */
    @Test
    void aRenameThatFailsPartWayIsUndone() throws IOException {
        OutputSync.apply(out, List.of(new OutputFile("A.java", "A1"), new OutputFile("B.java", "B1")), Set.of());
        OutputSync.Mover failOnC = (from, to) -> {
            if (to.getFileName().toString().equals("C.java")) throw new java.nio.file.FileSystemException(to.toString(), null, "Read-only file system");
            OutputSync.Mover.FILES.move(from, to);
        };
        OutputSync.Blocked e = assertThrows(OutputSync.Blocked.class, () -> OutputSync.apply(out,
                List.of(new OutputFile("A.java", "A2"), new OutputFile("B.java", "B2"), new OutputFile("C.java", "C2")),
                Set.of("A.java", "B.java"), failOnC));
        assertEquals(out.resolve("C.java").toAbsolutePath().normalize(), e.path());
        assertEquals("A1", Files.readString(out.resolve("A.java")));
        assertEquals("B1", Files.readString(out.resolve("B.java")));
        assertEquals(List.of(out.resolve("A.java"), out.resolve("B.java")), regularFiles());
    }

    /** Files get the permissions a plain write gives (the umask applied), not a temporary file's 0600; a replaced file keeps its own. */
    @Test
    void filesGetThePermissionsOfAPlainWrite() throws IOException {
        Assumptions.assumeTrue(out.getFileSystem().supportedFileAttributeViews().contains("posix"), "POSIX permissions");
        Path plain = Files.writeString(Files.createTempDirectory(out.getParent(), "plain").resolve("plain"), "x");
        OutputSync.apply(out, List.of(new OutputFile("p/A.java", "A1"), new OutputFile("B.java", "B1")), Set.of());
        assertEquals(Files.getPosixFilePermissions(plain), Files.getPosixFilePermissions(out.resolve("p/A.java")));
        assertEquals(Files.getPosixFilePermissions(plain), Files.getPosixFilePermissions(out.resolve("B.java")));
        Files.setPosixFilePermissions(out.resolve("B.java"), java.nio.file.attribute.PosixFilePermissions.fromString("rw-rw-r--"));
        OutputSync.apply(out, List.of(new OutputFile("p/A.java", "A1"), new OutputFile("B.java", "B2")), Set.of());
        assertEquals("rw-rw-r--", java.nio.file.attribute.PosixFilePermissions.toString(Files.getPosixFilePermissions(out.resolve("B.java"))));
        OutputSync.writeAtomically(out.resolve("M"), new byte[] {1});
        assertEquals(Files.getPosixFilePermissions(plain), Files.getPosixFilePermissions(out.resolve("M")));
    }

    private List<Path> regularFiles() throws IOException {
        try (Stream<Path> s = Files.walk(out)) {
            return s.filter(Files::isRegularFile).sorted().toList();
        }
    }

    private long countFiles() throws IOException {
        try (Stream<Path> s = Files.walk(out)) {
            return s.filter(Files::isRegularFile).count();
        }
    }
}

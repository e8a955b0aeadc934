package io.prmkit.maven;

import java.io.IOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * Brings an output directory in line with a complete set of generated files: a file whose bytes are
 * already right is left alone (so its timestamp stays and javac has nothing to recompile), other
 * files are replaced atomically, and files the previous run generated that are no longer produced
 * are deleted. Files in the directory that this plugin never generated are not touched.
 */
final class OutputSync {

    /** What changed: paths are relative to the output directory, sorted. */
    record Report(List<String> written, List<String> unchanged, List<String> deleted, SortedMap<String, String> hashes) {
        Report {
            written = List.copyOf(written);
            unchanged = List.copyOf(unchanged);
            deleted = List.copyOf(deleted);
            hashes = new TreeMap<>(hashes);
        }
    }

    private OutputSync() {}

    static Report apply(Path outputDir, List<OutputFile> files, Collection<String> previousOutputs) throws IOException {
        Path root = outputDir.toAbsolutePath().normalize();
        Set<String> produced = new HashSet<>();
        for (OutputFile f : files) {
            checkRelative(f.relativePath());
            if (!produced.add(f.relativePath())) {
                throw new IllegalArgumentException("generator produced " + f.relativePath() + " twice");
            }
        }

        List<String> written = new ArrayList<>();
        List<String> unchanged = new ArrayList<>();
        SortedMap<String, String> hashes = new TreeMap<>();
        for (OutputFile f : files) {
            byte[] bytes = f.bytes();
            Path target = root.resolve(f.relativePath());
            if (sameBytes(target, bytes)) {
                unchanged.add(f.relativePath());
            } else {
                Files.createDirectories(target.getParent());
                writeAtomically(target, bytes);
                written.add(f.relativePath());
            }
            hashes.put(f.relativePath(), Hashing.sha256(bytes));
        }

        List<String> deleted = new ArrayList<>();
        for (String old : previousOutputs) {
            if (produced.contains(old)) continue;
            // A corrupted or foreign state file must not make us delete outside the output directory.
            if (!isSafeRelative(old)) continue;
            Path stale = root.resolve(old);
            if (Files.deleteIfExists(stale)) {
                deleted.add(old);
                pruneEmptyParents(root, stale.getParent());
            }
        }

        written.sort(null);
        unchanged.sort(null);
        deleted.sort(null);
        return new Report(written, unchanged, deleted, hashes);
    }

    static boolean sameBytes(Path file, byte[] bytes) throws IOException {
        if (!Files.isRegularFile(file) || Files.size(file) != bytes.length) return false;
        return Arrays.equals(Files.readAllBytes(file), bytes);
    }

    /** Writes through a temporary sibling and a rename, so readers never see half a file. */
    static void writeAtomically(Path target, byte[] bytes) throws IOException {
        Path tmp = Files.createTempFile(target.getParent(), "." + target.getFileName(), ".tmp");
        try {
            Files.write(tmp, bytes);
            try {
                Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING);
            }
        } finally {
            Files.deleteIfExists(tmp);
        }
    }

    private static void pruneEmptyParents(Path root, Path dir) throws IOException {
        while (dir != null && !dir.equals(root) && dir.startsWith(root)) {
            try {
                Files.delete(dir);
            } catch (DirectoryNotEmptyException e) {
                return;
            }
            dir = dir.getParent();
        }
    }

    private static void checkRelative(String path) {
        if (!isSafeRelative(path)) {
            throw new IllegalArgumentException("generator produced an invalid output path: '" + path + "'");
        }
    }

    static boolean isSafeRelative(String path) {
        if (path.isEmpty() || path.startsWith("/") || path.contains("\\") || path.endsWith("/")) return false;
        for (int i = 0; i < path.length(); i++) {
            char c = path.charAt(i);
            if (c < 0x20 || c == ':') return false;
        }
        for (String seg : path.split("/", -1)) {
            if (seg.isEmpty() || seg.equals(".") || seg.equals("..")) return false;
        }
        return true;
    }
}

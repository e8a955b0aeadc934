package io.prmkit.pipeline;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * Brings an output folder in line with a complete set of generated files:
 * <ul>
 *   <li>a file whose bytes are already right is left alone (its timestamp stays, javac has nothing to do);</li>
 *   <li>all changed files are first written to temporary siblings; only when every one of them is
 *       written are they renamed into place, so a failed write (disk full, a path blocked by a
 *       file) leaves the previous output as it was, never a mix;</li>
 *   <li>files the previous run generated that are no longer produced (a renamed struct's old class)
 *       are deleted; files this tool never generated are not touched.</li>
 * </ul>
 * What a previous run generated comes from the caller (the Maven plugin keeps it in its state file) or
 * from a manifest in the output folder ({@link #applyWithManifest}, used by the CLI).
 */
public final class OutputSync {

    /** The manifest {@link #applyWithManifest} keeps in the output folder. */
    public static final String MANIFEST = ".prmkit-generated";

    /** What changed: paths relative to the output folder, sorted; and the SHA-256 of every produced file. */
    public record Report(List<String> written, List<String> unchanged, List<String> deleted, SortedMap<String, String> hashes) {
        public Report {
            written = List.copyOf(written);
            unchanged = List.copyOf(unchanged);
            deleted = List.copyOf(deleted);
            hashes = new TreeMap<>(hashes);
        }
    }

    private OutputSync() {}

    /** As {@link #apply}, with the previous outputs read from (and the new ones recorded in) {@link #MANIFEST}. */
    public static Report applyWithManifest(Path outputDir, List<OutputFile> files) throws IOException {
        Path root = outputDir.toAbsolutePath().normalize();
        Path manifest = root.resolve(MANIFEST);
        List<String> previous = Files.isRegularFile(manifest)
                ? Files.readAllLines(manifest, StandardCharsets.UTF_8).stream().filter(l -> !l.isEmpty() && !l.startsWith("#")).toList()
                : List.of();
        Report r = apply(root, files, previous);
        StringBuilder sb = new StringBuilder("# files prmkit generated here; the next run deletes those it no longer generates\n");
        r.hashes().keySet().forEach(p -> sb.append(p).append('\n'));
        writeAtomically(manifest, sb.toString().getBytes(StandardCharsets.UTF_8));
        return r;
    }

    public static Report apply(Path outputDir, List<OutputFile> files, Collection<String> previousOutputs) throws IOException {
        Path root = outputDir.toAbsolutePath().normalize();
        Set<String> produced = new HashSet<>();
        for (OutputFile f : files) {
            if (!isSafeRelative(f.relativePath())) {
                throw new IllegalArgumentException("generator produced an invalid output path: '" + f.relativePath() + "'");
            }
            if (!produced.add(f.relativePath())) {
                throw new IllegalArgumentException("generator produced " + f.relativePath() + " twice");
            }
        }
        if (Files.exists(root) && !Files.isDirectory(root)) throw new FileNotAFolder(root);

        List<String> written = new ArrayList<>();
        List<String> unchanged = new ArrayList<>();
        SortedMap<String, String> hashes = new TreeMap<>();
        List<Path[]> staged = new ArrayList<>();
        List<Path> createdDirs = new ArrayList<>();
        try {
            for (OutputFile f : files) {
                byte[] bytes = f.bytes();
                Path target = root.resolve(f.relativePath());
                hashes.put(f.relativePath(), sha256(bytes));
                if (sameBytes(target, bytes)) {
                    unchanged.add(f.relativePath());
                    continue;
                }
                createDirectories(target.getParent(), createdDirs);
                Path tmp = Files.createTempFile(target.getParent(), "." + target.getFileName(), ".tmp");
                staged.add(new Path[] {tmp, target});
                Files.write(tmp, bytes);
                written.add(f.relativePath());
            }
        } catch (IOException | RuntimeException e) {
            for (Path[] s : staged) Files.deleteIfExists(s[0]);
            for (int i = createdDirs.size() - 1; i >= 0; i--) deleteIfEmpty(createdDirs.get(i));
            throw e;
        }
        for (Path[] s : staged) {
            try {
                Files.move(s[0], s[1], StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(s[0], s[1], StandardCopyOption.REPLACE_EXISTING);
            }
        }

        List<String> deleted = new ArrayList<>();
        for (String old : previousOutputs) {
            if (produced.contains(old)) continue;
            // A corrupted or foreign record must not make us delete outside the output folder.
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

    /** A folder is needed where a file is. */
    public static final class FileNotAFolder extends IOException {
        private final transient Path path;

        public FileNotAFolder(Path p) {
            super(p + " is a file, not a folder");
            this.path = p;
        }

        public Path path() {
            return path;
        }
    }

    public static boolean sameBytes(Path file, byte[] bytes) throws IOException {
        if (!Files.isRegularFile(file) || Files.size(file) != bytes.length) return false;
        return Arrays.equals(Files.readAllBytes(file), bytes);
    }

    /** Writes through a temporary sibling and a rename, so readers never see half a file. */
    public static void writeAtomically(Path target, byte[] bytes) throws IOException {
        Files.createDirectories(target.getParent());
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

    /** Like Files.createDirectories, remembering which folders it made (to undo them after a failure). */
    private static void createDirectories(Path dir, List<Path> created) throws IOException {
        List<Path> missing = new ArrayList<>();
        for (Path d = dir; d != null && !Files.isDirectory(d); d = d.getParent()) {
            if (Files.exists(d)) throw new FileNotAFolder(d);
            missing.add(0, d);
        }
        for (Path d : missing) {
            Files.createDirectory(d);
            created.add(d);
        }
    }

    private static void deleteIfEmpty(Path dir) {
        try {
            Files.deleteIfExists(dir);
        } catch (IOException e) {
            // not empty or not ours to remove: leave it
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

    /** A relative path that stays inside the output folder: no root, no {@code ..}, no backslash or colon. */
    public static boolean isSafeRelative(String path) {
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

    public static String sha256(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-256", e);
        }
    }
}

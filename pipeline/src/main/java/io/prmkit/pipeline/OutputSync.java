package io.prmkit.pipeline;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFileAttributeView;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.function.Predicate;

/**
 * Brings an output folder in line with a complete set of generated files:
 * <ul>
 *   <li>a file whose bytes are already right is left alone (its timestamp stays, javac has nothing to do);</li>
 *   <li>all changed files are first written to temporary siblings; only when every one of them is
 *       written are they renamed into place, and a rename that fails undoes those before it, so a
 *       failed write (disk full, a path blocked by a file or a folder) leaves the previous output as
 *       it was, never a mix, and names the path that blocked ({@link Blocked});</li>
 *   <li>files get the permissions a plain write gives them (0666 less the umask, or the replaced
 *       file's own), not a temporary file's 0600;</li>
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
        return applyWithManifest(outputDir, files, MANIFEST, "# files prmkit generated here; the next run deletes those it no longer generates\n",
                p -> true);
    }

    /**
     * As {@link #apply}, with the previous outputs read from the manifest {@code manifestName} in the
     * output folder (lines that {@code ours} accepts; {@code #} lines are comments) and the new list
     * written there in the same commit as the files: a failed run leaves the old manifest too.
     */
    public static Report applyWithManifest(Path outputDir, List<OutputFile> files, String manifestName, String header,
            Predicate<String> ours) throws IOException {
        Path root = outputDir.toAbsolutePath().normalize();
        Path manifest = root.resolve(manifestName);
        List<String> previous = Files.isRegularFile(manifest)
                ? Files.readAllLines(manifest, StandardCharsets.UTF_8).stream()
                        .filter(l -> !l.isEmpty() && !l.startsWith("#") && ours.test(l)).toList()
                : List.of();
        StringBuilder sb = new StringBuilder(header);
        files.stream().map(OutputFile::relativePath).sorted().forEach(p -> sb.append(p).append('\n'));
        return apply(root, files, previous, new OutputFile(manifestName, sb.toString()), Mover.FILES);
    }

    public static Report apply(Path outputDir, List<OutputFile> files, Collection<String> previousOutputs) throws IOException {
        return apply(outputDir, files, previousOutputs, null, Mover.FILES);
    }

    /** As {@link #apply(Path, List, Collection)}, renaming through {@code mover} (tests fail a rename with it). */
    static Report apply(Path outputDir, List<OutputFile> files, Collection<String> previousOutputs, Mover mover) throws IOException {
        return apply(outputDir, files, previousOutputs, null, mover);
    }

    /** Renames a staged file into place (replacing what is there); the real one is {@link #FILES}. */
    interface Mover {
        void move(Path from, Path to) throws IOException;

        Mover FILES = (from, to) -> {
            try {
                Files.move(from, to, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(from, to, StandardCopyOption.REPLACE_EXISTING);
            }
        };
    }

    /** One changed file on its way in: its staged bytes, its place, and a link to what was there (to undo the rename). */
    private record Staged(Path tmp, Path target, Path previous) {}

    /**
     * Stages every changed file (and {@code manifest}, not reported) beside its target, then renames
     * them into place; a failure at any step undoes the renames done so far from links to the
     * previous files, removes what was staged and the folders made for it, and names the path that
     * blocked ({@link Blocked}). Stale outputs are deleted only after every file is in place.
     */
    private static Report apply(Path outputDir, List<OutputFile> files, Collection<String> previousOutputs, OutputFile manifest, Mover mover)
            throws IOException {
        Path root = outputDir.toAbsolutePath().normalize();
        Set<String> produced = new HashSet<>();
        List<OutputFile> all = new ArrayList<>(files);
        if (manifest != null) all.add(manifest);
        for (OutputFile f : all) {
            if (!isSafeRelative(f.relativePath())) {
                throw new IllegalArgumentException("generator produced an invalid output path: '" + f.relativePath() + "'");
            }
            if (!produced.add(f.relativePath())) {
                throw new IllegalArgumentException("generator produced " + f.relativePath() + " twice");
            }
        }
        if (manifest != null) produced.remove(manifest.relativePath());
        if (Files.exists(root) && !Files.isDirectory(root)) throw new FileNotAFolder(root);

        List<String> written = new ArrayList<>();
        List<String> unchanged = new ArrayList<>();
        SortedMap<String, String> hashes = new TreeMap<>();
        List<Staged> staged = new ArrayList<>();
        List<Path> createdDirs = new ArrayList<>();
        int committed = 0;
        try {
            for (OutputFile f : all) {
                boolean reported = f != manifest;
                byte[] bytes = f.bytes();
                Path target = root.resolve(f.relativePath());
                if (reported) hashes.put(f.relativePath(), sha256(bytes));
                if (sameBytes(target, bytes)) {
                    if (reported) unchanged.add(f.relativePath());
                    continue;
                }
                if (Files.isDirectory(target, LinkOption.NOFOLLOW_LINKS)) throw new Blocked(target, "is a folder, not a file");
                createDirectories(target.getParent(), createdDirs);
                Path tmp = stage(target, bytes);
                Staged s = new Staged(tmp, target, Files.exists(target, LinkOption.NOFOLLOW_LINKS) ? sibling(target, ".old") : null);
                staged.add(s);
                if (s.previous() != null) keep(target, s.previous());
                if (reported) written.add(f.relativePath());
            }
            for (Staged s : staged) {
                try {
                    mover.move(s.tmp(), s.target());
                } catch (IOException e) {
                    throw e instanceof Blocked ? e : new Blocked(s.target(), e);
                }
                committed++;
            }
        } catch (IOException | RuntimeException e) {
            undo(staged, committed, createdDirs);
            throw e;
        }
        for (Staged s : staged) {
            if (s.previous() != null) Files.deleteIfExists(s.previous());
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

    /** Puts the previous files back (the first {@code committed} were renamed over), removes the staged ones and the folders made. */
    private static void undo(List<Staged> staged, int committed, List<Path> createdDirs) {
        for (int i = staged.size() - 1; i >= 0; i--) {
            Staged s = staged.get(i);
            try {
                if (i < committed) {
                    if (s.previous() != null) {
                        Mover.FILES.move(s.previous(), s.target());
                    } else {
                        Files.deleteIfExists(s.target());
                    }
                } else if (s.previous() != null) {
                    Files.deleteIfExists(s.previous());
                }
                Files.deleteIfExists(s.tmp());
            } catch (IOException ignored) {
                // best effort: the failure being reported is the one that matters
            }
        }
        for (int i = createdDirs.size() - 1; i >= 0; i--) deleteIfEmpty(createdDirs.get(i));
    }

    /**
     * Writes {@code bytes} to a new sibling of {@code target}, created as a plain write would create
     * it (mode 0666 less the umask; a temporary file's 0600 would stay after the rename), or with the
     * permissions of the file it replaces, as a write into that file would keep them.
     */
    private static Path stage(Path target, byte[] bytes) throws IOException {
        Path tmp = sibling(target, ".tmp");
        try {
            Files.write(tmp, bytes, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
        } catch (IOException e) {
            Files.deleteIfExists(tmp);
            throw e instanceof Blocked ? e : new Blocked(target, e);
        }
        if (Files.isRegularFile(target) && Files.getFileStore(tmp).supportsFileAttributeView(PosixFileAttributeView.class)) {
            Files.setPosixFilePermissions(tmp, Files.getPosixFilePermissions(target));
        }
        return tmp;
    }

    /** A second name for the file at {@code target} (a hard link, else a copy), to put it back if the run fails. */
    private static void keep(Path target, Path previous) throws IOException {
        try {
            Files.createLink(previous, target);
        } catch (UnsupportedOperationException | IOException e) {
            Files.copy(target, previous, StandardCopyOption.COPY_ATTRIBUTES, LinkOption.NOFOLLOW_LINKS);
        }
    }

    private static Path sibling(Path target, String suffix) {
        return target.resolveSibling("." + target.getFileName() + "." + Long.toHexString(RANDOM.nextLong() >>> 1) + suffix);
    }

    private static final SecureRandom RANDOM = new SecureRandom();

    /** A path that blocks the output: a folder where a file must go, a file where a folder must go, or a file that cannot be written. */
    public static class Blocked extends IOException {
        private final transient Path path;
        private final String reason;

        public Blocked(Path path, String reason) {
            super(path + ": " + reason);
            this.path = path;
            this.reason = reason;
        }

        Blocked(Path path, IOException cause) {
            this(path, reasonOf(cause));
            initCause(cause);
        }

        /** The absolute path that blocked. */
        public Path path() {
            return path;
        }

        /** Why, in words: "is a folder, not a file", "No space left on device". */
        public String reason() {
            return reason;
        }

        private static String reasonOf(IOException e) {
            if (e instanceof FileSystemException f && f.getReason() != null) return f.getReason();
            return e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
        }
    }

    /** A folder is needed where a file is. */
    public static final class FileNotAFolder extends Blocked {
        public FileNotAFolder(Path p) {
            super(p, "is a file, not a folder");
        }

        @Override
        public String getMessage() {
            return path() + " is a file, not a folder";
        }
    }

    public static boolean sameBytes(Path file, byte[] bytes) throws IOException {
        if (!Files.isRegularFile(file) || Files.size(file) != bytes.length) return false;
        return Arrays.equals(Files.readAllBytes(file), bytes);
    }

    /** Writes through a sibling and a rename, so readers never see half a file; the file gets a plain write's permissions. */
    public static void writeAtomically(Path target, byte[] bytes) throws IOException {
        Files.createDirectories(target.getParent());
        Path tmp = stage(target, bytes);
        try {
            Mover.FILES.move(tmp, target);
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

package io.prmkit.pipeline;

import io.prmkit.dsl.Diagnostic;
import io.prmkit.dsl.SourceFile;
import io.prmkit.dsl.SourceLocation;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Reads spec files and C headers the one way every front end does:
 * <ul>
 *   <li>a folder is walked for {@code *.prm} files, sorted by path;</li>
 *   <li>each file is read once, however often it is named (twice, or as a file and inside its folder);</li>
 *   <li>at most {@link #MAX_FILE_BYTES} bytes per file, also from devices and pipes;</li>
 *   <li>strict UTF-8: a bad byte is an error at its line and column; a leading BOM is dropped; a lone CR
 *       is a line break like LF and CRLF;</li>
 *   <li>every problem is an error {@link Diagnostic} naming the path, never an exception text.</li>
 * </ul>
 */
public final class Inputs {
    /** The size limit of one spec or header file: 8 MiB, about 28 times the kernel's mlx5_ifc.h. */
    public static final long MAX_FILE_BYTES = 8L << 20;

    private static final Pattern INCLUDE = Pattern.compile("(?m)^[ \\t]*#[ \\t]*include[ \\t]+\"([^\"]+)\"");

    private Inputs() {}

    /**
     * What was read: the raw files (for digests), their decoded text in the same order, and the
     * problems. A file with a problem is in neither list.
     */
    public record Read(List<InputFile> raw, List<SourceFile> files, List<Diagnostic> problems) {
        public Read {
            raw = List.copyOf(raw);
            files = List.copyOf(files);
            problems = List.copyOf(problems);
        }

        public boolean hasProblems() {
            return !problems.isEmpty();
        }
    }

    /** Spec files and folders of them, named in diagnostics as given (a file in folder {@code d} is {@code d/sub/x.prm}). */
    public static Read specs(List<Path> filesOrFolders) {
        return specs(filesOrFolders, Inputs::asGiven);
    }

    /** As {@link #specs(List)}, with the name of each file chosen by {@code display}. */
    public static Read specs(List<Path> filesOrFolders, Function<Path, String> display) {
        Reader r = new Reader(display);
        for (Path p : filesOrFolders) {
            if (Files.isDirectory(p)) {
                r.folder(p);
            } else {
                r.file(p);
            }
        }
        return r.result();
    }

    /**
     * C headers, each with the headers it {@code #include "x.h"}s from its own folder (those first),
     * which is the importer's rule; each file once.
     */
    public static Read headers(List<Path> headers, Function<Path, String> display) {
        Reader r = new Reader(display);
        for (Path h : headers) {
            r.header(h, new HashSet<>());
        }
        return r.result();
    }

    public static Read headers(List<Path> headers) {
        return headers(headers, Inputs::asGiven);
    }

    /**
     * Decodes one file: strict UTF-8, a leading BOM dropped, a lone CR turned into LF (so line numbers
     * agree with every editor). On a bad byte: an error at its line and column.
     */
    public static Decoded decode(InputFile in) {
        byte[] b = in.bytes();
        CharsetDecoder dec = StandardCharsets.UTF_8.newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT);
        ByteBuffer bytes = ByteBuffer.wrap(b);
        CharBuffer chars = CharBuffer.allocate(b.length + 1);
        CoderResult r = dec.decode(bytes, chars, true);
        if (!r.isError()) r = dec.flush(chars);
        if (r.isError()) {
            int at = bytes.position();
            int line = 1;
            int lineStart = 0;
            for (int i = 0; i < at; i++) {
                if (b[i] == '\n' || (b[i] == '\r' && (i + 1 >= b.length || b[i + 1] != '\n'))) {
                    line++;
                    lineStart = i + 1;
                }
            }
            // Columns count characters; the bytes before the bad one on its line are valid UTF-8.
            int column = new String(b, lineStart, at - lineStart, StandardCharsets.UTF_8).length() + 1;
            if (line == 1 && startsWithBom(b)) column--;
            return new Decoded(null, Diagnostic.error(new SourceLocation(in.name(), line, column),
                    String.format("not valid UTF-8 (byte 0x%02x)", b[at] & 0xff)), at);
        }
        chars.flip();
        String text = chars.toString();
        if (text.startsWith("\uFEFF")) text = text.substring(1);
        if (text.indexOf('\r') >= 0) text = text.replaceAll("\r(?!\n)", "\n");
        return new Decoded(new SourceFile(in.name(), text), null, -1);
    }

    /** Either a decoded file or the error that stopped it, with the offset of the bad byte (-1 when decoded). */
    public record Decoded(SourceFile file, Diagnostic problem, int badOffset) {
        public boolean ok() {
            return file != null;
        }
    }

    /**
     * Reads one file, at most {@link #MAX_FILE_BYTES} of it, or throws a {@link Problem} that says why
     * not in words (no such file, a folder, permission denied, a symbolic link loop, too large).
     */
    public static InputFile read(Path file, String name) throws Problem {
        try {
            if (Files.isDirectory(file)) throw new Problem(name, "is a folder, not a file");
            if (Files.isRegularFile(file) && Files.size(file) > MAX_FILE_BYTES) throw tooLarge(name);
            try (InputStream in = Files.newInputStream(file)) {
                return readBounded(in, name);
            }
        } catch (IOException e) {
            throw new Problem(name, reason(file, e));
        }
    }

    /** Reads a stream that has no path (standard input) as {@link #read(Path, String)} reads a file, limit included. */
    public static InputFile read(InputStream in, String name) throws Problem {
        try {
            return readBounded(in, name);
        } catch (IOException e) {
            String m = e.getMessage();
            throw new Problem(name, m == null || m.isBlank() ? "input/output error" : m);
        }
    }

    private static InputFile readBounded(InputStream in, String name) throws IOException, Problem {
        byte[] bytes = in.readNBytes((int) MAX_FILE_BYTES + 1);
        if (bytes.length > MAX_FILE_BYTES) throw tooLarge(name);
        return new InputFile(name, bytes);
    }

    /** A problem with one path, as an error diagnostic at that path. */
    public static final class Problem extends Exception {
        private final transient Diagnostic diagnostic;

        public Problem(String path, String message) {
            super(path + ": " + message, null, false, false);
            this.diagnostic = Diagnostic.error(new SourceLocation(path, 0, 0), message);
        }

        public Diagnostic diagnostic() {
            return diagnostic;
        }
    }

    private static Problem tooLarge(String name) {
        return new Problem(name, "larger than " + (MAX_FILE_BYTES >> 20) + " MiB, the limit for one input file"
                + " (real specs and headers are well under 1 MiB)");
    }

    /**
     * An I/O failure as {@code path: reason}: the path the failure names (else {@code fallback}) and
     * {@link #reason}, never a Java exception name.
     */
    public static String describe(IOException e, Path fallback) {
        Path p = e instanceof FileSystemException f && f.getFile() != null ? Path.of(f.getFile()) : fallback;
        return p + ": " + reason(p, e);
    }

    /** An I/O failure on {@code path} in words, without Java exception names (for reading and writing alike). */
    public static String reason(Path path, IOException e) {
        if (e instanceof OutputSync.FileNotAFolder f) {
            // OutputSync names the absolute path; the user gave this one, maybe relative
            return f.path().toAbsolutePath().normalize().equals(path.toAbsolutePath().normalize()) ? "is a file, not a folder" : f.getMessage();
        }
        Path loop = symbolicLinkLoop(path);
        if (loop != null) {
            // Whatever the call failed with (an existing non-folder, too many levels): the loop is what the user can fix.
            return loop.equals(path) ? "symbolic link loop" : asGiven(loop) + " is a symbolic link loop";
        }
        if (e instanceof NoSuchFileException) {
            if (Files.isSymbolicLink(path)) {
                try {
                    return "broken symbolic link (to " + Files.readSymbolicLink(path) + ")";
                } catch (IOException ignored) {
                    return "broken symbolic link";
                }
            }
            return "no such file or folder";
        }
        if (e instanceof AccessDeniedException) return "permission denied";
        if (e instanceof NotDirectoryException) return "a part of the path is a file, not a folder";
        if (e instanceof FileSystemException f) {
            String reason = f.getReason() == null ? "" : f.getReason();
            if (reason.contains("symbolic links")) return "symbolic link loop";
            if (reason.contains("Is a directory")) return "is a folder, not a file";
            if (reason.contains("Not a directory")) return "a part of the path is a file, not a folder";
            if (!reason.isEmpty()) return reason;
        }
        String m = e.getMessage();
        return m == null || m.isBlank() ? "input/output error" : m;
    }

    /** {@code path}, or the nearest of its parents, when it is a symbolic link that leads back to itself; else null. */
    private static Path symbolicLinkLoop(Path path) {
        for (Path p = path; p != null; p = p.getParent()) {
            if (!Files.isSymbolicLink(p)) continue;
            try {
                p.toRealPath();
            } catch (FileSystemException f) {
                if (f.getReason() != null && f.getReason().contains("symbolic links")) return p;
            } catch (IOException ignored) {
                // another problem: not a loop
            }
        }
        return null;
    }

    private static String asGiven(Path p) {
        return p.toString().replace('\\', '/');
    }

    private static boolean startsWithBom(byte[] b) {
        return b.length >= 3 && (b[0] & 0xff) == 0xef && (b[1] & 0xff) == 0xbb && (b[2] & 0xff) == 0xbf;
    }

    /** Collects files once each, by their real path. */
    private static final class Reader {
        private final Function<Path, String> display;
        private final Map<Object, InputFile> raw = new LinkedHashMap<>();
        private final List<SourceFile> files = new ArrayList<>();
        private final List<Diagnostic> problems = new ArrayList<>();

        Reader(Function<Path, String> display) {
            this.display = display;
        }

        void folder(Path dir) {
            List<Path> found;
            try (Stream<Path> walk = Files.walk(dir)) {
                found = walk.filter(f -> f.getFileName().toString().endsWith(".prm") && Files.isRegularFile(f)).sorted().toList();
            } catch (IOException | UncheckedIOException e) {
                IOException io = e instanceof UncheckedIOException u ? u.getCause() : (IOException) e;
                Path at = io instanceof FileSystemException f && f.getFile() != null ? Path.of(f.getFile()) : dir;
                problems.add(new Problem(display.apply(at), reason(at, io)).diagnostic());
                return;
            }
            if (found.isEmpty()) {
                problems.add(new Problem(display.apply(dir), "no .prm files in this folder").diagnostic());
                return;
            }
            for (Path f : found) file(f);
        }

        /** Reads and decodes one file unless it was read already; returns its real path key, or null on a problem. */
        Object file(Path p) {
            Object key = key(p);
            if (raw.containsKey(key)) return key;
            String name = display.apply(p);
            InputFile in;
            try {
                in = read(p, name);
            } catch (Problem e) {
                problems.add(e.diagnostic());
                return null;
            }
            Decoded d = decode(in);
            if (!d.ok()) {
                problems.add(d.problem());
                return null;
            }
            raw.put(key, in);
            files.add(d.file());
            return key;
        }

        void header(Path h, Set<Object> stack) {
            Object key = key(h);
            if (raw.containsKey(key) || !stack.add(key)) return;
            InputFile in;
            try {
                in = read(h, display.apply(h));
            } catch (Problem e) {
                problems.add(e.diagnostic());
                return;
            }
            // Includes are ASCII lines; a lossy decode is enough to find them.
            Matcher m = INCLUDE.matcher(new String(in.bytes(), StandardCharsets.ISO_8859_1));
            while (m.find()) {
                Path inc = h.resolveSibling(m.group(1)).normalize();
                if (Files.isRegularFile(inc)) header(inc, stack);
            }
            Decoded d = decode(in);
            if (!d.ok()) {
                problems.add(d.problem());
                return;
            }
            raw.put(key, in);
            files.add(d.file());
        }

        Read result() {
            return new Read(List.copyOf(raw.values()), files, problems);
        }

        private static Object key(Path p) {
            try {
                return p.toRealPath();
            } catch (IOException e) {
                return p.toAbsolutePath().normalize();
            }
        }
    }
}

package io.prmkit.cli;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Whether standard input was closed when prmkit started ({@code prmkit decode cqe64 <&-}). The
 * JVM then reuses descriptor 0 for a file it opens itself, its {@code lib/modules}, and reading
 * "standard input" reads that file (decode said "larger than 8 MiB"). On Linux
 * {@code /proc/self/fd/0} names what descriptor 0 holds; elsewhere this says nothing.
 */
final class StandardInput {
    private StandardInput() {}

    static boolean closedAtStart() {
        Path target;
        try {
            target = Files.readSymbolicLink(Path.of("/proc/self/fd/0"));
        } catch (IOException | UnsupportedOperationException | SecurityException e) {
            return false; // no /proc: nothing to tell
        }
        if (!target.isAbsolute()) return false; // pipe:[...], socket:[...]
        try {
            if (target.startsWith(Path.of(System.getProperty("java.home")).toRealPath())) return true;
        } catch (IOException e) {
            // java.home unreadable: check the class path alone
        }
        for (String entry : System.getProperty("java.class.path", "").split(File.pathSeparator)) {
            if (!entry.isEmpty() && target.equals(Path.of(entry).toAbsolutePath().normalize())) return true;
        }
        return false;
    }
}

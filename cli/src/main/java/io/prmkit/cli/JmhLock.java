package io.prmkit.cli;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * JMH lets one run at a time hold {@code <java.io.tmpdir>/jmh.lock} and otherwise fails with a
 * RunnerException meant for its own command line. {@code prmkit bench} asks first, so a busy lock
 * is a one-line message before anything is built, not an internal error after.
 */
final class JmhLock {
    private JmhLock() {}

    /** Where JMH 1.37 locks ({@code Runner.JMH_LOCK_FILE}); tests point the bench command elsewhere. */
    static Path defaultFile() {
        return Path.of(System.getProperty("java.io.tmpdir"), "jmh.lock");
    }

    /** Whether another run (another process, or this JVM) holds the lock on {@code file} now. */
    static boolean held(Path file) {
        if (Boolean.getBoolean("jmh.ignoreLock")) return false; // JMH skips its lock then too
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE)) {
            FileLock lock = ch.tryLock();
            if (lock == null) return true;
            lock.release();
            return false;
        } catch (OverlappingFileLockException e) {
            return true;
        } catch (IOException e) {
            return false; // cannot tell; JMH will say what is wrong with the file
        }
    }

    /**
     * Takes the lock for a run that is not JMH's (the loopback case), so it neither runs beside a JMH
     * run nor lets one start beside it; null when another run holds it. Closing the channel releases it.
     */
    static FileChannel take(Path file) {
        try {
            FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
            try {
                if (ch.tryLock() != null) return ch;
            } catch (OverlappingFileLockException e) {
                // held by this JVM
            }
            ch.close();
            return null;
        } catch (IOException e) {
            return null;
        }
    }

    static String message(Path file) {
        return "another benchmark run (JMH) holds " + file + "; wait for it to finish, then run prmkit bench again";
    }
}

package io.prmkit.driver.core;

import java.util.function.Consumer;

/** Undoing a half-built object: a device, a port, a queue whose set-up failed part way. */
public final class Unwind {
    private Unwind() {
    }

    /**
     * Finishes building {@code object} with {@code finish} and returns it; when that fails, closes the
     * object (which undoes what was built so far) and throws the failure, with any failure of the close
     * suppressed in it.
     */
    public static <T extends AutoCloseable> T finishOrClose(T object, Consumer<? super T> finish) {
        try {
            finish.accept(object);
            return object;
        } catch (RuntimeException e) {
            try {
                object.close();
            } catch (Exception s) {
                e.addSuppressed(s);
            }
            throw e;
        }
    }
}

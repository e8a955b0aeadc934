package io.prmkit.platform;

/**
 * A function's MSI-X vectors. The device signals vector {@code n} (for mlx5, when an EQ bound to it
 * gets an event and is armed); the back end calls the handler bound to {@code n} on a thread of its
 * own (a device model in step mode: inside its {@code step()}), never inside the driver's MMIO
 * store that rang a doorbell, and never concurrently with itself for the same vector. A handler must be short: read the EQ, re-arm it, return.
 */
public interface Interrupts {

    /** Number of vectors the function has (vectors are {@code 0 .. count() - 1}). */
    int count();

    /**
     * Binds {@code handler} to {@code vector}, replacing any earlier one; {@code null} unbinds. An
     * interrupt on a vector with no handler is counted and dropped.
     */
    void bind(int vector, InterruptHandler handler);

    @FunctionalInterface
    interface InterruptHandler {
        void interrupt(int vector);
    }
}

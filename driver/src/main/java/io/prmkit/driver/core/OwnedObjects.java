package io.prmkit.driver.core;

import io.prmkit.driver.Mlx5Exception;
import java.util.ArrayDeque;
import java.util.Deque;

/**
 * What a device owns on its user's behalf (ports, with their queues and pools): closed by the device
 * before its own teardown, last attached first. Shared by {@link Mlx5Device} and the DEVX device.
 */
public final class OwnedObjects {

    private final Deque<AutoCloseable> objects = new ArrayDeque<>();

    public synchronized void add(AutoCloseable o) {
        objects.push(o);
    }

    public synchronized void remove(AutoCloseable o) {
        objects.remove(o);
    }

    /** The most recently added object still owned, removed; null when none is left. */
    public synchronized AutoCloseable poll() {
        return objects.poll();
    }

    /** Closes {@code o}: a checked exception comes back as an {@link Mlx5Exception} naming it. */
    public static void close(AutoCloseable o) {
        try {
            o.close();
        } catch (RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new Mlx5Exception("closing " + o + ": " + e.getMessage(), e);
        }
    }
}

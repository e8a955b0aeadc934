package io.prmkit.softhca;

import io.prmkit.platform.Interrupts;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReferenceArray;

/** MSI-X vectors of the soft function; {@link #raise} runs on the device side (device thread or step()). */
final class SoftInterrupts implements Interrupts {
    private final AtomicReferenceArray<InterruptHandler> handlers;
    private final AtomicLong dropped = new AtomicLong();
    private final AtomicLong raised = new AtomicLong();
    private final AtomicLong handlerFailures = new AtomicLong();

    /** Non-null: the bus signals vectors itself (a polled bus's MSI-X); handlers are not used. */
    private final java.util.function.IntConsumer bus;

    SoftInterrupts(int count, java.util.function.IntConsumer bus) {
        handlers = new AtomicReferenceArray<>(count);
        this.bus = bus;
    }

    @Override
    public int count() {
        return handlers.length();
    }

    @Override
    public void bind(int vector, InterruptHandler handler) {
        if (vector < 0 || vector >= handlers.length()) {
            throw new IllegalArgumentException("vector " + vector + " outside 0.." + (handlers.length() - 1));
        }
        handlers.set(vector, handler);
    }

    void raise(int vector) {
        raised.incrementAndGet();
        if (bus != null) {
            bus.accept(vector);
            return;
        }
        InterruptHandler h = vector >= 0 && vector < handlers.length() ? handlers.get(vector) : null;
        if (h == null) {
            dropped.incrementAndGet();
            return;
        }
        try {
            h.interrupt(vector);
        } catch (RuntimeException e) {
            // A failing handler is the driver's bug; the device carries on.
            handlerFailures.incrementAndGet();
        }
    }

    long handlerFailures() {
        return handlerFailures.get();
    }

    long raised() {
        return raised.get();
    }

    long dropped() {
        return dropped.get();
    }
}

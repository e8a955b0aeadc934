package io.prmkit.driver.core;

import io.prmkit.driver.cmd.CommandTrace;
import io.prmkit.softhca.SoftHca;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BooleanSupplier;
import java.util.concurrent.locks.LockSupport;

/** A soft HCA on its own thread plus driver options for tests: short timeouts, a recorded trace. */
final class SoftHcaFixture {

    final List<String> trace = new CopyOnWriteArrayList<>();

    static SoftHca.Options device() {
        return new SoftHca.Options();
    }

    /** Options for tests: 5 s command timeout, health polled every 20 ms (heartbeat check off: the
     * device thread may be starved on a busy machine), the trace recorded. */
    DeviceOptions options() {
        return DeviceOptions.defaults()
                .withCommandTimeout(Duration.ofSeconds(5))
                .withHealth(Duration.ofMillis(20), 0)
                .withTrace(CommandTrace.lines(trace::add, false));
    }

    /** Waits until {@code done} holds, at most {@code seconds}; returns whether it did. */
    static boolean await(BooleanSupplier done, int seconds) {
        long deadline = System.nanoTime() + Duration.ofSeconds(seconds).toNanos();
        while (!done.getAsBoolean()) {
            if (System.nanoTime() - deadline > 0) return false;
            LockSupport.parkNanos(1_000_000);
        }
        return true;
    }
}

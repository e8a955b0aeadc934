package io.prmkit.driver.core;

import io.prmkit.driver.cmd.DeviceFatalException;
import io.prmkit.driver.cmd.InitSegment;
import io.prmkit.mlx5.HealthSyndrome;
import io.prmkit.mlx5.NicInterfaceMode;
import java.time.Duration;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;

/**
 * PRM "Health Buffer" polling, as Linux's health.c does it: read the health counter and buffer every
 * interval; the device is fatal when the health syndrome is set, the PCI link reads all ones, the
 * firmware reports nic_interface DISABLED or SW_RESET, or the counter has not moved for
 * {@code misses} polls. The first fatal finding is reported once to {@code onFatal}.
 */
final class HealthMonitor implements AutoCloseable {

    private final InitSegment iseg;
    private final long intervalNanos;
    private final int misses;
    private final Consumer<DeviceFatalException> onFatal;
    private final Thread thread;
    private volatile boolean stop;
    private int lastCounter = -1;
    private int unchanged;
    private volatile DeviceFatalException fatal;

    HealthMonitor(String name, InitSegment iseg, Duration interval, int misses, Consumer<DeviceFatalException> onFatal) {
        this.iseg = iseg;
        this.intervalNanos = interval.toNanos();
        this.misses = misses;
        this.onFatal = onFatal;
        this.thread = new Thread(this::run, "mlx5-health-" + name);
        thread.setDaemon(true);
    }

    void start() {
        thread.start();
    }

    private void run() {
        while (!stop && fatal == null) {
            LockSupport.parkNanos(this, intervalNanos);
            if (stop) return;
            DeviceFatalException f = check();
            if (f != null) {
                fatal = f;
                onFatal.accept(f);
            }
        }
    }

    /** One poll; returns the fatal finding or null. */
    DeviceFatalException check() {
        InitSegment.HealthSample s = iseg.health();
        if (s.fwVersion() == -1)
            return new DeviceFatalException("device fatal: PCI link lost (health buffer fw_version reads 0xffffffff)");
        int synd = s.syndrome();
        if (synd != 0)
            return new DeviceFatalException("device fatal: health syndrome " + HealthSyndrome.describe(synd) + ", ext_synd 0x"
                    + Integer.toHexString(s.extSyndrome()) + (s.resetRequested() ? ", firmware requests a reset" : ""));
        if (s.nicInterface() == NicInterfaceMode.DISABLED.value || s.nicInterface() == NicInterfaceMode.SW_RESET.value)
            return new DeviceFatalException("device fatal: init_seg.nic_interface reads " + NicInterfaceMode.nameOf(s.nicInterface()));
        if (misses > 0) {
            if (s.counter() == lastCounter) {
                if (++unchanged >= misses)
                    return new DeviceFatalException("device fatal: health counter stuck at " + s.counter() + " for " + unchanged
                            + " polls (firmware heartbeat stopped)");
            } else {
                unchanged = 0;
                lastCounter = s.counter();
            }
        }
        return null;
    }

    DeviceFatalException fatal() {
        return fatal;
    }

    /** Stops the poller and waits (bounded) for its thread. */
    @Override
    public void close() {
        stop = true;
        LockSupport.unpark(thread);
        try {
            thread.join(5_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}

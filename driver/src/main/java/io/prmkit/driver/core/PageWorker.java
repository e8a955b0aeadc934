package io.prmkit.driver.core;

import io.prmkit.driver.Mlx5Exception;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * Answers page-request events (EQE PAGE_REQUEST) off the interrupt thread: a positive count is
 * given with MANAGE_PAGES ALLOCATION_SUCCESS (or ALLOCATION_FAIL when the pages cannot be had), a
 * negative count is taken back with HCA_RETURN_PAGES. One thread per device, stopped by close().
 */
public final class PageWorker implements AutoCloseable {

    private static final int STOP = Integer.MIN_VALUE;

    private final FirmwarePages pages;
    private final LinkedBlockingQueue<Integer> requests = new LinkedBlockingQueue<>();
    private final Thread thread;
    private volatile Mlx5Exception lastError;
    private final java.util.concurrent.atomic.AtomicLong requested = new java.util.concurrent.atomic.AtomicLong();
    private volatile long handled;

    PageWorker(String name, FirmwarePages pages) {
        this.pages = pages;
        this.thread = new Thread(this::run, "mlx5-pages-" + name);
        thread.setDaemon(true);
        thread.start();
    }

    /** Called from the EQ handler with the EQE's signed num_pages. */
    void request(int numPages) {
        if (numPages == 0 || numPages == STOP) return;
        requested.incrementAndGet();
        requests.add(numPages);
    }

    private void run() {
        while (true) {
            int n;
            try {
                n = requests.take();
            } catch (InterruptedException e) {
                return;
            }
            if (n == STOP) return;
            try {
                if (n > 0) pages.give(n);
                else pages.reclaim(-n);
            } catch (Mlx5Exception e) {
                lastError = e;
            }
            handled++;
        }
    }

    /** Page requests answered so far (successfully or not). */
    public long handled() {
        return handled;
    }

    /** The last page request that failed (e.g. answered with ALLOCATION_FAIL), or null. */
    public Mlx5Exception lastError() {
        return lastError;
    }

    /** True when no request is queued or running (for tests: wait on this, bounded). */
    public boolean idle() {
        return handled == requested.get();
    }

    @Override
    public void close() {
        requests.clear();
        requests.add(STOP);
        try {
            thread.join(TimeUnit.SECONDS.toMillis(5));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
